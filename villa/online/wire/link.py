"""A link: one connection over a non-blocking TCP socket, read and written a little at a time, never waited on.

    link = Link(sock, catalogue)
    for message in link.receive(): ...        # what has come whole since the last call (WireError if malformed)
    link.send(Ping()); link.flush()           # queued, then written as far as the socket takes it now
    if link.closed: say(link.why)

A server reads a little at a time instead: `take_in` reads what the socket has (up to a budget), and
`next_message` decodes one whole frame of it, so whole frames may wait for a later turn. What is queued to go is
kept as the frames themselves (`send_framed` queues bytes framed once for many links: one copy for them all).
The socket's bytes are read and written in `_recv_raw` and `_send_raw` only.

A window dials a server with `dial`, whose `poll` each frame comes to a `Link`, a reason it failed, or None
(still connecting). Numeric addresses and "localhost" are used as they are; any other name is looked up
with `socket.getaddrinfo` in `dial` itself, which may wait on the system's name service (seconds, at worst).

With TLS (`tls`: the connection's `villa.online.wire.tls.Tls`) the socket carries records: what comes is
decrypted before it is cut into frames, what goes is sealed into records once the handshake is done (a player's
hello waits for the server's certificate to be checked), and the byte counts are the socket's. Until then
messages wait in the queue as they do for a slow socket.
"""

from __future__ import annotations

import errno
import select
import socket
import time
from collections import deque
from typing import Any, Callable

from villa.online.wire.codec import Catalogue
from villa.online.wire.frames import FrameBuffer, WireError, frame
from villa.online.wire.tls import ClearPeer, Tls, TlsError

HUNG_UP = "hung up"              # `Link.why`: the peer closed the connection (it read to the end)
RESET = "reset"                  # the connection was reset or broke (the peer's process gone, a network fault)
RECEIVE_BUDGET = 256 * 1024      # bytes read in one `receive`: one busy connection does not starve the others
MAX_QUEUED = 4 * 1024 * 1024     # bytes waiting to be sent: beyond, the reader is not reading, and the link closes
_CHUNK = 65536

Clock = Callable[[], float]


