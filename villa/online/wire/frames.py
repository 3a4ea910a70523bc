"""Frames: how one message's bytes are told from the next on a stream.

A frame is a 4-byte big-endian length, then that many bytes of payload (one message, `codec`). A stream
arrives in pieces of any size: `FrameBuffer` keeps a frame's first part until the rest comes, so a peer
that sends half a frame and stops holds nothing but its own buffer (never the loop that reads it).

    buffer = FrameBuffer()
    for payload in buffer.feed(sock.recv(65536)): ...
"""

from __future__ import annotations

import struct

MAX_FRAME = 65536            # payload bytes: a frame's length beyond it (or zero) is refused
_LENGTH = struct.Struct(">I")


class WireError(Exception):
    """What came over the wire (or was about to go) breaks its form; `why` says how, in a few words."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def frame(payload: bytes) -> bytes:
    """The payload with its length in front."""
    if not 0 < len(payload) <= MAX_FRAME:
        raise WireError(f"frame of {len(payload)} bytes")
    return _LENGTH.pack(len(payload)) + payload


class FrameBuffer:
    """A stream's bytes so far, cut into whole frames' payloads as they complete: all at once (`feed`), or one at
    a time (`add`, then `take` until None), so a reader may leave whole frames waiting for a later turn."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._start = 0               # where the next frame begins: the bytes before it are taken already

    def __len__(self) -> int:
        """Bytes held back: frames not yet taken, and a frame not yet complete."""
        return len(self._data) - self._start

    def feed(self, data: bytes) -> list[bytes]:
        """The payloads of the frames `data` completes (none, one or many); the rest waits for the next feed.
        A length of zero or beyond `MAX_FRAME` raises `WireError` (the stream cannot be trusted after it)."""
        self.add(data)
        payloads = []
        while (payload := self.take()) is not None:
            payloads.append(payload)
        return payloads

    def add(self, data: bytes) -> None:
        """More of the stream, kept until its frames are taken."""
        if self._start:
            del self._data[:self._start]      # the frames taken go only now: once per read, not once per frame
            self._start = 0
        self._data += data

    def take(self) -> bytes | None:
        """The next whole frame's payload (None: no whole frame waits); `WireError` for a length of zero or
        beyond `MAX_FRAME`."""
        if len(self._data) - self._start < _LENGTH.size:
            return None
        (length,) = _LENGTH.unpack_from(self._data, self._start)
        if not 0 < length <= MAX_FRAME:
            raise WireError(f"frame length {length}")
        end = self._start + _LENGTH.size + length
        if end > len(self._data):
            return None
        payload = bytes(self._data[self._start + _LENGTH.size:end])
        self._start = end
        if self._start == len(self._data):
            self._data.clear()
            self._start = 0
        return payload

    @property
    def whole(self) -> bool:
        """Does a whole frame wait to be taken (or a length that breaks the wire's form, to be refused)?"""
        if len(self._data) - self._start < _LENGTH.size:
            return False
        (length,) = _LENGTH.unpack_from(self._data, self._start)
        return not 0 < length <= MAX_FRAME or self._start + _LENGTH.size + length <= len(self._data)
