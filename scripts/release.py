#!/usr/bin/env python3
"""The steps of scripts/build_release.sh around Panda3D's build_apps.

    python scripts/release.py requirements         # build/requirements.txt from pyproject.toml
    python scripts/release.py platforms [SYSTEM]   # build_apps' platform tags for linux, windows, macos
    python scripts/release.py pack [PLATFORM ...]  # check each build, finish it, pack it into dist/
    python scripts/release.py record --seconds N    # after a full build passed its test: packaging/release-build.json

`pack` takes what build_apps left in build/apps/<platform>, refuses a build that lacks
anything the game needs (its executable, every asset, Panda3D's display and audio
plugins, the compiled modules), adds what build_apps does not (licences, the Linux
desktop entry, the Windows C++ runtime, the macOS bundle's name and version), and packs
it: a .tar.gz for Linux, a .zip for Windows and for each macOS app bundle. It prints each
archive's size and the size of the game unpacked.

`record` keeps what build_apps was given (setup.py's options, pyproject's dependencies) and what came
of it in packaging/release-build.json; the test suite holds setup.py to it, so that a change to what
build_apps is given cannot land without a full build.
"""

from __future__ import annotations

import argparse
import json
import os
import plistlib
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import macho_signatures
import stable_abi_dll

ROOT = Path(__file__).resolve().parents[1]
APPS = ROOT / "build" / "apps"
WHEELS = APPS / "__whl_cache__"
DIST = ROOT / "dist"
PACKED = ROOT / "build" / "packed.json"                 # what `pack` made, for `record`
RECORD = ROOT / "packaging" / "release-build.json"      # the last full build that passed its test
LINUX_FILES = ROOT / "packaging" / "linux"
CG_STUB = ROOT / "packaging" / "cg" / "cg_stub.c"     # stand-ins for the Cg toolkit (see the file)
CG_LIBRARIES = {"libCg.so": "CG_CORE", "libCgGL.so": "CG_GL"}
PILLOW_STUB = ROOT / "packaging" / "pillow" / "codecs_stub.c"   # stand-ins for Pillow's TIFF and JPEG 2000 libraries
PILLOW_LIBRARIES = {"libtiff": "LIBTIFF", "libopenjp2": "OPENJP2"}
BUNDLE_NAME = "Villa Paletti.app"
BUNDLE_ID = "org.villa-paletti.game"
# invites (villa-paletti://HOST:PORT/CODE#FINGERPRINT) open the app: the scheme it declares to macOS
URL_TYPES = [{"CFBundleURLName": "org.villa-paletti.invite", "CFBundleURLSchemes": ["villa-paletti"]}]
# The C++ runtime numpy's Windows modules are built against (VCRUNTIME140_1.dll is not in
# Panda3D's wheel); Microsoft allows these files to be shipped with a program.
WINDOWS_RUNTIME = "msvc-runtime==14.44.35112"
WINDOWS_RUNTIME_FILES = ("vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll")
# Parts of Windows itself that modules name (cryptography's random numbers), and the stable ABI's forwarder,
# which `finish` makes (stable_abi_dll.py)
WINDOWS_OWN_FILES = ("bcryptprimitives.dll", "python3.dll")
REQUIRED_FOLDERS = ("textures", "sounds", "fonts", "icons", "villa/locale")
# OpenSSL, which Panda3D's Linux interpreter loads from the system for `ssl` (its Windows and macOS ones carry
# their own), 3.3 or later; where the system's is older the game does without ssl (villa/app/without_ssl.py).
LINUX_SYSTEM_LIBRARIES = ("libssl.so.3", "libcrypto.so.3")
# The game's own TLS on every platform: cryptography's compiled bindings, which carry their own OpenSSL, and the
# cffi backend pyOpenSSL reaches OpenSSL through.
TLS_MODULES = ("cryptography.hazmat.bindings._rust", "_cffi_backend")


class ReleaseError(Exception):
    """A build that must not be shipped, or a step that cannot run: one sentence for the log."""


@dataclass(frozen=True)
class Target:
    platform: str     # the build_apps platform tag
    system: str       # linux, windows or macos
    machine: str      # x86_64 or arm64

    @property
    def label(self) -> str:
        return f"{self.system}-{self.machine}"

    @property
    def suffix(self) -> str:
        return {"linux": ".so", "windows": ".pyd", "macos": ".so"}[self.system]

    @property
    def library(self) -> str:
        return {"linux": ".so", "windows": ".dll", "macos": ".dylib"}[self.system]


