#!/usr/bin/env bash
# Run the whole test suite, setting up .venv and the Debian packages for the
# screen tests (xvfb, xdotool) and the fleet's (redis-server) first if needed.
# Options go to pytest. The tests run on every core (pytest-xdist, one worker
# per core, each with its own screen, ports, user folders and Redis: see
# tests/README.md); give -n 0 to run them in this one process (as --pdb needs),
# or -n N for N workers.
source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
ensure_venv "test"
ensure_debian_packages
cd "$ROOT"
# Every worker, window and server the tests start is a Python process of its own: they share compiled
# modules (in __pycache__, which git ignores) even where the environment asks Python to write none.
unset PYTHONDONTWRITEBYTECODE
workers=(-n auto --dist worksteal)
for arg in "$@"; do
    case "$arg" in
        -n|-n*|--numprocesses|--numprocesses=*|no:xdist|--pdb|--trace) workers=() ;;
    esac
done
exec "$VENV/bin/python" -m pytest "${workers[@]}" "$@"
