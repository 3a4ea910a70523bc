"""The door: a server's listening side, where every connection is held to the server's limits before anything
it sends reaches a room.

    door = Door("", 47170, Catalogue(KINDS), welcome=server.welcomed, on_message=server.heard, on_gone=server.gone)
    while serving:
        door.poll(0.005)        # accept, read, answer the door's own messages, pass the rest on, write
        ...                     # the rooms' frames: door.send(connection, news), door.close(connection, code)

One thread, no waiting: the listener and every connection are non-blocking sockets watched by one selector,
and `poll` does one round. A connection says `Hello` first (within `hello_s`), naming the wire's and the
game's versions; the door answers `Welcome` and only from then on passes its messages to `on_message`
(`Ping`s it swallows). Whatever a peer sends, the door never raises and never waits on it: a half-sent frame
waits in that connection's buffer, and a connection that breaks a rule (a malformed frame or message, a kind
a client may not send, too many messages, too long silent) is told why in a `Goodbye` and closed, alone.
A goodbye is flushed, then the door lingers (up to `linger_s`) for the peer to hang up, so the goodbye is
read before the socket goes.

Connections are counted by network (`costs.network_of`: an IPv6 /64 is one home). Messages are counted as they
arrive, not as they are carried out: a server that fell behind, and reads a backlog at once, sees it came at
its pace. What each message makes the server do (its time, and the bytes it sent in answer) is charged to the
connection and its network (`costs.Account`): one that is spent is not read until it is paid, and one network's
messages take at most `slice_s` of a round (the rest wait their turn). What waits to be sent is bounded: a
connection whose queue has not drained for `drain_s` is closed, and past `queued_total` in all, those that
queue most and drain least go first. Refusals are counted and logged once a minute per network and reason
(`tally.Tally`). The callbacks come from `poll` only (never from `send` or `close`), and each
ended connection's id is reused only after `on_gone` has said so. What a callback raises passes through
`poll` as it is: the server's own mistakes are not a peer's.

With TLS (`tls`: the server's certificate and key, `villa.online.wire.tls.ServerTls`) every connection shakes
hands first, as part of its way to the hello: the handshake's bytes count against `read_bytes` a round and
its time is charged like a message's (so is every record's decryption), the connection counts against `per_address` and `total` from its first byte, the hello's deadline `hello_s` runs
from connecting, handshake included, and an address begins at most `handshakes` a minute. A handshake left half
done holds its own connection and nothing else, until that deadline, and is then closed without a word (none
can be said before the handshake). A hello sent in the clear is answered with a goodbye in the clear (`tls
needed`); so is a connection refused because the server or its address is full (the player reads that goodbye
where the server's handshake should be), which costs the server no handshake.

`Tries` counts a server's refusals per address (a wrong room code) and pauses an address that spent them.
"""

from __future__ import annotations

import bisect
import errno
import json
import logging
import selectors
import socket
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable

from villa.online.wire.codec import Catalogue
from villa.online.wire.costs import Account, Budget, network_of
from villa.online.wire.frames import WireError, frame
from villa.online.wire.link import Clock, Link
from villa.online.wire.messages import FROM_CLIENTS, GAME, PROTOCOL, Goodbye, Hello, Ping, Welcome
from villa.online.wire.tally import Tally
from villa.online.wire.tls import ClearPeer, ServerTls

log = logging.getLogger(__name__)

_ACCEPTS = 64          # connections accepted in one round: a flood of them does not hold up the others' reading
_EXHAUSTED = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}   # the process or the system is out of room
_REST_S = 1.0          # then the door accepts nobody for this long
SHUT_LINGER_S = 0.5    # a door shutting waits this long at most for its peers to hang up
_FRAMED = 64           # messages framed lately, kept to be queued again without framing (one copy for many) ...
_FRAMED_BYTES = 1 << 20   # ... and their bytes at most
_FULL_AGAIN_S = 0.1    # a socket that was full is written to again after this long, if the selector says nothing
_REMEMBERED = 10_000   # networks with no connection kept for what they spent, at most (the oldest forgotten)


