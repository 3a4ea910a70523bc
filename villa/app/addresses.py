"""A server's address as a player types or pastes it, and as the window shows and keeps it."""

from __future__ import annotations

from villa.online import protocol


class Trouble(Exception):
    """Why joining or hosting stopped: a trouble's code (menus.online.TROUBLES) and its values."""

    def __init__(self, code: str, /, **values) -> None:
        super().__init__(code)
        self.code, self.values = code, values


def parse_address(text: str) -> tuple[str, int]:
    """host:port (or just host, on the game's own port), as typed or pasted: a link's scheme and path are left out
    (`http://host:port/`, an invite `villa-paletti://HOST:PORT/CODE#FINGERPRINT`), an IPv6 address may stand in
    brackets (`[::1]:47170`); Trouble("bad address") for anything else."""
    typed = text.strip()
    where = typed.split("://", 1)[1] if "://" in typed else typed
    where = where.split("/", 1)[0].split("#", 1)[0].split("?", 1)[0]
    where = where.rsplit("@", 1)[-1]            # (a user before the host, as links may have)
    after = ""                                  # what follows a bracketed address: nothing, or :port
    if where.startswith("["):                   # [v6 address]:port
        host, _bracket, after = where[1:].partition("]")
        colon, port = after[:1], after[1:]
    elif where.count(":") == 1:
        host, colon, port = where.partition(":")
    else:                                       # a host alone, or a bare IPv6 address
        host, colon, port = where, "", ""
    if not colon:
        port = str(protocol.PORT)
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or any(c.isspace() for c in host) \
            or not host.isprintable() or after[:1] not in ("", ":"):
        raise Trouble("bad address", address=typed or "—")
    return host, int(port)


def parse_port(text: str) -> int | None:
    """A port to host on; None: any free one. Trouble("bad port") for anything else."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not 1024 <= int(text) <= 65535:
        raise Trouble("bad port")
    return int(text)


def host_port(host: str, port: int) -> str:
    """host:port as the window shows and keeps it (an IPv6 address in brackets, so that it reads back)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
