"""A server's place in a fleet: many `villa-paletti-server`s sharing their rooms through one Redis.

    fleet = Fleet("redis://10.0.0.5:6379/0", public="10.0.0.7:47170")
    server = Server(47170, "", fleet=fleet)      # the fleet is the server's store, directory and lease keeper

Every room has an entry in the directory (its code, unique across the fleet by an atomic create) naming the server
that plays it, and a lease that server renews; a fencing number rises at every change of hands and every write
checks it. A server plays a room only while its lease holds by its own clock: counted from when it sent the renewal
Redis granted, less a margin for the two clocks drifting apart (`DRIFT`). Past that the room pauses (its people are
told) until Redis renews it, or says another server plays it now: then the room is closed here and its players are
sent on. A room paused for long is let go, its players sent to look for it.

Each request a room's game is given is written to Redis (the room's journal) before the room's people hear what came
of it, with the frame it came at; each settled turn appends what it added. A server that takes a room over plays the
journal again over the last settled turn and goes on from the last thing its people heard: no move a player saw is
lost. A reaper on every server looks for rooms whose lease deadline passed (a sorted set, `ZRANGEBYSCORE`) and claims
them: exactly one wins each. All the fleet's talk with Redis goes through its line (`villa.online.fleet.line`), a
thread of its own: a hung or full Redis costs the rooms no frame, and whatever error Redis gives is one more reason
to try again, never a server's end. Redis that lost a room's keys (restarted without persistence, flushed, or
evicting) is given the room again by its holder, whole.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import redis

from villa.online import protocol
from villa.online.fleet import documents
from villa.online.fleet import redis_keys as keys
from villa.online.fleet.line import Batch, Call, Line
from villa.online.protocol import Online
from villa.online.server.journal import Entry
from villa.online.server.room import Room

log = logging.getLogger(__name__)

DRIFT = 0.01               # a lease counts as held for 1 % less than it lasts in Redis, ...
DRIFT_S = 0.002            # ... and 2 ms less again: the two clocks may drift apart that much (as Redis' own
                           # distributed lock counts it); the reapers wait a whole lease more on top
LET_GO_LEASES = 4          # a room paused for this many leases more is let go here: its players look for it elsewhere
ORPHANS_AT_ONCE = 100      # rooms a reaper looks at in one look
FULL_S = 5.0               # after Redis said it is full, no new room is asked for this long
NOT_HELD = "not held"      # a room loaded by a server that no longer holds it
NEVER = 2**62              # a write that is never done: news of a room this server lost is never told
STOP_S = 3.0               # a server stopping waits this long at most for its last writes and handovers


@dataclass(frozen=True)
class Timings:
    """How often a fleet's servers speak to Redis, and how long what they say holds (tests use short ones)."""

    refresh_s: float = 1.0       # presence and leases renewed this often
    presence_s: float = 3.0      # a server's presence lives this long unless refreshed
    lease_s: float = 3.0         # a room's lease, likewise
    reap_s: float = 1.0          # how often a server looks for rooms whose lease lapsed
    redis_s: float = 0.25        # the longest a round trip to Redis may take before it counts as failed
    dormant_s: float = 30 * 86400.0    # a room closed with its game under way is kept in Redis this long


@dataclass
class Op:
    ticket: int
    script: str              # "append", "turn", "seats", "whole", "release"
    args: list


@dataclass
class Held:
    """A room this server holds: its lease (by this server's clock) and its writes, in order."""

    fence: int
    until: float             # the lease holds until then unless renewed (this server's clock)
    touched: float           # when the last renewal Redis granted was sent
    room: Room | None = None
    begun: bool = False      # its game is in Redis (written whole once)
    whole: bool = False      # to be written whole again (Redis lost part of it, or it leads nowhere)
    turns: int = 0           # turn entries in Redis
    actions: int = 0         # moves those entries hold
    seats: bytes | None = None
    tickets: int = 0         # writes asked for
    queue: deque[Op] = field(default_factory=deque)
    closing: str | None = None     # released as this ("finished", "dormant", "handover") once its writes are done


