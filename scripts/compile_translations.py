#!/usr/bin/env python3
"""Compile the game's translations (villa/locale/*/LC_MESSAGES/villa.po -> villa.mo), and check them.

    scripts/compile_translations.py            # write every villa.mo
    scripts/compile_translations.py --check    # exit 1 if a message is missing or a .mo is stale
    scripts/compile_translations.py --update   # add new messages from the code (untranslated) to every .po

A message is any literal string passed to `_(...)` or `N_(...)` in villa/. English is the
source language and has no catalog. The compiler is a small one (the .mo format is simple),
so the game needs no tool beyond Python to build its catalogs.
"""

from __future__ import annotations

import argparse
import ast
import string
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "villa"
LOCALE = PACKAGE / "locale"
DOMAIN = "villa"
MARKERS = ("_", "N_")


# --- extraction -------------------------------------------------------------------------------

def extract(package: Path = PACKAGE) -> dict[str, list[str]]:
    """Every translatable message in the package's code, with where it occurs ('path:line')."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                where = f"{path.relative_to(package.parent).as_posix()}:{node.lineno}"
                found.setdefault(node.args[0].value, []).append(where)
    return found


# --- .po files --------------------------------------------------------------------------------

@dataclass
class Entry:
    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    comments: list[str] = field(default_factory=list)
    fuzzy: bool = False


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, found {text!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1] if i + 1 < len(body) else ""
            if nxt not in _ESCAPES:
                raise ValueError(f"{where}: unknown escape \\{nxt}")
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header is the entry whose msgid is empty)."""
    entries: list[Entry] = []
    current: Entry | None = None
    keyword = None
    comments: list[str] = []
    fuzzy = False

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path}:{number}"
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if keyword == "msgstr":
                finish()
                keyword = None
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            comments.append(raw)
            continue
        if line.startswith('"'):
            if current is None or keyword is None:
                raise ValueError(f"{where}: a string continues nothing")
            setattr(current, keyword, getattr(current, keyword) + _unquote(line, where))
            continue
        word, _, rest = line.partition(" ")
        if word == "msgctxt":
            finish()
            current = Entry("", msgctxt=_unquote(rest, where), comments=comments, fuzzy=fuzzy)
            comments, fuzzy = [], False
        elif word == "msgid":
            if current is None or keyword == "msgstr":
                finish()
                current = Entry("", comments=comments, fuzzy=fuzzy)
                comments, fuzzy = [], False
            current.msgid = _unquote(rest, where)
        elif word == "msgstr":
            if current is None:
                raise ValueError(f"{where}: msgstr without msgid")
            current.msgstr = _unquote(rest, where)
        else:
            raise ValueError(f"{where}: cannot read {line!r} (plural forms are not used in this game)")
        keyword = word
    finish()
    return entries


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _po_string(keyword: str, text: str) -> str:
    if "\n" not in text[:-1]:
        return f"{keyword} {_quote(text)}"
    parts = text.splitlines(keepends=True)
    return "\n".join([f'{keyword} ""', *(_quote(p) for p in parts)])


def write_po(path: Path, entries: list[Entry]) -> None:
    blocks = []
    for entry in entries:
        lines = list(entry.comments)
        if entry.fuzzy and not any(c.startswith("#,") for c in lines):
            lines.append("#, fuzzy")
        if entry.msgctxt is not None:
            lines.append(_po_string("msgctxt", entry.msgctxt))
        lines.append(_po_string("msgid", entry.msgid))
        lines.append(_po_string("msgstr", entry.msgstr))
        blocks.append("\n".join(lines))
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


# --- .mo files --------------------------------------------------------------------------------

