"""A server's rooms on disk, in the data folder's `online/`: after each settled turn a room's autosave and its
seats, written together as one file (`CODE.room.json`: the record, in the format of every save, and who sits
where with their tokens), by a writer thread, so the rooms' frames never wait for a disk. A finished game is
kept as a replay (a failed write is tried again at the next chance) and its room file goes.

A room nobody has been in for a while is closed by the server and taken up from here again when one of its
players comes back; a server started again takes up every room whose game was under way. Room files and the server's
replays older than `keep_days` are pruned at start and then every hour by the writer (a server runs for months; its
log rotates by itself: `villa.app.logs`). Files written by earlier versions (`CODE.json` beside `CODE.seats.json`)
are read as well.
"""

from __future__ import annotations

import json
import logging
import queue
import sys
import threading
import time
from pathlib import Path

from villa.app import saves
from villa.app.storage import write_atomically
from villa.match import record as records
from villa.online import protocol
from villa.online.server import Room

log = logging.getLogger(__name__)

FORMAT = "villa-paletti/room"
SUFFIX = ".room.json"
KEEP_DAYS = 30
RETRY_S = 30.0           # a replay that could not be written is tried again after this long
PRUNE_EVERY_S = 3600.0   # how often files older than the days kept are pruned
PRUNE = "prune"          # (the writer's word for it)


class RoomFiles:
    """`replays`: keep a finished game's replay here (a server hosted in the game leaves that to its player's own
    window, which keeps it as every player's does)."""

    def __init__(self, folder: Path, replays: bool = True, keep_days: float = KEEP_DAYS) -> None:
        self.folder, self.replays, self.keep_days = folder, replays, keep_days
        self._pruned_at = time.monotonic()
        self._queue: queue.Queue = queue.Queue()
        self._waiting: dict[str, tuple] = {}        # code -> the newest write not yet begun (older ones are dropped)
        self._writing: dict[str, tuple] = {}        # code -> the write under way
        self._lock = threading.Lock()
        self._writer = threading.Thread(target=self._write_on, name="villa-room-files", daemon=True)
        self._writer.start()
        self.failures = 0

    # --- the autosave: the server's frames hand it over, the writer writes it ---

    def __call__(self, room: Room) -> None:
        """Keep the room as it stands (its record and seats as one pair), off the caller's loop."""
        self._hand_over(room.code, room.kept())

    def _hand_over(self, code: str, pair: tuple) -> None:
        if time.monotonic() - self._pruned_at >= PRUNE_EVERY_S:
            self._pruned_at = time.monotonic()
            self._queue.put(PRUNE)
        with self._lock:
            fresh = code not in self._waiting
            self._waiting[code] = pair
        if fresh:
            self._queue.put(code)

    def flush(self, seconds: float = 10.0) -> bool:
        """Wait until every write handed over is done (a server stopping); False if that took too long."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with self._lock:
                if not self._waiting and not self._writing:
                    return True
            time.sleep(0.01)
        return False

    def _write_on(self) -> None:
        while True:
            code = self._queue.get()
            if code == PRUNE:
                self.prune(self.keep_days)
                continue
            with self._lock:
                pair = self._waiting.pop(code, None)
                if pair is not None:
                    self._writing[code] = pair
            if pair is not None:
                try:
                    self._write(code, *pair)
                finally:
                    with self._lock:
                        del self._writing[code]

    def _write(self, code: str, record, seats: dict) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if record.state.over:
                if self.replays:
                    saves.save_replay(record)
                self._path(code).unlink(missing_ok=True)
                self._old_pair(code)
                return
            document = {"format": FORMAT, "record": records.to_document(record, "autosave"), "seats": seats}
            write_atomically(self._path(code), json.dumps(document, separators=(",", ":")))
        except OSError as error:
            self.failures += 1
            log.warning("room %s: could not be kept on disk: %s", code, error)
            if record.state.over:       # a finished game is not kept again by its room: tried again from here
                retry = threading.Timer(RETRY_S, self._retry, (code, (record, seats)))
                retry.daemon = True
                retry.start()

    def _retry(self, code: str, pair: tuple) -> None:
        with self._lock:
            fresh = code not in self._waiting
            self._waiting.setdefault(code, pair)
        if fresh:
            self._queue.put(code)

    # --- reading ---

    def _path(self, code: str) -> Path:
        return self.folder / f"{code}{SUFFIX}"

    def _old_pair(self, code: str) -> None:
        for path in (self.folder / f"{code}.json", self.folder / f"{code}.seats.json"):
            path.unlink(missing_ok=True)

    def take_up(self, code: str, **options) -> Room | None:
        """The room with this code, kept here while its game was under way (None: none is)."""
        if protocol.room_code(code) != code:
            return None
        with self._lock:
            pair = self._waiting.get(code) or self._writing.get(code)     # not on disk yet: as it was handed over
        try:
            if pair is not None:
                record, seats = pair
            elif self._path(code).exists():
                document = json.loads(self._path(code).read_text(encoding="utf-8"))
                if not isinstance(document, dict) or document.get("format") != FORMAT:
                    raise ValueError("not a room's file")
                record, seats = records.from_document(document["record"]), document["seats"]
            elif (self.folder / f"{code}.seats.json").exists():
                record = saves.load(self.folder / f"{code}.json")
                seats = json.loads((self.folder / f"{code}.seats.json").read_text(encoding="utf-8"))
            else:
                return None
            if record.state.over:
                return None
            return Room.taken_up(record, seats, keep=self, **options)
        except (saves.SaveError, records.RecordError, OSError, ValueError, KeyError, TypeError,
                AttributeError) as error:
            print(f"villa-paletti-server: the room {code} was not taken up: {error}", file=sys.stderr, flush=True)
            return None

    def codes(self) -> list[str]:
        """The codes of every room kept here."""
        found = {p.name.removesuffix(SUFFIX) for p in self.folder.glob(f"*{SUFFIX}")}
        found |= {p.name.removesuffix(".seats.json") for p in self.folder.glob("*.seats.json")}
        return sorted(code for code in found if protocol.room_code(code) == code)

    def under_way(self, **options) -> list[Room]:
        """Every room whose game was under way (a server started again takes them up); a file that does not load is
        named and left as it is."""
        rooms = [self.take_up(code, **options) for code in self.codes()]
        return [room for room in rooms if room is not None]

    def prune(self, keep_days: float = KEEP_DAYS) -> int:
        """Room files not written for `keep_days` go (their games were left long ago), and the server's replays as
        old. Returns how many."""
        limit, gone = time.time() - keep_days * 86400, 0
        folders = [self.folder, saves.replays_dir()] if self.replays else [self.folder]
        for path in (path for folder in folders if folder.is_dir() for path in folder.glob("*.json")):
            try:
                if path.is_file() and path.stat().st_mtime < limit:
                    path.unlink()
                    gone += 1
            except OSError as error:
                log.warning("could not prune %s: %s", path, error)
        return gone
