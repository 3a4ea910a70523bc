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
read before the socket goes. The callbacks come from `poll` only (never from `send` or `close`), and each
ended connection's id is reused only after `on_gone` has said so. What a callback raises passes through
`poll` as it is: the server's own mistakes are not a peer's.

With TLS (`tls`: the server's certificate and key, `villa.online.wire.tls.ServerTls`) every connection shakes
hands first, as part of its way to the hello: the handshake's bytes count against `read_bytes` a round, the
connection counts against `per_address` and `total` from its first byte, the hello's deadline `hello_s` runs
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
from collections import deque
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable

from villa.online.wire.codec import Catalogue
from villa.online.wire.frames import WireError
from villa.online.wire.link import Clock, Link
from villa.online.wire.messages import FROM_CLIENTS, GAME, PROTOCOL, Goodbye, Hello, Ping, Welcome
from villa.online.wire.tls import ClearPeer, ServerTls

log = logging.getLogger(__name__)

_ACCEPTS = 64          # connections accepted in one round: a flood of them does not hold up the others' reading
_EXHAUSTED = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}   # the process or the system is out of room
_REST_S = 1.0          # then the door accepts nobody for this long
SHUT_LINGER_S = 0.5    # a door shutting waits this long at most for its peers to hang up


class Farewell(StrEnum):
    """Why the door closed a connection: the code of the `Goodbye` it sent."""

    HELLO_FIRST = "hello first"      # something else came before the hello
    TOO_SLOW = "too slow"            # no hello within `hello_s`
    VERSION = "version"              # another wire or game: the values name the server's
    MALFORMED = "malformed"          # a frame or message that breaks the wire's form, or one a client may not send
    TOO_FAST = "too fast"            # more messages than `rate` and `burst` allow
    FULL = "full"                    # too many connections from this address, or in all
    SILENT = "silent"                # nothing heard for `silent_s`
    CLOSING = "closing"              # the server shuts its door
    TLS_NEEDED = "tls needed"        # a hello sent in the clear to a server that speaks TLS


@dataclass(frozen=True)
class Limits:
    """What the door holds each connection to (every one settable: tests use short ones)."""

    hello_s: float = 10.0        # from connecting to the hello
    silent_s: float = 60.0       # a welcomed connection that says nothing this long is closed
    ping_s: float = 1.0          # the door's pings to each welcomed connection (a client tells a frozen server)
    rate: float = 90.0           # messages a second, on average ...
    burst: float = 90.0          # ... and at once
    per_address: int = 16        # open connections from one IP address
    total: int = 2000            # open connections in all
    read_bytes: int = 16384      # read from one connection in one round (a flood costs a round little)
    linger_s: float = 2.0        # after a goodbye, waiting for the peer to hang up
    handshakes: int = 120        # TLS handshakes an address may begin in a minute (each costs the server ~1 ms)