def compile_mo(entries: list[Entry]) -> bytes:
    """The GNU .mo bytes for these entries: untranslated and fuzzy ones are left out (the header is kept)."""
    messages: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.msgid and (not entry.msgstr or entry.fuzzy):
            continue
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        messages[key.encode("utf-8")] = entry.msgstr.encode("utf-8")
    keys = sorted(messages)
    ids = strs = b""
    offsets = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs), len(messages[key])))
        ids += key + b"\0"
        strs += messages[key] + b"\0"
    count = len(keys)
    key_start = 7 * 4 + 16 * count
    value_start = key_start + len(ids)
    key_table, value_table = [], []
    for id_offset, id_len, str_offset, str_len in offsets:
        key_table += [id_len, key_start + id_offset]
        value_table += [str_len, value_start + str_offset]
    header = struct.pack("<7I", 0x950412DE, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, 0)
    return header + struct.pack(f"<{len(key_table)}I", *key_table) + \
        struct.pack(f"<{len(value_table)}I", *value_table) + ids + strs


# --- checks -----------------------------------------------------------------------------------

def catalogs(locale_dir: Path = LOCALE) -> dict[str, Path]:
    """language code -> its .po file."""
    return {p.parent.parent.name: p for p in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}


def _fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def problems(package: Path = PACKAGE, locale_dir: Path = LOCALE) -> list[str]:
    """Everything wrong with the catalogs, one sentence each: missing, untranslated, fuzzy, stale .mo ..."""
    wanted = extract(package)
    found: list[str] = []
    for language, po in catalogs(locale_dir).items():
        entries = read_po(po)
        header = next((e for e in entries if e.msgid == ""), None)
        if header is None or "charset=UTF-8" not in header.msgstr:
            found.append(f"{language}: the header must declare charset=UTF-8")
        by_id = {e.msgid: e for e in entries if e.msgid}
        for msgid, places in wanted.items():
            entry = by_id.get(msgid)
            if entry is None:
                found.append(f"{language}: missing {msgid!r} (used at {places[0]})")
            elif not entry.msgstr:
                found.append(f"{language}: untranslated {msgid!r} (used at {places[0]})")
            elif entry.fuzzy:
                found.append(f"{language}: fuzzy {msgid!r}")
            elif _fields(entry.msgstr) != _fields(msgid):
                found.append(f"{language}: {msgid!r} has placeholders {_fields(msgid)} but its translation "
                             f"{_fields(entry.msgstr)}")
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compile_mo(entries):
            found.append(f"{language}: {mo.relative_to(locale_dir.parent.parent)} is missing or stale: "
                         f"run scripts/compile_translations.py")
    return found


def unused(package: Path = PACKAGE, locale_dir: Path = LOCALE) -> list[str]:
    """Catalog messages the code no longer uses (harmless; --update marks them obsolete)."""
    wanted = extract(package)
    return [f"{language}: {e.msgid!r}" for language, po in catalogs(locale_dir).items()
            for e in read_po(po) if e.msgid and e.msgid not in wanted]


def update(package: Path = PACKAGE, locale_dir: Path = LOCALE) -> None:
    """Add the code's new messages (untranslated) to every catalog, and drop messages no longer used."""
    wanted = extract(package)
    for po in catalogs(locale_dir).values():
        entries = read_po(po)
        header = [e for e in entries if not e.msgid]
        by_id = {e.msgid: e for e in entries if e.msgid}
        kept = []
        for msgid, places in wanted.items():
            entry = by_id.get(msgid) or Entry(msgid)
            entry.comments = [c for c in entry.comments if not c.startswith("#:")] + [f"#: {places[0]}"]
            kept.append(entry)
        write_po(po, header + kept)


def compile_all(locale_dir: Path = LOCALE) -> list[Path]:
    written = []
    for po in catalogs(locale_dir).values():
        mo = po.with_suffix(".mo")
        data = compile_mo(read_po(po))
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            written.append(mo)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report problems, write nothing")
    parser.add_argument("--update", action="store_true", help="merge new messages from the code into the .po files")
    args = parser.parse_args(argv)
    if args.update:
        update()
    if args.check:
        found = problems()
        for line in found:
            print(line)
        return 1 if found else 0
    for mo in compile_all():
        print(f"wrote {mo.relative_to(ROOT)}")
    found = problems()
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
