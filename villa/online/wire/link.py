"""A link: one connection over a non-blocking TCP socket, read and written a little at a time, never waited on.

    link = Link(sock, catalogue)
    for message in link.receive(): ...        # what has come whole since the last call (WireError if malformed)
    link.send(Ping()); link.flush()           # queued, then written as far as the socket takes it now
    if link.closed: say(link.why)

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
from typing import Any, Callable

from villa.online.wire.codec import Catalogue
from villa.online.wire.frames import FrameBuffer, frame
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
    received."""

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
        self.bytes_in = 0
        self.bytes_out = 0
        self._frames = FrameBuffer()
        self._out = bytearray()
        self._finishing = False
        self.tls = tls
        self._sealed = bytearray()         # TLS records waiting for the socket (a player's hello to begin with)
        if tls is not None:
            self._sealed += tls.sealed()

    def fileno(self) -> int:
        return -1 if self.closed else self.sock.fileno()

    @property
    def queued(self) -> int:
        """Bytes sent but not yet taken by the socket (with TLS: the messages not yet sealed, and the records)."""
        return len(self._out) + len(self._sealed)

    @property
    def shaking_hands(self) -> bool:
        """TLS whose handshake (and the player's check of the server) is not done yet."""
        return self.tls is not None and not self.tls.established

    def receive(self, budget: int = RECEIVE_BUDGET) -> list[Any]:
        """The messages that came whole, from what the socket has now (up to `budget` bytes); a frame's start
        waits for its end in the next call. `WireError` if a frame or message is malformed (the link cannot be
        trusted after it: close it); the peer hanging up, or a failing socket, closes the link."""
        messages: list[Any] = []
        while budget > 0 and not self.closed:
            try:
                data = self.sock.recv(min(budget, _CHUNK))
            except (BlockingIOError, InterruptedError):
                break
            except OSError as error:
                self.close(_broken(error))
                break
            if not data:
                self.close(HUNG_UP)
                break
            budget -= len(data)
            self.bytes_in += len(data)
            self.heard_at = self.clock()
            if self.tls is not None:
                data = self._open(data)
            if self._finishing:
                continue                   # the link said goodbye: what comes now is read only to be dropped
            for payload in self._frames.feed(data):
                messages.append(self.catalogue.decode(payload))
            if self.tls is not None and self.tls.peer_closed:
                self.close(HUNG_UP)
        return messages

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
        self._sealed += self.tls.sealed()
        return plain

    def send(self, message: Any) -> None:
        """Queue a message (written by `flush`); a link with more than `MAX_QUEUED` bytes waiting closes."""
        if self.closed or self._finishing:
            return
        self._out += frame(self.catalogue.encode(message))
        if len(self._out) > MAX_QUEUED:
            self.close("reader too slow")

    def flush(self) -> None:
        """Write what the socket takes now of the queue; once a finishing link's queue is empty, its sending
        side is shut (the peer reads to the end, then sees it hung up)."""
        if self.tls is not None:
            self._flush_sealed()
            return
        while self._out and not self.closed:
            try:
                sent = self.sock.send(self._out)          # as much as the socket takes now
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                self.close(_broken(error))
                return
            self.bytes_out += sent
            del self._out[:sent]
        self._shut_when_finished()

    def _flush_sealed(self) -> None:
        """TLS: the queue sealed into records a little ahead of the socket (once the handshake is done), the
        closing alert once a finishing link's queue is sealed, and the records written."""
        while not self.closed:
            if self._out and self.tls.established and len(self._sealed) < _CHUNK:
                try:
                    del self._out[:self.tls.put_out(bytes(self._out[:_CHUNK]))]
                except TlsError as error:
                    self.close(str(error))
                    return
            elif self._finishing and not self._out:
                self.tls.say_bye()
            self._sealed += self.tls.sealed()
            if not self._sealed:
                break
            try:
                sent = self.sock.send(self._sealed)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                self.close(_broken(error))
                return
            self.bytes_out += sent
            del self._sealed[:sent]
        self._shut_when_finished()

    def _shut_when_finished(self) -> None:
        if self._finishing and not self._out and not self._sealed and not self.closed:
            try:
                self.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def finish(self) -> None:
        """Say nothing more: what is queued still goes (`flush`), then the link shuts its sending side; what
        the peer still sends is read and dropped until it hangs up too (or the link is closed)."""
        self._finishing = True
        self.flush()

    def close(self, why: str = "closed") -> None:
        """Close the socket now (what is still queued is dropped)."""
        if self.closed:
            return
        self.closed = True
        self.why = why
        self._out.clear()
        self._sealed.clear()
        self._frames = FrameBuffer()
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
                 tls: Callable[[], Tls] | None = None) -> None:
        self.catalogue = catalogue
        self.tls = tls
        self.clock = clock
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
            code = sock.connect_ex(address)
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
         tls: Callable[[], Tls] | None = None) -> Dialling:
    """Start connecting to host:port without waiting; `poll` the answer each frame. `tls` makes the connection's
    TLS once the socket is connected (None: the link speaks in the clear)."""
    return Dialling(host, port, catalogue, timeout, clock, tls)
