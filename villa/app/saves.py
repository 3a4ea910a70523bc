"""Save files: reading one without trusting it, the autosave slot, and the replays kept of finished games.

The document itself is `villa.match.record`'s. Reading a file refuses, with one sentence
naming the file and what is wrong, anything that is not a plain readable file of sane size,
not UTF-8 JSON, cut short, nested beyond reason, or a record that does not hold together. A
file that fails to load is never written to, renamed or deleted by loading.

The autosave slot (`autosave.json` in the data folder) follows one rule: nothing is lost. The
first autosave of a session replaces the file only when it holds an earlier point of the same
game; a different game is first kept as `autosave.previous.json`, and a file that does not load
is kept as `autosave.broken-<time>.json`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from datetime import datetime, timezone
from pathlib import Path

from villa.app.logs import PlayerError
from villa.app.storage import data_dir, shown_path, write_atomically
from villa.match import record as records
from villa.match.record import Record, RecordError
from villa.presentation import words

log = logging.getLogger(__name__)

AUTOSAVE = "autosave.json"
PREVIOUS = "autosave.previous.json"
MAX_BYTES = 32 * 1024 * 1024     # far beyond any game (a long one is a few hundred kilobytes)
MAX_PATH = 1024


class SaveError(PlayerError):
    """A save file that cannot be taken up; the message names the file and what is wrong."""


# --- reading ----------------------------------------------------------------------------------

def load(path: Path | str) -> Record:
    """The game in the save file at `path`, checked through; `SaveError` if it does not hold together."""
    path = Path(path)
    text = _read_text(path)
    try:
        return from_text(text)
    except SaveError as error:
        raise SaveError(f"cannot load {_named(path)}: {error}") from None


def _named(path: Path) -> str:
    text = shown_path(path)
    return text if len(text) <= 120 else "…" + text[-100:]


def _read_text(path: Path) -> str:
    name = _named(path)
    if len(str(path)) > MAX_PATH:
        raise SaveError(f"cannot load {name}: the file name is too long")
    try:
        info = path.stat()
    except FileNotFoundError:
        raise SaveError(f"there is no save file {name}") from None
    except OSError as error:
        raise SaveError(f"cannot read {name}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise SaveError(f"{name} is a folder, not a save file")
    if not stat.S_ISREG(info.st_mode):
        raise SaveError(f"{name} is not a plain file (a device or a pipe), so it is no save file")
    if info.st_size > MAX_BYTES:
        raise SaveError(f"cannot load {name}: it is {info.st_size // (1024 * 1024)} MB, far too large for a save")
    try:
        with open(path, "rb") as source:
            data = source.read(MAX_BYTES + 1)
    except OSError as error:
        raise SaveError(f"cannot read {name}: {error.strerror or error}") from None
    if len(data) > MAX_BYTES:
        raise SaveError(f"cannot load {name}: it is far too large for a save")
    if not data.strip():
        raise SaveError(f"cannot load {name}: the file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"cannot load {name}: it is not a text file (not a Villa Paletti save)") from None


# What may follow the place JSON gave up at when the file was merely cut short: the start
# of a single string or a single bare token (a number or word cut in the middle).
_TAIL_OF_A_CUT = re.compile(r'"(?:[^"\\]|\\.)*\\?|[^\s,:\[\]{}"]*')


def _cut_short(text: str, error_at: int) -> bool:
    return _TAIL_OF_A_CUT.fullmatch(text[error_at:].rstrip()) is not None


def from_text(text: str) -> Record:
    try:
        document = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_twice)
    except json.JSONDecodeError as error:
        if _cut_short(text, error.pos):
            raise SaveError("the file is cut short (truncated): it ends in the middle of the game, "
                            f"at line {error.lineno}") from None
        raise SaveError(f"the file is corrupt: it is not valid JSON at line {error.lineno}, "
                        f"column {error.colno} ({error.msg})") from None
    except RecursionError:
        raise SaveError("the file is corrupt: it is nested far deeper than any save") from None
    except ValueError as error:
        raise SaveError(f"the file is corrupt: {error}") from None
    try:
        return records.from_document(document)
    except RecursionError:
        raise SaveError("the file is corrupt: it is nested far deeper than any save") from None
    except RecordError as error:
        raise SaveError(_said(error)) from None


def _said(error: RecordError) -> str:
    """What is wrong with the record; a move the referee refuses is named with the screen's words for it."""
    if error.broken is None:
        return str(error)
    return f"{error}: {words.refusal(error.broken).rstrip('.')}"


def _no_constant(name: str):
    raise ValueError(f"it holds {name}, which is not a number")


def _no_twice(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object, refused when it names a key twice (a piece listed twice, say): which one would count?"""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen, twice = set(), None
        for key, _value in pairs:
            if key in seen:
                twice = key
                break
            seen.add(key)
        raise ValueError(f"it names {str(twice)[:40]!r} twice in one place")
    return found


# --- writing ------------------------------------------------------------------------------------

def autosave_path() -> Path:
    return data_dir() / AUTOSAVE


def replays_dir() -> Path:
    return data_dir() / "replays"


def save_replay(record: Record) -> Path:
    """Keep the game (finished, or as far as it went) as a replay file; never replaces one."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    folder = replays_dir()
    path = folder / f"{stamp}-{record.setup.game}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{stamp}-{record.setup.game}-{n}.json"
    write_atomically(path, records.dumps(record, "replay"))
    return path


class Autosaver:
    """Writes the autosave after every settled turn, keeping whatever it would replace that
    another game (or a broken file) left there."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or autosave_path()
        self.owned = False     # the file holds this session's game

    def save(self, record: Record) -> str:
        """Write the autosave; returns the game's digest."""
        if not self.owned:
            self._keep_what_is_there(record)
        write_atomically(self.path, records.dumps(record, "autosave"))
        self.owned = True
        return records.digest(record)

    def _keep_what_is_there(self, record: Record) -> None:
        if not self.path.exists():
            return
        try:
            old = load(self.path)
        except SaveError as error:
            stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
            aside = self.path.with_name(f"autosave.broken-{stamp}.json")
            n = 1
            while aside.exists():
                n += 1
                aside = self.path.with_name(f"autosave.broken-{stamp}-{n}.json")
            os.replace(self.path, aside)
            log.warning("the autosave did not load (%s); kept as %s", error, aside)
            return
        same_line = (old.setup.game == record.setup.game
                     and record.state.log[:len(old.state.log)] == old.state.log
                     and len(old.turns) <= len(record.turns))
        if not same_line:
            aside = self.path.with_name(PREVIOUS)
            os.replace(self.path, aside)
            log.info("the autosave of another game was kept as %s", aside)
