"""What a room writes ahead of its news, in a fleet: each request its game is given goes in its journal
(`journal.Journal`), and is written where another server would find it before the room tells its people anything
after it; the news waits at the room's gate (`gate.Gate`) until the write is done. A room taken up from such a
journal plays its entries again here. On its own (no `ahead`), a room writes nothing ahead and holds nothing back,
but still counts how each seat's requests went."""

from __future__ import annotations

from collections.abc import Callable

from villa.match import Match
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.online.server.gate import Gate
from villa.online.server.journal import PERSON, Entry, Journal, play_up_to

Ahead = Callable[[object, Entry], int]   # (the room, an entry): the write's ticket


class Scribe:
    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.gate = Gate(lambda client, message: None)
        self.replaying = False
        self._room = None
        self._ahead: Ahead | None = None
        self._person = False          # a person's request is being carried out (journalled already)

    def attach(self, room, send: Callable[[int, object], None], ahead: Ahead | None) -> None:
        self._room, self._ahead = room, ahead
        self.gate = Gate(send)

    def close(self) -> None:
        """The room is closed: what it never wrote is never told, and nothing here leads back to it."""
        self.gate.drop()
        self._room = self._ahead = None

    def person(self, match: Match, request) -> Exception | None:
        """A person's request: written ahead, carried out, and counted for its seat; its refusal, if any."""
        if self._ahead is not None:       # (a room on its own keeps no journal: it only counts)
            self._write(self.journal.request(match, request, person=True))
        return self._carry_out(match, request)

    def _carry_out(self, match: Match, request) -> Exception | None:
        refusal = None
        for point in (getattr(request, "point", None), getattr(request, "grip", None)):
            if point is not None and not protocol.on_table(*point):
                refusal = OnlineError(Online.NOT_ON_TABLE)
        if refusal is None:
            self._person = True
            try:
                refusal = match.request(request).refusal
            finally:
                self._person = False
        self.journal.verdict(request.seat, refusal)
        return refusal

    def heard(self, match: Match, request) -> None:
        """A request the match was given by a computer player or the turn clock (the match's `heard`): written ahead
        as a person's is."""
        if not self._person and not self.replaying and self._ahead is not None:
            self._write(self.journal.request(match, request, person=False))

    def mark(self, match: Match) -> None:
        """The room tells of something that came at a place no request did: the place is written ahead too, so that
        a room played again elsewhere gets as far."""
        if self._ahead is not None:
            self._write(self.journal.mark(match))

    def wait_for(self, ticket: int | None) -> None:
        self.gate.wait_for(ticket)

    def _write(self, entry: Entry | None) -> None:
        if entry is not None and self._ahead is not None:
            self.gate.wait_for(self._ahead(self._room, entry))

    def replay(self, match: Match, entries: tuple[Entry, ...], heard: Callable[[object], None]) -> None:
        """The journal's entries played again over the settled turn the match was taken up at, each at its place:
        the same game to the last place its people heard of (no computer player acts meanwhile: what they did is
        among the entries). `heard` hears the match's events meanwhile."""
        self.replaying = True
        stop = match.events.subscribe(None, heard)
        try:
            for entry in entries:
                play_up_to(match, entry.place)
                self.journal.adopt(entry)
                if entry.kind == PERSON:
                    self._carry_out(match, entry.request)
                elif entry.request is not None:
                    match.request(entry.request)
        finally:
            self.replaying = False
            stop()
