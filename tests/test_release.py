"""The standalone game: what build_apps is told to ship, where the built game finds its files,
and (marked slow, run by scripts/build_release.sh) the built Linux game itself.

The slow tests take the archive named by VILLA_RELEASE_ARCHIVE, unpack it in a clean folder
and start it with no Python on the PATH and no virtual environment; without that variable
they are skipped, so the default suite never needs a build.
"""

from __future__ import annotations

import importlib.util
import json
import os
import plistlib
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
import redis
from setuptools import Distribution

import villa
from villa.app import frozen
from villa.online.client import Player
from villa.online.fleet import redis_keys as keys
from villa.online.protocol import Online
from villa.presentation import assets
from tests.servers import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[1]


def _build_config() -> dict:
    """setup.py's options, read without running setup()."""
    namespace: dict = {"__name__": "release_config"}
    exec(compile((ROOT / "setup.py").read_text(), "setup.py", "exec"), namespace)
    return namespace


CONFIG = _build_config()
OPTIONS = CONFIG["BUILD_APPS"]


@pytest.fixture
def release(monkeypatch):
    """scripts/release.py: the steps of the build around build_apps."""
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import release
    return release


def test_the_game_says_the_version_pyproject_gives_the_build():
    with open(ROOT / "pyproject.toml", "rb") as file:
        assert villa.__version__ == tomllib.load(file)["project"]["version"]


def test_every_file_the_game_reads_is_shipped():
    folders = [assets.TEXTURES, assets.MODELS, assets.SOUNDS, assets.FONTS, assets.ICONS, assets.LOCALE]
    wanted = [p for folder in folders if folder.is_dir() for p in folder.rglob("*")
              if p.is_file() and p.suffix not in (".po", ".pot")]
    assert len(wanted) > 20
    for path in wanted:
        relative = path.relative_to(ROOT)
        assert any(relative.match(pattern) for pattern in CONFIG["ASSETS"]), f"{relative} would not be shipped"
    assert any(path.parent == assets.MODELS and path.suffix == ".bam" for path in wanted), "the pieces' models"


def test_the_build_takes_the_entry_point_the_plugins_and_pypi_alone():
    options = CONFIG["BUILD_APPS"]
    assert options["gui_apps"] == {assets.APP_NAME: "villa/__main__.py"}
    assert options["console_apps"] == {frozen.SERVER_PROGRAM: "villa/app/dedicated.py"}
    assert set(options["plugins"]) == {"pandagl", "p3openal_audio"}
    assert options["use_optimized_wheels"] is False and options["pypi_extra_indexes"] == []
    assert {"manylinux2014_x86_64", "win_amd64"} <= set(CONFIG["PLATFORMS"])
    assert any(p.startswith("macosx") for p in CONFIG["PLATFORMS"])
    for icon in options["icons"][assets.APP_NAME]:
        assert (ROOT / icon).is_file()


# Everything setup.py names for build_apps to ship: each must still be in the checkout (a file pattern that
# matches nothing, a module that is gone, would ship a game without them, and only a full build would tell).
SHIPPED = ([("files", pattern) for pattern in CONFIG["ASSETS"]]
           + [("module", module) for modules in OPTIONS["include_modules"].values() for module in modules]
           + [("program", script) for apps in ("gui_apps", "console_apps") for script in OPTIONS[apps].values()]
           + [("icon", icon) for icons in OPTIONS["icons"].values() for icon in icons])


@pytest.mark.parametrize("kind, name", SHIPPED, ids=[name for _kind, name in SHIPPED])
def test_everything_setup_py_ships_is_in_the_checkout(kind, name):
    if kind == "files":
        assert any(ROOT.glob(name)), f"setup.py ships {name}, which matches no file of the checkout"
    elif kind == "module":
        assert importlib.util.find_spec(name) is not None, f"setup.py has build_apps take {name}, which is gone"
    else:
        assert (ROOT / name).is_file(), f"setup.py names {name}, which is not in the checkout"
    if kind == "program":   # build_apps runs it as __main__
        text = (ROOT / name).read_text()
        assert name.endswith("__main__.py") or 'if __name__ == "__main__":' in text, f"{name} starts nothing"


def _python_without_panda3d() -> str | None:
    """The interpreter the virtual environment was made from, when it has setuptools and no Panda3D."""
    python = Path(sys.base_prefix) / "bin" / "python3"
    found = subprocess.run([str(python), "-c", "import setuptools, importlib.util as u; "
                            "print(u.find_spec('direct') is None)"], capture_output=True, text=True, timeout=60) \
        if python.is_file() else None
    return str(python) if found and found.stdout.strip() == "True" else None


