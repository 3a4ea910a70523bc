#!/usr/bin/env bash
# Run the whole test suite, setting up .venv and the Debian packages for the
# screen tests (xvfb, xdotool) first if needed. Options go to pytest.
source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
ensure_venv "test"
ensure_debian_packages
cd "$ROOT"
exec "$VENV/bin/python" -m pytest "$@"
