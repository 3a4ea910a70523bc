"""Just enough HTTP and XML for a home router's UPnP: one request on its own connection, and the text of the
few elements the game reads from what comes back. (The standard library's `http` and `xml` are left out of the
built game; a router's answers are small, and only a handful of their elements matter here.)"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

MAX_ANSWER = 256 * 1024          # bytes of a router's answer read at most (a device description is a few kB)


class HttpError(OSError):
    """The router could not be reached, or its answer was no HTTP."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: str
    local_address: str           # this machine's address as the router sees it (the mapping's inside end)


def request(url: str, method: str = "GET", body: str = "", headers: dict[str, str] | None = None,
            timeout: float = 3.0) -> Answer:
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise HttpError(f"not an http address: {url[:80]}")
    port = parts.port or 80
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    data = body.encode("utf-8")
    lines = [f"{method} {path} HTTP/1.1", f"Host: {parts.hostname}:{port}", "Connection: close",
             f"Content-Length: {len(data)}", *(f"{k}: {v}" for k, v in (headers or {}).items())]
    with socket.create_connection((parts.hostname, port), timeout=timeout) as sock:
        local = sock.getsockname()[0]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data)
        raw = _read_all(sock)
    return _answer(raw, local)


def _read_all(sock: socket.socket) -> bytes:
    chunks, size = [], 0
    while size < MAX_ANSWER:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)[:MAX_ANSWER]


def _answer(raw: bytes, local: str) -> Answer:
    head, _blank, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ", 2)
    if len(status) < 2 or not status[0].startswith("HTTP/") or not status[1].isdigit():
        raise HttpError("the router's answer is no HTTP")
    fields = {k.strip().lower(): v.strip() for k, _colon, v in (line.partition(":") for line in lines[1:])}
    if "chunked" in fields.get("transfer-encoding", "").lower():
        body = _unchunked(body)
    elif fields.get("content-length", "").isdigit():
        body = body[:int(fields["content-length"])]
    return Answer(int(status[1]), body.decode("utf-8", "replace"), local)


def _unchunked(body: bytes) -> bytes:
    whole = []
    while body:
        size_line, _crlf, body = body.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
        except ValueError:
            break
        if size == 0:
            break
        whole.append(body[:size])
        body = body[size + 2:]
    return b"".join(whole)


def headers_of(datagram: bytes) -> dict[str, str]:
    """An SSDP answer's header fields (names in lower case)."""
    lines = datagram.decode("latin-1", "replace").split("\r\n")
    return {k.strip().lower(): v.strip() for k, colon, v in (line.partition(":") for line in lines[1:]) if colon}


def elements(text: str, name: str) -> list[str]:
    """The contents of every element called `name` (with any namespace prefix), in order."""
    pattern = rf"<(?:[\w.-]+:)?{re.escape(name)}(?:\s[^>]*)?>(.*?)</(?:[\w.-]+:)?{re.escape(name)}\s*>"
    return re.findall(pattern, text, re.S)


def element(text: str, name: str) -> str | None:
    """The text of the first element called `name`, its entities read; None: there is none."""
    found = elements(text, name)
    return unescape(found[0]).strip() if found else None


def joined(base: str, url: str) -> str:
    return urljoin(base, url)


_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def unescape(text: str) -> str:
    """XML's five entities and its numbered characters."""
    def one(match: re.Match) -> str:
        name = match.group(1)
        try:
            if name.startswith("#x"):
                return chr(int(name[2:], 16))
            if name.startswith("#"):
                return chr(int(name[1:]))
        except ValueError:        # no number, or none a character has
            return match.group()
        return _ENTITIES.get(name, match.group())
    return re.sub(r"&(#?\w{1,8});", one, text)


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
