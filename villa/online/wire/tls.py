"""TLS on a link: one connection's encryption over two memory buffers, so that the link goes on reading and
writing its own non-blocking socket, and nothing ever waits.

    session = server_tls(identity).session()            # the door, for each connection it accepts
    session = client_session(host, check)               # a player, for the server it dials
    plain = session.take_in(bytes_from_the_socket)      # what decrypts of them (b"" while shaking hands)
    session.put_out(plain_bytes)                        # once `established`: sealed into records ...
    socket.send(session.sealed())                       # ... which the link writes when the socket takes them

The TLS is OpenSSL's, the one the `cryptography` wheel carries (through pyOpenSSL), the same on every system and
in every build: TLS 1.3, or 1.2 at least, no renegotiation, no compression. A player checks the server's
certificate itself once the handshake is done (`check`: the invite's pin, a CA by the host's name, or trust on
first use; `villa.online.client.trust`) and sends nothing, not even its hello, before the check passed. The
server does not ask for a player's certificate.

A peer that speaks in the clear is told apart from one that speaks TLS by its first byte: every TLS record
begins with its type (22 for a handshake, 21 for an alert), every frame of the wire with the high byte of its
length, 0. The door answers a hello sent in the clear with a goodbye in the clear (`ClearPeer`); a player that
finds the server speaking in the clear says so (`NotTls`).
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Callable

from cryptography.hazmat.primitives.serialization import Encoding
from OpenSSL import SSL

from villa.online.wire.certificates import Identity
from villa.online.wire.frames import WireError

log = logging.getLogger(__name__)

HANDSHAKE, ALERT = 22, 21           # the record types a TLS peer starts with
_READ = 65536

Check = Callable[[list[bytes]], None]    # the server's chain (DER, its own first): raises to refuse it


class TlsError(WireError):
    """The TLS layer failed: `code` names how ("handshake": it could not be made, "not tls": the server speaks
    in the clear, "clear hello": a client spoke in the clear), `why` in OpenSSL's words."""

    def __init__(self, code: str, why: str = "") -> None:
        super().__init__(f"{code}: {why}" if why else code)
        self.code = code


class ClearPeer(TlsError):
    """A client spoke in the clear to a server that speaks TLS: its link is now a plain one, for the goodbye."""

    def __init__(self) -> None:
        super().__init__("clear hello")


class NotTls(TlsError):
    """The server answered in the clear (`heard`: its first bytes): it was started without TLS (`--insecure`), or
    it refused the connection before any handshake (a goodbye in the clear: full)."""

    def __init__(self, heard: bytes = b"") -> None:
        super().__init__("not tls")
        self.heard = heard


def _context(server: bool) -> SSL.Context:
    context = SSL.Context(SSL.TLS_METHOD)
    context.set_min_proto_version(SSL.TLS1_2_VERSION)
    context.set_options(SSL.OP_NO_RENEGOTIATION | SSL.OP_NO_COMPRESSION | SSL.OP_NO_TICKET)
    context.set_session_cache_mode(SSL.SESS_CACHE_OFF)
    context.set_mode(SSL.MODE_RELEASE_BUFFERS)      # an idle connection keeps no read or write buffer
    if not server:
        context.set_verify(SSL.VERIFY_NONE)         # checked by the player once the handshake is done
    return context


class ServerTls:
    """A server's TLS: its certificate and key, loaded once; `session()` for each connection accepted."""

    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self.fingerprint = identity.fingerprint
        self._context = _context(server=True)
        self._context.use_certificate(identity.certificate)
        for extra in identity.chain[1:]:
            self._context.add_extra_chain_cert(extra)
        self._context.use_privatekey(identity.key)
        self._context.check_privatekey()

    def session(self) -> Tls:
        return Tls(SSL.Connection(self._context, None), server=True)


_client_context: SSL.Context | None = None