class Link:
    """One connection: frames in, decoded by the catalogue; messages out, queued until the socket takes them.
    `closed` once the peer hung up, the socket failed, the queue overflowed or `close` was called; `why` says
    which (`HUNG_UP`, `RESET`, or the reason given to `close`). `heard_at` is the clock's time of the last bytes
    received, `drained_at` of the last bytes the socket took (or of the queue's start, if it was empty): a queue
    that waits long since is not being read."""

    def __init__(self, sock: socket.socket, catalogue: Catalogue, clock: Clock = time.monotonic,
                 tls: Tls | None = None) -> None:
        sock.setblocking(False)
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)    # small messages go at once
        self.sock = sock
        self.catalogue = catalogue
        self.clock = clock
        self.closed = False
        self.why = ""
        self.heard_at = clock()
        self.drained_at = self.heard_at
        self.bytes_in = 0
        self.bytes_out = 0
        self.bytes_queued = 0          # every byte ever queued (what a request made the server send is a difference)
        self.dry = True                # the socket was read to its end at the last `take_in`
        self.blocked_at: float | None = None    # when the socket last took no more (it was full; None: it took all)
        self._frames = FrameBuffer()
        self._out: deque[bytes | memoryview] = deque()    # frames to go, the first perhaps partly gone already
        self._queued = 0
        self._finishing = False
        self.tls = tls
        self._sealed = bytearray()         # TLS records waiting for the socket (a player's hello to begin with)
        if tls is not None:
            self._add_sealed(tls.sealed())

    def fileno(self) -> int:
        return -1 if self.closed else self.sock.fileno()

    @property
    def queued(self) -> int:
        """Bytes sent but not yet taken by the socket (with TLS: the messages not yet sealed, and the records)."""
        return self._queued + len(self._sealed)

    @property
    def shaking_hands(self) -> bool:
        """TLS whose handshake (and the player's check of the server) is not done yet."""
        return self.tls is not None and not self.tls.established

    def receive(self, budget: int = RECEIVE_BUDGET) -> list[Any]:
        """The messages that came whole, from what the socket has now (up to `budget` bytes); a frame's start
        waits for its end in the next call. `WireError` if a frame or message is malformed (the link cannot be
        trusted after it: close it); the peer hanging up, or a failing socket, closes the link."""
        self.take_in(budget)
        messages: list[Any] = []
        while (message := self.next_message()) is not None:
            messages.append(message)
        return messages

    def take_in(self, budget: int = RECEIVE_BUDGET) -> None:
        """Read what the socket has now (up to `budget` bytes) into the link's frames; `dry` says whether that was
        all of it. The peer hanging up, or a failing socket, closes the link; with TLS, what fails in it is raised
        (`ClearPeer`, a client that spoke in the clear, leaves the link a plain one for the door's goodbye)."""
        self.dry = False
        while budget > 0 and not self.closed:
            try:
                data = self._recv_raw(min(budget, _CHUNK))
            except (BlockingIOError, InterruptedError):
                self.dry = True
                break
            except OSError as error:
                self.close(_broken(error), keep_read=True)
                break
            if not data:
                self.close(HUNG_UP, keep_read=True)     # what it said before hanging up is still to be read
                break
            budget -= len(data)
            self.bytes_in += len(data)
            self.heard_at = self.clock()
            if self.tls is not None:
                data = self._open(data)
            if not self._finishing:        # a link that said goodbye reads what comes only to drop it
                self._frames.add(data)
            if self.tls is not None and self.tls.peer_closed:
                self.close(HUNG_UP, keep_read=True)

    def next_message(self) -> Any | None:
        """The next whole message read (None: none waits); `WireError` if it breaks the wire's form."""
        if self._finishing:
            return None
        try:
            payload = self._frames.take()
            return None if payload is None else self.catalogue.decode(payload)
        except WireError:
            self._frames = FrameBuffer()          # nothing after it can be trusted
            raise

    @property
    def waiting(self) -> bool:
        """Does a whole frame read wait to be decoded?"""
        return not self._finishing and self._frames.whole

    def _open(self, data: bytes) -> bytes:
        """Records in, plaintext out; the handshake's answers queued for the socket. A peer that speaks in the
        clear to a server's TLS leaves the link plain (`ClearPeer`: for the door's goodbye); any other failure,
        or a server the player's check refused, closes the link and is raised."""
        try:
            plain = self.tls.take_in(data)
        except ClearPeer:
            self.tls, self._sealed = None, bytearray()
            raise
        except Exception as error:
            self.close(str(error) or type(error).__name__)
            raise
        self._add_sealed(self.tls.sealed())
        return plain

    def _add_sealed(self, records: bytes) -> None:
        if records and not self.queued:
            self.drained_at = self.clock()        # a queue starts waiting now
        self._sealed += records

    def send(self, message: Any) -> None:
        """Queue a message (written by `flush`); a link with more than `MAX_QUEUED` bytes waiting closes."""
        if not self.closed and not self._finishing:
            self.send_framed(frame(self.catalogue.encode(message)))

    def send_framed(self, data: bytes) -> None:
        """Queue a message already framed (the same bytes may be queued on many links)."""
        if self.closed or self._finishing:
            return
        if not self._queued:
            self.drained_at = self.clock()        # a queue starts waiting now
        self._out.append(data)
        self._queued += len(data)
        self.bytes_queued += len(data)
        if self._queued > MAX_QUEUED:
            self.close("reader too slow")

    def flush(self) -> None:
        """Write what the socket takes now of the queue; once a finishing link's queue is empty, its sending
        side is shut (the peer reads to the end, then sees it hung up)."""
        self.blocked_at = None
        if self.tls is not None:
            self._flush_sealed()
            return
        while self._out and not self.closed:
            chunk = self._gathered()
            try:
                sent = self._send_raw(chunk)              # as much as the socket takes now
            except (BlockingIOError, InterruptedError):
                self.blocked_at = self.clock()
                return
            except OSError as error:
                self.close(_broken(error))
                return
            if sent <= 0:
                return
            self.bytes_out += sent
            self._queued -= sent
            self.drained_at = self.clock()
            if sent < len(chunk):
                self._out[0] = memoryview(chunk)[sent:]
                self.blocked_at = self.clock()            # the socket is full
                return
            self._out.popleft()
        self._shut_when_finished()

    def _flush_sealed(self) -> None:
        """TLS: the queue sealed into records a little ahead of the socket (once the handshake is done), the
        closing alert once a finishing link's queue is sealed, and the records written."""
        while not self.closed:
            if self._out and self.tls.established and len(self._sealed) < _CHUNK:
                chunk = self._gathered()
                try:
                    taken = self.tls.put_out(bytes(chunk[:_CHUNK]))
                except TlsError as error:
                    self.close(str(error))
                    return
                self._taken(chunk, taken)
            elif self._finishing and not self._out:
                self.tls.say_bye()
            self._add_sealed(self.tls.sealed())
            if not self._sealed:
                break
            try:
                sent = self._send_raw(self._sealed)
            except (BlockingIOError, InterruptedError):
                self.blocked_at = self.clock()
                return
            except OSError as error:
                self.close(_broken(error))
                return
            if sent <= 0:
                return
            self.bytes_out += sent
            self.drained_at = self.clock()
            del self._sealed[:sent]
            if self._sealed:
                self.blocked_at = self.clock()            # the socket is full
                return
        self._shut_when_finished()

    def _taken(self, chunk: bytes | memoryview, taken: int) -> None:
        """The queue's first piece (`chunk`) sealed as far as `taken` bytes."""
        self._queued -= taken
        if taken < len(chunk):
            self._out[0] = memoryview(chunk)[taken:]
        else:
            self._out.popleft()

    def _shut_when_finished(self) -> None:
        if self._finishing and not self._out and not self._sealed and not self.closed:
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def forget_queue(self) -> None:
        """Drop what waits to be sent, but for a frame partly written already (the stream stays whole)."""
        first = self._out[0] if self._out else None
        self._out.clear()
        self._queued = 0
        if first is not None and isinstance(first, memoryview):
            self._out.append(first)
            self._queued = len(first)

    def _gathered(self) -> bytes | memoryview:
        """The queue's first frames joined (up to a chunk) into its first piece: one write for many small ones."""
        first = self._out[0]
        if len(first) >= _CHUNK or len(self._out) == 1:
            return first
        parts, size = [], 0
        while self._out and size + len(self._out[0]) <= _CHUNK:
            part = self._out.popleft()
            parts.append(part)
            size += len(part)
        if not parts:
            return first
        joined = b"".join(parts)
        self._out.appendleft(joined)
        return joined

    def _recv_raw(self, size: int) -> bytes:
        """The socket's bytes, as they came (`BlockingIOError`: none now; b"": the peer hung up)."""
        return self.sock.recv(size)

    def _send_raw(self, data: bytes | memoryview) -> int:
        """As much of `data` as the socket takes now (`BlockingIOError`: none)."""
        return self.sock.send(data)

    def finish(self) -> None:
        """Say nothing more: what is queued still goes (`flush`), then the link shuts its sending side; what
        the peer still sends is read and dropped until it hangs up too (or the link is closed)."""
        self._finishing = True
        self.flush()

    def close(self, why: str = "closed", keep_read: bool = False) -> None:
        """Close the socket now: what is still queued is dropped, and what was read unless `keep_read` (the
        peer's last words, still to be taken; a second `close` drops them)."""
        if not keep_read:
            self._frames = FrameBuffer()
        if self.closed:
            return
        self.closed = True
        self.why = why
        self._out.clear()
        self._queued = 0
        self._sealed.clear()
        self.sock.close()


