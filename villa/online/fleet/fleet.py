"""A server's place in a fleet: many `villa-paletti-server`s sharing their rooms through one Redis.

    fleet = Fleet("redis://10.0.0.5:6379/0", public="10.0.0.7:47170")
    server = Server(47170, "", fleet=fleet)      # the fleet is the server's store, directory and lease keeper

Every room has an entry in the directory (its code, unique across the fleet by an atomic create) naming the server
that plays it, and a lease that server renews; a fencing number rises at every change of hands and every write
checks it. A server plays a room only while its lease holds by its own clock: counted from when it sent the renewal
Redis granted, less a margin for the two clocks drifting apart (`held.DRIFT`). Past that the room pauses (its people
are told) until Redis renews it, or says another server plays it now: then the room is closed here and its players
are sent on. A room paused for long is let go, its players sent to look for it.

Each request a room's game is given is written to Redis (the room's journal) before the room's people hear what came
of it, with the frame it came at; each settled turn appends what it added (`writes`). A server that takes a room over
plays the journal again over the last settled turn and goes on from the last thing its people heard: no move a player
saw is lost. A reaper on every server looks for rooms whose lease deadline passed (a sorted set, `ZRANGEBYSCORE`)
and claims them: exactly one wins each (`directory`). All the fleet's talk with Redis goes through its line
(`line`), a thread of its own: a hung or full Redis costs the rooms no frame, and whatever error Redis gives is one
more reason to try again, never a server's end. Redis that lost a room's keys (restarted without persistence,
flushed, or evicting) is given the room again by its holder, whole.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis

from villa.online.fleet import presence
from villa.online.fleet import redis_keys as keys
from villa.online.fleet.directory import Directory
from villa.online.fleet.held import Held, valid_until
from villa.online.fleet.line import Batch, Call, Line
from villa.online.fleet.presence import Presence
from villa.online.fleet.writes import Writes, ignore
from villa.online.server.journal import Entry
from villa.online.server.room import Room
from villa.online.wire.certificates import with_pin

log = logging.getLogger(__name__)

LET_GO_LEASES = 4          # a room paused for this many leases more is let go here: its players look for it elsewhere
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

    @property
    def lease_ms(self) -> int:
        return int(self.lease_s * 1000)


class Fleet:
    writes_ahead = True

    def __init__(self, url: str, public: str, timings: Timings = Timings(),
                 clock: Callable[[], float] = time.monotonic, aside: bool = False,
                 fingerprint: str | None = None) -> None:
        """`url`: the fleet's Redis; `public`: host:port at which players reach this server; `aside`: the computer
        players of rooms taken up here think in a worker process; `fingerprint`: its TLS certificate's, carried after
        the address wherever the fleet names this server (host:port#fingerprint), so that a player sent on here
        checks it is here."""
        self.timings, self.now = timings, clock
        self.public = with_pin(public, fingerprint)
        self.id = secrets.token_hex(8)
        self.line = Line(url, timings.redis_s, clock)
        self.held: dict[str, Held] = {}
        self.away = False                      # the last batch found no Redis
        self.asks: list[Call] = []             # lookups, claims, loads, creations, to go with the next batch
        self.found: list[Room] = []            # rooms the reaper took up, for the server to open
        self._lost: list[str] = []
        self._flight: Batch | None = None
        self._refreshed = self._reaped = -1e9
        self._said: set[str] = set()           # troubles logged once
        self.writes = Writes(self)
        self.directory = Directory(self, {"aside": aside, "clock": clock})
        self.presence = Presence(self)
        self.loop_s = 0.0                      # time the frame loop spent on the fleet's work (for measuring)

    # --- what the server asks (its `Place`) -------------------------------------------------------------------

    def tick(self) -> tuple[list[str], list[Room]]:
        """What came back from Redis is taken in, the next batch goes: (rooms lost, which this server must close and
        whose players it must send on; rooms taken up here by its reaper, to open)."""
        began = time.perf_counter()
        now = self.now()
        for batch in self.line.done():
            self._finish(batch)
        for code, held in list(self.held.items()):
            if now > held.until + LET_GO_LEASES * self.timings.lease_s and held.closing is None:
                self.say(f"let go {code}", logging.WARNING, "room %s: no word from Redis for %.1f s: it is let go "
                         "here, its players look for it on the others", code, now - held.touched)
                self.drop(code)
        if self._flight is None:
            batch = self._next_batch(now)
            if batch.calls:
                self._flight = batch
                self.line.send(batch)
        lost, found = self._lost, self.found
        self._lost, self.found = [], []
        self.loop_s += time.perf_counter() - began
        return lost, found

    def may_play(self, code: str) -> bool:
        """Does this server's lease on the room hold now, by its own clock?"""
        held = self.held.get(code)
        return held is not None and self.now() <= held.until

    def paused_for(self, code: str) -> float | None:
        """Seconds since this server last heard Redis grant the room's lease, once it no longer holds (None: it
        plays)."""
        held = self.held.get(code)
        now = self.now()
        if held is None or now <= held.until:
            return None
        return now - held.touched

    def ahead(self, room: Room, entry: Entry) -> int:
        """A journal entry, written before the room tells its people anything after it: the write's ticket."""
        return self._timed(self.writes.ahead, room, entry)

    def __call__(self, room: Room) -> int | None:
        """The room kept as it stands (its ticket; None: nothing to write)."""
        return self._timed(self.writes.keep, room)

    def new_code(self, taken: set[str], answer: Callable[[str | None], None]) -> None:
        self._timed(self.directory.new_code, set(taken), answer)

    def code_now(self, taken: set[str]) -> str | None:
        """`new_code`, waited for (a server starting, before its loop runs)."""
        end = self.now() + max(10.0, 8 * self.timings.redis_s)
        while self.now() < end:
            found: list = []
            self.new_code(taken, found.append)
            while not found:
                self.tick()
                time.sleep(0.005)
            if found[0] is not None:
                return found[0]
            again = self.now() + 0.2        # Redis not answering yet (starting, loading, a loaded machine): again
            while self.now() < again:
                self.tick()
                time.sleep(0.01)
        return None

    def find(self, code: str, answer: Callable, full: bool = False, **options) -> None:
        self._timed(self.directory.find, code, answer, full)

    @property
    def waiting(self) -> bool:
        """Answers from Redis are on their way (or asks wait to go)."""
        return self._flight is not None or bool(self.asks)

    def addresses(self) -> list[str]:
        return self.presence.addresses()

    def closed(self, room: Room) -> None:
        """A room this server closed: a finished game leaves the directory; one under way waits for a player to come
        back to any server (once its last writes are done)."""
        finished = room.match is None or room.match.over
        self.release(room.code, "finished" if finished else "dormant")

    def stopping(self, rooms: list[Room]) -> None:
        """This server stops in order: each room's last writes done, and the room handed over to another server at
        once (a finished one leaves the directory)."""
        for room in rooms:
            self(room)
            finished = room.match is None or room.match.over
            self.release(room.code, "finished" if finished else "handover")
        self._refreshed = -1e9             # the fleet looked at once more: its players are told where else to look
        end = self.now() + STOP_S
        while self.now() < end and (self.held or self.asks or self._flight is not None):
            if self._flight is not None and not self._flight.finished.wait(max(0.0, end - self.now())):
                break
            self.tick()
            if self.away:
                break
        self.line.send(Batch([Call(None, [], ["HDEL", keys.SERVERS, self.id], ignore)]))
        self.line.close()

    def stats(self) -> dict:
        return {"fleet_loop_ms": round(1000 * self.loop_s, 3), "redis_rounds": self.line.rounds,
                "redis_calls": self.line.calls, "rooms_held": len(self.held), "takeovers": self.directory.takeovers}

    def warnings(self) -> list[tuple[str, dict]]:
        """What in Redis' settings costs games (asked once, at start; `presence.warnings`)."""
        return presence.warnings(self.line.redis)

    # --- leases ---------------------------------------------------------------------------------------------------

    def hold(self, code: str, fence: int, sent_at: float) -> None:
        """A room this server holds from now on (created or claimed by a call sent at `sent_at`)."""
        self.held[code] = Held(fence, valid_until(sent_at, self.timings.lease_s), sent_at)
        self.asks.append(Call("deadlines", [keys.LEASES], [self.timings.lease_ms, code], ignore))

    def _renewals(self, rooms: list[tuple[str, Held]], answers, sent_at: float) -> None:
        for n, (code, held) in enumerate(rooms):
            self._renewed(code, held, answers[n] if isinstance(answers, list) else answers, sent_at)

    def _renewed(self, code: str, held: Held, answer, sent_at: float) -> None:
        if self.held.get(code) is not held:
            return
        if answer in (1, 2):
            held.until, held.touched = max(held.until, valid_until(sent_at, self.timings.lease_s)), sent_at
            if answer == 2 and held.begun:
                self.say(f"whole {code}", logging.WARNING, "room %s: Redis lost part of it: it is written whole "
                         "again", code)
                held.whole = True
        elif answer == 0:
            log.warning("room %s: another server holds it now, or it was let go: it is closed here", code)
            self.drop(code)
        else:
            self.trouble(answer)

    def drop(self, code: str) -> None:
        """The room is no longer this server's: closed here, its players sent on, its writes never done."""
        held = self.held.pop(code, None)
        if held is not None and held.room is not None:
            held.room.scribe.gate.drop()
        if held is not None and held.closing is None:
            self._lost.append(code)

    def release(self, code: str, what: str) -> None:
        self.writes.release(code, what)

    def renew_soon(self) -> None:
        """The leases go with the next batch (whatever Redis holds now, they are renewed before anything else)."""
        self._refreshed = -1e9

    # --- batches --------------------------------------------------------------------------------------------------

    def _next_batch(self, now: float) -> Batch:
        batch = Batch()
        timings = self.timings
        if now - self._refreshed >= timings.refresh_s:
            self._refreshed = now
            batch.add(self.presence.call())
            if self.held:                   # every lease in one call
                held = list(self.held.items())
                batch.add(Call("renew", [k for code, _h in held for k in keys.room_keys(code)],
                               [self.id, timings.lease_ms, self.public,
                                *(a for _c, h in held for a in (h.fence, "1" if h.begun else "0", h.acked_seq,
                                                                h.acked_turns))],
                               lambda answer, sent_at, held=held: self._renewals(held, answer, sent_at),
                               spread=(len(keys.PARTS), 3, 4)))
            codes = [code for code, held in self.held.items() if held.closing is None]
            for start in range(0, len(codes), 1000):
                batch.add(Call("deadlines", [keys.LEASES], [timings.lease_ms, *codes[start:start + 1000]], ignore))
        if now - self._reaped >= timings.reap_s and not self.away:
            self._reaped = now
            batch.add(self.directory.look())
        batch.calls.extend(self.asks)
        self.asks = []
        for code, held in self.held.items():
            calls = self.writes.calls(code, held)
            if calls:
                batch.writes.append((code, held, calls))
                batch.calls.extend(call for call, _ops in calls)
        return batch

    def _finish(self, batch: Batch) -> None:
        """What came of a batch: each call's answer to whoever asked, the rooms' writes done (their news goes out),
        refused, or put back to go again."""
        self._flight = None
        if batch.error is not None:
            self.trouble(batch.error)
            self.renew_soon()
        else:
            if self.away:
                log.info("Redis answers again")
            self.away = False
        for call in batch.calls:
            if call.then is not ignore:
                call.then(batch.error or call.answer, batch.sent_at)
        for code, held, calls in batch.writes:
            self.writes.done(code, held, calls, batch.error)

    def _timed(self, do: Callable, *args):
        began = time.perf_counter()
        try:
            return do(*args)
        finally:
            self.loop_s += time.perf_counter() - began

    # --- troubles ----------------------------------------------------------------------------------------------------

    def trouble(self, error) -> None:
        """Whatever Redis said went wrong: said once in the log, the rooms play on, the writes go again."""
        if isinstance(error, (redis.ConnectionError, redis.TimeoutError, OSError)):
            if not self.away:
                self._said.clear()
                log.warning("Redis is away (%s): the rooms here play on while their leases hold, nothing new is "
                            "opened", error)
            self.away = True
            return
        kind = type(error).__name__
        if isinstance(error, redis.ResponseError) and str(error).startswith("MOVED"):
            kind = "MOVED"
        self.say(kind, logging.WARNING, "Redis refused a write (%s): it goes again%s", error,
                 ": this Redis is one of a Cluster's (docs/online.md says how to run on one)" if kind == "MOVED" else "")

    def say(self, key: str, level: int, *said) -> None:
        if key not in self._said:
            self._said.add(key)
            log.log(level, *said)
