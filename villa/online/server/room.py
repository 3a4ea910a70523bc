"""A room on the server: the table where its people sit (`Seating`), the game played there (a `Match`, the very
object a hot-seat game plays), and what its people are told (`News`). The room coordinates them: it lets a
person sit, come back, or (the host) set the game up; it hands each request of a seat to the match after
checking that the sender sits there; it runs the match's frames and passes on what happened.

The room is headless and knows nothing of sockets: the server calls it with a connection's number and the
message it sent, and gives it `send(client, message)` (`attach`). In a fleet it also writes every request its game
is given ahead (`journal`), and its news waits for those writes (`gate`): a room taken over elsewhere plays them
again, and no move its people heard of is lost.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace

from villa import rules
from villa.match import Accepted, Match, MatchSetup, Record, RoundStarted, Seat, Strength, TurnSettled, building
from villa.match import requests as rq
from villa.match.computer import reseat_computers, seat_computers
from villa.match.record import state_at
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.online.server.journal import Entry, Journal
from villa.online.server.news import News
from villa.online.server.scribe import Ahead, Scribe
from villa.online.server.seating import REJOIN_S, Seating
from villa.online.server.snapshot import Snapshot
from villa.online.server.turn_clock import TurnClock
from villa.online.wire import messages as m

log = logging.getLogger(__name__)

RECORD_KEPT_S = 600.0     # a finished game waits this long for a player who has not had its record
NOBODY_S = 600.0          # a room with nobody here this long is kept on disk and closed
ALONE_S = 60.0            # a room a player opened that only one person (or nobody) ever sat in, or of computer
                          # players only, closes after this long with nobody here (nobody watching)

Keep = Callable[["Room"], int | None]    # writes the room's autosave (the app's files, a fleet); may raise OSError;
                                         # in a fleet, the write's ticket (its news waits for it)


class Room:
    def __init__(self, code: str, plan: MatchSetup, keep: Keep | None = None, record: Record | None = None,
                 seating: Seating | None = None, clock: Callable[[], float] = time.monotonic, aside: bool = False,
                 waits_for_host: bool = False, turn_seconds: int = 0, journal: Journal | None = None,
                 entries: tuple[Entry, ...] = (), hosted_at: int | None = None) -> None:
        """`plan`: the game to start, its people's seats named only until someone sits there; `record`: a game
        taken up again (its autosave), and `entries`, the requests its journal had since, played again over it;
        `waits_for_host`: the game begins when the host says so (`begin`), not as soon as every seat is sat;
        `aside`: computer players think in a worker process; `hosted_at`: the seat of the person whose own window
        serves this room (None: a server of its own), whom everyone waits for if that window closes."""
        self.code, self.plan, self._keep, self._clock, self._aside = code, plan, keep, clock, aside
        self.waits_for_host, self.hosted_at = waits_for_host, hosted_at
        self.opened_from: str | None = None          # the network of whoever opened it (None: the server did)
        self.seating = seating or Seating((record.setup if record else plan).seats, clock=clock)
        self.scribe = Scribe(journal or Journal())   # the requests written ahead, the news held until they are
        self.journal = self.scribe.journal
        self.news = News(self.scribe.gate.send)
        self.fence: int | None = None                # in a fleet: the fencing number this server holds the room by
        self.clock = TurnClock(turn_seconds, clock, aside)
        self.match: Match | None = None
        self.tick = 0
        self.nobody_since: float | None = clock()    # when the last person here left (None: someone is here)
        self.ended_at: float | None = None           # when the game's record went out
        self.record_had: set[int] = set()            # the seats whose player has the record
        self._done: dict[int, int] = {}              # client -> its requests carried out (its held piece's echo)
        self.told = Snapshot()                   # the room as it stands, built once per change
        self._settling: Future | None = None     # the game's villa settling off the frame loop (`_start`)
        self._recording: Future | None = None    # the finished game's record, made off the frame loop
        if record is not None:
            match = Match(record.setup, record)
            if entries:
                self.scribe.replay(match, entries, self._heard)
                if match.over:
                    self.ended_at = clock()          # its record goes to whoever comes back
            self._play(match)
        else:
            self._start_when_full()     # computer players only: at once

    def attach(self, send: Callable[[int, object], None], ahead: Ahead | None = None) -> None:
        """The server's way to each connection; `ahead`: where the journal's entries are written before the news
        after them goes out (a fleet)."""
        self.scribe.attach(self, send, ahead)
        self.news = News(self.scribe.gate.send)

    def table(self) -> dict:
        """The table as its people see it: who sits where, who hosts, the game (its plan) and the clock, with the
        time left of the move asked now (for a window come back in the middle of it)."""
        setup = self.match.setup if self.match else self.plan
        table = {"seats": self.seating.rows(), "started": self.match is not None, "game": setup.game,
                 "host": self.seating.host_seat, "plan": protocol.plan_json(setup), "clock": self.clock.seconds,
                 "turn": self.match.turn if self.match else 0}
        if self.fence is not None:
            table["fence"] = self.fence
        if self.match is not None:
            table["asked"] = {str(seat): asked.to_json() for seat, asked in sorted(self.journal.asked.items())}
        if self.hosted_at is not None:
            table["hosted_at"] = self.hosted_at
        if self.match is not None and self.clock.seconds:
            self.clock.watch(self.match.state)
            table["move_left"] = [len(self.match.state.log), rules.acting_player(self.match.state),
                                  round(self.clock.left(), 1)]
        return table

    def state(self) -> rules.GameState:
        return self.told.state(self)

    # --- who is in the room ---------------------------------------------------------------------------

    def enter(self, client: int) -> None:
        """Someone entered the room (by its code): they see it as it stands, and a finished game's record. What
        they are told is built once per change and shared by everyone who enters meanwhile."""
        self.news.audience.add(client)
        if self.seating.computers_only:
            self.nobody_since = None         # watched
        self.news.to((client,), self.told.entering(self))
        if self.match is not None and self.match.over and self.ended_at is not None:
            self.news.to((client,), self.told.record(self))

    def leave(self, client: int, for_good: bool = False) -> None:
        """A connection closed, or its player left: its seats wait for their tokens (`for_good`: the player gave
        them up, and they wait for the host's choice; everyone is told)."""
        self.news.audience.discard(client)
        self._done.pop(client, None)
        given = (self.seating.give_up if for_good else self.seating.leave)(client)
        if for_good and self.match is None:
            for seat in given:
                self.seating.free(seat)        # the lobby: the seat is free again at once
        if given:
            self._table_changed()
            if for_good:
                self.keep()
        here = self.audience if self.seating.computers_only else self.seating.anyone_here
        if not here and self.nobody_since is None:
            self.nobody_since = self._clock()

    @property
    def audience(self) -> set[int]:
        return self.news.audience

    # --- the table: sitting down, coming back, the host's choices ---------------------------------------

    def sit(self, client: int, name: str, seat: int) -> None:
        self.seating.sit(client, name, seat, started=self.match is not None)
        self._seated(client, seat)
        self._start_when_full()

    def rejoin(self, client: int, token: str) -> None:
        seat = self.seating.rejoin(client, token)
        self._seated(client, seat)
        if self.match is not None and self.match.over and seat not in self.record_had and self.ended_at is not None:
            self.record_had.add(seat)

    def _seated(self, client: int, seat: int) -> None:
        self.nobody_since = None
        self.keep()     # a game under way keeps its seats' new tokens at once (before the token is told)
        self.news.to((client,), [m.Seated(seat, self.seating.sitters[seat].token)])
        self._table_changed()

    def set_plan(self, client: int, plan: bytes) -> None:
        """The host's game for this room (seats, rules, variants, layout); whoever sits keeps their seat."""
        self._before_start(client)
        setup = protocol.unpack_plan(plan)
        computers = {seat.name for seat in setup.seats if seat.is_computer}
        for number, sitter in sorted(self.seating.sitters.items()):
            if number >= len(setup.seats) or setup.seats[number].is_computer:
                raise OnlineError(Online.SEAT_TAKEN, seat=number)
            if sitter.name in computers:
                raise OnlineError(Online.NAME_TAKEN, name=sitter.name)
        self.plan = setup
        self.seating.seats = setup.seats
        self.news.state(self.state())
        self._table_changed()
        self._start_when_full()

    def begin(self, client: int) -> None:
        """The host starts the game: every person's seat sat by someone here, the rest given to computers."""
        self._before_start(client)
        empty = self.seating.empty_seats()
        if empty:
            raise OnlineError(Online.EMPTY_SEATS, seats=empty)
        self._start()

    def set_clock(self, client: int, seconds: int) -> None:
        """The host, before the game: how long a person has for a move (0: as long as they like)."""
        self._before_start(client)
        self.clock.seconds = TurnClock.nearest(seconds)
        self._table_changed()

    def give_to_computer(self, client: int, seat: int, strength: Strength) -> int | None:
        """The host gives a seat to a computer player: an empty one before the game, or during it the seat of a
        person who left or stalls. Returns the connection that sat there (to be told), if any."""
        self.seating.check_host(client)
        if not 0 <= seat < len(self.seating.seats):
            raise OnlineError(Online.NO_SUCH_SEAT, seat=seat)
        if self.seating.seats[seat].is_computer:
            raise OnlineError(Online.SEAT_TAKEN, seat=seat)
        if self.seating.holds(client, seat):
            raise OnlineError(Online.OWN_SEAT, seat=seat)
        if self.match is None:
            if self.seating.connection(seat) is not None:
                raise OnlineError(Online.SEAT_TAKEN, seat=seat)   # before the game: send them away first
            names = self.seating.names_but(seat)
            name = next(f"Computer {n}" for n in range(1, 6) if f"Computer {n}" not in names)
            seats = list(self.plan.seats)
            seats[seat] = Seat(name, strength)
            self.plan = replace(self.plan, seats=tuple(seats))
            self.seating.seats = self.plan.seats
            self.seating.free(seat)
            self._table_changed()
            self._start_when_full()
            return None
        return self.computer_plays(seat, strength)

    def send_away(self, client: int, seat: int) -> int | None:
        """The host, before the game: the player at `seat` out of the room. Returns their connection."""
        self._before_start(client)
        if self.seating.holds(client, seat):
            raise OnlineError(Online.OWN_SEAT, seat=seat)
        gone = self.seating.free(seat)
        if gone is None and seat not in range(len(self.seating.seats)):
            raise OnlineError(Online.NO_SUCH_SEAT, seat=seat)
        self._table_changed()
        return gone

    def computer_plays(self, seat: int, strength: Strength = Strength.MEDIUM) -> int | None:
        """A person's seat is played by a computer from now on (the host's choice, or a wait that ran out).
        Returns the connection that sat there, if it is still here."""
        if self.seating.seats[seat].is_computer:
            return None
        gone = self.seating.free(seat)
        self.match.change_seat(seat, strength)
        self.seating.seats = self.match.setup.seats
        self.seating.stand_ins.add(seat)
        reseat_computers(self.match, aside=self._aside)
        self._table_changed()
        self.keep()     # the host's choice outlasts the room: a room taken up again keeps the computer there
        return gone

    def _before_start(self, client: int) -> None:
        if self.match is not None or self._settling is not None:
            raise OnlineError(Online.STARTED)
        self.seating.check_host(client)

    # --- a seat's requests in the game -----------------------------------------------------------------

    def request(self, client: int, request) -> Exception | None:
        """A request of one of the client's seats (`villa.match.requests`): the match's verdict, or why the room
        refused it before the match saw it."""
        self.seating.check_holds(client, request.seat)
        if self.match is None:
            raise OnlineError(Online.NOT_STARTED)
        self._done[client] = self._done.get(client, 0) + 1
        refusal = self.scribe.person(self.match, request)
        if type(request) in rq.HAND_REQUESTS:
            self.news.woken()     # sent again at the next pose update, with this request counted
        return refusal

    def holder(self) -> tuple[int, int]:
        """The seat whose hand holds a piece (-1: none, or a computer's) and how many of its connection's
        requests the room has carried out."""
        match = self.match
        if match is None or match.hand is None:
            return -1, 0
        seat = rules.acting_player(match.state)
        client = self.seating.connection(seat)
        if client is None:
            return -1, 0
        return seat, self._done.get(client, 0)

    # --- the game ---------------------------------------------------------------------------------------

    def _start_when_full(self) -> None:
        """Every person's seat sat (a room of computer players only has nobody to wait for, not even a host)."""
        people = any(not seat.is_computer for seat in self.plan.seats)
        if self.match is None and not self.seating.unsat() and not (self.waits_for_host and people):
            self._start()

    def _start(self, now: bool = False) -> None:
        """The game begins. With `aside`, a layout whose settled villa is not yet known here is settled on a
        thread of its own first, and the game begins at the first frame after (`_settled`): the server's frame
        loop goes on meanwhile, for every other room and every connection."""
        layout, setup = self.plan.layout, not self.plan.started_higher
        if self._aside and not now and building.known(layout, setup) is None:
            self._settling = self._settling or building.settle_aside(layout, setup)
            return
        sitters = self.seating.sitters
        seats = tuple(replace(seat, name=sitters[n].name) if n in sitters else seat
                      for n, seat in enumerate(self.plan.seats))
        self._play(Match(replace(self.plan, seats=seats)))
        self.keep()     # kept from its first frame: a server gone before the first turn settled loses nothing
        self.news.state(self.match.state)
        self.news.villa(self.match, self.tick)
        self._table_changed()

    def _play(self, match: Match) -> None:
        self.match = match
        self.seating.seats = match.setup.seats
        seat_computers(match, aside=self._aside)
        match.events.subscribe(None, self._heard)
        match.heard = lambda request: self.scribe.heard(match, request)
        self.clock.watch(match.state)

    def _heard(self, event) -> None:
        """The match's news, passed on in the order it came."""
        if isinstance(event, TurnSettled):
            self.journal.settled()
        if self.scribe.replaying:
            return
        if isinstance(event, Accepted):
            self.scribe.mark(self.match)
            at = len(event.before.log)
            self.news.moves(at, event.after.log[at:])
            return
        if isinstance(event, TurnSettled):
            self.keep()
        else:
            self.scribe.mark(self.match)
        if isinstance(event, RoundStarted):
            self.news.villa(self.match, self.tick)     # the villa built anew comes before its round
        self.news.event(event)
        if isinstance(event, TurnSettled):
            if self.match.over and self.ended_at is None:
                self.ended_at = self._clock()
                if self._aside:        # the whole game, compressed: made on a thread, sent at the frame after
                    self._recording = self.told.record_aside(self)
                else:
                    self._send_record()

    def _send_record(self) -> None:
        self._recording = None
        sent_to = self.news.to_all(*self.told.record(self))
        self.record_had = {seat for seat, s in self.seating.sitters.items() if s.client in sent_to}

    def _settled(self) -> None:
        """The game's villa has settled off the loop: the game begins, unless someone gave their seat up for good
        meanwhile (the room is then the lobby it was). A villa that fell while settling is built here as it fell."""
        self._settling = None
        if self.seating.unsat():
            self._table_changed()
            return
        self._start(now=True)

    def begin_now(self) -> None:
        """A game about to begin (its villa settling off the loop) begins at once: the server stops, and keeps it
        or hands it on as a game under way, not as the lobby it was a moment ago."""
        if self._settling is not None:
            self._settled()

    def frames(self, count: int = 1) -> None:
        """Let the match run `count` frames of 1/60 s, then tell the room what changed."""
        if self._settling is not None and self._settling.done():
            self._settled()
        if self._recording is not None and self._recording.done():
            self._send_record()
        for seat in self.seating.waited_too_long():
            if self.match is None:
                self.seating.free(seat)           # the lobby: the seat is free again
                self._table_changed()
            elif self.seating.anyone_here:
                self.computer_plays(seat)         # the others play on (with nobody here, the room is kept instead)
        if self.match is None or (not self.audience and self.seating.computers_only):
            return
        self.clock.keep(self.match)
        for _ in range(count):
            self.match.frame()
            self.tick += 1
            if not self.match.villa.still:
                self.told.moved_at = self.tick
            self.news.frame(self.match, self.tick, self.holder())

    def _table_changed(self) -> None:
        self.told.table_version += 1
        self.news.to_all(self.told.table(self))

    # --- the room's life ------------------------------------------------------------------------------------

    @property
    def closable(self) -> bool:
        """Done with: a finished game every player has the record of (or that waited long enough for a late one), a
        game nobody has been at for a while, or a room opened for a host nobody came back to (after a minute, if only
        one person, or nobody, ever sat in it, or nobody watches its computer players). (A room the server was
        started with, which has no host to wait for, waits for its players as long as the server runs.) Never while
        news waits for its writes (in a fleet): the record of a finished game among it."""
        now = self._clock()
        if self.scribe.gate.holding:
            return False
        if self.ended_at is not None:
            people = {n for n, seat in enumerate(self.seating.seats)
                      if not seat.is_computer and n in self.seating.sitters}
            return people <= self.record_had or now - self.ended_at > RECORD_KEPT_S
        if self.nobody_since is None or (self.match is None and not self.waits_for_host):
            return False
        if self.waits_for_host and len(self.seating.sitters) <= 1:
            return now - self.nobody_since > ALONE_S         # a stranger's room: only one ever sat here, or nobody
        return now - self.nobody_since > (REJOIN_S if self.match is None else NOBODY_S)

    def keep(self) -> None:
        """The autosave; a failed write never ends the game (the next settled turn tries again). In a fleet, the news
        from now on waits for the write."""
        if self._keep is None or self.match is None:
            return
        try:
            self.scribe.wait_for(self._keep(self))
        except OSError as error:
            log.warning("room %s: could not write its autosave: %s", self.code, error)

    def kept(self) -> tuple[Record, dict]:
        """What the room's autosave holds, as one pair: the game up to its last settled turn (a turn under way is
        played again from there when the room is taken up, as a save cannot hold a piece in hand), and who sits
        where with their tokens (so a restarted server knows them), with how each seat's requests had gone by then."""
        record = self.match.record
        settled = record.turns[-1]
        if settled.actions != len(record.state.log):
            record = replace(record, state=state_at(record, settled))
        kept = {"room": self.code, "seats": self.seating.to_json(), "clock": self.clock.seconds,
                "asked": self.journal.asked_settled, "stand_ins": sorted(self.seating.stand_ins)}
        if self.hosted_at is not None:
            kept["hosted_at"] = self.hosted_at
        return record, kept

    @classmethod
    def taken_up(cls, record: Record, seats: dict, keep: Keep | None = None, entries: tuple[Entry, ...] = (),
                 base: int = 0, **options) -> "Room":
        """A room again from its autosave and its seats (every player away, their tokens waiting), and the
        journal's `entries` since (numbered on from `base`) played again over it."""
        code = protocol.room_code(str(seats.get("room", "")))
        if code is None:
            raise ValueError("the seats' file names no room code")
        seating = Seating.from_json(record.setup.seats, dict(seats.get("seats", {})),
                                    options.get("clock", time.monotonic))
        stand_ins = seats.get("stand_ins", [])
        seating.stand_ins = {n for n in stand_ins if isinstance(n, int) and not isinstance(n, bool)
                             and 0 <= n < len(record.setup.seats)} if isinstance(stand_ins, list) else set()
        turn_seconds, hosted_at = seats.get("clock", 0), seats.get("hosted_at")
        hosted = hosted_at if isinstance(hosted_at, int) and 0 <= hosted_at < len(record.setup.seats) else None
        journal = Journal.taken_up(base, seats.get("asked") if isinstance(seats.get("asked"), dict) else {})
        return cls(code, record.setup, keep, record=record, seating=seating, hosted_at=hosted,
                   turn_seconds=turn_seconds if isinstance(turn_seconds, int) else 0, journal=journal,
                   entries=tuple(entries), **options)

    def close(self) -> None:
        """Let go of everything, and of every way back to the room (its memory goes at once, not at the next full
        collection: a villa holds megabytes outside Python; the server hands it back to the system every few
        seconds)."""
        self.scribe.close()
        if self.match is not None:
            self.match.close(give_back=False)


def host_name(room: Room) -> str:
    """The name of the person whose window hosts the room ("": a server of its own)."""
    seat = room.hosted_at
    if seat is None:
        return ""
    sitter = room.seating.sitters.get(seat)
    return sitter.name if sitter is not None else room.seating.seats[seat].name