def target(platform: str) -> Target:
    if platform.startswith("manylinux"):
        return Target(platform, "linux", "x86_64" if platform.endswith("x86_64") else platform.rsplit("_", 1)[-1])
    if platform.startswith("win"):
        return Target(platform, "windows", "x86_64")
    if platform.startswith("macosx"):
        return Target(platform, "macos", "arm64" if platform.endswith("arm64") else "x86_64")
    raise ReleaseError(f"unknown platform {platform}")


def project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]


@lru_cache(maxsize=1)
def build_config() -> dict:
    """setup.py's build_apps options, read without running setup()."""
    namespace: dict = {"__name__": "release_config", "__file__": str(ROOT / "setup.py")}
    exec(compile((ROOT / "setup.py").read_text(), "setup.py", "exec"), namespace)
    return namespace


def write_requirements() -> Path:
    """build_apps fetches the wheels named in a requirements file: the game's dependencies."""
    path = ROOT / build_config()["BUILD_APPS"]["requirements_path"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(project()["dependencies"]) + "\n")
    return path


def given() -> dict:
    """What build_apps is given: setup.py's options and the wheels it fetches, as JSON would hold them."""
    return json.loads(json.dumps({"build_apps": build_config()["BUILD_APPS"],
                                  "requirements": project()["dependencies"]}))


def record(seconds: int) -> Path:
    """Keep what a full build was given and what came of it (each archive's size, packed and unpacked)."""
    packed = json.loads(PACKED.read_text())
    missing = sorted({target(p).label for p in build_config()["PLATFORMS"]} - set(packed))
    if missing:
        raise ReleaseError(f"the last pack did not build every platform ({', '.join(missing)} missing): "
                           "only a full build is recorded")
    RECORD.write_text(json.dumps({"version": project()["version"], "build_seconds": seconds, "archives": packed,
                                  "given": given()}, indent=1, sort_keys=True) + "\n")
    return RECORD


# --- what a build must hold --------------------------------------------------------------------

def programs(build: Path, t: Target) -> list[Path]:
    """Where each program build_apps was asked for lies in the build: the game first, then the server."""
    options = build_config()["BUILD_APPS"]
    names = [*options["gui_apps"], *options.get("console_apps", {})]
    if t.system == "macos":
        macos = app_folders(build, t)[0].parent
        return [macos / name for name in names]
    return [build / (name + ".exe" if t.system == "windows" else name) for name in names]


def app_folders(build: Path, t: Target) -> tuple[Path, Path, Path]:
    """(the executable, the folder of the game's data files, the folder of its binaries)."""
    app = build_config()["APP"]
    if t.system == "macos":
        contents = next(iter(sorted(build.glob("*.app"))), build / BUNDLE_NAME) / "Contents"
        return contents / "MacOS" / app, contents / "Resources", contents / "Frameworks"
    exe = build / (app + ".exe" if t.system == "windows" else app)
    return exe, build, build