class Farewell(StrEnum):
    """Why the door closed a connection: the code of the `Goodbye` it sent."""

    HELLO_FIRST = "hello first"      # something else came before the hello
    TOO_SLOW = "too slow"            # no hello within `hello_s`
    VERSION = "version"              # another wire or game: the values name the server's
    MALFORMED = "malformed"          # a frame or message that breaks the wire's form, or one a client may not send
    TOO_FAST = "too fast"            # more messages than `rate` and `burst` allow
    FULL = "full"                    # too many connections from this address, or in all
    SILENT = "silent"                # nothing heard for `silent_s`
    NOT_READING = "not reading"      # what was sent to it waits unread: for `drain_s`, or the most of all
    CLOSING = "closing"              # the server shuts its door
    TLS_NEEDED = "tls needed"        # a hello sent in the clear to a server that speaks TLS


@dataclass(frozen=True)
class Limits:
    """What the door holds each connection to (every one settable: tests use short ones)."""

    hello_s: float = 10.0        # from connecting to the hello
    silent_s: float = 60.0       # a welcomed connection that says nothing this long is closed
    ping_s: float = 1.0          # the door's pings to each welcomed connection (a client tells a frozen server)
    rate: float = 90.0           # messages a second, on average ...
    burst: float = 90.0          # ... and at once, counted as they arrive
    per_address: int = 16        # open connections from one network (an IPv4 address, an IPv6 /64)
    total: int = 2000            # open connections in all
    read_bytes: int = 16384      # read from one connection in one round (a flood costs a round little)
    linger_s: float = 2.0        # after a goodbye, waiting for the peer to hang up
    handshakes: int = 120        # TLS handshakes an address may begin in a minute (each costs the server ~1 ms)
    # what one connection's messages may cost the server (its time, the bytes sent in answer), and one network's
    each: Budget = Budget(time_s=0.025, time_burst_s=0.5, bytes=128 * 1024, bytes_burst=2 * 1024 * 1024)
    network: Budget = Budget(time_s=0.05, time_burst_s=1.0, bytes=256 * 1024, bytes_burst=4 * 1024 * 1024)
    slice_s: float = 0.004       # of one round, one network's messages take this much at most
    drain_s: float = 5.0         # a connection whose queue has not drained this long is closed
    queued_total: int = 32 * 1024 * 1024    # bytes waiting to be sent, across all connections


@dataclass(eq=False)
class _Network:
    """Where connections come from: how many are open, what they spent, and this round's share of time."""

    name: str
    account: Account
    connections: int = 0
    spent: float = 0.0           # server time its messages took this round
    round: int = -1


@dataclass(eq=False)
class _Connection:
    id: int
    link: Link
    address: str
    network: _Network
    account: Account
    opened_at: float
    spoke_at: float              # the last whole message (bytes of a frame never finished do not count)
    tokens: float                # the rate's bucket: filled at `rate`, up to `burst` whenever it was caught up
    counted_at: float
    welcomed: bool = False
    next_ping: float = 0.0
    pending: bool = False        # bytes of it may wait unread (not caught up since `caught_at`)
    caught_at: float = 0.0       # when it was last known caught up, and the messages counted since
    counted: int = 0
    paused: bool = False         # it owes (or its network does): not read until paid
    served: int = 0              # the round in which a message of its was last carried out
    drain: float = 0.0           # bytes a second it took in the last second looked at
    out_mark: tuple[float, int] = field(default=(0.0, 0))