class Fleet:
    writes_ahead = True

    def __init__(self, url: str, public: str, timings: Timings = Timings(),
                 clock: Callable[[], float] = time.monotonic, aside: bool = False) -> None:
        """`url`: the fleet's Redis; `public`: host:port at which players reach this server; `aside`: the computer
        players of rooms taken up here think in a worker process."""
        self.public, self.timings, self._clock = public, timings, clock
        self.url = url
        self.id = secrets.token_hex(8)
        self.line = Line(url, timings.redis_s, clock)
        self.held: dict[str, Held] = {}
        self.away = False                      # the last batch found no Redis
        self._full_until = -1e9
        self._flight: Batch | None = None
        self._asks: list[Call] = []            # lookups, claims, loads, creations, to go with the next batch
        self._claiming: set[str] = set()
        self._refreshed = self._reaped = -1e9
        self._missing: dict[str, float] = {}   # orphans seen, and since when (this server's clock)
        self._listed: list[str] = [public]
        self._looking = False                  # the fleet's servers are being looked up
        self._lost: list[str] = []
        self._found: list[Room] = []
        self._options: dict = {"aside": aside, "clock": clock}     # how rooms are taken up here
        self._said: set[str] = set()           # troubles logged once
        self.takeovers = 0
        self.loop_s = 0.0                      # time the frame loop spent on the fleet's work (for measuring)

    # --- the frame loop's side -------------------------------------------------------------------------------

    def tick(self) -> tuple[list[str], list[Room]]:
        """What came back from Redis is taken in, the next batch goes: (rooms lost, which this server must close and
        whose players it must send on; rooms taken up here by its reaper, to open)."""
        began = time.perf_counter()
        now = self._clock()
        for batch in self.line.done():
            self._finish(batch)
        for code, held in list(self.held.items()):
            if now > held.until + LET_GO_LEASES * self.timings.lease_s and held.closing is None:
                self._say(f"let go {code}", logging.WARNING, "room %s: no word from Redis for %.1f s: it is let go "
                          "here, its players look for it on the others", code, now - held.touched)
                self._drop(code)
        if self._flight is None:
            batch = self._next_batch(now)
            if batch.calls:
                self._flight = batch
                self.line.send(batch)
        lost, found = self._lost, self._found
        self._lost, self._found = [], []
        self.loop_s += time.perf_counter() - began
        return lost, found

    def may_play(self, code: str) -> bool:
        """Does this server's lease on the room hold now, by its own clock?"""
        held = self.held.get(code)
        return held is not None and self._clock() <= held.until

    def paused_for(self, code: str) -> float | None:
        """Seconds since this server last heard Redis grant the room's lease, once it no longer holds (None: it
        plays)."""
        held = self.held.get(code)
        now = self._clock()
        if held is None or now <= held.until:
            return None
        return now - held.touched

    def stats(self) -> dict:
        return {"fleet_loop_ms": round(1000 * self.loop_s, 3), "redis_rounds": self.line.rounds,
                "redis_calls": self.line.calls, "rooms_held": len(self.held)}

    # --- a room's writes: the journal ahead of its news, turns, seats -----------------------------------------

    def ahead(self, room: Room, entry: Entry) -> int:
        """A journal entry, written before the room tells its people anything after it: the write's ticket."""
        held = self._holding(room)
        if held is None:
            return NEVER
        return self._queue(held, "append", [entry.seq, entry.to_bytes()])

    def __call__(self, room: Room) -> int | None:
        """The room kept as it stands: its game written whole once it begins, then each settled turn appended and
        the seats written when they change. Returns the ticket of the last write asked for (None: nothing to write)."""
        began = time.perf_counter()
        try:
            return self._keep(room)
        finally:
            self.loop_s += time.perf_counter() - began

    def _keep(self, room: Room) -> int | None:
        held = self._holding(room)
        if held is None:
            return NEVER
        match = room.match
        if match is None:
            return None
        if not held.begun or held.whole:
            held.whole = True
            held.queue.clear()
            held.tickets += 1
            return held.tickets
        ticket = None
        turns = match.turns
        if len(turns) == held.turns + 1 and held.turns:
            entry = documents.turn_entry(turns[-1], match.state.log, held.actions, turns[-2].actions,
                                         room.journal.asked_settled)
            ticket = self._queue(held, "turn", [turns[-1].turn, room.journal.settled_seq, entry])
            held.turns, held.actions = len(turns), turns[-1].actions
        elif len(turns) != held.turns:
            held.whole = True
            held.queue.clear()
            held.tickets += 1
            return held.tickets
        seats = documents.seats_document(room.seats_kept(), match.setup.seats)
        if seats != held.seats:
            held.seats = seats
            ticket = self._queue(held, "seats", [seats])
        return ticket

    def _holding(self, room: Room) -> Held | None:
        held = self.held.get(room.code)
        if held is not None and held.closing is None:
            held.room = room
            return held
        return None

    def _queue(self, held: Held, script: str, args: list) -> int:
        held.tickets += 1
        held.queue.append(Op(held.tickets, script, args))
        return held.tickets

    def _whole(self, code: str, held: Held) -> Call | None:
        """The room written whole: its game, seats, every settled turn and the journal since (built now, from the
        room as it stands)."""
        room = held.room
        if room is None or room.match is None:
            held.whole = False
            return None
        record, seats = room.kept()
        log_ = record.state.log
        turns = [documents.turn_entry(turn, log_, record.turns[n - 1].actions if n else len(record.start.log), None,
                                      seats.get("asked", {}) if n == len(record.turns) - 1 else {})
                 for n, turn in enumerate(record.turns)]
        seats_doc = documents.seats_document(room.seats_kept(), record.setup.seats)
        journal = room.journal
        args = [self.public, documents.game_document(record), seats_doc, journal.settled_seq, journal.seq,
                len(turns), *turns, *(entry.to_bytes() for entry in journal.entries)]
        held.turns, held.actions, held.seats = len(record.turns), record.turns[-1].actions, seats_doc
        held.whole = False
        held.queue.clear()
        return self._room_call(code, held, "whole", args)

    def _room_call(self, code: str, held: Held, script: str, args: list) -> Call:
        return Call(script, keys.room_keys(code), [self.id, held.fence, *args], then=_ignore)

    # --- the directory: new rooms, rooms looked for ---------------------------------------------------------

    def new_code(self, taken: set[str], answer: Callable[[str | None], None]) -> None:
        """A code no room of the fleet has, the room's lease held from then on; `answer` gets it (None: the fleet
        cannot take a new room now: Redis is away or full)."""
        self._create(set(taken), answer, 20)

    def _create(self, taken: set[str], answer: Callable, tries: int) -> None:
        if self.busy or not tries:
            answer(None)
            return
        code = protocol.new_room_code()
        while code in taken or code in self.held:
            code = protocol.new_room_code()

        def created(fence, sent_at: float) -> None:
            if isinstance(fence, int) and fence > 0:
                self._hold(code, fence, sent_at)
                answer(code)
            elif fence == 0:
                self._create(taken | {code}, answer, tries - 1)
            else:
                self._trouble(fence)
                answer(None)
        self._asks.append(Call("create", keys.room_keys(code), [self.id, self.public, self._lease_ms()], created))

    @property
    def waiting(self) -> bool:
        """Answers from Redis are on their way (or asks wait to go)."""
        return self._flight is not None or bool(self._asks)

    @property
    def busy(self) -> bool:
        """No new room now: Redis is away, or said it is full a moment ago."""
        return self.away or self._clock() < self._full_until

    def code_now(self, taken: set[str]) -> str | None:
        """`new_code`, waited for (a server starting, before its loop runs)."""
        found: list = []
        self.new_code(taken, found.append)
        end = self._clock() + max(2.0, 8 * self.timings.redis_s)
        while not found and self._clock() < end:
            self.tick()
            time.sleep(0.005)
        return found[0] if found else None

    def find(self, code: str, answer: Callable, full: bool = False, **options) -> None:
        """Where the room with this code is played: `answer` gets the room, taken up here (nobody plays it now),
        the address of the server that plays it, None (no room of the fleet has this code), or an `Online` code
        (not now: the fleet is looking for it, or Redis does not answer). `full`: this server takes up no more."""
        if options:
            self._options = options
        if code in self.held or code in self._claiming:
            answer(Online.FLEET_BUSY if code in self._claiming else Online.ROOM_MOVING)
            return

        def looked(found, sent_at: float) -> None:
            if isinstance(found, Exception):
                self._trouble(found)
                answer(Online.FLEET_BUSY)
                return
            owner, address, state, leased, begun = (_text(v) for v in found)
            if not owner:
                answer(None)
            elif leased != "0":
                answer(address if owner != self.id else Online.ROOM_MOVING)
            elif begun == "0":
                answer(Online.WRONG_ROOM)          # a lobby whose server went: there is no game to take up
            elif code in self.held or code in self._claiming:
                answer(Online.ROOM_MOVING)
            elif full:
                answer(Online.SERVER_FULL)
            else:
                self._claim(code, "any", answer)
        self._asks.append(Call("find", keys.room_keys(code), [], looked))

    def _claim(self, code: str, mode: str, answer: Callable) -> None:
        self._claiming.add(code)

        def claimed(fence, sent_at: float) -> None:
            if isinstance(fence, int) and fence > 0:
                self._hold(code, fence, sent_at)
                self._load(code, answer)
                return
            self._claiming.discard(code)
            if fence == -1:
                self._asks.append(Call(None, [], ["ZREM", keys.LEASES, code], _ignore))
                answer(None)
            else:
                if isinstance(fence, Exception):
                    self._trouble(fence)
                answer(Online.ROOM_MOVING)
        self._asks.append(Call("claim", keys.room_keys(code), [self.id, self.public, self._lease_ms(), mode],
                               claimed))

    def _load(self, code: str, answer: Callable) -> None:
        held = self.held[code]

        def loaded(kept, sent_at: float) -> None:
            self._claiming.discard(code)
            if code not in self.held or kept is NOT_HELD:
                self.held.pop(code, None)
                answer(Online.ROOM_MOVING)
            elif isinstance(kept, documents.DocumentError):
                log.error("room %s could not be taken up from Redis: %s", code, kept)
                self._release(code, "dormant")
                answer(Online.ROOM_FAILED)
            elif kept is None:
                self._release(code, "finished")     # claimed before its game began: nothing to play
                answer(None)
            elif isinstance(kept, Exception):
                self._trouble(kept)
                self._release(code, "handover")      # another look, soon, by whichever server
                answer(Online.ROOM_MOVING)
            else:
                self._taken_up(code, kept, answer)
        self._asks.append(Call("load", keys.room_keys(code), [self.id, held.fence], loaded, read=_read))

    def _taken_up(self, code: str, kept: documents.Kept, answer: Callable) -> None:
        held = self.held[code]
        try:
            room = Room.taken_up(kept.record, kept.seats, keep=self, entries=kept.entries, base=kept.base,
                                 **self._options)
        except Exception:  # noqa: BLE001 - a room that cannot be played again is kept for later, the server serves on
            log.exception("room %s could not be played again from Redis", code)
            self._release(code, "dormant")
            answer(Online.ROOM_FAILED)
            return
        held.room, held.begun = room, True
        held.turns, held.actions = len(kept.record.turns), kept.record.turns[-1].actions
        held.seats = documents.seats_document(room.seats_kept(), room.match.setup.seats)
        if room.match.turn >= held.turns:
            held.whole = True          # turns settled again while its journal was played: written whole
        log.info("room %s taken up at turn %d, %d requests played again", code, room.match.turn, len(kept.entries))
        answer(room)

    # --- leases ---------------------------------------------------------------------------------------------------

    def _hold(self, code: str, fence: int, sent_at: float) -> None:
        self.held[code] = Held(fence, self._valid_until(sent_at), sent_at)
        self._asks.append(Call("deadlines", [keys.LEASES], [self._lease_ms(), code], _ignore))

    def _valid_until(self, sent_at: float) -> float:
        lease = self.timings.lease_s
        return sent_at + lease - lease * DRIFT - DRIFT_S

    def _renewed(self, code: str, held: Held, answer, sent_at: float) -> None:
        if self.held.get(code) is not held:
            return
        if answer in (1, 2):
            held.until, held.touched = max(held.until, self._valid_until(sent_at)), sent_at
            if answer == 2 and held.begun:
                self._say(f"whole {code}", logging.WARNING, "room %s: Redis lost part of it: it is written whole "
                          "again", code)
                held.whole = True
        elif answer == 0:
            log.warning("room %s: another server holds it now, or it was let go: it is closed here", code)
            self._drop(code)
        else:
            self._trouble(answer)

    def _drop(self, code: str) -> None:
        """The room is no longer this server's: closed here, its players sent on, its writes never done."""
        held = self.held.pop(code, None)
        if held is not None and held.room is not None:
            held.room.gate.drop()
        if held is not None and held.closing is None:
            self._lost.append(code)

    def _lease_ms(self) -> int:
        return int(self.timings.lease_s * 1000)

    # --- batches --------------------------------------------------------------------------------------------------

    def _next_batch(self, now: float) -> Batch:
        batch = Batch()
        renewing = now - self._refreshed >= self.timings.refresh_s
        if renewing:
            self._refreshed = now
            batch.add(Call("present", [keys.SERVERS], self._presence(), self._present))
            for code, held in self.held.items():
                batch.add(Call("renew", keys.room_keys(code), [self.id, held.fence, self._lease_ms(), self.public,
                                                               "1" if held.begun else "0"],
                               lambda answer, sent_at, c=code, h=held: self._renewed(c, h, answer, sent_at)))
            codes = [code for code, held in self.held.items() if held.closing is None]
            for start in range(0, len(codes), 1000):
                batch.add(Call("deadlines", [keys.LEASES], [self._lease_ms(), *codes[start:start + 1000]], _ignore))
        if now - self._reaped >= self.timings.reap_s and not self.away:
            self._reaped = now
            batch.add(Call("orphans", [keys.LEASES], [ORPHANS_AT_ONCE], self._orphans))
        batch.calls.extend(self._asks)
        self._asks = []
        for code, held in self.held.items():
            calls = self._writes(code, held)
            if calls:
                batch.writes.append((code, held, calls))
                batch.calls.extend(call for call, _ops in calls)
        return batch

    def _writes(self, code: str, held: Held) -> list[tuple[Call, list[Op]]]:
        """The room's writes for this batch, in order: its journal's entries one after another in one call."""
        if held.whole:
            call = self._whole(code, held)
            if call is None:
                return []
            return [(call, [Op(held.tickets, "whole", [])])]
        calls: list[tuple[Call, list[Op]]] = []
        queue = held.queue
        while queue:
            op = queue.popleft()
            if op.script == "append":
                ops = [op]
                while queue and queue[0].script == "append":
                    ops.append(queue.popleft())
                args = [ops[0].args[0], *(o.args[1] for o in ops)]
                calls.append((self._room_call(code, held, "append", args), ops))
            elif op.script == "release":
                calls.append((Call("release", keys.room_keys(code), [self.id, held.fence, *op.args], _ignore),
                              [op]))
            else:
                calls.append((self._room_call(code, held, op.script, op.args), [op]))
        return calls

    def _finish(self, batch: Batch) -> None:
        """What came of a batch: each call's answer to whoever asked, the rooms' writes done (their news goes out),
        lost, or put back to go again."""
        self._flight = None
        self._finish_now(batch)

    def _finish_now(self, batch: Batch) -> None:
        if batch.error is not None:
            self._trouble(batch.error)
            self._refreshed = -1e9            # whatever Redis holds now, the leases are renewed first next time
        else:
            if self.away:
                log.info("Redis answers again")
            self.away = False
        for call in batch.calls:
            if call.then is not _ignore:
                call.then(batch.error or call.answer, batch.sent_at)
        for code, held, calls in getattr(batch, "writes", ()):
            self._written(code, held, calls, batch.error)

    def _written(self, code: str, held: Held, calls: list, error: Exception | None) -> None:
        done = 0
        for number, (call, ops) in enumerate(calls):
            answer = error or call.answer
            if answer == 1 or (answer == 0 and ops[-1].script == "release" and held.closing):
                done = ops[-1].ticket
                held.begun = held.begun or ops[-1].script == "whole"
                if ops[-1].script == "release":
                    self._released(code, held)
                    return
                continue
            if self.held.get(code) is not held:
                return
            if answer == 0:
                log.warning("room %s: a write was refused (another server holds it now): it is closed here", code)
                self._drop(code)
                return
            if answer == -2:
                self._refreshed = -1e9        # its lease lapsed in Redis (Redis was away): renewed first, then again
                held.queue.extendleft(reversed([op for _call, ops_ in calls[number:] for op in ops_
                                                if op.script != "whole"]))
                held.whole = held.whole or any(op.script == "whole" for _call, ops_ in calls[number:] for op in ops_)
            elif answer == -1:
                self._say(f"gap {code}", logging.WARNING, "room %s: Redis does not hold what leads up to its writes: "
                          "it is written whole again", code)
                held.whole = True
            else:
                self._trouble(answer)
                later = [op for _call, ops_ in calls[number:] for op in ops_]
                if any(op.script == "whole" for op in later):
                    held.whole = True        # built again from the room as it stands by then
                else:
                    held.queue.extendleft(reversed(later))
            break
        if done and held.room is not None:
            held.room.written(done)

    # --- what Redis said ------------------------------------------------------------------------------------------

    def _present(self, answer, sent_at: float) -> None:
        self._looking = False
        if isinstance(answer, list):
            others = sorted(_text(answer[n + 1]) for n in range(0, len(answer) - 1, 2) if _text(answer[n]) != self.id)
            self._listed = [self.public, *others]

    def _orphans(self, answer, sent_at: float) -> None:
        if not isinstance(answer, list):
            return
        now = self._clock()
        seen = {}
        for n in range(0, len(answer) - 1, 2):
            code, deadline = _text(answer[n]), float(answer[n + 1])
            if code in self.held or code in self._claiming or protocol.room_code(code) != code:
                continue
            since = self._missing.get(code, now)
            seen[code] = since
            if deadline > 0 and now - since < self.timings.lease_s:
                continue            # a holder back from an outage of Redis takes its lease back first
            self._claim(code, "orphan", self._reaped_room)
        self._missing = seen

    def _reaped_room(self, found) -> None:
        if isinstance(found, Room):
            self.takeovers += 1
            self._found.append(found)

    def _trouble(self, error) -> None:
        """Whatever Redis said went wrong: said once in the log, the rooms play on, the writes go again."""
        if isinstance(error, (redis.ConnectionError, redis.TimeoutError, OSError)):
            if not self.away:
                self._said.clear()
                log.warning("Redis is away (%s): the rooms here play on while their leases hold, nothing new is "
                            "opened", error)
            self.away = True
            return
        kind = type(error).__name__
        if isinstance(error, redis.exceptions.OutOfMemoryError):
            self._full_until = self._clock() + FULL_S
        elif isinstance(error, redis.ResponseError) and str(error).startswith("MOVED"):
            kind = "MOVED"
        self._say(kind, logging.WARNING, "Redis refused a write (%s): it goes again%s", error,
                  ": this Redis is a Cluster, start the servers with its cluster URL" if kind == "MOVED" else "")

    def _say(self, key: str, level: int, *said) -> None:
        if key not in self._said:
            self._said.add(key)
            log.log(level, *said)

    # --- a room's end here -----------------------------------------------------------------------------------------

    def closed(self, room: Room) -> None:
        """A room this server closed: a finished game leaves the directory; one under way waits for a player to come
        back to any server (once its last writes are done)."""
        finished = room.match is None or room.match.over
        self._release(room.code, "finished" if finished else "dormant")

    def _release(self, code: str, what: str) -> None:
        held = self.held.get(code)
        if held is None:
            return
        if held.closing is None:
            self._queue(held, "release", [what, int(self.timings.dormant_s * 1000)])
            held.closing = what

    def _released(self, code: str, held: Held) -> None:
        if self.held.get(code) is held:
            del self.held[code]
        if held.closing == "handover":
            self._asks.append(Call(None, [], ["ZADD", keys.LEASES, 0, code], _ignore))
        else:
            self._asks.append(Call(None, [], ["ZREM", keys.LEASES, code], _ignore))

    def stopping(self, rooms: list[Room]) -> None:
        """This server stops in order: each room's last writes done, and the room handed over to another server at
        once (a finished one leaves the directory)."""
        for room in rooms:
            self(room)
            finished = room.match is None or room.match.over
            self._release(room.code, "finished" if finished else "handover")
        self._refreshed = -1e9             # the fleet looked at once more: its players are told where else to look
        end = self._clock() + STOP_S
        while self._clock() < end and (self.held or self._asks or self._flight is not None):
            if self._flight is not None:
                if not self._flight.finished.wait(max(0.0, end - self._clock())):
                    break
            self.tick()
            if self.away:
                break
        self.line.send(Batch([Call(None, [], ["HDEL", keys.SERVERS, self.id], _ignore)]))
        self.line.close()

    def addresses(self) -> list[str]:
        """Where players find this fleet's rooms: this server first, then the others present (as last looked up; a
        player asking makes the fleet look again at once, and the server tells its players if it changed)."""
        if not self._looking:
            self._looking = True
            self._asks.append(Call("present", [keys.SERVERS], self._presence(), self._present))
        return self._listed

    def present_now(self) -> bool:
        """This server said present in the fleet, and the others looked up, waited for (a server starting): False if
        Redis did not answer."""
        batch = Batch([Call("present", [keys.SERVERS], self._presence(), self._present)])
        if not self.line.now(batch, max(2.0, 8 * self.timings.redis_s)):
            return False
        self._finish_now(batch)
        return batch.error is None

    def _presence(self) -> list:
        return [self.id, self.public, int(self.timings.presence_s * 1000)]

    # --- at start ---------------------------------------------------------------------------------------------------

    def warnings(self) -> list[tuple[str, dict]]:
        """What in Redis' settings costs the fleet games, where Redis lets a server read them: an evicting policy
        ("evicts", its name), no persistence at all ("no persistence"), or snapshots only ("snapshots only");
        ("unread", the reason) if Redis would not say. Asked once, at start."""
        found: list[tuple[str, dict]] = []
        try:
            config = {}
            for name in ("maxmemory-policy", "appendonly", "save"):
                config.update({_text(k): _text(v) for k, v in self.line.redis.config_get(name).items()})
        except (redis.RedisError, OSError) as error:
            return [("unread", {"why": str(error)})]
        policy = config.get("maxmemory-policy", "noeviction")
        if policy != "noeviction":
            found.append(("evicts", {"policy": policy}))
        if config.get("appendonly", "no") != "yes":
            found.append(("snapshots only" if config.get("save", "").strip() else "no persistence", {}))
        return found


def _ignore(_answer, _sent_at: float) -> None:
    pass


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode()
    return "" if value is None or value is False else str(value)


def _read(answer):
    """A LOAD's answer, read on the line's thread: None (the game never began), or the room (`Kept`)."""
    if answer == 0:
        return NOT_HELD
    game, seats, turns, requests, base = answer
    if game is None or seats is None or not turns:
        return None
    try:
        return documents.read_room(game, seats, turns, requests, base or 0)
    except documents.DocumentError as error:
        return error