def problems(build: Path, t: Target) -> list[str]:
    """Everything the built game lacks; empty when it may ship."""
    if not build.is_dir():
        return [f"{build} does not exist: build_apps did not build {t.platform}"]
    _, data, binaries = app_folders(build, t)
    found = [f"no executable {exe.relative_to(build)}" for exe in programs(build, t) if not exe.is_file()]
    if t.system == "macos":
        macos = programs(build, t)[0].parent
        strays = sorted(p.name for p in macos.iterdir() if p not in programs(build, t)) if macos.is_dir() else []
        if strays:
            found.append(f"{macos.relative_to(build)} holds more than the programs ({', '.join(strays[:3])})")
        if not data.is_dir():
            found.append(f"no {data.relative_to(build)} in the app bundle")
    for folder in REQUIRED_FOLDERS:
        if not any((ROOT / folder).rglob("*.*")):
            found.append(f"the checkout has no {folder}/ to ship")
    for pattern in build_config()["ASSETS"]:
        for source in sorted(ROOT.glob(pattern)):
            shipped = data / source.relative_to(ROOT)
            if not shipped.is_file() or shipped.stat().st_size != source.stat().st_size:
                found.append(f"{source.relative_to(ROOT)} is missing or differs")
    names = {p.name.lower() for p in binaries.iterdir()} if binaries.is_dir() else set()
    for plugin in build_config()["BUILD_APPS"]["plugins"]:
        if f"lib{plugin}{t.library}" not in names:
            found.append(f"Panda3D's plugin lib{plugin}{t.library} is missing")
    for module in ("panda3d.core", "panda3d.bullet", "panda3d.direct", "numpy._core._multiarray_umath", *TLS_MODULES):
        if f"{module}{t.suffix}" not in names:
            found.append(f"the compiled module {module}{t.suffix} is missing")
    if t.system == "linux" and binaries.is_dir():
        for stand_ins in (cg_stand_ins(), pillow_stand_ins()):
            defined = set().union(*(_symbols(library, defined=True) for library in stand_ins.libraries(binaries)))
            missing = sorted(stand_ins.imported(binaries) - defined)
            if missing:
                found.append(f"the functions of {stand_ins.what} {', '.join(missing[:3])} ... are in no library of "
                             "the build")
        found += [f"{name} is not in the build" for name in dangling_libraries(binaries)]
    if t.system == "windows":
        for dll in WINDOWS_RUNTIME_FILES:
            if dll not in names:
                found.append(f"the C++ runtime {dll} is missing")
        wanted = stable_abi_names(build)
        given = set(stable_abi_dll.exports(build / "python3.dll")) if (build / "python3.dll").is_file() else set()
        if wanted - given:
            found.append(f"python3.dll does not forward {', '.join(sorted(wanted - given)[:3])} ...")
    if t.system == "macos":
        for binary in _macos_binaries(build):
            for arch in macho_signatures.broken_signatures(binary):
                found.append(f"the code signature of {binary.name} ({arch}) does not match it")
    return found


def _macos_binaries(build: Path) -> list[Path]:
    return sorted(p for bundle in build.glob("*.app") for folder in ("MacOS", "Frameworks")
                  for p in (bundle / "Contents" / folder).glob("*") if p.is_file())


def missing_libraries(log: Path, t: Target) -> list[str]:
    """Shared libraries build_apps could not find while building this platform (from its log).

    Windows' API sets (api-ms-win-*) are part of Windows itself; the C++ runtime is added
    by `finish`. Linux's OpenSSL is the system's.
    """
    if not log.is_file():
        return []
    found, building = set(), None
    for line in log.read_text(errors="replace").splitlines():
        started = re.search(r"Building runtime for platform: (\S+)", line)
        if started:
            building = started.group(1)
        missing = re.search(r"could not find dependency (\S+) \(referenced by (\S+)\)", line)
        if not missing or building != t.platform:
            continue
        name = missing.group(1).lower()
        if t.system == "windows" and (name.startswith("api-ms-win-") or name in WINDOWS_RUNTIME_FILES
                                      or name in WINDOWS_OWN_FILES):
            continue
        if t.system == "linux" and name in LINUX_SYSTEM_LIBRARIES:
            continue
        found.add(f"{missing.group(1)} (needed by {missing.group(2)})")
    return sorted(found)


# --- finishing touches -------------------------------------------------------------------------

def licences(data: Path, t: Target) -> None:
    """The licences of what the build bundles: Python, Panda3D, numpy, platformdirs (and more)."""
    folder = data / "licenses"
    folder.mkdir(exist_ok=True)
    python_licence = Path(os.__file__).parent / "LICENSE.txt"
    if python_licence.is_file():
        shutil.copyfile(python_licence, folder / "python.txt")
    for wheel in sorted((WHEELS / f"{t.platform}_cp{sys.version_info[0]}{sys.version_info[1]}").glob("*.whl")):
        package = wheel.name.split("-")[0]
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                base = name.rsplit("/", 1)[-1]
                if ".dist-info/" in name and (base.upper().startswith(("LICENSE", "COPYING"))):
                    (folder / f"{package}.txt").write_bytes(archive.read(name))


def windows_runtime(build: Path) -> None:
    """Microsoft's C++ runtime beside the executable: numpy needs VCRUNTIME140_1.dll, and its
    VCRUNTIME140/MSVCP140 must be as new as the compiler it was built with (newer ones serve
    older programs too)."""
    cache = APPS / "__whl_cache__" / "windows_runtime"
    cache.mkdir(parents=True, exist_ok=True)
    if not list(cache.glob("*.whl")):
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                        "--platform", "win_amd64", "--python-version", "3.11", "-d", str(cache),
                        WINDOWS_RUNTIME], check=True)
    wheel = next(iter(sorted(cache.glob("*.whl"))))
    present = {p.name.lower(): p for p in build.iterdir()}
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            base = name.rsplit("/", 1)[-1]
            if "/data/Scripts/" in name and base.lower() in WINDOWS_RUNTIME_FILES:
                target_path = present.get(base.lower(), build / base)
                target_path.write_bytes(archive.read(name))
            elif base == "LICENSE" and ".dist-info/" in name:
                (build / "licenses").mkdir(exist_ok=True)
                (build / "licenses" / "msvc-runtime.txt").write_bytes(archive.read(name))


