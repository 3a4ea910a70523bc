"""A server's place in a fleet: many `villa-paletti-server`s sharing their rooms through one Redis.

    fleet = Fleet("redis://10.0.0.5:6379/0", public="10.0.0.7:47170")
    server = Server(47170, "", place=fleet)      # the fleet is the server's store, directory and lease keeper

Each server is present in Redis while it refreshes its presence key. Every room has an entry in the directory
(its code, unique across the fleet by an atomic create) naming the server that plays it, and a lease that
server renews; a fencing number rises at every change of hands and every write checks it, so a server that lost
a room can neither play it nor write it. After each settled turn a room's autosave and seats go to Redis as one
document. A reaper on every server takes up rooms whose lease lapsed (a server killed, or frozen past its
lease): exactly one wins each, and the players' windows find it there by themselves. A server stopped in order
hands its rooms over at once. While Redis is away, every server plays on what it holds and opens nothing new;
when Redis is back, the holders take their leases back before any reaper may (a reaper waits a whole lease
after it first sees a lease missing).
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis

from villa.match import record as records
from villa.online import protocol
from villa.online.fleet import redis_keys as keys
from villa.online.server.room import Room
from villa.online.wire.certificates import with_pin

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Timings:
    """How often a fleet's servers speak to Redis, and how long what they say holds (tests use short ones)."""

    refresh_s: float = 1.0       # presence and leases renewed this often
    presence_s: float = 3.0      # a server's presence lives this long unless refreshed
    lease_s: float = 3.0         # a room's lease, likewise
    reap_s: float = 1.0          # how often a server looks for rooms whose lease lapsed
    redis_s: float = 0.25        # the longest a call to Redis may take before Redis counts as away


@dataclass
class Lease:
    fence: int
    until: float                 # our clock: the lease holds until then unless renewed


