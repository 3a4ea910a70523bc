"""An invite: the one line a host sends a friend, which names the server, the room and the server's certificate.

    villa-paletti://203.0.113.45:47170/K7QXM#3f1c…(64 hex digits)

`str(invite)` writes it; `parse_invite(text)` reads it back from whatever a chat made of it (spaces around it,
angle brackets, a slash after the code, the scheme in capitals, the fingerprint in capitals or with colons
between its bytes) and raises `InviteError` with a code (`BadInvite`) for anything else. The fingerprint is the
SHA-256 of the server certificate's DER, 64 lowercase hex digits; a server without TLS has none, and its invite
ends with the room's code. A desktop that opens the link hands the game this same text (`villa-paletti INVITE`).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from enum import StrEnum

from villa.online import protocol
from villa.online.router import Forwarding

SCHEME = "villa-paletti"
FINGERPRINT_DIGITS = 64
MAX_HOST = 253                  # the longest name DNS has
MAX_INVITE = 400                # characters read of a pasted invite: a long host, a port, a code, a fingerprint
_HOST_CHARS = set(string.ascii_letters + string.digits + "-._")
_IPV6_CHARS = set(string.hexdigits + ":.")


class BadInvite(StrEnum):
    """What is wrong with a line that was to be an invite."""

    NOT_AN_INVITE = "not an invite"      # it does not start with villa-paletti://
    NO_HOST = "no host"                  # no server's name or address in it
    BAD_PORT = "bad port"                # the port is not a number from 1 to 65535
    BAD_CODE = "bad code"                # no room code, or one that cannot be (`code`)
    BAD_FINGERPRINT = "bad fingerprint"  # after '#' must come the certificate's 64 hex digits


class InviteError(ValueError):
    def __init__(self, code: BadInvite, /, **values) -> None:
        super().__init__(code.value)
        self.code, self.values = code, values


@dataclass(frozen=True)
class Invite:
    host: str
    port: int
    code: str
    fingerprint: str | None = None     # None: the server speaks no TLS (the invite has no '#…')

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        line = f"{SCHEME}://{host}:{self.port}/{self.code}"
        return f"{line}#{self.fingerprint}" if self.fingerprint else line

    @property
    def address(self) -> str:
        """host:port, as the menus show a server and the settings keep it."""
        return f"{self.host}:{self.port}"


class Reach(StrEnum):
    """Whose address the invite names, and so who can follow it."""

    PUBLIC = "public"      # the home's public address, which its router forwards to the game hosted here
    LAN = "lan"            # this computer's address on its own network: friends on that network only
    SERVER = "server"      # the server the window went to, as it was given


@dataclass(frozen=True)
class Sharing:
    """The invite the lobby shows, whose address it names, and (for a game hosted here) what the router did."""

    invite: Invite
    reach: Reach
    forwarding: Forwarding | None = None


def looks_like_invite(text: str) -> bool:
    """Was this meant to be an invite (and not a server's address)? Its scheme says so."""
    return _unwrapped(text).lower().startswith(SCHEME + ":")


def parse_invite(text: str) -> Invite:
    line = _unwrapped(text)
    if not line.lower().startswith(SCHEME + "://"):
        raise InviteError(BadInvite.NOT_AN_INVITE)
    rest, _hash, fingerprint = line[len(SCHEME) + 3:].partition("#")
    where, _slash, code = rest.partition("/")
    host, port = _host_and_port(where)
    room = protocol.room_code(code.rstrip("/"))
    if room is None:
        raise InviteError(BadInvite.BAD_CODE, code=code.rstrip("/").upper()[:12] or "—")
    return Invite(host, port, room, _fingerprint(fingerprint) if _hash else None)


def code_in(text: str) -> str:
    """The room code an invite carries, for a form's code field ("": not an invite, or one that does not read)."""
    if not looks_like_invite(text):
        return ""
    try:
        return parse_invite(text).code
    except InviteError:
        return ""


def fingerprint_or_none(text: str | None) -> str | None:
    """A fingerprint as the invite carries it (64 lowercase hex digits), from any spelling of one; None for none."""
    return _fingerprint(text) if text else None


def _unwrapped(text: str) -> str:
    """The invite inside what a chat or a terminal put around it: spaces, quotes, <angle brackets>."""
    line = text.strip()[:MAX_INVITE].strip()
    while len(line) >= 2 and (line[0], line[-1]) in (("<", ">"), ('"', '"'), ("'", "'")):
        line = line[1:-1].strip()
    return line


def _host_and_port(where: str) -> tuple[str, int]:
    if where.startswith("["):                  # an IPv6 address, in brackets as URLs write it
        host, _bracket, after = where[1:].partition("]")
        if not host or not set(host) <= _IPV6_CHARS or ":" not in host:
            raise InviteError(BadInvite.NO_HOST)
        port = after[1:] if after.startswith(":") else ("" if not after else "x")
    else:
        host, colon, port = where.partition(":")
        if colon and not port:
            port = "x"
        if not host or len(host) > MAX_HOST or not set(host) <= _HOST_CHARS:
            raise InviteError(BadInvite.NO_HOST)
    if not port:
        return host, protocol.PORT
    if not (port.isascii() and port.isdecimal() and len(port) <= 5 and 0 < int(port) < 65536):
        raise InviteError(BadInvite.BAD_PORT, port=port[:8])
    return host, int(port)


def _fingerprint(text: str) -> str:
    digits = text.strip().replace(":", "").lower()
    if len(digits) != FINGERPRINT_DIGITS or not set(digits) <= set(string.hexdigits.lower()):
        raise InviteError(BadInvite.BAD_FINGERPRINT)
    return digits