def stable_abi_names(build: Path) -> set[str]:
    """What the build's modules built for the stable ABI (cryptography's) import from python3.dll."""
    names: set[str] = set()
    for binary in sorted(build.iterdir()):
        if binary.suffix.lower() in (".pyd", ".dll") and binary.name.lower() != "python3.dll":
            names |= stable_abi_dll.imported_from(binary, "python3.dll")
    return names


def windows_stable_abi(build: Path) -> int:
    """python3.dll, the stable ABI's forwarder to the build's python3X.dll, which Panda3D's Windows runtime does
    not carry and cryptography's module needs; returns how many names it forwards (0: no module needs it)."""
    names = stable_abi_names(build)
    if not names:
        return 0
    pythons = sorted(p.stem for p in build.glob("python3*.dll") if p.stem.lower() != "python3")
    if not pythons:
        raise ReleaseError("the Windows build has no python3X.dll for python3.dll to forward to")
    (build / "python3.dll").write_bytes(stable_abi_dll.forwarder("python3.dll", pythons[0], names))
    return len(names)


def linux_one_executable(build: Path, t: Target) -> None:
    """On Linux build_apps makes the game's and the server's executables from the same stub, each with its
    own interpreter and copy of the modules (14 MB); the game's holds the server's too, and is the server
    when started by its name (`villa.app.frozen`): the server becomes a link to it."""
    game, *servers = programs(build, t)
    for server in servers:
        if not server.is_symlink():
            server.unlink(missing_ok=True)
            server.symlink_to(game.name)


SHT_SYMTAB, PT_LOAD, SHF_ALLOC = 2, 1, 2


