#!/usr/bin/env bash
# Launch Villa Paletti, setting up .venv first if needed. Options go to the game
# (see: scripts/play.sh --help).
source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
ensure_venv ""
exec "$VENV/bin/python" -m villa "$@"