def client_session(host: str, check: Check | None) -> Tls:
    """A player's TLS to `host` (named in the handshake when it is a name, for a server behind a CA's
    certificate), its hello ready to go; `check` refuses a certificate by raising."""
    global _client_context
    if _client_context is None:
        _client_context = _context(server=False)
    connection = SSL.Connection(_client_context, None)
    if host and not _is_ip(host) and host != "localhost":
        try:
            connection.set_tlsext_host_name(host.encode("idna"))
        except (UnicodeError, ValueError):
            pass
    return Tls(connection, server=False, check=check)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


class Tls:
    """One connection's TLS: ciphertext in (`take_in`), plaintext out of it; plaintext in (`put_out`), records
    out (`sealed`). `established` once the handshake is done and the peer checked; `peer_closed` once the peer
    said it closes."""

    def __init__(self, connection: SSL.Connection, server: bool, check: Check | None = None) -> None:
        self._connection = connection
        self.server = server
        self._check = check
        self.established = False
        self.peer_closed = False
        self._heard_any = False
        self._said_bye = False
        self.peer_chain: list[bytes] = []
        if server:
            connection.set_accept_state()
        else:
            connection.set_connect_state()
            self._handshake()                   # the client's hello, ready in `sealed`

    @property
    def version(self) -> str:
        return self._connection.get_protocol_version_name()

    def take_in(self, data: bytes) -> bytes:
        """What the socket gave; returns what it decrypts to (b"" while shaking hands, or for a part of a
        record). `TlsError` when TLS fails; what `check` raises, when it refuses the server."""
        if not data:
            return b""
        if not self._heard_any:
            self._heard_any = True
            if data[0] not in (HANDSHAKE, ALERT):
                raise ClearPeer() if self.server else NotTls(data)
        self._connection.bio_write(data)
        if not self.established:
            self._handshake()
            if not self.established:
                return b""
        plain = bytearray()
        while True:
            try:
                chunk = self._connection.recv(_READ)
            except SSL.WantReadError:
                break
            except SSL.ZeroReturnError:
                self.peer_closed = True
                break
            except SSL.Error as error:
                raise TlsError("broken", _why(error)) from None
            if not chunk:
                break
            plain += chunk
        return bytes(plain)

    def put_out(self, data: bytes) -> int:
        """Seal plaintext into records (once established); returns how much was taken."""
        if not self.established or not data:
            return 0
        try:
            return self._connection.send(data)
        except SSL.Error as error:
            raise TlsError("broken", _why(error)) from None

    def sealed(self) -> bytes:
        """The records waiting for the socket (handshake, data, alerts), taken out of the buffer."""
        out = bytearray()
        while True:
            try:
                chunk = self._connection.bio_read(_READ)
            except SSL.WantReadError:
                break
            if not chunk:
                break
            out += chunk
        return bytes(out)

    def say_bye(self) -> None:
        """The closing alert (close_notify), once: the peer reads to the end, then sees the link closed."""
        if self._said_bye or not self.established:
            return
        self._said_bye = True
        try:
            self._connection.shutdown()
        except SSL.Error:
            pass

    def _handshake(self) -> None:
        try:
            self._connection.do_handshake()
        except SSL.WantReadError:
            return
        except SSL.Error as error:
            raise TlsError("handshake", _why(error)) from None
        chain = self._connection.get_peer_cert_chain(as_cryptography=True) or []
        self.peer_chain = [cert.public_bytes(Encoding.DER) for cert in chain]
        if not self.server:
            if not self.peer_chain:
                raise TlsError("handshake", "the server showed no certificate")
            if self._check is not None:
                self._check(self.peer_chain)
        self.established = True
        log.debug("TLS %s established (%s)", "server" if self.server else "client", self.version)


def _why(error: SSL.Error) -> str:
    """OpenSSL's reason, in its own few words."""
    for entry in error.args[0] if error.args and isinstance(error.args[0], list) else ():
        if isinstance(entry, tuple) and entry and entry[-1]:
            return str(entry[-1])
    return str(error) or type(error).__name__