def drop_symbol_table(path: Path) -> int:
    """Take the symbol table (.symtab and its .strtab: the symbols only a debugger reads) out of a 64-bit
    little-endian ELF library, in whole pages, moving what follows it up; returns the bytes taken out (0: none
    there, or nothing to take without moving a segment off its page). A section that lies between the two and is
    never loaded (cryptography's library has the section names there) is moved to where they began. Not binutils'
    strip: the libraries that came through auditwheel have segments patchelf put after the symbol table, and strip
    misplaces them ("ELF load command address/offset not page-aligned"). The loader reads segments and .dynsym,
    never .symtab."""
    data = bytearray(path.read_bytes())
    if data[:6] != b"\x7fELF\x02\x01":
        return 0
    phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 0x36)
    sections = [shoff + i * shentsize for i in range(shnum)]
    tables = [at for at in sections if struct.unpack_from("<I", data, at + 4)[0] == SHT_SYMTAB]
    if len(tables) != 1:
        return 0
    strings = sections[struct.unpack_from("<I", data, tables[0] + 0x28)[0]]
    spans = [struct.unpack_from("<QQ", data, at + 0x18) for at in (tables[0], strings)]
    start, end = min(o for o, _ in spans), max(o + n for o, n in spans)
    between = sorted((at for at in sections if at not in (tables[0], strings)
                      and start <= struct.unpack_from("<Q", data, at + 0x18)[0] < end
                      and struct.unpack_from("<Q", data, at + 0x20)[0]),
                     key=lambda at: struct.unpack_from("<Q", data, at + 0x18)[0])
    if not start < end <= len(data) or shoff < end <= shoff + shnum * shentsize:
        return 0
    moved, cursor = [], start
    for at in between:
        flags, = struct.unpack_from("<Q", data, at + 8)
        offset, size = struct.unpack_from("<QQ", data, at + 0x18)
        align = max(struct.unpack_from("<Q", data, at + 0x30)[0], 1)
        if flags & SHF_ALLOC or offset + size > end:
            return 0                              # loaded, or reaching past the stretch: leave it all
        cursor = -(-cursor // align) * align
        moved.append((at, cursor, bytes(data[offset:offset + size])))
        cursor += size
    segments = [phoff + i * phentsize for i in range(phnum)]
    after = []
    for at in segments:
        kind, = struct.unpack_from("<I", data, at)
        offset, _vaddr, _paddr, size, _memsz, align = struct.unpack_from("<QQQQQQ", data, at + 8)
        if offset < end and offset + size > start and size:
            return 0                              # loaded from inside the table: leave it
        if offset >= end and kind == PT_LOAD:
            after.append(max(align, 1))
    page = max(after + [4096])
    cut = (end - cursor) // page * page
    if cut == 0 or phoff + phnum * phentsize > start:
        return 0
    for at, offset, content in moved:
        data[offset:offset + len(content)] = content
        struct.pack_into("<Q", data, at + 0x18, offset)
    for at in segments:
        offset, = struct.unpack_from("<Q", data, at + 8)
        if offset >= end:
            struct.pack_into("<Q", data, at + 8, offset - cut)
    for at in sections:
        offset, = struct.unpack_from("<Q", data, at + 0x18)
        if at in (tables[0], strings):
            struct.pack_into("<QQ", data, at + 0x18, start, 0)
        elif offset >= end:
            struct.pack_into("<Q", data, at + 0x18, offset - cut)
    if shoff >= end:
        struct.pack_into("<Q", data, 0x28, shoff - cut)
    del data[cursor:cursor + cut]
    path.write_bytes(data)
    return cut


def linux_drop_symbols(build: Path) -> dict[str, int]:
    """The symbol tables of the shared libraries that still carry them (numpy's and OpenBLAS's: 1.4 MB) taken
    out, as Panda3D and Python ship theirs; never the executable's, whose frozen modules follow its ELF image."""
    dropped = {}
    for library in sorted(build.iterdir()):
        if library.is_file() and not library.is_symlink() and ".so" in library.suffixes:
            cut = drop_symbol_table(library)
            if cut:
                dropped[library.name] = cut
    return dropped


def _symbols(library: Path, defined: bool) -> set[str]:
    """The dynamic symbols a library defines (or imports), by binutils' nm, each with its version where it has one
    (TIFFClose@LIBTIFF_4.0, whether imported or defined as the default)."""
    return set(_symbol_kinds(library, defined))


def _symbol_kinds(library: Path, defined: bool) -> dict[str, str]:
    """The same, each with nm's letter for its kind (T a function, D, B or R data, U imported)."""
    listed = subprocess.run(["nm", "-D", "--defined-only" if defined else "--undefined-only", str(library)],
                            capture_output=True, text=True, check=True).stdout
    kinds = {}
    for line in listed.splitlines():
        fields = line.split()
        if len(fields) >= 2:
            kinds[fields[-1].replace("@@", "@")] = fields[-2]
    return kinds


def _elf_files(build: Path) -> list[Path]:
    """The build's programs and libraries (not the links to them)."""
    found = []
    for path in sorted(build.iterdir()):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as file:
                if file.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def _dynamic(binary: Path) -> tuple[list[str], dict[str, set[str]]]:
    """The libraries a program or library needs (its DT_NEEDED), and the symbol versions it needs of each, by
    binutils' readelf."""
    listed = subprocess.run(["readelf", "-d", "-V", "-W", str(binary)], capture_output=True, text=True,
                            check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", listed)
    versions: dict[str, set[str]] = {}
    needs = listed.partition("Version needs section")[2]
    of = None
    for line in needs.splitlines():
        file = re.search(r"File: (\S+)", line)
        version = re.search(r"Name: (\S+)", line)
        if file:
            of = file.group(1)
        elif version and of:
            versions.setdefault(of, set()).add(version.group(1))
    return needed, versions


# names the linker gives every library, which are no library's own
LINKER_NAMES = {"_DYNAMIC", "_GLOBAL_OFFSET_TABLE_", "__bss_start", "_edata", "_end", "_init", "_fini"}


@dataclass(frozen=True)
class StandIns:
    """Libraries of the Linux build the game never calls into, replaced by stand-ins compiled from one C file (a
    part of it for each, chosen with -D), which must define every symbol of theirs the build's libraries import."""
    what: str                  # what they are, for the log and the refusals
    source: Path
    parts: dict[str, str]      # each library's name (libCg.so; libtiff, which auditwheel names
                               # libtiff-56c1bbc6.so.6.2.0): its part of the source
    names: str                 # the pattern of the names of their symbols

    def libraries(self, build: Path) -> dict[Path, str]:
        """Those of them the build holds, each with its part of the source."""
        found = {}
        for name, part in self.parts.items():
            stem = re.escape(name.removesuffix(".so"))
            found |= {path: part for path in sorted(build.glob(f"{name.removesuffix('.so')}*"))
                      if re.fullmatch(rf"{stem}(-[0-9a-f]{{8}})?\.so(\.[0-9.]+)?", path.name)}
        return found

    def imported(self, build: Path) -> set[str]:
        """Their symbols the build's other programs and libraries import (with the version each asks for)."""
        theirs = self.libraries(build)
        return {symbol for binary in _elf_files(build) if binary not in theirs
                for symbol in _symbols(binary, defined=False) if re.fullmatch(self.names, symbol.split("@")[0])}


def cg_stand_ins() -> StandIns:
    """Panda3D's Linux libraries are linked against NVIDIA's Cg toolkit (libCg.so and libCgGL.so, 20 MB), which
    compiles Cg shaders: the game's are GLSL, and Cg is only asked which profiles it supports."""
    return StandIns("the Cg toolkit", CG_STUB, CG_LIBRARIES, r"cg[A-Z]\w*")


def pillow_stand_ins() -> StandIns:
    """Pillow's _imaging is linked against libtiff (which needs zstd and xz) and OpenJPEG: the game writes WebP
    only."""
    return StandIns("TIFF and JPEG 2000", PILLOW_STUB, PILLOW_LIBRARIES, r"_?TIFF\w*|opj_\w+")


def _version_script(library: Path, importers: list[Path], wanted: set[str], folder: Path) -> list[str]:
    """The linker's options that give a stand-in the symbol versions the build asks of the library it replaces
    (glibc's loader refuses an unversioned stand-in for a versioned library)."""
    nodes = sorted(set().union(*(_dynamic(binary)[1].get(library.name, set()) for binary in importers)))
    if not nodes:
        return []
    script = folder / f"{library.name}.map"
    with open(script, "w") as file:
        for node in nodes:
            names = sorted(symbol.split("@")[0] for symbol in wanted if symbol.endswith("@" + node))
            file.write(f"{node} {{ global: {''.join(name + '; ' for name in names)}}};\n")
    return [f"-Wl,--version-script,{script}"]


def replace_with_stand_ins(build: Path, stand_ins: StandIns) -> tuple[int, list[str]]:
    """Compile the stand-ins, check that they define every symbol the build imports from the libraries they
    replace (and as data where the library's is data), put them in their place, and take out the libraries only
    the replaced ones needed. Needs cc, nm and readelf (Debian's build-essential). Returns the bytes saved and the
    names of the libraries taken out."""
    libraries = stand_ins.libraries(build)
    if not libraries:
        return 0, []
    if not all(shutil.which(tool) for tool in ("cc", "nm", "readelf")):
        raise ReleaseError(f"a C compiler (cc), nm and readelf are needed to replace {stand_ins.what} in the Linux "
                           "build (Debian package: build-essential)")
    before = folder_size(build)
    importers = [binary for binary in _elf_files(build) if binary not in libraries]
    real = {}
    for library in libraries:
        real.update(_symbol_kinds(library, defined=True))
    wanted = stand_ins.imported(build) | {symbol for binary in importers for symbol in _symbols(binary, defined=False)
                                          if symbol in real and symbol not in LINKER_NAMES}
    folder = APPS / "stand-ins"
    folder.mkdir(parents=True, exist_ok=True)
    made, offered = {}, {}
    for library, part in libraries.items():
        made[library] = folder / library.name
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", f"-D{part}", f"-Wl,-soname,{library.name}",
                        *_version_script(library, importers, wanted, folder), "-o", str(made[library]),
                        str(stand_ins.source)], check=True, capture_output=True)
        offered.update(_symbol_kinds(made[library], defined=True))
    source = stand_ins.source.relative_to(ROOT) if stand_ins.source.is_relative_to(ROOT) else stand_ins.source
    missing = sorted(wanted - set(offered))
    if missing:
        raise ReleaseError(f"the build asks {stand_ins.what} for {', '.join(missing[:5])}, which {source} "
                           "does not stand in for")
    data = sorted(s for s in wanted if real.get(s, "T") not in "TtWwi" and offered[s] in "TtWwi")
    if data:
        raise ReleaseError(f"{', '.join(data[:5])} are data in {stand_ins.what}, but functions in {source}")
    needed = {name for library in libraries for name in _dynamic(library)[0]}
    for library in libraries:
        shutil.copyfile(made[library], library)
    dropped = []
    while True:
        needs = {binary.name: _dynamic(binary)[0] for binary in _elf_files(build)}
        unneeded = sorted(name for name in needed if name in needs
                          and not any(name in theirs for other, theirs in needs.items() if other != name))
        if not unneeded:
            break
        for name in unneeded:
            needed |= set(needs[name])
            (build / name).unlink()
            dropped.append(name)
        needed -= set(dropped)
    return before - folder_size(build), dropped


