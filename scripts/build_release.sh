#!/usr/bin/env bash
# Build the standalone game with Panda3D's build_apps for Linux, Windows and macOS, pack each
# into dist/, print the sizes, and test the Linux game: unpacked in a clean folder, started
# with no Python anywhere on the PATH, it must draw a picture and play.
#
#     scripts/build_release.sh                  # every platform, then the Linux test
#     scripts/build_release.sh linux macos      # some of them (linux, windows, macos)
#     scripts/build_release.sh --no-test ...    # without the test
#
# Work files go to build/ (the wheels build_apps downloads are kept there for the next run),
# archives to dist/; the version is pyproject.toml's. A full build (every platform) that passes the
# Linux test is recorded in packaging/release-build.json: commit it with the change to setup.py.
source "$(dirname "${BASH_SOURCE[0]}")/_env.sh"

test_linux=1
systems=()
for arg in "$@"; do
    case "$arg" in
        --no-test) test_linux=0 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) systems+=("$arg") ;;
    esac
done

ensure_venv "test"
cd "$ROOT"
# the Linux game's stand-ins (for Cg, libtiff and OpenJPEG) are compiled and checked with a C compiler and binutils
# (scripts/release.py)
if ! command -v cc >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1; then
    echo "Installing Debian packages: gcc binutils ..."
    sudo_=""; [ "$(id -u)" -eq 0 ] || sudo_="sudo"
    $sudo_ apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq gcc binutils >/dev/null
fi
PY="$VENV/bin/python"
"$PY" -c "import setuptools" 2>/dev/null || "$PY" -m pip install --quiet setuptools

platforms="$("$PY" scripts/release.py platforms "${systems[@]}")"
started=$SECONDS
"$PY" scripts/release.py requirements
echo "Building $platforms with build_apps (output in build/build_apps.log) ..."
if ! "$PY" setup.py build_apps --platforms "$platforms" > build/build_apps.log 2>&1; then
    grep -v -e '^copying ' -e '^skipping ' build/build_apps.log | tail -25
    echo "build_release: build_apps failed (details above and in build/build_apps.log)" >&2
    exit 1
fi
"$PY" scripts/release.py pack ${platforms//,/ } --log build/build_apps.log
built=$((SECONDS - started))
echo "built in $built s"

if [[ $test_linux == 1 && ",$platforms," == *",manylinux"* ]]; then
    ensure_debian_packages
    version="$("$PY" -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')"
    archive="$ROOT/dist/villa-paletti-$version-linux-x86_64.tar.gz"
    echo "Testing the Linux game from $archive ..."
    VILLA_RELEASE_ARCHIVE="$archive" "$PY" -m pytest -q -s -p no:cacheprovider -m slow tests/test_release.py
    if [[ ${#systems[@]} == 0 ]]; then
        "$PY" scripts/release.py record --seconds "$built"
    fi
fi
