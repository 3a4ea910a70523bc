"""A room on the server: its table of seats, the match the server's authority plays in it, and every
request a client makes of it, checked against who sits where and what the rules ask now.

The room is headless and knows nothing of the network: `request(client, name, args)` is called
with the sender's id (its doIdBase) by `objects.DistributedMatchAI`, and what it has to say goes
out through `send(field, *args)` (everyone in the room) and `tell(client, field, *args)`.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from panda3d.core import Point3

from villa import rules
from villa.match import Accepted, Match, MatchSetup, Record, RoundStarted, Seat, Strength, TurnSettled
from villa.match import requests as rq
from villa.match.computer import reseat_computers, seat_computers
from villa.match.setup import clean_name
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.physics.laying import FloorLay
from villa.physics.pulling import Pull

log = logging.getLogger(__name__)

REJOIN_S = 600.0          # a dropped player's seat waits this long for them, then a computer plays it
POSES_EVERY = 2           # frames between pose updates: 30 a second at the villa's 60
STILL_CM = 0.005          # a piece that moved less than this (or turned less than STILL_QUAT) has not moved
STILL_QUAT = 2e-5
# requests that may change the hand, or ask about it (a window back after a lost connection asks for the
# floor it had): the hand's state goes out again after each, so its sender hears the answer to it
HAND_REQUESTS = frozenset({"take", "steady", "setDown", "layFloor", "lower", "lift", "letGo", "giveUp"})


@dataclass
class Sitter:
    """A person's seat: their name, the token they rejoin with, their connection (None: gone since `gone_at`)."""

    name: str
    token: str
    client: int | None = None
    gone_at: float = 0.0


Keep = Callable[["Room"], None]    # writes the room's autosave (the app's files); may raise OSError