def linux_without_cg(build: Path) -> int:
    """The Cg toolkit replaced by stand-ins compiled from packaging/cg/cg_stub.c. Returns the bytes saved."""
    return replace_with_stand_ins(build, cg_stand_ins())[0]


def linux_without_tiff_and_jpeg2000(build: Path) -> tuple[int, list[str]]:
    """Pillow's TIFF and JPEG 2000 libraries replaced by stand-ins compiled from packaging/pillow/codecs_stub.c,
    and the compression libraries only libtiff needed taken out. Returns the bytes saved and what was taken out."""
    return replace_with_stand_ins(build, pillow_stand_ins())


def dangling_libraries(build: Path) -> list[str]:
    """Libraries a program or library of the build needs that came with a wheel (auditwheel names them with a
    hash: libzstd-96175704.so.1.5.7) but are not in the build: the system never has them."""
    return sorted(f"{name} (needed by {binary.name})" for binary in _elf_files(build)
                  for name in _dynamic(binary)[0]
                  if re.search(r"-[0-9a-f]{8}\.so", name) and not (build / name).exists())


def linux_desktop(build: Path) -> None:
    """The desktop entry, and the script that adds it (with this folder's path) to the menu."""
    for name in ("villa-paletti.desktop", "add-to-menu.sh"):
        shutil.copyfile(LINUX_FILES / name, build / name)
    (build / "add-to-menu.sh").chmod(0o755)


