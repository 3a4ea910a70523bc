"""Windows' stable-ABI forwarder, python3.dll, made for a build that lacks it.

Python's Windows installer puts python3.dll beside python3X.dll: a DLL with no code whose every export forwards
to python3X.dll (PyArg_Parse -> python311.PyArg_Parse). Extension modules built for the stable ABI (abi3, as
cryptography's are) import from it, whichever Python runs them. Panda3D's Windows runtime carries python311.dll
alone, so the build makes the forwarder for the names its modules import from python3.dll.

    names = imported_from(Path("cryptography.hazmat.bindings._rust.pyd"), "python3.dll")
    Path("python3.dll").write_bytes(forwarder("python3.dll", "python311", names))
    exports(Path("python3.dll"))      # {name: "python311.name", ...}, read back
"""

from __future__ import annotations

import struct
from pathlib import Path

FILE_ALIGN, SECTION_ALIGN, RVA = 0x200, 0x1000, 0x1000


def _layout(data: bytes) -> tuple[int, list[tuple[int, int, int, int]], int]:
    """(the optional header's offset, the sections as (rva, size, file offset, raw size), PE32+ or not)."""
    if data[:2] != b"MZ":
        raise ValueError("not a PE file")
    pe, = struct.unpack_from("<I", data, 0x3C)
    if data[pe:pe + 4] != b"PE\0\0":
        raise ValueError("not a PE file")
    count, = struct.unpack_from("<H", data, pe + 6)
    optional_size, = struct.unpack_from("<H", data, pe + 20)
    optional = pe + 24
    table = optional + optional_size
    sections = []
    for n in range(count):
        size, rva, raw_size, offset = struct.unpack_from("<IIII", data, table + 40 * n + 8)
        sections.append((rva, max(size, raw_size), offset, raw_size))
    magic, = struct.unpack_from("<H", data, optional)
    return optional, sections, magic == 0x20B


def _offset(sections, rva: int) -> int:
    for start, size, offset, _raw in sections:
        if start <= rva < start + size:
            return offset + rva - start
    raise ValueError(f"RVA {rva:#x} is in no section")


def _string(data: bytes, at: int) -> str:
    return data[at:data.index(b"\0", at)].decode("ascii")


def _directory(data: bytes, optional: int, wide: bool, number: int) -> tuple[int, int]:
    return struct.unpack_from("<II", data, optional + (112 if wide else 96) + 8 * number)


def imported_from(path: Path, dll: str) -> set[str]:
    """The names a PE file imports from `dll` (by name; case of the DLL's name ignored)."""
    data = path.read_bytes()
    optional, sections, wide = _layout(data)
    rva, _size = _directory(data, optional, wide, 1)
    names: set[str] = set()
    if not rva:
        return names
    at = _offset(sections, rva)
    while True:
        lookup, _stamp, _chain, name, thunks = struct.unpack_from("<IIIII", data, at)
        if not (lookup or name or thunks):
            return names
        if _string(data, _offset(sections, name)).lower() == dll.lower():
            entry, step = _offset(sections, lookup or thunks), 8 if wide else 4
            while True:
                value, = struct.unpack_from("<Q" if wide else "<I", data, entry)
                if not value:
                    break
                if not value >> (63 if wide else 31):             # by name, not by ordinal
                    names.add(_string(data, _offset(sections, value & 0x7FFFFFFF) + 2))
                entry += step
        at += 20


def exports(path: Path) -> dict[str, str | int]:
    """What a DLL exports: each name, and what it forwards to (or the RVA of what it holds)."""
    data = path.read_bytes()
    optional, sections, wide = _layout(data)
    rva, size = _directory(data, optional, wide, 0)
    at = _offset(sections, rva)
    functions, names, addresses, name_table, ordinals = struct.unpack_from("<IIIII", data, at + 20)
    found: dict[str, str | int] = {}
    for n in range(names):
        pointer, = struct.unpack_from("<I", data, _offset(sections, name_table) + 4 * n)
        name = _string(data, _offset(sections, pointer))
        ordinal, = struct.unpack_from("<H", data, _offset(sections, ordinals) + 2 * n)
        target, = struct.unpack_from("<I", data, _offset(sections, addresses) + 4 * ordinal)
        found[name] = _string(data, _offset(sections, target)) if rva <= target < rva + size else target
    return found


def forwarder(name: str, target: str, names: set[str]) -> bytes:
    """A 64-bit DLL called `name` with no code, exporting each of `names` as a forwarder to `target`.NAME."""
    ordered = sorted(names)                                   # the loader looks names up by binary search
    table = bytearray(40)                                     # the export directory, then its arrays and strings
    functions, name_pointers, ordinals = len(table), len(table) + 4 * len(ordered), len(table) + 8 * len(ordered)
    strings = bytearray()
    start = ordinals + 2 * len(ordered)

    def text(value: str) -> int:
        strings.extend(value.encode("ascii") + b"\0")
        return RVA + start + len(strings) - len(value) - 1

    dll_name = text(name)
    body = bytearray(start)
    for n, export in enumerate(ordered):
        struct.pack_into("<I", body, name_pointers + 4 * n, text(export))
        struct.pack_into("<H", body, ordinals + 2 * n, n)
        struct.pack_into("<I", body, functions + 4 * n, text(f"{target}.{export}"))
    struct.pack_into("<IIHHIIIIIII", body, 0, 0, 0, 0, 0, dll_name, 1, len(ordered), len(ordered),
                     RVA + functions, RVA + name_pointers, RVA + ordinals)
    section = bytes(body) + bytes(strings)
    raw = -(-len(section) // FILE_ALIGN) * FILE_ALIGN
    image = RVA + -(-len(section) // SECTION_ALIGN) * SECTION_ALIGN

    headers = bytearray(FILE_ALIGN)
    headers[:2] = b"MZ"
    struct.pack_into("<I", headers, 0x3C, 0x40)
    headers[0x40:0x44] = b"PE\0\0"
    # COFF: x64, one section, the optional header of PE32+, an executable image that is a DLL (large addresses)
    struct.pack_into("<HHIIIHH", headers, 0x44, 0x8664, 1, 0, 0, 0, 240, 0x2022)
    optional = 0x58
    struct.pack_into("<HBBIIIIIQIIHHHHHHIIIIHHQQQQII", headers, optional,
                     0x20B, 14, 0, 0, raw, 0, 0, 0, 0x180000000, SECTION_ALIGN, FILE_ALIGN, 6, 0, 0, 0, 6, 0,
                     0, image, FILE_ALIGN, 0, 2, 0x0160, 0x100000, 0x1000, 0x100000, 0x1000, 0, 16)
    struct.pack_into("<II", headers, optional + 112, RVA, len(section))      # the export directory
    struct.pack_into("<8sIIIIIIHHI", headers, optional + 240, b".rdata", len(section), RVA, raw, FILE_ALIGN,
                     0, 0, 0, 0, 0x40000040)
    return bytes(headers) + section + bytes(raw - len(section))
