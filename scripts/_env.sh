# Shared by scripts/play.sh and scripts/test.sh: make sure the project's virtual
# environment exists and matches pyproject.toml, creating or updating it if not.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3}"

ensure_venv() {
    local extras="$1"   # "" for playing, "test" for the test suite
    local stamp="$VENV/.installed-$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)-${extras:-play}"
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

# Debian packages the tests need: a virtual screen and a mouse driver for the window's tests, and a Redis
# server of their own for the tests of a fleet of game servers (with its command line, which makes a Cluster).
ensure_debian_packages() {
    local missing=()
    command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
    command -v xdotool >/dev/null 2>&1 || missing+=(xdotool)
    command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
    command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)     # (a Redis Cluster made for the fleet's tests)
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing Debian packages: ${missing[*]} ..."
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
