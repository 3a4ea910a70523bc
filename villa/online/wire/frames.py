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
    """A stream's bytes so far, cut into whole frames' payloads as they complete."""

    def __init__(self) -> None:
        self._data = bytearray()

    def __len__(self) -> int:
        """Bytes held back: a frame not yet complete."""
        return len(self._data)

    def feed(self, data: bytes) -> list[bytes]:
        """The payloads of the frames `data` completes (none, one or many); the rest waits for the next feed.
        A length of zero or beyond `MAX_FRAME` raises `WireError` (the stream cannot be trusted after it)."""
        self._data += data
        payloads = []
        start = 0
        while len(self._data) - start >= _LENGTH.size:
            (length,) = _LENGTH.unpack_from(self._data, start)
            if not 0 < length <= MAX_FRAME:
                raise WireError(f"frame length {length}")
            end = start + _LENGTH.size + length
            if end > len(self._data):
                break
            payloads.append(bytes(self._data[start + _LENGTH.size:end]))
            start = end
        del self._data[:start]
        return payloads