class Room:
    def __init__(self, code: str, plan: MatchSetup, keep: Keep | None = None, record: Record | None = None,
                 sitters: dict[int, Sitter] | None = None, clock: Callable[[], float] = time.monotonic,
                 aside: bool = False, waits_for_host: bool = False) -> None:
        """`plan`: the game to start, its people's seats named only until someone sits there (the seats
        with a computer player are the host's choice); `record`: a game taken up again (its autosave).
        `waits_for_host`: the game begins when the host says so (`begin`), not as soon as every seat is sat."""
        self.code, self.plan, self._keep, self._clock, self._aside = code, plan, keep, clock, aside
        self.waits_for_host = waits_for_host
        self.nobody_since: float | None = clock()     # when the last person here left (None: someone is here)
        self.sitters: dict[int, Sitter] = dict(sitters or {})
        self.match: Match | None = None
        self.send: Callable[..., None] = lambda field, *args: None
        self.tell: Callable[..., None] = lambda client, field, *args: None
        self.tick = 0
        self._sent: dict[str, protocol.Pose] = {}
        self._still = None                    # the villa, if it was at rest when its poses were last looked at
        self._done: dict[int, int] = {}       # client -> its requests carried out (its held piece's echo)
        self._state_changed = False
        self._table_changed = False
        self._state_bytes = b""
        self._hand_sent: tuple | None = (0, 0, 0, 0)   # the hand as last sent (`setHand`; None: send it again)
        self._record_sent = False
        if record is not None:
            self._play(Match(record.setup, record))
        else:
            self._start_when_full()     # computer players only: at once

    # --- what everyone sees -----------------------------------------------------------------

    @property
    def seats(self) -> tuple[Seat, ...]:
        return (self.match.setup if self.match else self.plan).seats

    def table(self) -> dict:
        seats = []
        for number, seat in enumerate(self.seats):
            sitter = self.sitters.get(number)
            seats.append({"name": sitter.name if sitter else seat.name,
                          "computer": seat.computer.value if seat.computer else None,
                          "taken": sitter is not None, "here": bool(sitter and sitter.client is not None)})
        setup = self.match.setup if self.match else self.plan
        return {"seats": seats, "started": self.match is not None, "game": setup.game, "host": self.host_seat,
                "plan": protocol.plan_json(setup)}

    def state_bytes(self) -> bytes:
        if not self._state_bytes:
            state = self.match.state if self.match else rules.new_game(self.plan.rules_setup())
            self._state_bytes = protocol.pack_state(state)
        return self._state_bytes

    def poses(self) -> dict[str, protocol.Pose]:
        if self.match is None:
            return {}
        every = self.match.villa.poses()
        return {piece: every[piece] for piece in protocol.PIECES if piece in every}   # (plain floats already)

    # --- requests -------------------------------------------------------------------------

    def request(self, client: int, name: str, args: tuple) -> None:
        """A client's request, by the `.dc` field's name; a refusal goes back to that client only."""
        self._done[client] = self._done.get(client, 0) + 1
        self._still = None
        try:
            refusal = getattr(self, "_" + name)(client, *args)
        except _NotAsked as error:
            refusal = error.refusal
        except OnlineError as error:
            refusal = error
        if refusal is not None:
            self.tell(client, "refused", *protocol.refusal_parts(refusal))
        if name in HAND_REQUESTS:
            self._hand_sent = None      # sent again at the next pose update, with this request counted
        self._send_news()

    def _sit(self, client: int, code: str, name: str, seat: int) -> None:
        self._check_code(code)
        if seat >= len(self.seats):
            raise OnlineError(Online.NO_SUCH_SEAT, seat=seat)
        name = clean_name(name)
        if not name:
            raise OnlineError(Online.NO_NAME)
        sitter = self.sitters.get(seat)
        if self.seats[seat].is_computer or (sitter is not None and sitter.client != client) \
                or (self.match is not None and sitter is None and not self._open_after_restart(seat)):
            raise OnlineError(Online.SEAT_TAKEN, seat=seat)
        if self.match is not None:
            name = self.seats[seat].name     # a game under way keeps its players' names
        elif name in self._names_but(seat):
            raise OnlineError(Online.NAME_TAKEN, name=name)
        self.sitters[seat] = Sitter(name, secrets.token_urlsafe(24), client)
        self.nobody_since = None
        self.tell(client, "seated", seat, self.sitters[seat].token)
        self._seen_by(client)
        self._table_changed = True
        self._start_when_full()

    def _names_but(self, seat: int) -> set[str]:
        """The names at the table but for `seat`'s: everyone needs a name of their own."""
        return ({s.name for n, s in self.sitters.items() if n != seat}
                | {s.name for n, s in enumerate(self.plan.seats) if s.is_computer and n != seat})

    def _open_after_restart(self, seat: int) -> bool:
        """A person's seat of a game taken up again that nobody holds a token for: the room code is enough."""
        return not self.seats[seat].is_computer and seat not in self.sitters

    def _rejoin(self, client: int, code: str, token: str) -> None:
        self._check_code(code)
        found = [n for n, s in self.sitters.items() if secrets.compare_digest(s.token, token)]
        if not found:
            raise OnlineError(Online.UNKNOWN_TOKEN)
        seat = found[0]
        self.sitters[seat].client = client
        self.nobody_since = None
        self.tell(client, "seated", seat, token)
        self._seen_by(client)
        self._table_changed = True

    def _take(self, client: int, seat: int, column: str, x: float, y: float, z: float, steady: bool):
        match = self._asked(client, seat)
        if not protocol.on_table(x, y, z):
            raise OnlineError(Online.NOT_ON_TABLE)
        if column not in protocol.PIECES:
            raise OnlineError(Online.UNKNOWN_WORD, word=column)
        return match.request(rq.Take(seat, column, (x, y, z), bool(steady))).refusal

    def _aim(self, client: int, seat: int, x: float, y: float, z: float):
        hand = self._hand(client, seat)
        if not protocol.on_table(x, y, z):
            raise OnlineError(Online.NOT_ON_TABLE)
        return self.match.request(rq.Aim(seat, (x, y, z))).refusal

    def _turnFloor(self, client: int, seat: int, degrees: float):
        hand = self._hand(client, seat, FloorLay)
        if not protocol.on_table(degrees):
            raise OnlineError(Online.NOT_ON_TABLE)
        return self.match.request(rq.TurnFloor(seat, degrees)).refusal

    def _steady(self, client: int, seat: int, on: bool):
        self._hand(client, seat, Pull)
        return self.match.request(rq.Steady(seat, bool(on))).refusal

    def _setDown(self, client: int, seat: int, hold: bool):
        return self._asked(client, seat).request(rq.SetDown(seat, bool(hold))).refusal

    def _layFloor(self, client: int, seat: int):
        return self._asked(client, seat).request(rq.LayFloor(seat)).refusal

    def _lower(self, client: int, seat: int, hold: bool):
        return self._asked(client, seat).request(rq.Lower(seat, bool(hold))).refusal

    def _lift(self, client: int, seat: int):
        return self._asked(client, seat).request(rq.Lift(seat)).refusal      # a floor or a column held in the hands, as in the hot seat

    def _letGo(self, client: int, seat: int):
        return self._asked(client, seat).request(rq.LetGo(seat)).refusal

    def _giveUp(self, client: int, seat: int):
        return self._asked(client, seat).request(rq.GiveUp(seat)).refusal

    def _answer(self, client: int, seat: int, word: str):
        match = self._asked(client, seat)
        if word not in protocol.ANSWERS:
            raise OnlineError(Online.UNKNOWN_WORD, word=word)
        return match.request(rq.request_for(seat, protocol.ANSWERS[word]())).refusal

    def _chooseColour(self, client: int, seat: int, colour: str):
        match = self._asked(client, seat)
        try:
            chosen = rules.Colour(colour)
        except ValueError:
            raise OnlineError(Online.UNKNOWN_WORD, word=colour) from None
        return match.request(rq.ChooseColour(seat, chosen)).refusal

    def _roll(self, client: int, seat: int):
        match = self._playing(client, seat)
        if not rules.is_chance_node(match.state) or match.state.turn.actor != seat or match.busy:
            return _not_now(match, "rolling the seal")
        return match.request(rq.Roll(seat)).refusal

    def _giveToComputer(self, client: int, seat: int, strength: str):
        """The host gives a seat nobody is at (empty in the lobby, or left) to a computer player."""
        if client != self.host:
            raise OnlineError(Online.NOT_HOST)
        if seat >= len(self.seats):
            raise OnlineError(Online.NO_SUCH_SEAT, seat=seat)
        sitter = self.sitters.get(seat)
        if self.seats[seat].is_computer or (sitter is not None and sitter.client is not None):
            raise OnlineError(Online.SEAT_TAKEN, seat=seat)
        try:
            chosen = Strength(strength)
        except ValueError:
            raise OnlineError(Online.UNKNOWN_WORD, word=strength) from None
        if self.match is None:
            names = self._names_but(seat)
            name = next(f"Computer {n}" for n in range(1, 6) if f"Computer {n}" not in names)
            seats = list(self.plan.seats)
            seats[seat] = Seat(name, chosen)
            self.plan = replace(self.plan, seats=tuple(seats))
            self.sitters.pop(seat, None)
            self._table_changed = True
            self._start_when_full()
        else:
            self.give_to_computer(seat, chosen)

    def _setPlan(self, client: int, plan: bytes) -> None:
        """The host's game for this room (seats, rules, variants, layout); whoever sits keeps their seat."""
        self._before_start(client)
        setup = protocol.unpack_plan(plan)
        computers = {seat.name for seat in setup.seats if seat.is_computer}
        for number, sitter in sorted(self.sitters.items()):
            if number >= len(setup.seats) or setup.seats[number].is_computer:
                raise OnlineError(Online.SEAT_TAKEN, seat=number)
            if sitter.name in computers:
                raise OnlineError(Online.NAME_TAKEN, name=sitter.name)
        self.plan = setup
        self._table_changed = self._state_changed = True
        self._start_when_full()

    def _begin(self, client: int) -> None:
        """The host starts the game: every person's seat sat by someone here, the rest given to computers."""
        self._before_start(client)
        empty = [n for n, seat in enumerate(self.plan.seats)
                 if not seat.is_computer and (n not in self.sitters or self.sitters[n].client is None)]
        if empty:
            raise OnlineError(Online.EMPTY_SEATS, seats=empty)
        self._start()

    def _before_start(self, client: int) -> None:
        if self.match is not None:
            raise OnlineError(Online.STARTED)
        if client != self.host:
            raise OnlineError(Online.NOT_HOST)

    @property
    def host_seat(self) -> int | None:
        """The host's seat: the person here at the lowest seat (who opened the room sits first, so at the top)."""
        here = sorted(n for n, s in self.sitters.items() if s.client is not None)
        return here[0] if here else None

    @property
    def host(self) -> int | None:
        """Who may set the plan, begin and give seats to computer players: the host's connection."""
        seat = self.host_seat
        return None if seat is None else self.sitters[seat].client

    # --- who may ask ---

    def _check_code(self, code: str) -> None:
        if not secrets.compare_digest(code.strip().upper().encode(), self.code.encode()):
            raise OnlineError(Online.WRONG_ROOM)

    def _playing(self, client: int, seat: int) -> Match:
        sitter = self.sitters.get(seat)
        if sitter is None or sitter.client != client:
            mine = any(s.client == client for s in self.sitters.values())
            raise OnlineError(Online.NOT_YOUR_SEAT if mine else Online.NOT_SEATED, seat=seat)
        if self.match is None:
            raise OnlineError(Online.NOT_STARTED)
        return self.match

    def _asked(self, client: int, seat: int) -> Match:
        """The match, when the rules ask this seat to act now; else the rules' own refusal."""
        match = self._playing(client, seat)
        if match.actor != seat:
            raise _NotAsked(match)
        return match

    def _hand(self, client: int, seat: int, kind: type | tuple = (Pull, FloorLay)):
        match = self._asked(client, seat)
        if not isinstance(match.hand, kind):
            raise _NotAsked(match, "moving the hand")
        return match.hand

    # --- the table ---

    def _start_when_full(self) -> None:
        if self.waits_for_host or self.match is not None or any(not s.is_computer and n not in self.sitters
                                                                for n, s in enumerate(self.plan.seats)):
            return
        self._start()

    def _start(self) -> None:
        seats = tuple(replace(seat, name=self.sitters[n].name) if n in self.sitters else seat
                      for n, seat in enumerate(self.plan.seats))
        self._play(Match(replace(self.plan, seats=seats)))
        self._state_changed = self._table_changed = True
        self.send("setVilla", self.tick, protocol.pack_poses(self.poses()))   # the villa as built

    def _play(self, match: Match) -> None:
        self.match = match
        seat_computers(match, aside=self._aside)
        match.events.subscribe(Accepted, self._accepted)
        match.events.subscribe(TurnSettled, self._settled)
        match.events.subscribe(RoundStarted, self._built_anew)
        self._sent = self.poses()
        self._state_bytes = b""

    def _built_anew(self, _event) -> None:
        """A family round's villa built anew: everyone gets it whole, so their screens know the round has begun."""
        self._sent = self.poses()
        self.send("setVilla", self.tick, protocol.pack_poses(self._sent))

    def _settled(self, _event) -> None:
        self.keep()
        if self.match.over and not self._record_sent:
            self._record_sent = True
            self.send_record()

    def send_record(self) -> None:
        """The finished game to everyone here, so each player keeps its replay as a hot-seat game is kept."""
        parts = protocol.record_parts(self.match.record)
        for number, part in enumerate(parts):
            self.send("setRecord", number, len(parts), part)

    def _accepted(self, _event) -> None:
        self._state_changed = True

    def _seen_by(self, client: int) -> None:
        """Someone new at the table sees the villa as it stands."""
        poses = self.poses()
        if poses:
            self.tell(client, "setVilla", self.tick, protocol.pack_poses(poses))
            self.tell(client, "setHand", self.tick, *self._holder(), *protocol.hand_parts(self.match.hand))

    def gone(self, client: int) -> None:
        """A connection closed: its seats wait for their token."""
        for sitter in self.sitters.values():
            if sitter.client == client:
                sitter.client, sitter.gone_at = None, self._clock()
                self._table_changed = True
        self._done.pop(client, None)
        if self.host is None and self.nobody_since is None:
            self.nobody_since = self._clock()
        self._send_news()

    def give_to_computer(self, seat: int, strength: Strength = Strength.MEDIUM) -> None:
        """A person's seat is played by a computer from now on (the host's choice, or a wait that ran out)."""
        if self.seats[seat].is_computer:
            return
        self.sitters.pop(seat, None)
        self._table_changed = True
        if self.match is None:
            return     # before the game: the seat is free again
        self.match.change_seat(seat, strength)
        reseat_computers(self.match, aside=self._aside)

    def recipe(self) -> dict:
        """What the room is made of, as `Room(**recipe)` takes it: to make it again in another process before
        it played a frame (its match, if begun, as its record)."""
        return {"code": self.code, "plan": self.plan, "keep": self._keep, "record": self.match.record if self.match else None,
                "sitters": self.sitters, "aside": self._aside, "waits_for_host": self.waits_for_host}

    @property
    def deserted(self) -> bool:
        """A room opened for a host that nobody came back to in the time a seat waits: the server closes it."""
        return (self.waits_for_host and self.match is None and self.nobody_since is not None
                and self._clock() - self.nobody_since > REJOIN_S)

    def seats_json(self) -> dict:
        """Who sits where, with their tokens (kept beside the autosave, so a restarted server knows them)."""
        return {"room": self.code, "seats": {str(n): {"name": s.name, "token": s.token} for n, s in self.sitters.items()}}

    @classmethod
    def taken_up(cls, record: Record, seats: dict, keep: Keep | None = None, **options) -> "Room":
        """A room again from its autosave and its seats (every player away, their tokens waiting)."""
        code = str(seats.get("room", ""))
        if protocol.zone_of(code) is None:
            raise ValueError("the seats' file names no room code")
        now = options.get("clock", time.monotonic)()
        sitters = {}
        for number, sitter in dict(seats.get("seats", {})).items():
            seat = int(number)
            if 0 <= seat < len(record.setup.seats) and not record.setup.seats[seat].is_computer:
                sitters[seat] = Sitter(clean_name(str(sitter["name"])), str(sitter["token"]), None, now)
        return cls(code, record.setup, keep, record=record, sitters=sitters, **options)

    def keep(self) -> None:
        """The autosave; a failed write never ends the game (the next settled turn tries again)."""
        if self._keep is None or self.match is None:
            return
        try:
            self._keep(self)
        except OSError as error:
            log.warning("room %s: could not write its autosave: %s", self.code, error)

    # --- time ---

    def frames(self, count: int = 1) -> None:
        """Let the match run `count` frames of 1/60 s, then tell the room what changed."""
        now = self._clock()
        for number, sitter in list(self.sitters.items()):
            if sitter.client is None and now - sitter.gone_at > REJOIN_S:
                self.give_to_computer(number)
        if self.match is not None:
            for _ in range(count):
                self.match.frame()
                self.tick += 1
                if self.tick % POSES_EVERY == 0:
                    self._send_poses()
                    self._send_hand()
        self._send_news()

    def _send_poses(self) -> None:
        villa = self.match.villa
        if villa.still and self._still is villa:
            return      # at rest since its poses were last looked at: nothing to do until a request or a hand wakes it
        self._still = villa if villa.still else None
        moved = {piece: pose for piece, pose in self.poses().items() if _moved(self._sent.get(piece), pose)}
        if moved:
            self._sent.update(moved)
            self.send("setPoses", self.tick, *self._holder(), protocol.pack_poses(moved))

    def _holder(self) -> tuple[int, int]:
        """The seat whose hand holds a piece (-1: none, or a computer's) and how many of its connection's
        requests the room has carried out."""
        if self.match.hand is None or self.match.actor not in self.sitters:
            return -1, 0
        holder = self.match.actor
        return holder, self._done.get(self.sitters[holder].client, 0)

    def _send_hand(self) -> None:
        """The hand's state, strain and steadied floor, when they changed: while a column is pulled that is
        every pose update; a piece carried, held or let go sends only its changes of state."""
        parts = protocol.hand_parts(self.match.hand)
        if parts != self._hand_sent:
            self._hand_sent = parts
            self.send("setHand", self.tick, *self._holder(), *parts)

    def _send_news(self) -> None:
        if self._state_changed:
            self._state_changed = False
            self._state_bytes = b""
            self.send("setState", self.state_bytes())
        if self._table_changed:
            self._table_changed = False
            self.send("setTable", protocol.pack_table(self.table()))

    def close(self) -> None:
        if self.match is not None:
            self.match.close()


class _NotAsked(OnlineError):
    """Not asked now: carried out as the rules' own refusal (not-now), as in the hot-seat game."""

    def __init__(self, match: Match, what: str = "acting") -> None:
        ValueError.__init__(self, what)
        self.refusal = _not_now(match, what)


def _not_now(match: Match, what: str) -> rules.RuleError:
    turn = match.state.turn
    return rules.Rule.NOT_NOW.refuse(action=what, step=turn.step.value, role=turn.role.value, actor=turn.actor)


def _point(x: float, y: float, z: float) -> Point3:
    return Point3(x, y, z)


def _moved(before: protocol.Pose | None, after: protocol.Pose) -> bool:
    """Spelled out rather than looped: every moving room asks it of every piece, 30 times a second."""
    if before is None:
        return True
    (x0, y0, z0), (w0, i0, j0, k0) = before
    (x1, y1, z1), (w1, i1, j1, k1) = after
    return (abs(x0 - x1) > STILL_CM or abs(y0 - y1) > STILL_CM or abs(z0 - z1) > STILL_CM
            or abs(w0 - w1) > STILL_QUAT or abs(i0 - i1) > STILL_QUAT or abs(j0 - j1) > STILL_QUAT
            or abs(k0 - k1) > STILL_QUAT)
