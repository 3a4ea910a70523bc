# Shared by scripts/play.sh and scripts/test.sh: make sure the project's virtual
# environment exists and matches pyproject.toml, creating or updating it if not.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3}"

ensure_venv() {
    local extras="$1"   # "" for playing, "test" for the test suite
    local base="$VENV/.installed-$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)"
    local stamp="$base-${extras:-play}"
    [ -z "$extras" ] && [ -f "$base-test" ] && stamp="$base-test"    # the tests' packages include the game's
    if [ ! -x "$VENV/bin/python" ]; then
        echo "Creating the virtual environment in .venv ..."
        "$PYTHON" -m venv "$VENV"
    fi
    if [ ! -f "$stamp" ]; then
        echo "Installing the game's Python packages ..."
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
        if [ -n "$extras" ]; then
            "$VENV/bin/python" -m pip install --quiet -e "$ROOT[$extras]"
        else
            "$VENV/bin/python" -m pip install --quiet -e "$ROOT"
        fi
        touch "$stamp"
    fi
}

# Debian packages the tests need: a virtual screen and a mouse driver for the window's tests, a Redis
# server of their own for the tests of a fleet of game servers, a home's router (miniupnpd on nftables, in
# network namespaces made with iproute2), and the desktop's clipboard and link handling (xclip, xdg-utils, gio).
have() {   # a program on the PATH, or in the system's folders a user's PATH may leave out
    command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]
}

ensure_debian_packages() {
    local missing=()
    have Xvfb || missing+=(xvfb)
    have xdotool || missing+=(xdotool)
    have redis-server || missing+=(redis-server)
    have miniupnpd || missing+=(miniupnpd-nftables)
    have nft || missing+=(nftables)
    have ip || missing+=(iproute2)
    have xclip || missing+=(xclip)
    have xdg-mime || missing+=(xdg-utils)
    have gio || missing+=(libglib2.0-bin)
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing Debian packages: ${missing[*]} ..."
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
