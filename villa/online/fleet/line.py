"""The fleet's line to Redis: a thread and a connection of its own, so that no frame of any room ever waits on
Redis, however slow, hung, full or gone it is.

    redis://[:password@]host:port/db, rediss://..., unix://...        one Redis (with `appendonly yes`)
    redis+sentinel://[:password@]host:port[,host:port...]/name[/db]   the primary the Sentinels name `name`, followed
                                                                      through each failover
    redis+cluster://[:password@]host:port[,host:port...]              a Redis Cluster: each batch goes as one pipeline
                                                                      to each node that holds some of its keys (a
                                                                      room's keys are in one slot: `redis_keys`)

The server's frame loop hands the line a batch of calls (`send`) and later picks up what came of each (`done`):
a batch goes to Redis as one pipeline, one round trip; a call's answer is its value, or the error Redis gave for
it (out of memory, read-only, loading, no such script, moved ...), or the error that broke the whole batch (the
connection, a timeout, a refused password). Nothing here raises into the frame loop.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import redis

from redis.cluster import ClusterNode, RedisCluster
from redis.sentinel import Sentinel

from villa.online.fleet import redis_keys as keys

log = logging.getLogger(__name__)


@dataclass
class Call:
    """One call of a batch: a script of `redis_keys` by name, or a plain command (`script` None, `args` the command).
    `read`, in the line's thread, turns Redis' answer into what `then` gets on the frame loop."""

    script: str | None
    keys: list
    args: list
    then: Callable[[object], None]
    read: Callable[[object], object] | None = None
    answer: object = None
    spread: tuple[int, int, int] | None = None   # a call for many rooms: keys per room, args shared, args per room
                                                 # (on a Cluster it goes to each node for the rooms it holds)


@dataclass
class Batch:
    calls: list[Call] = field(default_factory=list)
    sent_at: float = 0.0            # the line's clock when the batch went (leases count from then)
    error: Exception | None = None  # what broke the whole batch
    writes: list = field(default_factory=list)    # the rooms' writes among the calls (the fleet's bookkeeping)
    finished: threading.Event = field(default_factory=threading.Event)

    def add(self, call: Call) -> Call:
        self.calls.append(call)
        return call


class Line:
    def __init__(self, url: str, timeout: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.redis = connect(url, timeout)
        self.cluster = isinstance(self.redis, RedisCluster)
        self._old: bool | None = None    # an older Redis than 7, with scripts that know no flags
        self._shas = {name: _sha(text) for name, text in keys.SCRIPTS.items()}
        self._todo: queue.SimpleQueue = queue.SimpleQueue()
        self._done: deque[Batch] = deque()
        self.rounds = 0                  # batches sent (for measuring)
        self.calls = 0
        self._thread = threading.Thread(target=self._run, name="villa-fleet-line", daemon=True)
        self._thread.start()

    def send(self, batch: Batch) -> None:
        self._todo.put(batch)

    def done(self) -> list[Batch]:
        found = []
        while self._done:
            found.append(self._done.popleft())
        return found

    def now(self, batch: Batch, timeout: float) -> bool:
        """Send the batch and wait for it (a server starting or stopping, never the frame loop); False: it took
        longer than `timeout`, and its answers will come through `done` as any other's."""
        self.send(batch)
        if batch.finished.wait(timeout):
            self._done.remove(batch)
            return True
        return False

    def close(self, timeout: float = 2.0) -> None:
        self._todo.put(None)
        self._thread.join(timeout)
        self.redis.close()

    # --- the line's thread ----------------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            batch = self._todo.get()
            if batch is None:
                return
            try:
                self._carry(batch)
            except Exception as error:  # noqa: BLE001 - the line never dies: the batch failed, the next may not
                log.exception("the fleet's line to Redis failed on a batch")
                batch.error = error
            self.rounds += 1
            self.calls += len(batch.calls)
            self._done.append(batch)
            batch.finished.set()

    def _carry(self, batch: Batch) -> None:
        if self._old is None:
            self._learn()
        batch.sent_at = self._clock()
        try:
            answers = self._pipeline(batch.calls)
            missing = [n for n, answer in enumerate(answers) if isinstance(answer, redis.exceptions.NoScriptError)]
            if missing:           # Redis restarted, or its scripts were flushed: load them, and those calls again
                for client in self._clients():
                    for text in self._texts().values():
                        client.script_load(text)
                for n, answer in zip(missing, self._pipeline([batch.calls[n] for n in missing])):
                    answers[n] = answer
            if self.cluster and any(isinstance(a, (redis.exceptions.MovedError, redis.exceptions.AskError))
                                    for a in answers):
                self.redis.nodes_manager.initialize()     # the Cluster moved slots: its map again, for the next batch
        except (redis.RedisError, OSError) as error:
            batch.error = error
            return
        for call, answer in zip(batch.calls, answers):
            if call.read is not None and not isinstance(answer, Exception):
                try:
                    answer = call.read(answer)
                except Exception as error:  # noqa: BLE001 - what does not read is that call's answer
                    answer = error
            call.answer = answer

    def _pipeline(self, calls: list[Call]) -> list:
        if not self.cluster:
            return self._through(self.redis, calls)
        nodes: dict[str, tuple] = {}
        parts: list[tuple[int, list[int]]] = []     # a call for many rooms: its part for each node, and which rooms
        for n, call in enumerate(calls):       # each call to the node of its first key (a room's all in one slot)
            if call.spread is None:
                node = self.redis.get_node_from_key(call.keys[0] if call.keys else call.args[1])
                nodes.setdefault(node.name, (node, []))[1].append((n, call))
                continue
            per_keys, shared, per_args = call.spread
            rooms: dict[str, list[int]] = {}
            for room in range(len(call.keys) // per_keys):
                node = self.redis.get_node_from_key(call.keys[room * per_keys])
                rooms.setdefault(node.name, []).append(room)
                nodes.setdefault(node.name, (node, []))
            for name, numbers in rooms.items():
                part = Call(call.script, [k for r in numbers for k in call.keys[r * per_keys:(r + 1) * per_keys]],
                            [*call.args[:shared], *(a for r in numbers for a in
                                                    call.args[shared + r * per_args:shared + (r + 1) * per_args])],
                            call.then)
                nodes[name][1].append((len(calls) + len(parts), part))
                parts.append((n, numbers))
        answers: list = [None] * (len(calls) + len(parts))
        for node, numbered in nodes.values():
            if not numbered:
                continue
            try:
                found = self._through(self.redis.get_redis_connection(node), [call for _n, call in numbered])
            except (redis.RedisError, OSError) as error:    # that node away: its calls failed, the others' went
                found = [error] * len(numbered)
            for (n, _call), answer in zip(numbered, found):
                answers[n] = answer
        for number, (n, rooms) in enumerate(parts):         # the parts' answers put back in their rooms' order
            whole = answers[n] if isinstance(answers[n], list) else [None] * (len(calls[n].keys) // calls[n].spread[0])
            got = answers[len(calls) + number]
            for room, answer in zip(rooms, got if isinstance(got, list) else [got] * len(rooms)):
                whole[room] = answer
            answers[n] = whole
        return answers[:len(calls)]

    def _clients(self) -> list:
        if not self.cluster:
            return [self.redis]
        return [self.redis.get_redis_connection(node) for node in self.redis.get_primaries()]

    def _through(self, client, calls: list[Call]) -> list:
        pipe = client.pipeline(transaction=False)
        for call in calls:
            if call.script is None:
                pipe.execute_command(*call.args)
            else:
                pipe.evalsha(self._shas[call.script], len(call.keys), *call.keys, *call.args)
        return pipe.execute(raise_on_error=False)

    def _texts(self) -> dict[str, str]:
        if self._old:
            return {name: keys.without_flags(text) for name, text in keys.SCRIPTS.items()}
        return dict(keys.SCRIPTS)

    def _learn(self) -> None:
        """Redis' version, once it answers: before 7, the scripts go without their flags."""
        try:
            info = self._clients()[0].info("server")
            version = str(info.get("redis_version", "7"))
        except redis.ResponseError:
            version = "7"       # INFO refused (a managed Redis): take it to be a new one
        except (redis.RedisError, OSError):
            return              # away: the batch fails as it will, and the next asks again
        self._old = int(version.split(".")[0]) < 7
        if self._old:
            log.warning("Redis %s knows no script flags: under a full Redis the rooms' leases cannot be renewed "
                        "(Redis 7 or later can)", version)
        self._shas = {name: _sha(text) for name, text in self._texts().items()}


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def connect(url: str, timeout: float):
    """The client for a fleet's Redis URL (see above): one Redis, the primary its Sentinels name, or a Cluster."""
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout, "retry_on_timeout": False}
    for scheme in ("redis+sentinel://", "redis+cluster://"):
        if url.startswith(scheme):
            rest = url[len(scheme):]
            netloc, _slash, path = rest.partition("/")
            password = None
            if "@" in netloc:
                auth, netloc = netloc.rsplit("@", 1)
                password = auth.partition(":")[2] or None
            hosts = [(host, int(port)) for host, _colon, port in (item.rpartition(":") for item in netloc.split(","))]
            if scheme == "redis+cluster://":
                return RedisCluster(startup_nodes=[ClusterNode(host, port) for host, port in hosts], password=password,
                                    **options)
            name, _slash, db = path.partition("/")
            sentinel = Sentinel(hosts, sentinel_kwargs={"socket_timeout": timeout, "password": password},
                                **options)
            return sentinel.master_for(name, password=password, db=int(db or 0), **options)
    return redis.Redis.from_url(url, health_check_interval=0, **options)
