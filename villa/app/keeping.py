"""Keeping a game on disk as it goes: the autosave after every settled turn, a replay at its end, and
finding the latest game again.

A write that fails never ends the game: the game goes on, the player is told what failed and
where (`on_trouble`, in the window; a line on stderr, headless), the next settled turn tries
again, and the last good save stays where it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from villa.app import saves
from villa.app.logs import PlayerError
from villa.app.storage import data_dir, shown_path
from villa.match import Match, Record, TurnSettled

log = logging.getLogger(__name__)

Trouble = Callable[[str, Path, OSError], None]   # (what: "autosave" | "replay", where, why)


class Keeper:
    def __init__(self, out: TextIO | None = None, err: TextIO | None = None,
                 on_trouble: Trouble | None = None, on_kept: Callable[[], None] | None = None) -> None:
        self.out, self.err = out, err
        self.on_trouble, self.on_kept = on_trouble, on_kept
        self.autosaver = saves.Autosaver()
        self.replay_path: Path | None = None
        self.failing = False          # the last write failed: the next success says so
        self._stop: Callable[[], None] | None = None

    def follow(self, match: Match, announce: bool = False) -> None:
        """Keep `match` after each of its settled turns (and its replay at the end)."""
        self.fresh()
        self._stop = match.events.subscribe(TurnSettled, lambda _event: self.keep(match, announce))

    def fresh(self) -> None:
        """A new game: nothing followed, and its own replay still to keep when it ends."""
        self.stop()
        self.replay_path = None

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None

    def keep(self, match: Match, announce: bool = False) -> None:
        record = match.record
        try:
            digest = self.autosaver.save(record)
        except OSError as error:
            self._trouble("autosave", self.autosaver.path, error)
            return
        if self.failing:
            self.failing = False
            log.info("the autosave works again")
        if announce and self.out is not None:
            print(f"turn {record.turn} saved {digest}", file=self.out, flush=True)
        if match.over:
            self.keep_replay(record)
        if self.on_kept is not None:
            self.on_kept()

    def keep_replay(self, record: Record) -> None:
        """The finished game among the replays, once (a game online: the record its server sent)."""
        if self.replay_path is not None:
            return
        try:
            self.replay_path = saves.save_replay(record)
        except OSError as error:
            self._trouble("replay", saves.replays_dir(), error)

    def _trouble(self, what: str, where: Path, error: OSError) -> None:
        self.failing = True
        log.warning("could not write the %s to %s: %s", what, where, error)
        if self.on_trouble is not None:
            self.on_trouble(what, where, error)
        if self.err is not None:
            print(f"villa-paletti: could not write the {what} to {shown_path(where)}: {error.strerror or error}; "
                  f"the game goes on and tries again after the next turn", file=self.err, flush=True)


def _candidates() -> list[tuple[Path, str]]:
    folder = data_dir()
    found = [(folder / saves.AUTOSAVE, "the autosave"), (folder / saves.PREVIOUS, "the autosave kept aside")]
    replays = saves.replays_dir()
    try:
        if replays.is_dir():
            found += [(p, "the newest replay") for p in replays.glob("*.json")]
    except OSError:
        pass
    return found


def has_kept_game() -> bool:
    """Is there anything `latest_game` could look at (the main menu's Continue)?"""
    return any(path.is_file() for path, _how in _candidates())


def latest_game() -> tuple[Path, str, Record]:
    """The latest game kept anywhere, and where it was found: the autosave when it loads; else the newest
    that loads of the autosave kept aside for another game and the replays (a crash between setting a
    game aside and the next game's first autosave leaves only those)."""
    candidates = _candidates()
    existing = []
    for order, (path, how) in enumerate(candidates):
        try:
            if path.is_file():
                existing.append((order == 0, path.stat().st_mtime, path, how))
        except OSError:
            continue
    if not existing:
        raise PlayerError("there is no saved game to continue yet: start one first")
    existing.sort(key=lambda entry: entry[:2], reverse=True)
    refusals = []
    for _first, _when, path, how in existing:
        try:
            return path, how, saves.load(path)
        except saves.SaveError as error:
            refusals.append(str(error))
    raise PlayerError(f"no saved game loads: {refusals[0]}")