def test_pip_runs_setup_py_before_panda3d_is_installed():
    """setuptools runs setup.py to install the game (scripts/test.sh, scripts/play.sh) in a build environment
    that has no Panda3D yet: it must run there all the same."""
    python = _python_without_panda3d()
    if python is None:
        pytest.skip("no Python with setuptools and without Panda3D on this machine")
    done = subprocess.run([python, "setup.py", "--name"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().endswith("villa-paletti"), done.stderr[-2000:]


def test_setup_py_gives_build_apps_what_the_last_full_build_was_given(release):
    """packaging/release-build.json holds what the last full build that passed its test was given: a change
    to setup.py's options or to the game's dependencies needs a new one (scripts/build_release.sh)."""
    recorded, now = json.loads(release.RECORD.read_text())["given"], release.given()
    options = set(recorded["build_apps"]) | set(now["build_apps"])
    changed = sorted(k for k in options if recorded["build_apps"].get(k) != now["build_apps"].get(k))
    changed += ["the dependencies"] if recorded["requirements"] != now["requirements"] else []
    assert not changed, (f"build_apps is given what no full build was ({', '.join(changed)}): run "
                         f"scripts/build_release.sh for every platform and commit {release.RECORD.relative_to(ROOT)}")


def test_the_last_full_build_packed_every_platform(release):
    archives = json.loads(release.RECORD.read_text())["archives"]
    assert set(archives) == {release.target(p).label for p in CONFIG["PLATFORMS"]}


def test_a_macos_bundle_keeps_its_programs_its_libraries_and_its_files_apart(tmp_path, release):
    """As macOS expects, with the server beside the game: build_apps' own bundling is run on a build of
    stand-ins (every Mach-O binary starts with its magic number)."""
    command = CONFIG["BuildApps"](Distribution())
    command.gui_apps, command.console_apps = dict(OPTIONS["gui_apps"]), dict(OPTIONS["console_apps"])
    command.macos_main_app, command.icon_objects = assets.APP_NAME, {}
    mach_o = b"\xcf\xfa\xed\xfe" + bytes(28)
    programs = [*OPTIONS["gui_apps"], *OPTIONS["console_apps"]]
    for name in [*programs, "libpanda.1.10.dylib", "panda3d.core.so"]:
        (tmp_path / name).write_bytes(mach_o)
    (tmp_path / "textures").mkdir()
    (tmp_path / "textures" / "wood_table.jpg").write_bytes(b"a picture")
    command.bundle_macos_app(str(tmp_path))
    platform = release.target("macosx_11_0_arm64")
    _, data, binaries = release.app_folders(tmp_path, platform)
    assert [p.name for p in release.programs(tmp_path, platform)] == programs
    assert sorted(p.name for p in release.programs(tmp_path, platform)[0].parent.iterdir()) == sorted(programs)
    assert sorted(p.name for p in binaries.iterdir()) == ["libpanda.1.10.dylib", "panda3d.core.so"]
    assert sorted(p.name for p in data.iterdir()) == ["textures"]


def test_the_macos_app_declares_the_invites_scheme_with_its_name_version_and_identifier(tmp_path, release):
    """build_apps' own bundling, then the release's: Info.plist as the packed app has it (Apple's own format,
    read back with plistlib)."""
    command = CONFIG["BuildApps"](Distribution())
    command.gui_apps, command.console_apps = dict(OPTIONS["gui_apps"]), dict(OPTIONS["console_apps"])
    command.macos_main_app, command.icon_objects = assets.APP_NAME, {}
    for name in [*OPTIONS["gui_apps"], *OPTIONS["console_apps"]]:
        (tmp_path / name).write_bytes(b"#!/bin/sh\n")      # no Mach-O: no signature to seal again
    command.bundle_macos_app(str(tmp_path))
    bundle = release.macos_bundle(tmp_path, "9.8.7")
    with open(bundle / "Contents" / "Info.plist", "rb") as file:
        info = plistlib.load(file)
    assert_declares_invites(info)
    assert (bundle.name, info["CFBundleVersion"], info["CFBundleExecutable"]) == (
        "Villa Paletti.app", "9.8.7", assets.APP_NAME)


def assert_declares_invites(info: dict) -> None:
    """Info.plist opens villa-paletti:// links with the app: a URL type of that scheme, and an identifier for
    macOS to know the app by."""
    schemes = [scheme for kind in info.get("CFBundleURLTypes", []) for scheme in kind.get("CFBundleURLSchemes", [])]
    assert schemes == ["villa-paletti"], info.get("CFBundleURLTypes")
    assert info["CFBundleIdentifier"] == "org.villa-paletti.game"


@pytest.mark.slow
def test_each_built_macos_app_declares_the_invites_scheme():
    """The apps in dist/ as the last build packed them (skipped where nothing for macOS was built here)."""
    apps = sorted((ROOT / "dist").glob("villa-paletti-*-macos-*.zip"))
    if not apps:
        pytest.skip("no macOS app in dist/ (scripts/build_release.sh macos builds them)")
    for app in apps:
        with zipfile.ZipFile(app) as archive:
            plist = next(name for name in archive.namelist() if name.endswith(".app/Contents/Info.plist"))
            assert_declares_invites(plistlib.loads(archive.read(plist)))


def test_on_linux_the_server_is_a_link_to_the_games_executable(tmp_path, release):
    """The two would each hold an interpreter and every module: the game's program is the server too when
    started by the server's name."""
    linux = release.target("manylinux2014_x86_64")
    game, server = release.programs(tmp_path, linux)
    game.write_bytes(b"the game")
    server.write_bytes(b"the same again")
    release.linux_one_executable(tmp_path, linux)
    assert server.is_symlink() and os.readlink(server) == game.name and server.read_bytes() == b"the game"
    release.linux_one_executable(tmp_path, linux)   # once linked, left as it is
    assert os.readlink(server) == game.name


def test_on_linux_the_libraries_symbol_tables_go_and_they_still_load(tmp_path, release):
    """numpy's libraries (which came through auditwheel, with segments after their symbol table) come with the
    symbols only a debugger reads: taken out, the library still loads; the executable, which carries the frozen
    modules after its ELF image, is never touched."""
    import numpy.linalg._umath_linalg as compiled
    original = Path(compiled.__file__)
    if not release.drop_symbol_table(shutil.copyfile(original, tmp_path / "probe.so")):
        pytest.skip("this numpy's library has no symbol table to take out")
    folder = tmp_path / "numpy" / "linalg"          # where its run path finds OpenBLAS: ../../numpy.libs
    folder.mkdir(parents=True)
    (tmp_path / "numpy.libs").symlink_to(original.parents[2] / "numpy.libs")
    library, executable = folder / original.name, folder / assets.APP_NAME
    for path in (library, executable):
        shutil.copyfile(original, path)
    dropped = release.linux_drop_symbols(folder)
    assert list(dropped) == [library.name] and dropped[library.name] % 4096 == 0
    assert library.stat().st_size == original.stat().st_size - dropped[library.name]
    assert executable.read_bytes() == original.read_bytes()
    assert release.linux_drop_symbols(folder) == {}, "once is enough"
    loads = f"import ctypes; print(ctypes.CDLL({str(library)!r}).PyInit__umath_linalg is not None)"
    done = subprocess.run([sys.executable, "-c", loads], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True", done.stderr[-2000:]


def test_a_symbol_table_with_a_section_between_its_halves_goes_too_and_the_library_still_loads(tmp_path, release):
    """cryptography's compiled bindings (3 MB of symbols) keep the section names between the symbol table and its
    strings: they are moved up, the rest cut out, and the module still imports and speaks OpenSSL."""
    from cryptography.hazmat.bindings import _rust
    original = Path(_rust.__file__)
    copy = tmp_path / "cryptography" / "hazmat" / "bindings" / original.name
    copy.parent.mkdir(parents=True)
    shutil.copyfile(original, copy)
    cut = release.drop_symbol_table(copy)
    if not cut:
        pytest.skip("this cryptography's library has no symbol table to take out")
    assert cut > 1e6 and cut % 4096 == 0 and copy.stat().st_size == original.stat().st_size - cut
    loads = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location("
             "'cryptography.hazmat.bindings._rust', sys.argv[1]); module = importlib.util.module_from_spec(spec); "
             "spec.loader.exec_module(module); print(module.openssl.openssl_version_text().split()[0])")
    done = subprocess.run([sys.executable, "-c", loads, str(copy)], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "OpenSSL", done.stderr[-2000:]


def test_the_windows_build_gets_the_stable_abis_forwarder_cryptographys_module_needs(tmp_path, release):
    """python3.dll, made for the names the build's modules import from it, forwards each to python311.dll, and
    reads back as Windows' own tools read a DLL (binutils' objdump, where it is here)."""
    names = {"PyArg_UnpackTuple", "PyBaseObject_Type", "Py_IncRef", "_Py_NoneStruct"}
    dll = tmp_path / "python3.dll"
    dll.write_bytes(release.stable_abi_dll.forwarder("python3.dll", "python311", names))
    assert release.stable_abi_dll.exports(dll) == {name: f"python311.{name}" for name in names}
    if shutil.which("objdump"):
        listed = subprocess.run(["objdump", "-p", str(dll)], capture_output=True, text=True).stdout
        assert "pei-x86-64" in listed and "DLL" in listed
        assert all(f"python311.{name}" in listed for name in names)
    import pip._vendor.distlib as distlib
    launcher = Path(distlib.__file__).parent / "t64.exe"             # a real Windows program, to read imports from
    if launcher.is_file():
        assert "GetCommandLineW" in release.stable_abi_dll.imported_from(launcher, "kernel32.dll")


BLOCKING_IMPORTER = """
import importlib, importlib.abc, pkgutil, sys
left_out = sys.argv[1].split(",")

class LeftOut(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == m or name.startswith(m + ".") for m in left_out):
            raise ModuleNotFoundError(f"No module named {name!r} (left out of the build)", name=name)
        return None

sys.meta_path.insert(0, LeftOut())
import villa
for module in pkgutil.walk_packages(villa.__path__, "villa."):
    if module.name != "villa.__main__":
        importlib.import_module(module.name)
import direct.showbase.ShowBase, direct.gui.DirectGui, panda3d.bullet, numpy, platformdirs, redis
numpy.linalg.norm(numpy.ones(3))
numpy.clip(numpy.mgrid[0:4, 0:4], 0, 1)
import io
from villa.app.clips import write_webp
clip = io.BytesIO()
write_webp(clip, (8, 8), 2, lambda index: bytes([index * 100]) * 192)   # a clip written with what is shipped
assert clip.getvalue()[:4] == b"RIFF" and b"WEBP" in clip.getvalue()[:16]
print("imported")
"""


def test_the_cg_stand_ins_answer_every_cg_function_panda3d_imports(tmp_path, release, monkeypatch):
    """The Linux build replaces the Cg toolkit by stand-ins (packaging/cg/cg_stub.c): they must define every Cg
    function Panda3D's libraries import, or the build is refused in a sentence."""
    if shutil.which("cc") is None or shutil.which("nm") is None:
        pytest.skip("no C compiler or nm here (Debian package: build-essential)")
    import panda3d
    package = Path(panda3d.__file__).parent
    names = ("libpanda.so.1.10", "libpandagl.so", "libCg.so", "libCgGL.so")
    if not all((package / name).is_file() for name in names):
        pytest.skip("this Panda3D is not linked against the Cg toolkit")
    for name in names:
        shutil.copyfile(package / name, tmp_path / name)
    monkeypatch.setattr(release, "APPS", tmp_path / "apps")
    saved = release.linux_without_cg(tmp_path)
    assert saved > 19_000_000 and (tmp_path / "libCg.so").stat().st_size < 100_000
    for name in ("libCg.so", "libCgGL.so"):
        shutil.copyfile(package / name, tmp_path / name)
    short = tmp_path / "cg_stub.c"
    short.write_text(release.CG_STUB.read_text().replace("cgGLBindProgram(", "cgGLBindProgramNot("))
    monkeypatch.setattr(release, "CG_STUB", short)
    with pytest.raises(release.ReleaseError, match="cgGLBindProgram"):
        release.linux_without_cg(tmp_path)


PILLOW_WITH_STAND_INS = """
import importlib.util, io, sys
import PIL
spec = importlib.util.spec_from_file_location("PIL._imaging", sys.argv[1])   # the copy, linked to the stand-ins
imaging = sys.modules["PIL._imaging"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(imaging)
from PIL import features
from villa.app.clips import write_webp
clip = io.BytesIO()
write_webp(clip, (8, 8), 2, lambda index: bytes([index * 100]) * 192)
assert clip.getvalue()[:4] == b"RIFF" and b"WEBP" in clip.getvalue()[:16]
print(features.version_codec("libtiff"), "|", features.version_codec("jpg_2000"))
print(" ".join(line.split()[-1] for line in open("/proc/self/maps") if "libtiff" in line or "libopenjp2" in line))
"""


def test_pillows_tiff_and_jpeg2000_stand_ins_answer_what_it_imports_and_it_still_writes_webp(tmp_path, release,
                                                                                            monkeypatch):
    """The Linux build replaces Pillow's libtiff and libopenjp2 by stand-ins (packaging/pillow/codecs_stub.c): they
    define every symbol _imaging imports from them, with the symbol versions it asks for, so that it loads, hears a
    version from each, and writes a WebP clip; zstd and xz, which only libtiff needed, are left out, and a library
    the build still needs never is. A function missing from the stand-ins refuses the build in a sentence."""
    if not all(shutil.which(tool) for tool in ("cc", "nm", "readelf")):
        pytest.skip("no C compiler, nm or readelf here (Debian package: build-essential)")
    from PIL import _imaging
    original = Path(_imaging.__file__)
    libraries = original.parents[1] / "pillow.libs"
    if not any(libraries.glob("libtiff-*.so*")) or not any(libraries.glob("libopenjp2-*.so*")):
        pytest.skip("this Pillow carries no libtiff and libopenjp2 of its own")
    build = tmp_path / "build"                  # flat, as build_apps lays a build out; its run path finds nothing
    build.mkdir()

    def fresh() -> None:
        shutil.copyfile(original, build / "PIL._imaging.so")
        for library in libraries.iterdir():
            shutil.copyfile(library, build / library.name)

    fresh()
    monkeypatch.setattr(release, "APPS", tmp_path / "apps")
    saved, dropped = release.linux_without_tiff_and_jpeg2000(build)
    assert sorted(name.split("-")[0] for name in dropped) == ["liblzma", "libzstd"]
    assert saved > 1_500_000
    stand_ins = release.pillow_stand_ins()
    replaced = stand_ins.libraries(build)
    assert sorted(path.name.split("-")[0] for path in replaced) == ["libopenjp2", "libtiff"]
    assert all(path.stat().st_size < 100_000 for path in replaced)
    imported = stand_ins.imported(build)
    assert "TIFFGetVersion@LIBTIFF_4.0" in imported and "opj_version" in imported
    assert imported <= set().union(*(release._symbols(path, defined=True) for path in replaced))
    assert any(build.glob("libjpeg-*.so*")), "_imaging needs libjpeg itself: it stays"
    assert release.dangling_libraries(build) == []
    done = subprocess.run([sys.executable, "-c", PILLOW_WITH_STAND_INS, str(build / "PIL._imaging.so")], cwd=ROOT,
                          env={**os.environ, "LD_LIBRARY_PATH": str(build)}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    versions, loaded = done.stdout.splitlines()[-2:]
    assert versions.startswith("0 (not in this build") and "| 0 (not in this build" in versions
    assert loaded and all(Path(path).parent == build for path in loaded.split())
    next(build.glob("libjpeg-*.so*")).unlink()
    assert [name.split("-")[0] for name in release.dangling_libraries(build)] == ["libjpeg"]

    fresh()
    short = tmp_path / "codecs_stub.c"
    short.write_text(release.PILLOW_STUB.read_text().replace("TIFFClose(", "TIFFCloseNot("))
    monkeypatch.setattr(release, "PILLOW_STUB", short)
    with pytest.raises(release.ReleaseError, match="TIFF and JPEG 2000 for TIFFClose@LIBTIFF_4.0"):
        release.linux_without_tiff_and_jpeg2000(build)


def test_the_game_imports_without_the_modules_the_build_leaves_out():
    """build_apps freezes only what the game imports; what it is told to leave out must not be needed."""
    left_out = ",".join(CONFIG["UNUSED_MODULES"])
    done = subprocess.run([sys.executable, "-c", BLOCKING_IMPORTER, left_out], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "imported" in done.stdout, done.stderr[-2000:]


WITHOUT_SSL = """
import importlib.abc, sys

class NoOpenSSL(importlib.abc.MetaPathFinder):   # as the Linux build on a system with an OpenSSL before 3.3
    def find_spec(self, name, path=None, target=None):
        if name == "_ssl":
            raise ImportError("libcrypto.so.3: version OPENSSL_3.3.0 not found")

sys.meta_path.insert(0, NoOpenSSL())
from villa.app import without_ssl
import redis, socket, ssl
assert ssl is without_ssl.ssl
redis.Redis.from_url("redis://127.0.0.1:1/0")              # a fleet on plain redis:// is there
with socket.create_server(("127.0.0.1", 0)) as listening:  # something that answers on TCP
    url = f"rediss://127.0.0.1:{listening.getsockname()[1]}/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, retry_on_timeout=False).ping()
    except redis.ConnectionError as refused:
        print(refused)
"""


def test_where_ssl_cannot_load_redis_loads_all_the_same_and_tls_is_refused_in_a_sentence():
    done = subprocess.run([sys.executable, "-c", WITHOUT_SSL], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "use redis://, not rediss://" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr


FINDING_MODULES = """
import json, sys
from direct.dist import FreezeTool
options = json.loads(sys.argv[1])
freezer = FreezeTool.Freezer(platform="manylinux2014_x86_64", path=sys.path, optimize=2)   # as build_apps does
freezer.addModule("__main__", filename=options["gui_apps"]["villa-paletti"])
for module in options["include_modules"]["*"]:
    freezer.addModule(module)
for module in options["exclude_modules"]["*"]:
    freezer.excludeModule(module)
freezer.done(addStartupModules=True)
frozen = {name for name, _ in freezer.getModuleDefs()}
import villa.app.main, villa.app.dedicated, villa.online.wire.tls, villa.online.client.trust
ours = ("villa", "redis", "platformdirs", "PIL", "cryptography", "OpenSSL")
inside = "cryptography.hazmat.bindings._rust."     # modules of the compiled bindings themselves
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in ours and name not in frozen
                        and not name.startswith(inside))))
"""


def test_build_apps_finds_every_module_the_game_and_its_server_import():
    """build_apps freezes what its module finder reads in the import statements: a module it misreads (redis'
    `from .hiredis import`, taken for the absent hiredis package) would be missing from the built game, and only
    a full build would tell."""
    done = subprocess.run([sys.executable, "-c", FINDING_MODULES, json.dumps(OPTIONS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_in_a_checkout_the_files_are_at_the_top_of_the_project():
    assert assets.root(frozen=False) == ROOT
    assert assets.LOCALE == ROOT / "villa" / "locale"
    assert (assets.TEXTURES / "wood_table.jpg").is_file() and (assets.SOUNDS / "crash.wav").is_file()


def test_the_built_game_finds_its_files_beside_its_executable(tmp_path):
    (tmp_path / "textures").mkdir()
    exe = tmp_path / "villa-paletti"
    exe.write_bytes(b"")
    assert assets.root(frozen=True, executable=str(exe)) == tmp_path


def test_the_built_game_on_macos_finds_its_files_in_the_bundles_resources(tmp_path):
    contents = tmp_path / "Villa Paletti.app" / "Contents"
    (contents / "MacOS").mkdir(parents=True)
    (contents / "Resources").mkdir()
    exe = contents / "MacOS" / "villa-paletti"
    exe.write_bytes(b"")
    assert assets.root(frozen=True, executable=str(exe)) == contents / "Resources"


def test_asset_paths_reach_panda3d_in_its_own_spelling():
    assert assets.panda_path(r"C:\Users\Ann\Villa Paletti\textures", "win32") == "/c/Users/Ann/Villa Paletti/textures"
    assert assets.panda_path(r"\\server\games\villa", "win32") == "//server/games/villa"
    assert assets.panda_path("/opt/villa-paletti/textures", "linux") == "/opt/villa-paletti/textures"
    from panda3d.core import Filename
    assert assets.panda_path(assets.TEXTURES) == Filename.fromOsSpecific(str(assets.TEXTURES)).getFullpath()


def test_the_fonts_are_bundled_with_their_licence():
    from panda3d.core import DynamicTextFont, Filename
    for kind in assets.FONT_FILES:
        font = DynamicTextFont(Filename.fromOsSpecific(str(assets.font_file(kind))))
        assert font.isValid(), kind
    assert "Bitstream Vera" in (assets.FONTS / "LICENSE").read_text()


def test_the_window_icon_suits_each_system():
    assert assets.window_icon("win32").suffix == ".ico" and assets.window_icon("win32").is_file()
    assert assets.window_icon("linux").suffix == ".png" and assets.window_icon("darwin").is_file()


def test_the_icon_script_makes_the_committed_icons(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_icon.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True, timeout=120)
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in assets.ICONS.iterdir())
    for name in made:
        assert (tmp_path / name).read_bytes() == (assets.ICONS / name).read_bytes(), name


def test_the_desktop_entry_starts_the_game_and_matches_its_window():
    lines = (ROOT / "packaging" / "linux" / "villa-paletti.desktop").read_text().splitlines()
    entry = dict(line.split("=", 1) for line in lines if "=" in line)
    assert lines[0] == "[Desktop Entry]" and entry["Type"] == "Application"
    assert entry["Exec"] == f"{assets.APP_NAME} %u" and entry["Icon"] == entry["StartupWMClass"] == assets.APP_NAME
    assert entry["MimeType"] == "x-scheme-handler/villa-paletti;", "invites open the game"
    assert entry["Name"] == assets.WINDOW_TITLE
    assert "Game" in entry["Categories"].split(";")


def test_a_library_build_apps_could_not_find_stops_that_platforms_release(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import release
    log = tmp_path / "build_apps.log"
    log.write_text("Building runtime for platform: manylinux2014_x86_64\n"
                   "warning: build_apps: could not find dependency libfoo.so.1 (referenced by bar.so)\n"
                   "warning: build_apps: could not find dependency libssl.so.3 (referenced by _ssl.so)\n"
                   "Building runtime for platform: win_amd64\n"
                   "warning: build_apps: could not find dependency api-ms-win-core-path-l1-1-0.dll "
                   "(referenced by python311.dll)\n"
                   "warning: build_apps: could not find dependency VCRUNTIME140_1.dll (referenced by x.pyd)\n")
    linux = release.target("manylinux2014_x86_64")
    assert release.missing_libraries(log, linux) == ["libfoo.so.1 (needed by bar.so)"]   # OpenSSL is the system's
    assert release.missing_libraries(log, release.target("win_amd64")) == []   # Windows' own, and added later
    assert release.missing_libraries(log, release.target("macosx_11_0_arm64")) == []


def _signed_binary(flags: int) -> bytearray:
    """A two-page arm64 Mach-O with a code signature that matches it (ad-hoc when flags has 0x2)."""
    import hashlib
    import struct
    page = 4096
    body = bytearray(struct.pack("<IIIIIIII", 0xFEEDFACF, 0x100000C, 0, 2, 1, 16, 0, 0))
    body += struct.pack("<IIII", 0x1D, 16, 2 * page, 0)
    body += bytes(range(256)) * 16
    body = body.ljust(2 * page, b"\x07")
    hashes = b"".join(hashlib.sha256(bytes(body[k * page:(k + 1) * page])).digest() for k in range(2))
    directory = struct.pack(">IIIIIIIIIBBBB", 0xFADE0C02, 44 + len(hashes), 0x20400, flags, 44, 40, 0, 2, 2 * page,
                            32, 2, 0, 12) + b"x\0\0\0" + hashes
    return body + struct.pack(">IIIII", 0xFADE0CC0, 20 + len(directory), 1, 0, 20) + directory


def test_a_universal_module_is_cut_to_the_macs_own_code_and_keeps_its_signature(tmp_path):
    """cryptography's macOS module holds both Macs' code (universal2): each build keeps its own slice, signed."""
    import importlib.util
    import struct
    spec = importlib.util.spec_from_file_location("macho_signatures", ROOT / "scripts" / "macho_signatures.py")
    signatures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(signatures)
    arm = bytes(_signed_binary(flags=0x2))
    intel = struct.pack("<IIIIIIII", 0xFEEDFACF, 0x1000007, 3, 6, 0, 0, 0, 0).ljust(4096, b"\0")
    fat = bytearray(struct.pack(">II", 0xCAFEBABE, 2))
    fat += struct.pack(">IIIII", 0x1000007, 3, 4096, len(intel), 12) + struct.pack(">IIIII", 0x100000C, 0, 8192,
                                                                                    len(arm), 14)
    fat = fat.ljust(4096, b"\0") + intel + arm
    binary = tmp_path / "cryptography.hazmat.bindings._rust.so"
    binary.write_bytes(fat)
    assert signatures.thin(binary, "arm64") == len(fat) - len(arm)
    assert binary.read_bytes() == arm and signatures.broken_signatures(binary) == []
    assert signatures.thin(binary, "arm64") == 0, "thin already"


def test_an_ad_hoc_signature_is_sealed_again_after_its_binary_was_written_into(tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("macho_signatures", ROOT / "scripts" / "macho_signatures.py")
    signatures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(signatures)
    binary = tmp_path / "villa-paletti"
    data = _signed_binary(flags=0x2)
    binary.write_bytes(data)
    assert signatures.broken_signatures(binary) == [] and signatures.seal_again(binary) == []
    data[5000] ^= 0xFF                              # as build_apps does to the frozen game's header
    binary.write_bytes(data)
    assert signatures.broken_signatures(binary) == ["arm64"]
    assert signatures.seal_again(binary) == ["arm64"]
    assert signatures.broken_signatures(binary) == [] and binary.read_bytes()[5000] == data[5000]
    signed = _signed_binary(flags=0)                # made with an identity: only a Mac can sign it again
    signed[5000] ^= 0xFF
    binary.write_bytes(signed)
    with pytest.raises(ValueError, match="identity"):
        signatures.seal_again(binary)


# --- the built Linux game ----------------------------------------------------------------------

ARCHIVE = os.environ.get("VILLA_RELEASE_ARCHIVE")
built = pytest.mark.skipif(not ARCHIVE, reason="no built game (scripts/build_release.sh sets VILLA_RELEASE_ARCHIVE)")


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory):
    """The Linux archive unpacked in a clean folder: (the game's folder, a bare environment)."""
    place = tmp_path_factory.mktemp("release")
    with tarfile.open(ARCHIVE) as archive:
        archive.extractall(place / "unpacked", filter="tar")
    (game,) = (place / "unpacked").iterdir()
    empty_bin = place / "bin"
    empty_bin.mkdir()
    home = place / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": str(empty_bin), "LANG": "C.UTF-8"}  # no Python, no venv, no VILLA_HOME
    assert shutil.which("python3", path=env["PATH"]) is None and shutil.which("python", path=env["PATH"]) is None
    return game, env


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}


def _run(game: Path, env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(game / assets.APP_NAME), *args], cwd=env["HOME"], env=env, capture_output=True,
                          text=True, timeout=timeout)


@built
@pytest.mark.slow
def test_the_built_game_knows_its_version_and_refuses_bad_options_in_a_sentence(unpacked):
    game, env = unpacked
    done = _run(game, env, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"villa-paletti {villa.__version__}"
    done = _run(game, env, "--load", str(game / "no-such-save.json"))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    print(f"\n  {game.name}: --version and a bad --load answered in a sentence")


@built
@pytest.mark.slow
def test_the_built_game_plays_headless_and_saves_in_the_users_folder(unpacked):
    game, env = unpacked
    before = _files(game)
    done = _run(game, env, "--autoplay", "5", "--headless", "--seed", "5")
    assert done.returncode == 0, done.stderr[-2000:]
    saved = [line for line in done.stdout.splitlines() if " saved " in line]
    assert len(saved) >= 5, done.stdout
    data = Path(env["HOME"]) / ".local" / "share" / assets.APP_NAME   # where platformdirs puts it on Linux
    assert (data / "autosave.json").is_file() and (data / "villa.log").is_file()
    assert _files(game) == before, "the game wrote next to its executable"
    print(f"\n  --autoplay 5 --headless: {len(saved)} turns saved to {data}")


@built
@pytest.mark.slow
def test_the_built_game_draws_a_picture_of_the_villa(unpacked, display):
    from panda3d.core import Filename, PNMImage
    game, env = unpacked
    picture = Path(env["HOME"]) / "villa.png"
    done = _run(game, {**env, "DISPLAY": display}, "--screenshot", str(picture), "--players", "Anna,Ben,Cleo",
                "--seed", "7")
    assert done.returncode == 0, done.stderr[-2000:]
    image = PNMImage()
    assert image.read(Filename.fromOsSpecific(str(picture)))
    assert (image.getXSize(), image.getYSize()) == (1280, 720)
    samples = {tuple(round(c, 1) for c in image.getXel(x, y)) for x in range(0, 1280, 16) for y in range(0, 720, 16)}
    assert len(samples) > 50, "the picture is blank"
    kept = ROOT / "build" / "release-screenshot.png"
    kept.parent.mkdir(exist_ok=True)
    shutil.copyfile(picture, kept)
    print(f"\n  --screenshot: a 1280x720 picture with {len(samples)} distinct colours, kept as {kept}")


@built
@pytest.mark.slow
def test_the_built_game_opens_its_window_named_and_classed_for_the_desktop(unpacked, display):
    """The main menu's window carries the title and the WM_CLASS the desktop entry names (StartupWMClass),
    and speaks German from the bundled catalog when asked to."""
    game, env = unpacked
    shown = {**os.environ, "DISPLAY": display}
    german = {**env, "DISPLAY": display, "LANGUAGE": "de"}
    playing = subprocess.Popen([str(game / assets.APP_NAME)], cwd=env["HOME"], env=german,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        windows = ""
        while not windows and playing.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            windows = subprocess.run(["xdotool", "search", "--class", assets.APP_NAME], env=shown,
                                     capture_output=True, text=True).stdout.split()
        assert windows, f"no window of class {assets.APP_NAME}"
        title = subprocess.run(["xdotool", "getwindowname", windows[0]], env=shown, capture_output=True, text=True)
        assert title.stdout.strip() == assets.WINDOW_TITLE
        time.sleep(3)
        assert playing.poll() is None, playing.stderr.read()   # the main menu is up and stays up
        log = (Path(env["HOME"]) / ".local" / "share" / assets.APP_NAME / "villa.log").read_text()
        assert "catalog" not in log, log                        # i18n logs a catalog it cannot use
    finally:
        playing.terminate()
        playing.wait(timeout=30)
    print(f"\n  the main menu's window: '{assets.WINDOW_TITLE}', class {assets.APP_NAME}, in German")


def _polled(player: Player, done, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        player.poll()
        time.sleep(0.002)
    return True


def _a_player_sits_down(port: int, room: str, pin: str | None = None) -> Player | None:
    """The server on the loopback `port` answers a player of the game's own online play over TLS (its certificate
    `pin`ned): lets them into `room` and gives them its first seat (None: it did not). The one place these tests
    speak the online game's wire."""
    player = Player("127.0.0.1", port, pin=pin)
    player.enter(room)
    player.sit("Anna", 0)
    seated = _polled(player, lambda: player.lost or (player.room == room and bool(player.seats)
                                                     and player.table["seats"][0]["name"] == "Anna"))
    if seated and not player.lost:
        return player
    player.close()
    return None


def _serve(game: Path, env: dict, *args: str) -> tuple[subprocess.Popen, list[str]]:
    """The built server started from the unpacked archive on a free loopback port, and what it printed up to
    its last line of a room's (its fleet's line after that, when it joined one)."""
    port = free_port()
    server = subprocess.Popen([str(game / frozen.SERVER_PROGRAM), "--port", str(port), "--address", "127.0.0.1",
                               "--people", "2", *args], cwd=env["HOME"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    wanted = "in the fleet of " if "--redis" in args else "room "
    while not lines or not lines[-1].startswith(wanted):
        line = server.stdout.readline()
        if not line:
            server.wait(30)
            pytest.fail(f"the built server did not start: {lines} {server.stderr.read()[-2000:]}")
        lines.append(line)
    return server, lines


def _seats_a_player_and_stops_on_sigterm(server: subprocess.Popen, lines: list[str], farewell: Online,
                                         seated=lambda code: None) -> str:
    """A player sits in the server's room (then `seated(code)` looks around); SIGTERM ends the server in order,
    and the player hears `farewell` (the server closing, or in a fleet the room moving on to another server)."""
    room = next(line for line in lines if line.startswith("room "))
    code, port = room.split()[1], int(room.split()[4].rstrip(":"))
    pin = _fingerprint(lines)
    try:
        anna = _a_player_sits_down(port, code, pin)
        assert anna is not None, "the server did not seat a player"
        assert anna.link.tls.version == "TLSv1.3" and anna.fingerprint == pin
        seated(code)
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 128 + signal.SIGTERM, server.stderr.read()
        assert _polled(anna, lambda: anna.lost) and anna.trouble.code is farewell, anna.trouble
        assert "Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(30)
    return (f"room {code} on port {port} over TLS 1.3 (certificate {pin[:16]}...), a player seated, ended by "
            f"SIGTERM, the player told '{farewell.value}'")


def _fingerprint(lines: list[str]) -> str:
    """The certificate's fingerprint the built server printed (its own, made at its first start)."""
    said = next((line for line in lines if line.startswith("TLS certificate ")), None)
    assert said is not None, f"the built server speaks no TLS: {lines}"
    return said.split()[2]


@built
@pytest.mark.slow
def test_an_invite_clicked_opens_the_built_game_in_its_room(unpacked, display, tmp_path):
    """add-to-menu.sh in the game's folder, then a villa-paletti:// link opened as a chat opens it (xdg-open, no
    desktop): the built game starts with the invite and goes into the room of a server here."""
    import threading

    from villa.match import MatchSetup, Seat, layout_named
    from villa.online import protocol
    from villa.online.server import Room, Server
    game, env = unpacked
    home = tmp_path / "desktop"
    desktop = {**env, "PATH": "/usr/bin:/bin", "DISPLAY": display, "HOME": str(home),
               "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
               "XDG_DATA_DIRS": str(tmp_path / "no system"), "USER": "mira"}
    done = subprocess.run([str(game / "add-to-menu.sh")], env=desktop, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    server = Server(0, "127.0.0.1")
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings")))
    server.open(room)
    stop = threading.Event()
    serving = threading.Thread(target=server.serve, kwargs={"until": stop.is_set}, daemon=True)
    serving.start()
    click = subprocess.Popen(["xdg-open", f"villa-paletti://127.0.0.1:{server.port}/{room.code}"], env=desktop,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        end = time.monotonic() + 120
        while not room.audience and click.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        assert room.audience, click.stderr.read()[-3000:] if click.poll() is not None else "nobody came in"
    finally:
        if click.poll() is None:
            os.killpg(click.pid, signal.SIGTERM)
            try:
                click.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(click.pid, signal.SIGKILL)
                click.wait(10)
        stop.set()
        serving.join(10)
        server.close()
    print(f"\n  add-to-menu.sh, then xdg-open of an invite: the built game came into room {room.code}")


@built
@pytest.mark.slow
def test_the_built_server_opens_a_room_answers_a_player_and_stops_when_asked(unpacked):
    game, env = unpacked
    done = _run(game, env, "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: villa-paletti ")
    done = subprocess.run([str(game / frozen.SERVER_PROGRAM), "--help"], cwd=env["HOME"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith(f"usage: {frozen.SERVER_PROGRAM} "), done.stderr
    assert "--redis URL" in done.stdout
    said = _seats_a_player_and_stops_on_sigterm(*_serve(game, env), Online.CLOSING)
    print(f"\n  {frozen.SERVER_PROGRAM}: --help answered; {said}")


@built
@pytest.mark.slow
def test_the_built_server_joins_a_fleet_on_redis(unpacked, tmp_path):
    """The build carries the redis package the fleet speaks through: the server keeps its room in a Redis."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: scripts/build_release.sh installs Debian's redis-server")
    game, env = unpacked
    store = RedisServer(tmp_path)
    try:
        port = free_port()
        server, lines = _serve(game, env, "--redis", store.url, "--public", f"127.0.0.1:{port}", "--new-room")
        kept = redis.Redis.from_url(store.url, decode_responses=True)

        def in_the_directory(code: str) -> None:
            assert kept.hget(keys.room(code), "address") == f"127.0.0.1:{port}#{_fingerprint(lines)}", \
                "the room is not in the fleet's Redis, with its server's certificate"
        said = _seats_a_player_and_stops_on_sigterm(server, lines, Online.MOVED, in_the_directory)
    finally:
        store.stop()
    print(f"\n  {frozen.SERVER_PROGRAM} --redis {store.url}: {said}")


@built
@pytest.mark.slow
def test_the_built_game_makes_a_clip_of_a_fall(unpacked, display):
    from PIL import Image

    from villa.app.storage import write_atomically
    from villa.match import record as records
    from tests.match.falls import pulled_through
    game, env = unpacked
    match, _column, _player = pulled_through()
    replay, clip = Path(env["HOME"]) / "fall.json", Path(env["HOME"]) / "fall.webp"
    write_atomically(replay, records.dumps(match.record, "replay"))
    done = _run(game, {**env, "DISPLAY": display}, "--clip", str(replay), "--out", str(clip), "--size", "640x360")
    assert done.returncode == 0, done.stderr[-2000:]
    with Image.open(clip) as made:
        assert made.size == (640, 360) and made.n_frames == len(match.motion.frames)
    print(f"\n  --clip: {len(match.motion.frames)} frames of the fall, {clip.stat().st_size} bytes")


@built
@pytest.mark.slow
def test_the_built_game_joins_a_room_of_the_built_server_over_tls(unpacked, display):
    """On this machine's OpenSSL (3.0, older than Panda3D's Python wants): the built game, started with --join,
    shakes hands with the built server, checks its certificate (trusted on first use, and remembered), and sits;
    another player at the table sees it there."""
    game, env = unpacked
    server, lines = _serve(game, env)
    room = next(line for line in lines if line.startswith("room "))
    code, port, pin = room.split()[1], int(room.split()[4].rstrip(":")), _fingerprint(lines)
    joining = subprocess.Popen([str(game / assets.APP_NAME), "--join", f"127.0.0.1:{port}", "--room", code,
                                "--name", "Anna"], cwd=env["HOME"], env={**env, "DISPLAY": display},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ben = None
    try:
        ben = Player("127.0.0.1", port, pin=pin)
        ben.enter(code)
        seated = _polled(ben, lambda: ben.room == code and ben.table.get("seats", [{}])[0].get("name") == "Anna",
                         seconds=120)
        assert seated, (joining.poll(), joining.stderr.read() if joining.poll() is not None else "still running")
        known = json.loads((Path(env["HOME"]) / ".config" / assets.APP_NAME / "known_servers.json").read_text())
        assert known == {f"127.0.0.1:{port}": pin}, "the built game checked and kept the server's certificate"
    finally:
        if ben is not None:
            ben.close()
        joining.terminate()
        joining.wait(timeout=30)
        server.send_signal(signal.SIGTERM)
        server.wait(30)
    print(f"\n  the built game joined room {code} over TLS, its server's certificate {pin[:16]}... kept")


@built
@pytest.mark.slow
def test_every_build_carries_what_its_tls_needs():
    """Listed from each archive built beside the Linux one: cryptography's compiled bindings (with their own
    OpenSSL) and cffi's backend, in each platform's own form."""
    folder, version = Path(ARCHIVE).parent, villa.__version__
    listed = {}
    for platform in CONFIG["PLATFORMS"]:
        label = {"manylinux": "linux-x86_64", "win": "windows-x86_64", "macosx_10": "macos-x86_64",
                 "macosx_11": "macos-arm64"}[next(k for k in ("manylinux", "win", "macosx_10", "macosx_11")
                                                  if platform.startswith(k))]
        archive = folder / f"villa-paletti-{version}-{label}.{'tar.gz' if label.startswith('linux') else 'zip'}"
        if not archive.is_file():
            continue
        if archive.suffix == ".zip":
            with zipfile.ZipFile(archive) as packed:
                names = packed.namelist()
        else:
            with tarfile.open(archive) as packed:
                names = packed.getnames()
        suffix = ".pyd" if label.startswith("windows") else ".so"
        for module in ("cryptography.hazmat.bindings._rust", "_cffi_backend"):
            assert any(name.endswith("/" + module + suffix) for name in names), f"{archive.name} lacks {module}"
        listed[label] = len(names)
    assert "linux-x86_64" in listed
    print(f"\n  cryptography's bindings and cffi's backend in {', '.join(sorted(listed))}")