@dataclass(eq=False)
class _Connection:
    id: int
    link: Link
    address: str
    opened_at: float
    spoke_at: float              # the last whole message (bytes of a frame never finished do not count)
    tokens: float                # the rate's bucket, filled at `rate` up to `burst`
    counted_at: float
    welcomed: bool = False
    next_ping: float = 0.0


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
        self._per_address: dict[str, int] = {}
        self._free: list[int] = []               # ids below `_next_id` given back, lowest first
        self._next_id = 0
        self._departed: list[int] = []           # welcomed connections ended, whose `on_gone` is still to come
        self._leaving: dict[Link, float] = {}    # links that said goodbye, until the peer hangs up (or the deadline)
        self._writing: set[Link] = set()         # links watched for room to write
        self._accepting_at: float | None = None   # when the listener is watched again (out of file descriptors)
        self._handshakes = Tries(per_minute=limits.handshakes, clock=clock)   # TLS handshakes begun, per address
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
        """Queue a message for a connection (written in `poll`); False if there is no such connection."""
        known = self._connections.get(connection)
        if known is None:
            return False
        known.link.send(message)
        if known.link.closed:              # it queued beyond its limit: the reader does not read
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
        for key, events in self._selector.select(timeout):
            if key.data is None:
                self._accept()
            elif isinstance(key.data, _Connection):
                if events & selectors.EVENT_READ and self._connections.get(key.data.id) is key.data:
                    self._read(key.data)
            elif key.data in self._leaving:
                key.data.receive(self.limits.read_bytes)      # read only to be dropped, until the peer hangs up
                if key.data.closed:
                    self._drop(key.data)
        self._keep_time(self.clock())
        self._flush()
        self._tell_gone()

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

    def held(self) -> dict[str, int]:
        """How much each of the door's structures holds: all nothing when nobody is connected (the selector
        then watches only the listener)."""
        return {"connections": len(self._connections), "addresses": len(self._per_address),
                "free ids": len(self._free), "next id": self._next_id, "departed": len(self._departed),
                "leaving": len(self._leaving), "writing": len(self._writing),
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
            elif self._per_address.get(address, 0) >= self.limits.per_address:
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
                log.info("refused a connection from %s: full %s", address, full)
                link.send(Goodbye(Farewell.FULL, json.dumps(full, separators=(",", ":"))))
                self._linger(link)
                continue
            known = _Connection(self._take_id(), link, address, now, now, self.limits.burst, now)
            self._connections[known.id] = known
            self._per_address[address] = self._per_address.get(address, 0) + 1
            self._selector.register(link, selectors.EVENT_READ, known)
            log.debug("connection %d from %s", known.id, address)

    def _read(self, known: _Connection) -> None:
        try:
            messages = known.link.receive(self.limits.read_bytes)
        except ClearPeer:
            log.info("connection %d from %s spoke in the clear", known.id, known.address)
            self._end(known, Goodbye(Farewell.TLS_NEEDED, "{}"))     # in the clear: the link is a plain one now
            return
        except WireError as error:
            log.info("connection %d from %s is malformed: %s", known.id, known.address, error.why)
            self._end(known, Goodbye(Farewell.MALFORMED, "{}"))
            return
        now = self.clock()
        for message in messages:
            if self._connections.get(known.id) is not known:       # closed meanwhile (by the server, or a rule)
                return
            self._heard(known, message, now)
        if known.link.closed and self._connections.get(known.id) is known:
            log.debug("connection %d from %s: %s", known.id, known.address, known.link.why)
            self._end(known)

    def _heard(self, known: _Connection, message: Any, now: float) -> None:
        """One whole message from a connection: counted, then the door's own or passed on."""
        known.tokens = min(self.limits.burst, known.tokens + (now - known.counted_at) * self.limits.rate) - 1
        known.counted_at = now
        kind = type(message)
        if known.tokens < 0:
            self._refuse(known, Farewell.TOO_FAST, kind)
            return
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

    def _refuse(self, known: _Connection, farewell: Farewell, kind: type | None = None, **values: Any) -> None:
        log.info("connection %d from %s closed: %s%s", known.id, known.address, farewell,
                 f" ({kind.__name__})" if kind else "")
        self._end(known, Goodbye(farewell, json.dumps(values, separators=(",", ":"))))

    def _keep_time(self, now: float) -> None:
        """The hello's deadline, silence, and the door's pings; the goodbyes' lingering."""
        limits = self.limits
        if self._accepting_at is not None and now >= self._accepting_at:
            self._accepting_at = None
            self._selector.register(self._listener, selectors.EVENT_READ, None)
        for known in list(self._connections.values()):
            if not known.welcomed:
                if now - known.opened_at > limits.hello_s:
                    self._refuse(known, Farewell.TOO_SLOW)
            elif now - known.spoke_at > limits.silent_s:
                self._refuse(known, Farewell.SILENT)
            elif now >= known.next_ping:
                known.next_ping = now + limits.ping_s
                self.send(known.id, Ping())
        for link, deadline in list(self._leaving.items()):
            if now > deadline:
                self._drop(link)

    def _flush(self) -> None:
        """Write what waits on each link (a leaving one's data is the link itself)."""
        waiting = [(known.link, known) for known in self._connections.values()]
        for link, data in waiting + [(link, link) for link in self._leaving]:
            if link.queued or link in self._writing:
                link.flush()
                if not link.closed:
                    self._watch(link, data)
                elif data is link:
                    self._drop(link)
                else:
                    self._end(data)

    # --- connections' ends ----------------------------------------------------------------------------------

    def _end(self, known: _Connection, goodbye: Goodbye | None = None) -> None:
        """A connection is over (with a goodbye said first, when given): its structures freed, its socket
        lingering or closed, its `on_gone` to come in this round (its id free after it)."""
        del self._connections[known.id]
        left = self._per_address[known.address] - 1
        if left:
            self._per_address[known.address] = left
        else:
            del self._per_address[known.address]
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
            for key, _events in self._selector.select(0.01):
                link = key.data
                if link in self._leaving:
                    link.receive(self.limits.read_bytes)
                    if link.closed:
                        self._drop(link)

    def _drop(self, link: Link) -> None:
        """The socket's last moment: unwatched first (its number may be given to the next one opened)."""
        self._leaving.pop(link, None)
        self._writing.discard(link)
        try:
            self._selector.unregister(link)
        except KeyError:
            pass                                 # never watched: a refused connection whose goodbye could not wait
        link.close()

    def _watch(self, link: Link, data: Any) -> None:
        """Watch a link for reading, and for room to write while it has bytes queued."""
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if link.queued else 0)
        if link.queued:
            self._writing.add(link)
        else:
            self._writing.discard(link)
        try:
            key = self._selector.get_key(link)
        except KeyError:
            self._selector.register(link, events, data)
            return
        if key.events != events or key.data is not data:
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
