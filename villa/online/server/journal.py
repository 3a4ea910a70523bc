"""A room's journal: every request its game was given since the last settled turn, each at the frame it came, so
that another server can play the turn again to the very frame its people last heard of, and how each seat's
requests went (for a player who comes back after their server went: was their last move played?).

The villa is deterministic for the same requests at the same frames (`Villa.snapshot` holds everything its future
depends on once it settled), so the last settled turn's snapshot and the requests since, each given at its place,
make the same game again: the same moves, the same poses. A place is the settled turn the game was at and the
villa's time then (`turn`, `ticks`); a mark is a place with no request, written when the room tells its people of
something that came at a place no request did (a fact the referee accepted, a fall), so that a room played again
reaches it.

    entry = journal.request(match, request, person=True)      # before the match has it: written ahead
    journal.verdict(seat, refusal)                            # how it went
    journal.settled()                                         # a turn settled: its snapshot takes the entries in
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from villa.match import Match
from villa.online import protocol
from villa.online.wire import messages as m
from villa.online.wire.codec import Catalogue

CATALOGUE = Catalogue(m.KINDS)
HEAD = struct.Struct(">IIIB")        # number, settled turn, the villa's ticks, kind
MARK, PERSON, ROOM = 0, 1, 2         # a place only; a person's request (counted for its seat); a computer's or the clock's
MOST_FRAMES = 60 * 60 * 30           # a turn played again takes at most this many frames (half an hour of play)


class JournalError(ValueError):
    """A journal entry that does not read, or does not lead where its game went."""


@dataclass(frozen=True)
class Entry:
    seq: int
    turn: int
    ticks: int
    kind: int
    request: object | None = None

    @property
    def place(self) -> tuple[int, int]:
        return self.turn, self.ticks

    def to_bytes(self) -> bytes:
        body = CATALOGUE.encode(self.request) if self.request is not None else b""
        return HEAD.pack(self.seq, self.turn, self.ticks, self.kind) + body

    @classmethod
    def from_bytes(cls, data: bytes) -> "Entry":
        try:
            seq, turn, ticks, kind = HEAD.unpack_from(data)
            request = CATALOGUE.decode(data[HEAD.size:]) if kind != MARK else None
        except Exception as error:  # noqa: BLE001 - whatever is wrong with stored bytes is one refusal
            raise JournalError(f"a journal entry that does not read: {error}") from None
        if kind not in (MARK, PERSON, ROOM) or (kind != MARK and not hasattr(request, "seat")):
            raise JournalError("a journal entry of no known kind")
        return cls(seq, turn, ticks, kind, request)


@dataclass
class Asked:
    """How a seat's person's requests went: how many the game had, how many were refused, and the last refusal
    (as the wire carries it), for a player who comes back to learn what became of a move in flight."""

    asked: int = 0
    refused: int = 0
    last: list | None = None

    def to_json(self) -> list:
        return [self.asked, self.refused, self.last]

    @classmethod
    def from_json(cls, data) -> "Asked":
        if not isinstance(data, list) or len(data) != 3 or not all(isinstance(n, int) for n in data[:2]):
            return cls()
        return cls(data[0], data[1], data[2] if isinstance(data[2], list) else None)


@dataclass
class Journal:
    seq: int = 0                                  # the last entry's number
    settled_seq: int = 0                          # the last entry the last settled turn took in
    entries: list[Entry] = field(default_factory=list)       # since the last settled turn
    asked: dict[int, Asked] = field(default_factory=dict)    # seat -> how its requests went, now
    asked_settled: dict[int, list] = field(default_factory=dict)   # the same, as of the last settled turn
    last_place: tuple[int, int] = (-1, -1)

    def request(self, match: Match, request, person: bool) -> Entry:
        return self._add(match, PERSON if person else ROOM, request)

    def mark(self, match: Match) -> Entry | None:
        """A place the room told its people of something at; None if an entry holds it already."""
        if place(match) == self.last_place:
            return None
        return self._add(match, MARK, None)

    def _add(self, match: Match, kind: int, request) -> Entry:
        self.seq += 1
        entry = Entry(self.seq, *place(match), kind, request)
        self.entries.append(entry)
        self.last_place = entry.place
        return entry

    def adopt(self, entry: Entry) -> None:
        """An entry played again (a room taken up): among this journal's, under its own number."""
        self.entries.append(entry)
        self.seq, self.last_place = entry.seq, entry.place

    def verdict(self, seat: int, refusal: Exception | None) -> None:
        """How a person's request went (after `request(..., person=True)`)."""
        asked = self.asked.setdefault(seat, Asked())
        asked.asked += 1
        if refusal is not None:
            asked.refused += 1
            asked.last = list(protocol.refusal_parts(refusal))

    def settled(self) -> None:
        """A turn settled: its snapshot holds every entry so far."""
        self.settled_seq = self.seq
        self.entries = []
        self.asked_settled = self.counts()

    def counts(self) -> dict[int, list]:
        return {seat: asked.to_json() for seat, asked in sorted(self.asked.items())}

    @classmethod
    def taken_up(cls, seq: int, counts: dict) -> "Journal":
        """The journal of a game taken up at a settled turn, its entries numbered on from `seq`."""
        asked = {int(seat): Asked.from_json(value) for seat, value in (counts or {}).items()
                 if str(seat).isdigit()}
        journal = cls(seq=seq, settled_seq=seq, asked=asked)
        journal.asked_settled = journal.counts()
        return journal


def place(match: Match) -> tuple[int, int]:
    return match.turn, match.villa.ticks


def play_up_to(match: Match, target: tuple[int, int]) -> None:
    """The match's frames, run until its place reaches `target` (no computer player acts: what they did is in the
    journal)."""
    frames = 0
    while place(match) < target:
        match.frame()
        frames += 1
        if frames > MOST_FRAMES:
            raise JournalError(f"the game does not reach turn {target[0]}, tick {target[1]} again")