def _broken(error: OSError) -> str:
    """Why a socket that was connected failed: reset (by the peer, or a pipe broken), or the system's words."""
    if error.errno in (errno.ECONNRESET, errno.EPIPE, errno.ECONNABORTED, errno.ETIMEDOUT, errno.EHOSTUNREACH,
                       errno.ENETUNREACH, errno.ENETRESET):
        return RESET
    return error.strerror or str(error)


_REASONS = {errno.ECONNREFUSED: "refused", errno.ENETUNREACH: "unreachable", errno.EHOSTUNREACH: "unreachable",
            errno.ETIMEDOUT: "timed out"}


def _addresses(host: str, port: int) -> list[tuple[Any, Any]]:
    """(family, address) to try for host:port: a numeric address or "localhost" at once, a name through the
    system's resolver (which may wait)."""
    if host.strip().lower() == "localhost":
        host = "127.0.0.1"
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    except socket.gaierror:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [(family, address) for family, _, _, _, address in found]


class Dialling:
    """A connection being made: `poll` until it gives a `Link` or a reason it failed ("refused",
    "unreachable", "timed out", "unknown host" or the system's words)."""

    def __init__(self, host: str, port: int, catalogue: Catalogue, timeout: float, clock: Clock,
                 tls: Callable[[], Tls] | None = None, source: str | None = None) -> None:
        self.catalogue = catalogue
        self.tls = tls
        self.clock = clock
        self.source = source
        self.deadline = clock() + timeout
        self.why = ""
        self._sock: socket.socket | None = None
        self._link: Link | None = None
        try:
            self._addresses = _addresses(host, port)
        except (socket.gaierror, UnicodeError, OSError):
            self._addresses = []
            self.why = "unknown host"
            return
        self._next()

    def _next(self) -> None:
        """Start connecting to the next address (after a failure at the last one)."""
        while self._addresses:
            family, address = self._addresses.pop(0)
            sock = socket.socket(family, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                if self.source is not None:
                    sock.bind((self.source, 0))      # from one of this machine's addresses (tests, benchmarks)
                code = sock.connect_ex(address)
            except OSError as error:
                code = error.errno or errno.EADDRNOTAVAIL
            if code in (0, errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EALREADY):
                self._sock = sock
                return
            sock.close()
            self.why = _REASONS.get(code, errno.errorcode.get(code, str(code)))

    def poll(self) -> Link | str | None:
        """The link once connected, the reason once failed, None while still connecting (never waits)."""
        if self._sock is None:
            return self._link or self.why
        _, writable, failed = select.select([], [self._sock], [self._sock], 0)
        if writable or failed:
            code = self._sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if code == 0:
                self._link, self._sock = Link(self._sock, self.catalogue, self.clock,
                                              self.tls() if self.tls is not None else None), None
                return self._link
            self._sock.close()
            self._sock = None
            self.why = _REASONS.get(code, errno.errorcode.get(code, str(code)))
            self._next()
            return None if self._sock else self.why
        if self.clock() > self.deadline:
            self.cancel()
            self.why = "timed out"
            return self.why
        return None

    def cancel(self) -> None:
        """Give up connecting (the socket is closed)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
            self.why = "cancelled"
        self._addresses = []


def dial(host: str, port: int, catalogue: Catalogue, timeout: float = 10.0, clock: Clock = time.monotonic,
         tls: Callable[[], Tls] | None = None, source: str | None = None) -> Dialling:
    """Start connecting to host:port without waiting (from the `source` address, if given); `poll` the answer each
    frame. `tls` makes the connection's TLS once the socket is connected (None: the link speaks in the clear)."""
    return Dialling(host, port, catalogue, timeout, clock, tls, source)