class Fleet:
    def __init__(self, url: str, public: str, timings: Timings = Timings(),
                 clock: Callable[[], float] = time.monotonic, fingerprint: str | None = None) -> None:
        """`url`: the fleet's Redis; `public`: host:port at which players reach this server; `fingerprint`: its
        TLS certificate's, carried after the address wherever the fleet names this server (host:port#fingerprint),
        so that a player sent on here checks it is here."""
        self.timings, self._clock = timings, clock
        self.public = with_pin(public, fingerprint)
        self.id = secrets.token_hex(8)
        self.redis = redis.Redis.from_url(url, socket_timeout=timings.redis_s,
                                          socket_connect_timeout=timings.redis_s, retry_on_timeout=False)
        self._scripts = {name: self.redis.register_script(text) for name, text in
                         (("create", keys.CREATE), ("renew", keys.RENEW), ("claim", keys.CLAIM),
                          ("save", keys.SAVE), ("release", keys.RELEASE))}
        self.leases: dict[str, Lease] = {}
        self.redis_away = False
        self._refreshed = self._reaped = -1e9
        self._missing: dict[str, float] = {}      # rooms seen without a lease, and since when (our clock)
        self._listed: list[str] = [self.public]   # the fleet's addresses, as last looked up
        self._listed_at = -1e9
        self.takeovers = 0
        self._call(self._present)

    # --- talking to Redis -----------------------------------------------------------------------------

    def _call(self, do: Callable[[], object], default=None):
        """A call to Redis; while Redis is away it counts as not done (and says so once)."""
        try:
            result = do()
        except (redis.ConnectionError, redis.TimeoutError) as error:
            if not self.redis_away:
                log.warning("Redis is away (%s): the rooms here play on, nothing new is opened", error)
            self.redis_away = True
            return default
        if self.redis_away:
            log.info("Redis is back")
            self.redis_away = False
        return result

    def _script(self, name: str, code: str, *args):
        return self._scripts[name](keys=keys.room_keys(code), args=list(args))

    def _present(self) -> None:
        ms = int(self.timings.presence_s * 1000)
        pipe = self.redis.pipeline()
        pipe.set(keys.server(self.id), self.public, px=ms)
        pipe.sadd(keys.SERVERS, self.id)
        pipe.execute()

    # --- the room directory ---------------------------------------------------------------------------------

    def new_code(self, taken: set[str] = frozenset()) -> str | None:
        """A code no room of the fleet has, the room's lease held from now on (None: Redis is away)."""
        for _ in range(20):
            code = protocol.new_room_code()
            fence = self._call(lambda c=code: self._script("create", c, self.id, self.public, self._lease_ms(), c))
            if fence is None:
                return None
            if fence:
                self.leases[code] = Lease(int(fence), self._clock() + self.timings.lease_s)
                return code
        return None

    def elsewhere(self, code: str) -> str | None:
        """The address of the server of the fleet that plays this room now, if another one does."""
        entry = self._call(lambda: self.redis.hgetall(keys.room(code)), {})
        if not entry or entry.get(b"owner", b"").decode() == self.id:
            return None
        held = self._call(lambda: self.redis.exists(keys.lease(code)), 0)
        return entry[b"address"].decode() if held else None

    def knows(self, code: str) -> bool:
        return bool(self._call(lambda: self.redis.exists(keys.room(code)), 0))

    # --- the store: autosaves in Redis, written by the lease holder only ---------------------------------

    def __call__(self, room: Room) -> None:
        """The room's autosave and seats, as one document; refused (and the room let go) without the lease."""
        lease = self.leases.get(room.code)
        if lease is None:
            return
        record, seats = room.kept()
        document = json.dumps({"record": records.to_document(record, "autosave"), "seats": seats},
                              separators=(",", ":"))
        done = self._call(lambda: self._script("save", room.code, self.id, lease.fence, document), default=-1)
        if done == 0:
            log.warning("room %s: its lease was taken: the autosave is refused, and the room let go", room.code)
            self.leases.pop(room.code, None)

    def take_up(self, code: str, **options) -> Room | None:
        """A room of the fleet nobody plays now (its server gone or stopped, or closed with nobody in it), taken up
        here from its last autosave."""
        if code not in self.leases:
            fence = self._call(lambda: self._script("claim", code, self.id, self.public, self._lease_ms(), code,
                                                    "any"), 0)
            if not fence:
                return None
            self.leases[code] = Lease(int(fence), self._clock() + self.timings.lease_s)
        return self._room(code, **options)

    def _room(self, code: str, **options) -> Room | None:
        saved = self._call(lambda: self.redis.get(keys.save(code)))
        if saved is None:
            self._release(code, "finished")      # claimed before any turn was kept: nothing to play
            return None
        try:
            document = json.loads(saved)
            record = records.from_document(document["record"])
            return Room.taken_up(record, document["seats"], keep=self, **options)
        except (ValueError, KeyError, TypeError, records.RecordError) as error:
            log.error("room %s could not be taken up from Redis: %s", code, error)
            self._release(code, "dormant")
            return None

    # --- time ----------------------------------------------------------------------------------------------

    def tick(self) -> tuple[list[str], list[str]]:
        """Presence and leases renewed, orphans looked for: (rooms lost, which this server must stop playing at
        once; rooms to take up here)."""
        now = self._clock()
        lost, found = [], []
        if now - self._refreshed >= self.timings.refresh_s:
            self._refreshed = now
            self._call(self._present)
            lost = self._renew(now)
        if now - self._reaped >= self.timings.reap_s and not self.redis_away:
            self._reaped = now
            found = self._reap(now)
        return lost, found

    def _renew(self, now: float) -> list[str]:
        lost = []
        for code, lease in list(self.leases.items()):
            held = self._call(lambda c=code, f=lease.fence: self._script("renew", c, self.id, f, self._lease_ms(), c))
            if held is None:
                continue        # Redis is away: nobody can take it meanwhile, and we play on
            if held:
                lease.until = now + self.timings.lease_s
            else:
                log.warning("room %s: another server holds it now: it is let go here", code)
                del self.leases[code]
                lost.append(code)
        return lost

    def may_play(self, code: str) -> bool:
        """Does this server hold the room's lease now? Past its time, only a renewal says so (a server that was
        frozen plays nothing until Redis confirms); while Redis is away, the holder plays on."""
        lease = self.leases.get(code)
        if lease is None:
            return False
        return self.redis_away or self._clock() <= lease.until

    def _reap(self, now: float) -> list[str]:
        """Rooms whose lease lapsed, claimed here: a handed-over room at once, any other once its lease has been
        seen missing for a whole lease (a holder back from an outage of Redis takes its lease back first)."""
        codes = self._call(lambda: self.redis.smembers(keys.ROOMS), set())
        handed = {c.decode() for c in self._call(lambda: self.redis.smembers(keys.HANDOVER), set())}
        dormant = {c.decode() for c in self._call(lambda: self.redis.smembers(keys.DORMANT), set())}
        found = []
        seen_missing = {}
        for code in sorted(c.decode() for c in codes):
            if code in self.leases or code in dormant:
                continue
            if self._call(lambda c=code: self.redis.exists(keys.lease(c)), 1):
                continue
            since = self._missing.get(code, now)
            seen_missing[code] = since
            if code not in handed and now - since < self.timings.lease_s:
                continue
            fence = self._call(lambda c=code: self._script("claim", c, self.id, self.public, self._lease_ms(), c,
                                                            "orphan"), 0)
            if fence:
                self.leases[code] = Lease(int(fence), now + self.timings.lease_s)
                self.takeovers += 1
                found.append(code)
                seen_missing.pop(code, None)
        self._missing = seen_missing
        return found

    # --- a room's end here ---------------------------------------------------------------------------------------

    def closed(self, room: Room) -> None:
        """A room this server closed: a finished game leaves the directory; one under way waits for a player to come
        back to any server."""
        finished = room.match is None or room.match.over
        self._release(room.code, "finished" if finished else "dormant")

    def lost(self, code: str) -> None:
        self.leases.pop(code, None)

    def stopping(self, rooms: list[Room]) -> None:
        """This server stops in order: each room kept and handed over to another server at once."""
        for room in rooms:
            if room.match is not None and not room.match.over:
                self(room)
                self._release(room.code, "handover")
            else:
                self._release(room.code, "finished")
        self._call(lambda: self.redis.delete(keys.server(self.id)))
        self._call(lambda: self.redis.srem(keys.SERVERS, self.id))

    def _release(self, code: str, what: str) -> None:
        lease = self.leases.pop(code, None)
        if lease is not None:
            self._call(lambda: self._script("release", code, self.id, lease.fence, what, code))

    def _lease_ms(self) -> int:
        return int(self.timings.lease_s * 1000)

    def addresses(self) -> list[str]:
        """Where players find this fleet's rooms: this server first, then the others present (looked up at most once
        a refresh)."""
        now = self._clock()
        if now - self._listed_at >= self.timings.refresh_s:
            self._listed_at = now
            others = sorted(a for i, a in self.servers().items() if i != self.id)
            self._listed = [self.public, *others]
        return self._listed

    def servers(self) -> dict[str, str]:
        """The servers present now, and their public addresses."""
        ids = [i.decode() for i in self._call(lambda: self.redis.smembers(keys.SERVERS), set())]
        found = {}
        for server_id in ids:
            address = self._call(lambda s=server_id: self.redis.get(keys.server(s)))
            if address is not None:
                found[server_id] = address.decode()
        return found