def macos_bundle(build: Path, version: str) -> Path:
    """The bundle named as the game is, with its version, an identifier and the invites' scheme in
    Info.plist, and the signatures of the binaries build_apps wrote into made whole again (Apple
    silicon runs nothing else)."""
    bundles = sorted(build.glob("*.app"))
    if not bundles:
        raise ReleaseError(f"build_apps made no app bundle in {build}")
    bundle = bundles[0]
    if bundle.name != BUNDLE_NAME:
        bundle = bundle.rename(build / BUNDLE_NAME)
    info_path = bundle / "Contents" / "Info.plist"
    with open(info_path, "rb") as file:
        info = plistlib.load(file)
    info.update({"CFBundleName": "Villa Paletti", "CFBundleDisplayName": "Villa Paletti",
                 "CFBundleIdentifier": BUNDLE_ID, "CFBundleVersion": version,
                 "CFBundleShortVersionString": version, "NSHighResolutionCapable": True,
                 "CFBundleURLTypes": URL_TYPES})
    info.pop("CFBundleSignature", None)
    with open(info_path, "wb") as file:
        plistlib.dump(info, file)
    for binary in _macos_binaries(build):
        try:
            mended = macho_signatures.seal_again(binary)
        except ValueError as error:
            raise ReleaseError(str(error)) from None
        if mended:
            print(f"  macOS: the ad-hoc signature of {binary.name} ({', '.join(mended)}) sealed again")
    return bundle


# --- archives ----------------------------------------------------------------------------------

