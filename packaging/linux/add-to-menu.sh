#!/bin/sh
# Puts Villa Paletti in the desktop's application menu: the desktop entry, pointing at this
# folder's villa-paletti, and the icon, both in your own folders (no root needed). The entry
# also opens invites: a villa-paletti:// link clicked in a chat starts the game in its room.
#     ./add-to-menu.sh            add (run it again after moving this folder)
#     ./add-to-menu.sh --remove   take it out again
# (scripts/play.sh --add-to-menu runs it for a checkout, with --program and --icons.)
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
program="$here/villa-paletti"
icons="$here/icons"
remove=""
while [ $# -gt 0 ]; do
    case "$1" in
        --remove) remove=1 ;;
        --program) program="$2"; shift ;;
        --icons) icons="$2"; shift ;;
        *) echo "add-to-menu.sh: unknown option $1 (--remove, --program PATH, --icons FOLDER)" >&2; exit 2 ;;
    esac
    shift
done
data="${XDG_DATA_HOME:-$HOME/.local/share}"
config="${XDG_CONFIG_HOME:-$HOME/.config}"
entry="$data/applications/villa-paletti.desktop"
scheme="x-scheme-handler/villa-paletti"
sizes="16 32 48 64 128 256"

if [ -n "$remove" ]; then
    rm -f "$entry"
    for size in $sizes; do
        rm -f "$data/icons/hicolor/${size}x${size}/apps/villa-paletti.png"
    done
    # the invites' link no longer opens a game that is gone (the line xdg-mime wrote)
    if [ -f "$config/mimeapps.list" ]; then
        sed -i "\|^$scheme=villa-paletti.desktop;\{0,1\}\$|d" "$config/mimeapps.list"
    fi
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$data/applications" || true
    echo "Villa Paletti is no longer in the menu."
    exit 0
fi

# Exec takes the path as it is, or in double quotes where it has a space or another character the
# desktop entry's rules reserve (xdg-open without a desktop reads only the first kind); the rare
# characters that would need escaping even there are refused rather than guessed at.
case "$program" in
    *[\\\"\`\$%]*) echo "add-to-menu.sh: move the game to a path without \\ \" \` \$ or % first" >&2; exit 2 ;;
    *[\ \	\'\<\>~\|\&\;\*\?\#\(\)]*) exec_line="Exec=\"$program\" %u" ;;
    *) exec_line="Exec=$program %u" ;;
esac

for size in $sizes; do
    mkdir -p "$data/icons/hicolor/${size}x${size}/apps"
    cp "$icons/villa-paletti-$size.png" "$data/icons/hicolor/${size}x${size}/apps/villa-paletti.png"
done
mkdir -p "$data/applications"
while IFS= read -r line; do
    case "$line" in
        Exec=*) printf '%s\n' "$exec_line" ;;
        *) printf '%s\n' "$line" ;;
    esac
done < "$here/villa-paletti.desktop" > "$entry"
# invites: the desktop hands villa-paletti:// links to this entry
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$data/applications" || true
if command -v xdg-mime >/dev/null 2>&1; then
    xdg-mime default villa-paletti.desktop "$scheme"
else
    mkdir -p "$config"
    touch "$config/mimeapps.list"
    grep -q '^\[Default Applications\]' "$config/mimeapps.list" || printf '[Default Applications]\n' >> "$config/mimeapps.list"
    sed -i "\|^$scheme=|d" "$config/mimeapps.list"
    sed -i "/^\[Default Applications\]/a $scheme=villa-paletti.desktop" "$config/mimeapps.list"
fi
echo "Villa Paletti is in the menu (games), and opens invites: $entry"
