"""A room's game as the fleet keeps it in Redis, in parts that each change alone: the game's recipe and start
(written once), its seats (at each change of seat), one entry per settled turn (the moves it added, the villa's
poses then, how each seat's requests had gone), and the journal of requests since (`villa.online.server.journal`).
A settled turn appends a few kilobytes, never the whole record again.

Reading them back (`read_room`) is plain Python, done on the fleet's own thread: the record of the last settled
turn, the seats, and the entries to play again over it. What does not read is a `DocumentError`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from villa import __version__, rules
from villa.match import Record
from villa.match import record as records
from villa.match.record import RecordError, TurnRecord
from villa.online.server.journal import Entry, JournalError

FORMAT = "villa-paletti/fleet-room"
VERSION = 1


class DocumentError(ValueError):
    """A room in Redis that does not read, saying what is wrong."""


def _dumps(data) -> bytes:
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode()


def game_document(record: Record) -> bytes:
    return _dumps({"format": FORMAT, "version": VERSION, "game_version": __version__,
                   "plan": records.plan_to_json(record.setup), "start": rules.state_to_json(record.start)})


def seats_document(room) -> bytes:
    """Who sits where in the room with their tokens, the turn clock, and who plays each seat now (a person's seat
    may have gone to a computer player)."""
    players = room.match.setup.seats if room.match is not None else room.plan.seats
    return _dumps({"room": room.code, "seats": room.seating.to_json(), "clock": room.clock.seconds,
                   "players": [{"name": s.name, "computer": s.computer.value if s.computer else None}
                               for s in players]})


def turn_entry(turn: TurnRecord, log: tuple, since: int, previous: int | None, asked: dict) -> bytes:
    """A settled turn: the moves from `since` to its own, the villa, the seats' requests as they had gone;
    `previous`: the turn before's moves as the game counts them now (a colour settled after it was written)."""
    return _dumps({"turn": turn.turn, "actions": turn.actions, "since": since, "previous": previous,
                   "moves": rules.moves_to_json(log[since:turn.actions]), "villa": turn.villa, "asked": asked})


@dataclass(frozen=True)
class Kept:
    """A room read back: its record as of its last settled turn, its seats (with `asked`: how the seats' requests
    had gone then), the entries to play again over it, and the number of the last entry that turn took in."""

    record: Record
    seats: dict
    entries: tuple[Entry, ...]
    base: int


def read_room(game: bytes, seats: bytes, turns: list[bytes], requests: list[bytes], base: bytes | int) -> Kept:
    try:
        document = json.loads(game)
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise DocumentError("the game's document is not a fleet room's")
        if document.get("version") != VERSION:
            raise DocumentError(f"the game's document is of another version ({document.get('version')!r})")
        setup = records.plan_from_json(document.get("plan"))
        start = rules.state_from_json(document.get("start"))
        sitting = json.loads(seats)
        if not isinstance(sitting, dict):
            raise DocumentError("the seats' document is damaged")
        setup = replace(setup, seats=records.seats_from_json(sitting.pop("players", None)))
        state, log, kept = start, list(start.log), []
        asked = {}
        for number, data in enumerate(json.loads(t) for t in turns):
            if not isinstance(data, dict) or data.get("turn") != number or data.get("since") != len(log):
                raise DocumentError(f"turn {number} does not follow the turns before it")
            for move in rules.moves_from_json(data.get("moves")):
                state = rules.apply(state, move)
                log.append(move)
            if len(log) != data.get("actions"):
                raise DocumentError(f"turn {number} has moves its count does not hold")
            records.check_snapshot(data.get("villa"), f"turn {number}")
            if kept and isinstance(data.get("previous"), int):
                kept[-1] = replace(kept[-1], actions=data["previous"])
            kept.append(TurnRecord(number, len(log), data["villa"]))
            asked = data.get("asked") or {}
        if not kept:
            raise DocumentError("it has no turn yet")
        entries = tuple(Entry.from_bytes(entry) for entry in requests)
        base = int(base)
    except (ValueError, TypeError, KeyError, rules.RuleError, rules.DocumentError, RecordError, JournalError) as error:
        raise DocumentError(f"the room does not read: {error}") from None
    if any(entry.seq != base + n for n, entry in enumerate(entries, 1)):
        raise DocumentError("its journal's entries are not numbered one after another")
    return Kept(Record(setup, start, state, tuple(kept)), {**sitting, "asked": asked}, entries, base)
