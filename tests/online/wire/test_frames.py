"""Frames: a stream cut anywhere still gives its frames whole, and a bad length is refused."""

from __future__ import annotations

import struct

import pytest

from villa.online.wire.frames import MAX_FRAME, FrameBuffer, WireError, frame

PAYLOADS = [b"\x01", b"hello", bytes(range(256)) * 3, b"\x00" * MAX_FRAME]


def test_frames_come_whole_when_the_stream_is_cut_at_every_byte():
    stream = b"".join(frame(payload) for payload in PAYLOADS[:3])
    for cut in range(len(stream) + 1):
        buffer = FrameBuffer()
        got = buffer.feed(stream[:cut]) + buffer.feed(stream[cut:])
        assert got == PAYLOADS[:3]
        assert len(buffer) == 0


def test_a_stream_fed_byte_by_byte_gives_each_frame_once_it_ends():
    buffer = FrameBuffer()
    got = []
    for byte in frame(b"abc") + frame(b"de"):
        got.append(buffer.feed(bytes([byte])))
    assert [n for n, payloads in enumerate(got) if payloads] == [6, 12]
    assert sum(got, []) == [b"abc", b"de"]


def test_the_largest_frame_passes_and_a_half_sent_one_waits():
    buffer = FrameBuffer()
    whole = frame(PAYLOADS[3])
    assert buffer.feed(whole[:40000]) == []
    assert len(buffer) == 40000
    assert buffer.feed(whole[40000:]) == [PAYLOADS[3]]


@pytest.mark.parametrize("length", [0, MAX_FRAME + 1, 2**32 - 1])
def test_a_zero_or_oversized_length_is_refused(length):
    with pytest.raises(WireError, match="frame length"):
        FrameBuffer().feed(struct.pack(">I", length) + b"x")
    with pytest.raises(WireError):
        frame(b"x" * length if length <= MAX_FRAME + 1 else b"")