class _Networks:
    """Every network with a connection open, or with spending still to be paid back (remembered until it is, so
    hanging up and coming back refills nothing)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.known: dict[str, _Network] = {}
        self._empty: dict[str, None] = {}         # networks with no connection, oldest first

    def __len__(self) -> int:
        return len(self.known)

    def open(self, address: str, now: float) -> _Network:
        name = network_of(address)
        network = self.known.get(name)
        if network is None:
            network = self.known[name] = _Network(name, Account(self.budget, now))
        self._empty.pop(name, None)
        network.connections += 1
        return network

    def count(self, address: str) -> int:
        network = self.known.get(network_of(address))
        return network.connections if network else 0

    def closed(self, network: _Network, now: float) -> None:
        network.connections -= 1
        if not network.connections:
            if network.account.full(now):
                del self.known[network.name]
            else:
                self._empty[network.name] = None
                while len(self._empty) > _REMEMBERED:
                    del self.known[self._empty.pop(next(iter(self._empty)))]

    def forget_paid(self, now: float) -> None:
        """The networks with no connection that owe nothing any more."""
        for name in [name for name in self._empty if self.known[name].account.full(now)]:
            del self._empty[name]
            del self.known[name]


class _Framed:
    """Messages framed lately, kept by identity (weakly) so that one sent to many (a room's news, a snapshot
    shared) is framed once and its bytes shared by every queue; `_FRAMED` of them and `_FRAMED_BYTES` at most."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._kept: dict[int, tuple[weakref.ref, bytes]] = {}     # id -> (message, its frame), the latest last
        self._bytes = 0

    def __call__(self, message: Any) -> bytes:
        key = id(message)
        hit = self._kept.pop(key, None)
        if hit is None or hit[0]() is not message:     # (a message gone, and its id given to another)
            if hit is not None:
                self._bytes -= len(hit[1])
            try:
                hit = (weakref.ref(message), frame(self.catalogue.encode(message)))
            except TypeError:                          # a message that cannot be watched: framed each time
                return frame(self.catalogue.encode(message))
            self._bytes += len(hit[1])
            while self._kept and (len(self._kept) >= _FRAMED or self._bytes > _FRAMED_BYTES):
                self._bytes -= len(self._kept.pop(next(iter(self._kept)))[1])
        self._kept[key] = hit
        return hit[1]


def _undrained(connections: list[_Connection], now: float, drain_s: float) -> list[_Connection]:
    """Each connection's draining in the second past measured; those whose queue has not drained for `drain_s`."""
    stuck = []
    for known in connections:
        link = known.link
        at, sent = known.out_mark
        if now > at:
            known.drain = (link.bytes_out - sent) / (now - at)
        known.out_mark = (now, link.bytes_out)
        if link.queued and now - link.drained_at > drain_s:
            stuck.append(known)
    return stuck


def _worst_readers(connections: list[_Connection], queued: int, most: int) -> list[_Connection]:
    """Past `most` bytes queued in all: the connections that queue most and drain least, until the rest fit in
    nine tenths of it."""
    ranked = sorted((k for k in connections if k.link.queued), key=lambda k: k.link.queued / (k.drain + 1024),
                    reverse=True)
    worst = []
    for known in ranked:
        if queued <= most * 0.9:
            break
        queued -= known.link.queued
        worst.append(known)
    return worst