def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _tar_entry(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def pack(build: Path, t: Target, version: str) -> Path:
    DIST.mkdir(exist_ok=True)
    stem = f"villa-paletti-{version}-{t.label}"
    if t.system == "linux":
        archive = DIST / f"{stem}.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            tar.add(build, arcname=f"villa-paletti-{version}", filter=_tar_entry)
        return archive
    archive = DIST / f"{stem}.zip"
    top = build / BUNDLE_NAME if t.system == "macos" else build
    prefix = BUNDLE_NAME if t.system == "macos" else f"villa-paletti-{version}"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(top.rglob("*")):
            zf.write(path, f"{prefix}/{path.relative_to(top).as_posix()}")  # keeps the executable bit
    return archive


def finish(platform: str, log: Path) -> tuple[Path, int]:
    t = target(platform)
    build = APPS / platform
    version = project()["version"]
    if not build.is_dir():
        raise ReleaseError(f"{build.relative_to(ROOT)} does not exist: build_apps did not build {platform}")
    if t.system == "windows":
        windows_runtime(build)
        forwarded = windows_stable_abi(build)
        if forwarded:
            print(f"  Windows: python3.dll made, forwarding the {forwarded} names the stable ABI's modules import")
    if t.system == "macos":
        thinned = {binary.name: macho_signatures.thin(binary, t.machine) for binary in _macos_binaries(build)}
        thinned = {name: cut for name, cut in thinned.items() if cut}
        if thinned:
            print(f"  macOS: {', '.join(thinned)} cut to their {t.machine} code "
                  f"({sum(thinned.values()) / 1e6:.1f} MB)")
        macos_bundle(build, version)
    if t.system == "linux":
        linux_one_executable(build, t)
        dropped = linux_drop_symbols(build)
        if dropped:
            print(f"  Linux: the symbol tables of {', '.join(dropped)} taken out ({sum(dropped.values()) / 1e6:.1f} MB)")
        saved = linux_without_cg(build)
        if saved:
            print(f"  Linux: the Cg toolkit replaced by its stand-ins ({saved / 1e6:.1f} MB)")
        saved, dropped = linux_without_tiff_and_jpeg2000(build)
        if saved:
            also = f"; {', '.join(dropped)}, which only they needed, left out" if dropped else ""
            print(f"  Linux: Pillow's TIFF and JPEG 2000 libraries replaced by stand-ins{also} ({saved / 1e6:.1f} MB)")
    found = problems(build, t) + [f"build_apps found no {name}" for name in missing_libraries(log, t)]
    if found:
        raise ReleaseError(f"the {t.label} build is incomplete: " + "; ".join(found))
    _, data, _ = app_folders(build, t)
    licences(data, t)
    if t.system == "linux":
        linux_desktop(build)
    return pack(build, t, version), folder_size(build)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("requirements", help="write build_apps' requirements file from pyproject.toml")
    choosing = commands.add_parser("platforms", help="print the platform tags of some systems, comma-separated")
    choosing.add_argument("systems", nargs="*", metavar="SYSTEM", help="linux, windows or macos (default: all)")
    packing = commands.add_parser("pack", help="check, finish and pack the builds in build/apps into dist/")
    packing.add_argument("platforms", nargs="*", help="build_apps platform tags (default: all in setup.py)")
    packing.add_argument("--log", type=Path, default=ROOT / "build" / "build_apps.log",
                         help="build_apps' output, read for libraries it could not find")
    recording = commands.add_parser("record", help="after a full build passed its test: keep what it was given")
    recording.add_argument("--seconds", type=int, required=True, help="how long the build took")
    args = parser.parse_args(argv)
    try:
        if args.command == "requirements":
            print(f"wrote {write_requirements().relative_to(ROOT)}")
            return 0
        if args.command == "platforms":
            unknown = sorted(set(args.systems) - {"linux", "windows", "macos"})
            if unknown:
                raise ReleaseError(f"no such system: {', '.join(unknown)} (linux, windows or macos)")
            tags = [p for p in build_config()["PLATFORMS"] if not args.systems or target(p).system in args.systems]
            print(",".join(tags))
            return 0
        if args.command == "record":
            print(f"recorded the build in {record(args.seconds).relative_to(ROOT)}")
            return 0
        rows = []
        for platform in args.platforms or build_config()["PLATFORMS"]:
            archive, unpacked = finish(platform, args.log)
            rows.append((target(platform).label, archive, unpacked))
        print(f"\n{'archive':52} {'archive MB':>10} {'unpacked MB':>12} {'unpacked MiB':>13}")
        for _label, archive, unpacked in rows:
            print(f"{archive.relative_to(ROOT).as_posix():52} {archive.stat().st_size / 1e6:10.1f} "
                  f"{unpacked / 1e6:12.1f} {unpacked / 2**20:13.1f}")
        PACKED.write_text(json.dumps({label: {"archive": archive.name,
                                              "archive_mb": round(archive.stat().st_size / 1e6, 1),
                                              "unpacked_mb": round(unpacked / 1e6, 1)}
                                      for label, archive, unpacked in rows}, indent=1))
        return 0
    except (ReleaseError, OSError, subprocess.CalledProcessError) as error:
        print(f"release: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
