"""The server: its door on the network (`villa.online.wire.door`), its rooms, and the frames that play them.

    server = Server(port, "", store=files, aside=True)   # every address; OSError if the port is taken
    server.fingerprint              # its certificate's, for invites (TLS with `identity`, or a new one; None: insecure)
    server.serve()                  # a dedicated server: the network and the rooms' frames until stopped
    server.start(task_mgr)          # or in the game's window: a task of its loop does the same each frame
    server.frame()                  # tests and benchmarks: the network, then one frame of every room

A connection says hello at the door, then may open a room (it gets the room's code) or enter one by its code
(the answer is the room, or a refusal; a wrong code costs one of a few tries an address has a minute). In a
room it sits down, takes its seat back with its token, or (the host) sets the game up; then its seats'
requests go to the room's match. Whatever a room does wrong ends that room only: its game is kept, its
players are told, and every other room plays on.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from villa import rules
from villa.match import FRAME
from villa.match import requests as rq
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.online.server.herald import Herald
from villa.online.server.room import Room, host_name
from villa.online.wire import messages as m
from villa.online.wire.codec import Catalogue
from villa.online.wire.certificates import Identity, make_identity
from villa.online.wire.costs import network_of
from villa.online.wire.door import Door, Limits, Tries
from villa.online.wire.tls import ServerTls
from villa.physics.world import give_back_free_memory

log = logging.getLogger(__name__)

CATALOGUE = Catalogue(m.KINDS)
MAX_ROOMS = 200             # rooms a server plays at once (every one a villa in Bullet)
OPENED_EACH = 4             # rooms one connection may open
ROOMS_EACH = MAX_ROOMS // 20   # rooms opened from one network (an address, an IPv6 /64) open at once ...
RESERVED = MAX_ROOMS // 10  # ... and the last of them only for networks holding none: later players find a table
WAITING_EACH = 3            # rooms opened from one network that nobody has sat in yet
WATCHED_EACH = 1            # rooms of computer players only opened from one network (each plays while watched)
PLANS_EACH_MINUTE = 20      # plans one address may have read (each ~10 ms: can its villa stand?), then a pause
MAX_BEHIND = 0.1            # s: a server that fell behind slows its villas down rather than piling up work
LOOK_EVERY_S = 1.0          # how often the rooms' lives are looked over (done with, deserted)
GIVE_BACK_S = 10.0          # how often the memory freed is handed back to the system (a fraction of a ms, or tens
                            # of ms after a flood's queues were let go)
HEAR_BETWEEN_S = 0.005      # s: in a frame of many rooms, the network is heard again between two rooms this often
FLEET_POLL_S = 0.002        # s: while the fleet's answers are on their way, the network is looked at this often
TASK = "villa-online-server"


class RoomStore(Protocol):
    """Where rooms are kept between settled turns (the app's files)."""

    def __call__(self, room: Room) -> None: ...        # the autosave: the record and the seats, as one pair
    def take_up(self, code: str, **options) -> Room | None: ...   # a room kept and closed, to be played again


# where a room is, as a place answers (`Place.find`): the room (here), the address of the server that plays it, an
# `Online` code (not now: no try spent), or None (no such room: a try spent)
Found = Room | str | Online | None


class Place(Protocol):
    """Where a server's rooms live beside it: on their own (`Lone`, their files), or in a fleet of servers that
    share them through Redis (`villa.online.fleet.Fleet`). A fleet answers later (from `tick`), never waiting."""

    writes_ahead: bool                                           # a room's news waits for its journal's writes
    waiting: bool                                                # answers from elsewhere are on their way

    def __call__(self, room: Room) -> int | None: ...            # keep the room as it stands (a write's ticket)
    def ahead(self, room: Room, entry) -> int: ...               # a journal entry written ahead (its ticket)
    def new_code(self, taken: set[str], answer: Callable[[str | None], None]) -> None: ...   # None: not now
    def code_now(self, taken: set[str]) -> str | None: ...       # the same, waited for (a server starting)
    def find(self, code: str, answer: Callable[[Found], None], **options) -> None: ...
    def tick(self) -> tuple[list[str], list[Room]]: ...          # rooms lost to others, rooms taken up here
    def may_play(self, code: str) -> bool: ...
    def paused_for(self, code: str) -> float | None: ...         # seconds since it lost touch (None: it plays)
    def closed(self, room: Room) -> None: ...                    # a room this server closed
    def stopping(self, rooms: list[Room]) -> None: ...           # this server stops
    def addresses(self) -> list[str]: ...                        # where players may find this server's rooms
    def stats(self) -> dict: ...


class Lone:
    """A server on its own: its rooms kept in its store (its files), if it has one."""

    writes_ahead = waiting = False

    def __init__(self, store: RoomStore | None) -> None:
        self.store = store

    def __call__(self, room: Room) -> None:
        if self.store is not None:
            self.store(room)

    def ahead(self, room: Room, entry) -> int:
        return 0

    def new_code(self, taken: set[str], answer: Callable[[str | None], None]) -> None:
        answer(self.code_now(taken))

    def code_now(self, taken: set[str]) -> str | None:
        code = protocol.new_room_code()
        while code in taken:
            code = protocol.new_room_code()
        return code

    def find(self, code: str, answer: Callable[[Found], None], full: bool = False, **options) -> None:
        answer(None if full else self.take_up(code, **options))

    def take_up(self, code: str, **options) -> Room | None:
        try:
            return self.store.take_up(code, **options) if self.store is not None else None
        except Exception:
            log.exception("room %s could not be taken up", code)
            return None

    def tick(self) -> tuple[list[str], list[Room]]:
        return [], []

    def may_play(self, code: str) -> bool:
        return True

    def paused_for(self, code: str) -> float | None:
        return None

    def stats(self) -> dict:
        return {}

    def closed(self, room: Room) -> None:
        pass

    def stopping(self, rooms: list[Room]) -> None:
        pass

    def addresses(self) -> list[str]:
        return []


@dataclass
class Visitor:
    """A connection: where it comes from (its address's network: an IPv6 /64, which one home holds whole, or an
    IPv4 address), the room it is in (its code), and how many rooms it opened."""

    address: str
    room: str | None = None
    opened: int = 0


class Pace:
    """The rooms' villas step in whole frames of 1/60 s of real time; a server that fell behind slows them down
    (at most `MAX_BEHIND` is made up) rather than piling up work."""

    def __init__(self, frames: Callable[[int], None], clock: Callable[[], float] = time.monotonic) -> None:
        self.frames, self._clock = frames, clock
        self._behind, self._last = 0.0, clock()

    def __call__(self, most: int | None = None) -> int:
        """The frames due now (at most `most` of them: the others are due at once after)."""
        now = self._clock()
        self._behind = min(self._behind + now - self._last, MAX_BEHIND)
        self._last = now
        count = int(self._behind / FRAME) if most is None else min(int(self._behind / FRAME), most)
        self._behind -= count * FRAME
        if count:
            self.frames(count)
        return count

    def reset(self) -> None:
        """From now on (a server started after a while is not behind)."""
        self._behind, self._last = 0.0, self._clock()

    def until_next(self) -> float:
        """Seconds until the next frame is due."""
        return max(0.0, FRAME - self._behind - (self._clock() - self._last))


class Server:
    def __init__(self, port: int = protocol.PORT, address: str = "127.0.0.1", store: RoomStore | None = None,
                 aside: bool = False, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic,
                 tries: Tries | None = None, fleet: Place | None = None, identity: Identity | None = None,
                 insecure: bool = False) -> None:
        """`address`: "" listens on every address; `store`: where rooms opened here are kept (None: nowhere);
        `fleet`: the fleet this server plays in, which keeps its rooms instead; `aside`: computer players think in
        a worker process (a real server, or the game's window; not tests); `identity`: the certificate and key
        its TLS shows (None: a new self-signed one, for this run only); `insecure`: no TLS at all."""
        self.place: Place = fleet if fleet is not None else Lone(store)
        self.store, self.aside, self._clock = store, aside, clock
        self.rooms: dict[str, Room] = {}
        self.visitors: dict[int, Visitor] = {}
        self.tries = tries if tries is not None else Tries(clock=clock)     # (an empty one is falsy: it has a length)
        self.plans = Tries(per_minute=PLANS_EACH_MINUTE, clock=clock)
        self.tls = None if insecure else ServerTls(identity or make_identity())
        self.fingerprint: str | None = self.tls.fingerprint if self.tls else None
        self.door = Door(address, port, CATALOGUE, welcome=self._welcome, on_message=self._heard,
                         on_gone=self._gone, limits=limits or Limits(), clock=clock, tls=self.tls)
        self.port = self.door.port
        self._pace = Pace(self._timed_frames, clock)
        self._times: list[tuple[float, float, int]] = []     # (wall, CPU) seconds of each run of frames, and how many
        self._looked_at = self._gave_back_at = clock()
        self.herald = Herald(self.door, self.place)          # what the rooms' people are told of the fleet
        self._task = None

    # --- rooms ------------------------------------------------------------------------------------------

    def open(self, room: Room) -> Room:
        """Play this room from now on (a new one, or one taken up again)."""
        room.attach(self.door.send, self.place.ahead if self.place.writes_ahead else None)
        self.rooms[room.code] = room
        return room

    def _close_room(self, room: Room, why: Online | None = None, **values) -> None:
        """A room is done with (or broke down: `why`, and `values` for its words): its people are let go, its match
        closed."""
        self.rooms.pop(room.code, None)
        self.herald.paused.discard(room.code)
        for client in list(room.audience):
            visitor = self.visitors.get(client)
            if visitor is not None and visitor.room == room.code:
                visitor.room = None
            if why is not None:
                self.door.close(client, why.value, room=room.code, **values)
        try:
            room.close()
        except Exception:
            log.exception("room %s: its game could not be closed", room.code)

    def _room_failed(self, room: Room) -> None:
        log.exception("room %s broke down: its game is kept, and it is closed", room.code)
        try:
            room.keep()
        except Exception:
            log.exception("room %s: its game could not be kept", room.code)
        self._close_room(room, Online.ROOM_FAILED)
        self.place.closed(room)

    # --- time -----------------------------------------------------------------------------------------------

    def frames(self, count: int = 1) -> None:
        """`count` frames of every room this server holds, each room on its own: one that fails is closed, the
        others play on."""
        self._fleet_news()
        heard_at = time.perf_counter()
        for room in list(self.rooms.values()):
            if time.perf_counter() - heard_at >= HEAR_BETWEEN_S:
                self.door.poll()          # between two rooms' frames: a request waits for one room's, not all
                heard_at = time.perf_counter()
            if self.rooms.get(room.code) is not room:
                continue                  # closed meanwhile, by what was heard
            if not self.place.may_play(room.code):
                self.herald.pause(room)
                continue        # its hold on the room lapsed: nothing is played until it is renewed
            self.herald.pause(room, False)
            try:
                room.frames(count)
            except Exception:
                self._room_failed(room)
        if self._clock() - self._looked_at >= LOOK_EVERY_S:
            self._looked_at = self._clock()
            self._look_over()
        if self._clock() - self._gave_back_at >= GIVE_BACK_S:
            self._gave_back_at = self._clock()
            give_back_free_memory()     # what closed connections and rooms held: glibc would keep it for good

    def _timed_frames(self, count: int) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        self.frames(count)
        self._times.append((time.perf_counter() - wall, time.process_time() - cpu, count))
        del self._times[:-3600]       # a minute's worth, unread (a server without --stats kept 4 MB of them)

    def _look_over(self) -> None:
        """Rooms done with are closed: kept first if their game is under way, to be taken up when someone comes back."""
        for room in list(self.rooms.values()):
            if room.closable:
                if room.match is not None and not room.match.over:
                    room.keep()
                self._close_room(room)
                self.place.closed(room)

    def _fleet_news(self) -> None:
        """Rooms another server of the fleet holds now (or that this one let go) are closed here, their players sent
        on to find them; rooms left without a server and taken up here are opened."""
        lost, found = self.place.tick()
        for code in lost:
            room = self.rooms.get(code)
            if room is not None:
                self._close_room(room, Online.MOVED)
        for room in found:
            if room.code not in self.rooms:
                self.open(room)
                log.info("room %s taken up at turn %s", room.code, room.match.turn if room.match else 0)
        self.herald.addresses(self.rooms.values())

    def poll(self, timeout: float = 0.0) -> None:
        """The network: what came in is carried out, what is to go goes."""
        self.door.poll(timeout)
        if self.place.waiting:
            self._fleet_news()      # the fleet's answers, between frames: a room's news goes out as soon as it may

    def frame(self) -> None:
        """The network, one frame of every room, the network again (tests and benchmarks, on a fixed clock)."""
        self.poll()
        self.frames(1)
        self.poll()

    def start(self, task_mgr) -> None:
        """Run in real time from a window's task loop (a game hosted in the game itself), first in each frame: after
        a frame that stalled the window (and this server with it), the window's own player hears the server's
        pings before it looks for its silence."""
        def run(task):
            self.poll()
            self._pace()
            return task.cont
        self._pace.reset()
        self._task = task_mgr.add(run, TASK, sort=-50)   # first in each frame: a stalled frame is not the server's

    def serve(self, until: Callable[[], bool] = lambda: False, stats: float = 0.0) -> None:
        """Run in real time with no window: the network and the rooms' frames, until `until()`; every `stats`
        seconds (0: never) a line of JSON on the standard output says how the frames went."""
        self._pace.reset()
        said = time.monotonic()
        while not until():
            self.poll(min(self._pace.until_next(), FLEET_POLL_S if self.place.waiting else 0.05))
            self._pace(most=1)          # a server behind catches up a frame at a time, the network heard between
            if stats and time.monotonic() - said >= stats:
                said = time.monotonic()
                print(json.dumps(self.frame_stats()), flush=True)

    def frame_stats(self) -> dict:
        """How the rooms' frames went since last asked: rooms, frames run, wall and CPU time of a frame (ms)."""
        times, self._times = self._times, []
        walls = sorted(wall / count for wall, _cpu, count in times)
        frames = sum(count for _wall, _cpu, count in times)
        return {"rooms": len(self.rooms), "moving": sum(not r.match.villa.still for r in self.rooms.values()
                                                        if r.match is not None),
                "frames": frames, "frame_ms_p95": round(1000 * walls[int(0.95 * (len(walls) - 1))], 3) if walls else 0,
                "frame_cpu_ms": round(1000 * sum(cpu for _w, cpu, _c in times) / frames, 3) if frames else 0,
                "connections": self.door.connections, **self.place.stats()}

    def close(self, host_to_menu: bool = False) -> None:
        """Stop: every room kept (a game under way is taken up at the next start), every connection told
        (`host_to_menu`: a server in a window whose host went back to the menus, the window still open)."""
        if self._task is not None:
            self._task.remove()
            self._task = None
        rooms = list(self.rooms.values())
        for room in rooms:
            room.begin_now()
            if room.match is not None and not room.match.over:
                room.keep()
        self.place.stopping(rooms)
        self.herald.addresses(rooms)
        for room in rooms:
            if self.place.addresses():
                self._close_room(room, Online.MOVED)
            elif room.hosted_at is not None:      # the host's window closes: the game waits on her computer
                self._close_room(room, Online.HOST_LEFT, host=host_name(room), **({"menu": True} if host_to_menu else {}))
            else:
                self._close_room(room, Online.CLOSING)
        self.door.shut()

    # --- the door's news ----------------------------------------------------------------------------------

    def _welcome(self, client: int) -> None:
        self.visitors[client] = Visitor(network_of(self.door.address_of(client) or ""))

    def _gone(self, client: int) -> None:
        visitor = self.visitors.pop(client, None)
        room = self.rooms.get(visitor.room) if visitor and visitor.room else None
        if room is not None:
            self._in_room(room, lambda: room.leave(client))

    def _heard(self, client: int, message) -> None:
        """A message from a welcomed connection: carried out, or refused in one message to it."""
        visitor = self.visitors.get(client)
        if visitor is None:
            return
        handler = _HANDLERS.get(type(message))
        if handler is None:
            if type(message) in (m.Hello, m.Ping):
                return
            self.door.close(client, Online.MALFORMED.value)
            return
        try:
            handler(self, client, visitor, message)
        except (OnlineError, rules.RuleError) as refusal:
            self._refused(client, visitor, refusal, type(message))
        except Exception:  # noqa: BLE001 - the server's own fault on a message it should have refused: that one ends
            log.exception("a %s from connection %d could not be carried out", type(message).__name__, client)
            self.door.close(client, Online.MALFORMED.value)


    def _refused(self, client: int, visitor: Visitor, refusal: Exception, kind: type) -> None:
        """A refusal told the connection, and counted for the log (an OnlineError: the server's, by its code)."""
        if isinstance(refusal, OnlineError):
            self.door.tally.refused(visitor.address, refusal.code, f"connection {client}, {kind.__name__}")
        self.door.send(client, m.Refused(*protocol.refusal_parts(refusal)))

    def _in_room(self, room: Room, do: Callable[[], object]):
        """Something done in a room: what goes wrong there ends that room only."""
        try:
            return do()
        except (OnlineError, rules.RuleError):
            raise
        except Exception:
            self._room_failed(room)
            return None

    def _room_of(self, visitor: Visitor) -> Room:
        room = self.rooms.get(visitor.room) if visitor.room else None
        if room is None:
            raise OnlineError(Online.NOT_IN_ROOM)
        return room

    # --- what a connection asks -------------------------------------------------------------------------------

    def _open_room(self, client: int, visitor: Visitor, message: m.OpenRoom) -> None:
        """A room opened for the asker, its game waiting for its host (who sits first) to begin."""
        self._may_open(visitor)
        self._plan_read(visitor)
        setup = protocol.unpack_plan(message.plan)
        theirs = [room for room in self.rooms.values() if room.opened_from == visitor.address]
        if not any(not seat.is_computer for seat in setup.seats) and \
                sum(room.seating.computers_only for room in theirs) >= WATCHED_EACH:
            raise OnlineError(Online.ONE_WATCHED, rooms=WATCHED_EACH)
        visitor.opened += 1
        self.place.new_code(set(self.rooms), partial(self._opened, client, visitor, setup))

    def _may_open(self, visitor: Visitor) -> None:
        """A room may be opened from here: the server has room for it, this connection opened few, and its network
        holds its share at most (the last rooms only for networks that hold none) with few nobody sat in."""
        if len(self.rooms) >= MAX_ROOMS or visitor.opened >= OPENED_EACH:
            raise OnlineError(Online.SERVER_FULL)
        theirs = [room for room in self.rooms.values() if room.opened_from == visitor.address]
        if len(theirs) >= ROOMS_EACH or (theirs and len(self.rooms) >= MAX_ROOMS - RESERVED):
            raise OnlineError(Online.ROOMS_HERE, rooms=len(theirs))
        if sum(room.match is None and not room.seating.sitters for room in theirs) >= WAITING_EACH:
            raise OnlineError(Online.ROOMS_WAITING, rooms=WAITING_EACH)

    def _opened(self, client: int, visitor: Visitor, setup, code: str | None) -> None:
        """The new room's code came (None: the fleet cannot take a new game now, or no code is left)."""
        if code is None:
            visitor.opened -= 1
            if self.visitors.get(client) is visitor:
                self._refused(client, visitor, OnlineError(Online.FLEET_BUSY), m.OpenRoom)
            return
        room = Room(code, setup, keep=self.place, aside=self.aside, waits_for_host=True, clock=self._clock)
        room.opened_from = visitor.address
        self.open(room)
        if self.visitors.get(client) is visitor:
            self.door.send(client, m.Opened(code))

    def _enter(self, client: int, visitor: Visitor, message: m.Enter, then: Callable[[Room], object] | None = None
               ) -> None:
        """Into the room with this code (then `then(room)`): a wrong code costs a try, and an address out of tries
        waits. A room this server does not play is asked of its place (a fleet answers later)."""
        if not self.tries.allow(visitor.address):
            raise OnlineError(Online.TOO_MANY_TRIES, seconds=round(self.tries.wait(visitor.address)))
        code = protocol.room_code(message.code)
        room = self.rooms.get(code) if code else None
        if room is None and code is not None:
            self.place.find(code, partial(self._found, client, visitor, code, then), aside=self.aside,
                            clock=self._clock, full=len(self.rooms) >= MAX_ROOMS)
            return
        if room is None:
            self.tries.spent(visitor.address)
            raise OnlineError(Online.WRONG_ROOM)
        self._into(client, visitor, room, then)

    def _found(self, client: int, visitor: Visitor, code: str, then, found: Found) -> None:
        """Where the room asked for is, as its place answered: entered here, sent on, or refused (a try is spent
        only on a code that names no room)."""
        if isinstance(found, Room):
            found = self.rooms.get(found.code) or self.open(found)
        if self.visitors.get(client) is not visitor:
            return
        try:
            if isinstance(found, str):
                self.door.send(client, m.Redirect(found, code))    # played by another server of the fleet
            elif isinstance(found, Online):
                raise OnlineError(found)                           # not now: no try spent
            elif found is None:
                self.tries.spent(visitor.address)
                raise OnlineError(Online.WRONG_ROOM)
            else:
                self._into(client, visitor, found, then)
        except (OnlineError, rules.RuleError) as refusal:
            self._refused(client, visitor, refusal, m.Enter)

    def _into(self, client: int, visitor: Visitor, room: Room, then) -> None:
        if visitor.room != room.code or client not in room.audience:     # (a window taking back two seats: in once)
            self._leave(client, visitor)
            visitor.room = room.code
            self._in_room(room, lambda: room.enter(client))
            self.herald.entered(client, room)
        if then is not None and self.rooms.get(room.code) is room:
            then(room)

    def _rejoin(self, client: int, visitor: Visitor, message: m.Rejoin) -> None:
        self._enter(client, visitor, m.Enter(message.code),
                    then=lambda room: self._in_room(room, lambda: room.rejoin(client, message.token)))

    def _leave(self, client: int, visitor: Visitor, _message=None) -> None:
        room = self.rooms.get(visitor.room) if visitor.room else None
        visitor.room = None
        if room is not None:
            self._in_room(room, lambda: room.leave(client))

    def _give_up_seat(self, client: int, visitor: Visitor, _message: m.GiveUpSeat) -> None:
        """The player gives their seats up for good and leaves: the room tells everyone, the host may give them to
        computer players."""
        room = self._room_of(visitor)
        visitor.room = None
        self._in_room(room, lambda: room.leave(client, for_good=True))

    def _set_plan(self, client: int, visitor: Visitor, message: m.SetPlan) -> None:
        room = self._room_of(visitor)
        self._plan_read(visitor)
        self._in_room(room, lambda: room.set_plan(client, message.plan))

    def _plan_read(self, visitor: Visitor) -> None:
        """A plan is to be read: it costs the server a check of its villa, so an address has so many a minute."""
        if not self.plans.allow(visitor.address):
            raise OnlineError(Online.TOO_MANY_PLANS, seconds=round(self.plans.wait(visitor.address)))
        self.plans.spent(visitor.address)

    def _let_go(self, room: Room, client: int | None, why: Online) -> None:
        """A player the host took out of their seat is told why, and their connection closed."""
        if client is not None:
            room.leave(client)
            self.door.close(client, why.value, room=room.code)

    def _in_own_room(self, client: int, visitor: Visitor, message) -> None:
        """What a connection asks of the room it is in: a game request's refusal goes back to the sender only,
        and a player the host took out of their seat is told why and let go."""
        room = self._room_of(visitor)
        paused = self.place.paused_for(room.code)
        if paused is not None:
            raise OnlineError(Online.PAUSED, seconds=round(paused))
        answer = self._in_room(room, partial(_ROOM_ASKS[type(message)], room, client, message))
        if type(message) in _TAKING_OUT:
            self._let_go(room, answer, _TAKING_OUT[type(message)])
        elif answer is not None:         # (only a game request answers with its refusal: after what it follows)
            room.news.to((client,), [m.Refused(*protocol.refusal_parts(answer))])


# what a connection in a room asks of it, as the room's own call (a game request's answer: its refusal or None)
_ROOM_ASKS: dict[type, Callable] = {
    m.Sit: lambda room, client, ask: room.sit(client, ask.name, ask.seat),
    m.Begin: lambda room, client, _ask: room.begin(client),
    m.SetClock: lambda room, client, ask: room.set_clock(client, ask.seconds),
    m.GiveToComputer: lambda room, client, ask: room.give_to_computer(client, ask.seat, ask.strength),
    m.SendAway: lambda room, client, ask: room.send_away(client, ask.seat),
    **{kind: lambda room, client, request: room.request(client, request) for kind in rq.REQUESTS},
}
# the host's asks that take a player out of their seat (the room answers with that player's connection), and why
_TAKING_OUT = {m.GiveToComputer: Online.SEAT_GIVEN, m.SendAway: Online.SENT_AWAY}

_HANDLERS: dict[type, Callable] = {
    m.OpenRoom: Server._open_room, m.Enter: Server._enter, m.Rejoin: Server._rejoin, m.Leave: Server._leave,
    m.SetPlan: Server._set_plan, m.GiveUpSeat: Server._give_up_seat,
    **{kind: Server._in_own_room for kind in _ROOM_ASKS},
}