class Door:
    """A listening socket and its connections, each known by a small id (the lowest free one)."""

    def __init__(self, address: str, port: int, catalogue: Catalogue, welcome: Callable[[int], Any],
                 on_message: Callable[[int, Any], Any], on_gone: Callable[[int], Any], limits: Limits = Limits(),
                 clock: Clock = time.monotonic, tls: ServerTls | None = None) -> None:
        self.catalogue = catalogue
        self.tls = tls
        self.limits = limits
        self.clock = clock
        self._welcome = welcome
        self._on_message = on_message
        self._on_gone = on_gone
        # SO_REUSEADDR on POSIX (a restarted server takes its port back at once); not on Windows, where it
        # would let another program take the port too
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        self._listener = socket.create_server((address, port), family=family, backlog=128)
        self._listener.setblocking(False)
        self.port: int = self._listener.getsockname()[1]
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._connections: dict[int, _Connection] = {}
        self._networks = _Networks(limits.network)
        self._free: list[int] = []               # ids below `_next_id` given back, lowest first
        self._next_id = 0
        self._departed: list[int] = []           # welcomed connections ended, whose `on_gone` is still to come
        self._leaving: dict[Link, float] = {}    # links that said goodbye, until the peer hangs up (or the deadline)
        self._writing: set[Link] = set()         # links watched for room to write
        self._held: dict[_Connection, None] = {}     # whole messages read wait for the next round (time was up),
        self._starved: dict[_Connection, None] = {}  # these first: their turn came to nothing this round
        self._paused: dict[_Connection, None] = {}   # owing: not read until paid
        self._frame = _Framed(catalogue)
        self._accepting_at: float | None = None   # when the listener is watched again (out of file descriptors)
        self._handshakes = Tries(per_minute=limits.handshakes, clock=clock)   # TLS handshakes begun, per address
        self._round = 0
        self._selected_at = self._selected_before = clock()   # when the last two rounds' selects returned
        self._looked_at = clock()                 # the once-a-second look at queues and networks
        self.tally = Tally(log, clock)
        self.shut_down = False

    # --- what a server asks -------------------------------------------------------------------------------

    @property
    def connections(self) -> int:
        return len(self._connections)

    @property
    def shaking_hands(self) -> int:
        """Connections whose TLS handshake is not done yet."""
        return sum(known.link.shaking_hands for known in self._connections.values())

    def address_of(self, connection: int) -> str | None:
        """The IP address a connection came from (None: no such connection)."""
        known = self._connections.get(connection)
        return known.address if known else None

    def send(self, connection: int, message: Any) -> bool:
        """Queue a message for a connection (written in `poll`); False if there is no such connection. The same
        message sent to many is framed once, and its bytes shared by their queues."""
        known = self._connections.get(connection)
        if known is None:
            return False
        known.link.send_framed(self._frame(message))
        if known.link.closed:              # it queued beyond its limit (the reader does not read), or hung up
            if known.link.why == "reader too slow":
                self.tally.refused(known.network.name, Farewell.NOT_READING, f"connection {known.id}, over "
                                                                             "what one may have waiting")
            self._end(known)
        return True

    def close(self, connection: int, code: str, **values: Any) -> None:
        """Say goodbye to a connection (`code`, and `values` for its words, as JSON), then close it."""
        known = self._connections.get(connection)
        if known is not None:
            self._end(known, Goodbye(str(code), json.dumps(values, separators=(",", ":"))))

    def poll(self, timeout: float = 0.0) -> None:
        """One round: write what waits, wait up to `timeout` for news, accept, read and pass messages on, keep
        the limits, write again, and tell of the connections that ended."""
        self._flush()
        ready = {**self._starved, **self._held}   # those whose turn ran out first: nobody waits for ever
        self._starved, self._held = {}, {}
        for key, events in self._selector.select(0.0 if ready else timeout):
            if events & selectors.EVENT_WRITE:
                (key.data.link if isinstance(key.data, _Connection) else key.data).blocked_at = None
            if key.data is None:
                self._accept()
            elif isinstance(key.data, _Connection):
                if events & selectors.EVENT_READ:
                    ready[key.data] = None
            elif key.data in self._leaving:
                self._read_to_drop(key.data)
        self._round += 1
        self._selected_before, self._selected_at = self._selected_at, self.clock()
        for known in ready:
            if self._connections.get(known.id) is known and not known.paused:
                self._read(known)
        self._keep_time(self.clock())
        self._flush()
        self._tell_gone()
        self.tally.tell()

    def shut(self) -> None:
        """Say goodbye to every connection, close them and the listener (`on_gone` for the welcomed ones)."""
        if self.shut_down:
            return
        self.shut_down = True
        for known in list(self._connections.values()):
            self._end(known, Goodbye(Farewell.CLOSING, "{}"))
        self._linger_out(SHUT_LINGER_S)
        for link in list(self._leaving):
            self._drop(link)
        self._selector.close()
        self._listener.close()
        self._tell_gone()
        self.tally.close()

    def held(self) -> dict[str, int]:
        """How much each of the door's structures holds: all nothing when nobody is connected and every network
        has paid what it spent (the selector then watches only the listener)."""
        return {"connections": len(self._connections), "addresses": len(self._networks),
                "free ids": len(self._free), "next id": self._next_id, "departed": len(self._departed),
                "leaving": len(self._leaving), "writing": len(self._writing),
                "held": len(self._held) + len(self._starved),
                "paused": len(self._paused), "queued": sum(k.link.queued for k in self._connections.values()),
                "watched": sum(key.data is not None for key in self._selector.get_map().values())}

    # --- a round's steps ----------------------------------------------------------------------------------

    def _accept(self) -> None:
        for _ in range(_ACCEPTS):
            try:
                sock, peer = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                if error.errno in _EXHAUSTED:    # the listener stays readable: resting, rather than spinning
                    log.warning("cannot accept connections for %s s: %s", _REST_S, error)
                    self._selector.unregister(self._listener)
                    self._accepting_at = self.clock() + _REST_S
                    return
                continue                         # the peer gone already
            address = peer[0]
            now = self.clock()
            if len(self._connections) >= self.limits.total:
                full: dict[str, int] | None = {"total": self.limits.total}
            elif self._networks.count(address) >= self.limits.per_address:
                full = {"per_address": self.limits.per_address}
            elif self.tls is not None and not self._handshakes.allow(address):
                full = {"handshakes_per_minute": self.limits.handshakes}
            else:
                full = None
                if self.tls is not None:
                    self._handshakes.spent(address)
            try:      # a connection refused is told so in the clear: it costs the server no handshake
                link = Link(sock, self.catalogue, self.clock, self.tls.session() if self.tls and not full else None)
            except OSError:
                sock.close()
                continue
            if full is not None:
                self.tally.refused(network_of(address), Farewell.FULL, next(iter(full)))
                link.send(Goodbye(Farewell.FULL, json.dumps(full, separators=(",", ":"))))
                self._linger(link)
                continue
            network = self._networks.open(address, now)
            known = _Connection(self._take_id(), link, address, network, Account(self.limits.each, now), now, now,
                                self.limits.burst, now, out_mark=(now, 0))
            self._connections[known.id] = known
            self._selector.register(link, selectors.EVENT_READ, known)
            log.debug("connection %d from %s", known.id, address)

    def _read(self, known: _Connection) -> None:
        """What a connection sent: read (unless whole messages read before still wait), then carried out one by
        one, each charged to it and its network, while its network has time left this round and both can pay."""
        link, network, now = known.link, known.network, self.clock()
        if network.round != self._round:
            network.round, network.spent = self._round, 0.0
        if known.account.owing(now) or network.account.owing(now):
            self._pause(known)
            return
        if not link.waiting:
            began = time.thread_time()
            try:
                link.take_in(self.limits.read_bytes)
            except ClearPeer:              # a hello in the clear: told so in the clear (the link is a plain one now)
                self._refuse(known, Farewell.TLS_NEEDED, what="spoke in the clear")
                return
            except WireError as error:     # its TLS failed (the link is closed)
                self._refuse(known, Farewell.MALFORMED, what=error.why)
                return
            if link.closed:                    # hung up: unwatched now (its number may be the next one opened),
                self._unwatch(link)            # what it said before carried out in its turn
            # reading costs too: with TLS, a handshake's signature or the records' decryption
            if self._charge(known, time.thread_time() - began, 0, now):
                return
        carried = 0
        while self._connections.get(known.id) is known:
            if network.spent >= self.limits.slice_s:
                break
            try:
                message = link.next_message()
            except WireError as error:
                self._refuse(known, Farewell.MALFORMED, what=error.why)
                return
            if message is None:
                break
            if not self._counted(known, now):
                self._refuse(known, Farewell.TOO_FAST, type(message),
                             f"{known.counted} in {now - known.caught_at:.2f} s since caught up")
                return
            began, queued = time.thread_time(), link.bytes_queued
            self._heard(known, message, now)
            carried += 1
            known.served = self._round
            # the loop's own CPU time (another process's load is not theirs), and what it queued in answer
            if self._charge(known, time.thread_time() - began, link.bytes_queued - queued, now):
                break
        if self._connections.get(known.id) is not known:          # closed meanwhile (by the server, or a rule)
            return
        if link.waiting:
            known.pending = True
            if not known.paused:
                (self._held if carried else self._starved)[known] = None
        elif link.closed:
            log.debug("connection %d from %s: %s", known.id, known.address, link.why)
            self._end(known)
        elif link.dry and not known.paused:    # caught up: nothing of it waits anywhere
            known.tokens = min(self.limits.burst, known.tokens)
            known.pending = False
        else:
            known.pending = True

    def _counted(self, known: _Connection, now: float) -> bool:
        """One more message of the connection's, counted as it arrived: its bucket is capped at `burst` only at
        the moments it was known caught up (read to its end, or not readable at the round before this one); from
        then on it fills at `rate`, however late the door reads what came meanwhile."""
        limits = self.limits
        if not known.pending:
            caught_up = max(known.counted_at, self._selected_before)
            known.tokens = min(limits.burst, known.tokens + (caught_up - known.counted_at) * limits.rate)
            known.counted_at = known.caught_at = caught_up
            known.counted = 0
            known.pending = True
        known.tokens += (now - known.counted_at) * limits.rate - 1
        known.counted_at = now
        known.counted += 1
        return known.tokens >= 0

    def _heard(self, known: _Connection, message: Any, now: float) -> None:
        """One whole message from a connection: the door's own, or passed on."""
        kind = type(message)
        known.spoke_at = now
        if not known.welcomed:
            if kind is not Hello:
                self._refuse(known, Farewell.HELLO_FIRST, kind)
            elif message.protocol != PROTOCOL or message.game != GAME:
                self._refuse(known, Farewell.VERSION, kind, protocol=PROTOCOL, game=GAME)
            else:
                known.welcomed = True
                known.next_ping = now + self.limits.ping_s
                known.link.send(Welcome(PROTOCOL, GAME))
                self._welcome(known.id)
        elif kind is Hello or kind not in FROM_CLIENTS:
            self._refuse(known, Farewell.MALFORMED, kind)
        elif kind is not Ping:
            self._on_message(known.id, message)

    def _refuse(self, known: _Connection, farewell: Farewell, kind: type | None = None, what: str = "",
                **values: Any) -> None:
        said = ", ".join(part for part in (f"connection {known.id}", kind.__name__ if kind else "", what) if part)
        self.tally.refused(known.network.name, farewell, said)
        self._end(known, Goodbye(farewell, json.dumps(values, separators=(",", ":"))))

    def _charge(self, known: _Connection, spent: float, sent: int, now: float) -> bool:
        """What serving a connection cost (the server's time, the bytes sent it in answer), charged to it and its
        network; True if either owes now (it is paused: nothing more of it is read until paid)."""
        known.account.charge(spent, sent)
        known.network.account.charge(spent, sent)
        known.network.spent += spent
        if self._connections.get(known.id) is not known:
            return True                            # it ended meanwhile: its network pays all the same
        if known.account.owing(now) or known.network.account.owing(now):
            self._pause(known)
            return True
        return False

    def _pause(self, known: _Connection) -> None:
        """It owes, or its network does: nothing more of it is read until paid."""
        known.paused = known.pending = True
        self._paused[known] = None
        self._watch(known.link, known)

    def _keep_time(self, now: float) -> None:
        """The hello's deadline, silence, and the door's pings; the goodbyes' lingering; the owing paid; once a
        second, what waits to be sent."""
        limits = self.limits
        if self._accepting_at is not None and now >= self._accepting_at:
            self._accepting_at = None
            self._selector.register(self._listener, selectors.EVENT_READ, None)
        paid = [known for known in self._paused
                if not known.account.owing(now) and not known.network.account.owing(now)]
        for known in sorted(paid, key=lambda known: known.served):
            known.paused = False
            del self._paused[known]
            self._watch(known.link, known)
            self._starved[known] = None            # read first in the next round, those served longest ago first
        for known in list(self._connections.values()):
            heard = not known.pending              # (what it said may wait unread: its silence would be the door's)
            if not known.welcomed:
                if heard and now - known.opened_at > limits.hello_s:
                    self._refuse(known, Farewell.TOO_SLOW)
            elif heard and now - known.spoke_at > limits.silent_s:
                self._refuse(known, Farewell.SILENT)
            elif now >= known.next_ping:
                known.next_ping = now + limits.ping_s
                self.send(known.id, Ping())
        for link, deadline in list(self._leaving.items()):
            if now > deadline:
                self._drop(link)
        if now - self._looked_at >= 1.0:
            self._looked_at = now
            for known in _undrained(list(self._connections.values()), now, limits.drain_s):
                self._not_reading(known, f"undrained for {now - known.link.drained_at:.1f} s")
            self._networks.forget_paid(now)

    def _not_reading(self, known: _Connection, why: str) -> None:
        """Closed for what waits unsent to it: the queue is dropped (all but a frame partly written, so the goodbye
        after it is read whole, if it ever is)."""
        self.tally.refused(known.network.name, Farewell.NOT_READING,
                           f"connection {known.id}, {known.link.queued} bytes waiting, {why}")
        known.link.forget_queue()
        self._end(known, Goodbye(Farewell.NOT_READING, "{}"))

    def _flush(self) -> None:
        """Write what waits on each link (a leaving one's data is the link itself); past `queued_total` in all,
        shed the worst readers."""
        queued, now = 0, self.clock()
        waiting = [(known.link, known) for known in self._connections.values()]
        for link, data in waiting + [(link, link) for link in self._leaving]:
            if link.queued or link in self._writing:
                # a full socket is tried again once the selector says it has room, or a little later (a reader
                # taking a little at a time makes room the selector does not tell)
                if link.blocked_at is None or now - link.blocked_at >= _FULL_AGAIN_S:
                    link.flush()
                    if link.closed:
                        if data is link:
                            self._drop(link)
                        else:
                            self._end(data)
                        continue
                    self._watch(link, data)
                queued += link.queued
        if queued > self.limits.queued_total:        # past the budget: the worst readers go
            for known in _worst_readers(list(self._connections.values()), queued, self.limits.queued_total):
                self._not_reading(known, f"{queued} bytes waiting in all")

    # --- connections' ends ----------------------------------------------------------------------------------

    def _end(self, known: _Connection, goodbye: Goodbye | None = None) -> None:
        """A connection is over (with a goodbye said first, when given): its structures freed, its socket
        lingering or closed, its `on_gone` to come in this round (its id free after it)."""
        del self._connections[known.id]
        self._held.pop(known, None)
        self._starved.pop(known, None)
        self._paused.pop(known, None)
        self._networks.closed(known.network, self.clock())
        if goodbye is not None and not known.link.closed and not known.link.shaking_hands:
            known.link.send(goodbye)
            self._linger(known.link)
        else:                                    # (a peer that never finished its handshake cannot be told why)
            self._drop(known.link)
        if known.welcomed:
            self._departed.append(known.id)
        else:
            self._give_back(known.id)

    def _linger(self, link: Link) -> None:
        """A link that said goodbye: flushed and kept until the peer hangs up, or `linger_s` passes."""
        link.finish()
        if link.closed or len(self._leaving) >= self.limits.total:
            self._drop(link)
            return
        self._leaving[link] = self.clock() + self.limits.linger_s
        self._watch(link, link)

    def _linger_out(self, seconds: float) -> None:
        """The goodbyes said, wait a little for the peers to hang up, reading what they still send: a socket
        closed with unread bytes is reset, and a reset loses the goodbye on its way."""
        end = time.monotonic() + seconds
        while self._leaving and time.monotonic() < end:
            self._flush()
            for key, events in self._selector.select(0.01):
                link = key.data
                if events & selectors.EVENT_WRITE and isinstance(link, Link):
                    link.blocked_at = None
                if link in self._leaving:
                    self._read_to_drop(link)

    def _read_to_drop(self, link: Link) -> None:
        """A leaving link's peer still talks: read only to be dropped, until it hangs up (or its TLS fails)."""
        try:
            link.take_in(self.limits.read_bytes)
        except WireError:
            link.close("malformed")
        if link.closed:
            self._drop(link)

    def _drop(self, link: Link) -> None:
        """The socket's last moment: unwatched first (its number may be given to the next one opened)."""
        self._leaving.pop(link, None)
        self._unwatch(link)
        link.close()

    def _unwatch(self, link: Link) -> None:
        self._writing.discard(link)
        try:
            self._selector.unregister(link)
        except (KeyError, ValueError):
            pass                                 # never watched (a refused connection whose goodbye could not wait)

    def _watch(self, link: Link, data: Any) -> None:
        """Watch a link for reading (unless it owes), and for room to write while it has bytes queued."""
        if link.closed:
            return
        reading = not (isinstance(data, _Connection) and data.paused)
        events = (selectors.EVENT_READ if reading else 0) | (selectors.EVENT_WRITE if link.queued else 0)
        if link.queued:
            self._writing.add(link)
        else:
            self._writing.discard(link)
        try:
            key = self._selector.get_key(link)
        except KeyError:
            if events:
                self._selector.register(link, events, data)
            return
        if not events:
            self._selector.unregister(link)
        elif key.events != events or key.data is not data:
            self._selector.modify(link, events, data)

    def _tell_gone(self) -> None:
        """`on_gone` for each welcomed connection ended; only then is its id free for the next."""
        while self._departed:
            connection = self._departed.pop(0)
            self._give_back(connection)
            self._on_gone(connection)

    def _take_id(self) -> int:
        if self._free:
            return self._free.pop(0)
        self._next_id += 1
        return self._next_id - 1

    def _give_back(self, connection: int) -> None:
        """An id free again; the highest ones given back shrink the count instead of waiting in the list."""
        bisect.insort(self._free, connection)
        while self._free and self._free[-1] == self._next_id - 1:
            self._free.pop()
            self._next_id -= 1


