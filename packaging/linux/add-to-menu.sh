#!/bin/sh
# Puts Villa Paletti in the desktop's application menu: the desktop entry, pointing at this
# folder's villa-paletti, and the icon, both in your own folders (no root needed).
#     ./add-to-menu.sh            add (run it again after moving this folder)
#     ./add-to-menu.sh --remove   take it out again
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
entry="$data/applications/villa-paletti.desktop"
sizes="16 32 48 64 128 256"

if [ "${1:-}" = "--remove" ]; then
    rm -f "$entry"
    for size in $sizes; do
        rm -f "$data/icons/hicolor/${size}x${size}/apps/villa-paletti.png"
    done
    echo "Villa Paletti is no longer in the menu."
    exit 0
fi

# Exec takes the path in double quotes (spaces are fine); the rare characters that would
# need escaping there are refused rather than guessed at.
case "$here" in
    *[\\\"\`\$]*) echo "add-to-menu.sh: move this folder to a path without \\ \" \` or \$ first" >&2; exit 2 ;;
esac

for size in $sizes; do
    mkdir -p "$data/icons/hicolor/${size}x${size}/apps"
    cp "$here/icons/villa-paletti-$size.png" "$data/icons/hicolor/${size}x${size}/apps/villa-paletti.png"
done
mkdir -p "$data/applications"
while IFS= read -r line; do
    case "$line" in
        Exec=*) printf 'Exec="%s/villa-paletti"\n' "$here" ;;
        *) printf '%s\n' "$line" ;;
    esac
done < "$here/villa-paletti.desktop" > "$entry"
echo "Villa Paletti is in the menu (games): $entry"
