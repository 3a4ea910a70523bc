#!/usr/bin/env bash
# Launch Villa Paletti, setting up .venv first if needed. Options go to the game
# (see: scripts/play.sh --help).
#     scripts/play.sh --add-to-menu        put this checkout in the desktop's menu; it opens invites too
#     scripts/play.sh --remove-from-menu   take it out again
source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"
ensure_venv ""
case "${1:-}" in
    --add-to-menu)
        exec sh "$ROOT/packaging/linux/add-to-menu.sh" --program "$ROOT/scripts/play.sh" --icons "$ROOT/icons" ;;
    --remove-from-menu)
        exec sh "$ROOT/packaging/linux/add-to-menu.sh" --remove ;;
esac
exec "$VENV/bin/python" -m villa "$@"
