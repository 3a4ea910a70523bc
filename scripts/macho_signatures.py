"""Ad-hoc code signatures of macOS binaries, checked and sealed again after build_apps edits them.

Apple silicon runs no arm64 code whose signature does not match it: an ad-hoc signature
(no identity, as the linker or a wheel's build leaves it) is enough, but it holds a hash of
every page. build_apps writes into the binaries it ships (the executable's header of the
frozen game, the library paths in numpy's modules), so those pages no longer match. An
ad-hoc signature carries no cryptographic seal over its hashes, so writing the new page
hashes makes it valid again; a signature made with an identity cannot be mended that way
and is reported instead.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

FAT_MAGIC = b"\xca\xfe\xba\xbe"
MACHO_64 = b"\xcf\xfa\xed\xfe"
LC_CODE_SIGNATURE = 0x1D
CODE_DIRECTORY = 0xFADE0C02
CS_ADHOC = 0x2
HASHES = {1: hashlib.sha1, 2: hashlib.sha256}
ARCHES = {0x1000007: "x86_64", 0x100000C: "arm64"}


def _slices(data: bytes) -> list[tuple[str, int, int]]:
    """(architecture, offset, size) of each 64-bit Mach-O in a file (one, or several in a fat file)."""
    if data[:4] == FAT_MAGIC:
        count, = struct.unpack_from(">I", data, 4)
        slices = []
        for i in range(count):
            cpu, _, offset, size, _ = struct.unpack_from(">IIIII", data, 8 + 20 * i)
            if data[offset:offset + 4] == MACHO_64:
                slices.append((ARCHES.get(cpu, hex(cpu)), offset, size))
        return slices
    if data[:4] == MACHO_64:
        return [(ARCHES.get(struct.unpack_from("<I", data, 4)[0], "?"), 0, len(data))]
    return []


def _code_directories(data: bytes, start: int):
    """Each CodeDirectory of the slice at `start`: (its offset in the file, its fields)."""
    ncmds, = struct.unpack_from("<I", data, start + 16)
    at = start + 32
    for _ in range(ncmds):
        command, size = struct.unpack_from("<II", data, at)
        if command == LC_CODE_SIGNATURE:
            signature = start + struct.unpack_from("<I", data, at + 8)[0]
            _, _, count = struct.unpack_from(">III", data, signature)
            for i in range(count):
                _, offset = struct.unpack_from(">II", data, signature + 12 + 8 * i)
                blob = signature + offset
                if struct.unpack_from(">I", data, blob)[0] == CODE_DIRECTORY:
                    (_, _, _, flags, hash_offset, _, _, pages, code_limit, hash_size, hash_type, _,
                     page_shift) = struct.unpack_from(">IIIIIIIIIBBBB", data, blob)
                    yield blob, dict(flags=flags, hashes=blob + hash_offset, pages=pages, limit=code_limit,
                                     hash_size=hash_size, hash_type=hash_type, page=1 << page_shift)
        at += size


def _page_hashes(data: bytes, start: int, cd: dict) -> list[bytes]:
    digest = HASHES[cd["hash_type"]]
    return [digest(data[start + k * cd["page"]:start + min((k + 1) * cd["page"], cd["limit"])]).digest()
            [:cd["hash_size"]] for k in range(cd["pages"])]


def _matches(data: bytes, start: int) -> bool:
    """Whether every signature of the slice at `start` (if it has any) matches its code."""
    for _, cd in _code_directories(data, start):
        stored = [data[cd["hashes"] + k * cd["hash_size"]:cd["hashes"] + (k + 1) * cd["hash_size"]]
                  for k in range(cd["pages"])]
        if stored != _page_hashes(data, start, cd):
            return False
    return True


def broken_signatures(path: Path) -> list[str]:
    """The architectures of `path` whose signature no longer matches their code."""
    data = path.read_bytes()
    return [arch for arch, start, _ in _slices(data) if not _matches(data, start)]


def seal_again(path: Path) -> list[str]:
    """Write the page hashes of each broken ad-hoc signature in `path` anew; returns the
    architectures mended. A broken signature made with an identity raises ValueError."""
    data = bytearray(path.read_bytes())
    mended = []
    for arch, start, _ in _slices(bytes(data)):
        if _matches(bytes(data), start):
            continue
        for _, cd in _code_directories(bytes(data), start):
            if not cd["flags"] & CS_ADHOC:
                raise ValueError(f"{path.name} ({arch}) has a signature made with an identity: sign it on a Mac")
            for k, digest in enumerate(_page_hashes(bytes(data), start, cd)):
                data[cd["hashes"] + k * cd["hash_size"]:cd["hashes"] + (k + 1) * cd["hash_size"]] = digest
        mended.append(arch)
    if mended:
        path.write_bytes(bytes(data))
    return mended


def thin(path: Path, arch: str) -> int:
    """A fat file (a universal2 module: both Macs' code) cut down to its `arch` slice, whose own signature goes
    with it; returns the bytes taken out (0: not fat, or no such slice)."""
    data = path.read_bytes()
    slices = _slices(data)
    kept = [(offset, size) for name, offset, size in slices if name == arch]
    if data[:4] != FAT_MAGIC or len(slices) < 2 or not kept:
        return 0
    offset, size = kept[0]
    path.write_bytes(data[offset:offset + size])
    return len(data) - size