class Tries:
    """Tries per address at something a server refuses (a room code that names no room): `per_minute` wrong
    tries in a minute, then a pause of `pause_s`. An address not heard of for longer than both is forgotten."""

    def __init__(self, per_minute: int = 10, pause_s: float = 60.0, clock: Clock = time.monotonic,
                 most: int = 100_000) -> None:
        self.per_minute = per_minute
        self.pause_s = pause_s
        self.clock = clock
        self.most = most                                  # addresses remembered at once, the oldest forgotten first
        self._memory = max(60.0, pause_s)
        self._spent: dict[str, deque[float]] = {}         # each address's wrong tries, oldest address first

    def __len__(self) -> int:
        return len(self._spent)

    def allow(self, address: str) -> bool:
        """May this address try now? False while it pauses after spending its tries."""
        now = self._forget()
        tries = self._spent.get(address)
        if not tries:
            return True
        if len(tries) >= self.per_minute:
            return now - tries[-1] >= self.pause_s
        return True

    def wait(self, address: str) -> float:
        """Seconds until this address may try again (0: now)."""
        tries = self._spent.get(address)
        if not tries or len(tries) < self.per_minute:
            return 0.0
        return max(0.0, self.pause_s - (self.clock() - tries[-1]))

    def spent(self, address: str) -> None:
        """A wrong try by this address."""
        now = self._forget()
        tries = self._spent.pop(address, None) or deque()
        if len(tries) >= self.per_minute:
            tries.clear()                                 # its pause was over: a new minute of tries begins
        tries.append(now)
        while now - tries[0] > 60.0:
            tries.popleft()
        self._spent[address] = tries                      # last in the order: the most recently heard
        if len(self._spent) > self.most:
            del self._spent[next(iter(self._spent))]

    def _forget(self) -> float:
        """The addresses last heard of too long ago to matter (they lead the order); the time now."""
        now = self.clock()
        while self._spent:
            oldest = next(iter(self._spent))
            if now - self._spent[oldest][-1] <= self._memory:
                break
            del self._spent[oldest]
        return now
