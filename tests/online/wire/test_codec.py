"""The codec: every kind of message comes back as it went, and a payload that is wrong in any way is refused
with a `WireError` (never any other exception); `inflate` stops at its limit."""

from __future__ import annotations

import dataclasses
import math
import random
import struct
import typing
import zlib
from dataclasses import dataclass
from enum import Enum
from typing import Annotated

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from villa.match.requests import Bounds, ChooseColour, Steady, Take, TurnFloor
from villa.online.wire import messages
from villa.online.wire.codec import TEXT, Catalogue, inflate
from villa.online.wire.frames import WireError
from villa.rules.pieces import Colour

CATALOGUE = Catalogue(messages.KINDS)


def values(hint) -> st.SearchStrategy:
    """Any value a field of this type may hold, within its bounds (made from the type, as the codec is)."""
    bounds = None
    if typing.get_origin(hint) is Annotated:
        hint, *extras = typing.get_args(hint)
        bounds = next((extra for extra in extras if isinstance(extra, Bounds)), None)
    args = typing.get_args(hint)
    if type(None) in args:
        return st.none() | values(next(arg for arg in args if arg is not type(None)))
    if typing.get_origin(hint) is tuple:
        return st.tuples(*(values(arg) for arg in args))
    if hint is bool:
        return st.booleans()
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(hint)
    if hint is int:
        return st.integers(int(bounds.low), int(bounds.high)) if bounds else st.integers(-2**63, 2**63 - 1)
    if hint is float:
        low, high = (bounds.low, bounds.high) if bounds else (None, None)
        return st.floats(low, high, allow_nan=False)
    if hint is str:
        return st.text(max_size=int(bounds.high) if bounds else TEXT)
    if hint is bytes:
        return st.binary(max_size=min(int(bounds.high), 2000) if bounds else 2000)
    raise TypeError(hint)


def messages_of(kind: type) -> st.SearchStrategy:
    hints = typing.get_type_hints(kind, include_extras=True)
    return st.builds(kind, *(values(hints[field.name]) for field in dataclasses.fields(kind)))


@pytest.mark.parametrize("kind", messages.KINDS, ids=lambda kind: kind.__name__)
def test_every_kind_comes_back_as_it_went(kind):
    @settings(max_examples=15, deadline=None)
    @given(messages_of(kind))
    def round_trip(message):
        payload = CATALOGUE.encode(message)
        assert payload[0] == messages.KINDS.index(kind)
        assert CATALOGUE.decode(payload) == message
    round_trip()


def test_fields_are_laid_out_as_the_wire_says():
    assert CATALOGUE.encode(messages.Hello(1, "ab")) == b"\x00" + struct.pack("<q", 1) + b"\x02\x00ab"
    take = CATALOGUE.encode(Take(2, "é", (1.5, -2.0, 0.0), True))
    number = bytes([messages.KINDS.index(Take)])
    point = b"\x01" + struct.pack("<3d", 1.5, -2, 0)                  # flagged: a point follows
    assert take == number + struct.pack("<q", 2) + b"\x02\x00\xc3\xa9" + point + b"\x01"
    assert CATALOGUE.encode(Take(2, "", None)) == number + struct.pack("<q", 2) + b"\x00\x00" + b"\x00" + b"\x00"
    assert CATALOGUE.encode(messages.Table(b"xyz")) == bytes([messages.KINDS.index(messages.Table)]) + b"\x03\0\0\0xyz"
    assert CATALOGUE.decode(CATALOGUE.encode(ChooseColour(1, "red"))).colour is Colour.RED     # a word, read as one


def _kind(kind: type) -> bytes:
    return bytes([messages.KINDS.index(kind)])


def _seat(seat: int) -> bytes:
    return struct.pack("<q", seat)


def _text(data: bytes) -> bytes:
    return struct.pack("<H", len(data)) + data


REFUSED = {
    "empty": b"",
    "unknown kind": bytes([len(messages.KINDS)]),
    "kind 255": b"\xff",
    "left over": CATALOGUE.encode(messages.Ping()) + b"\x00",
    "cut short": CATALOGUE.encode(messages.Enter("AB"))[:-1],
    "not UTF-8": _kind(messages.Enter) + _text(b"\xff\xfe"),
    "a lone surrogate": _kind(messages.Enter) + _text(b"\xed\xa0\x80"),
    "text too long": _kind(messages.Enter) + _text(b"A" * 17),
    "text bytes beyond its length": _kind(messages.Enter) + _text(b"A" * 65),
    "seat out of bounds": _kind(Steady) + _seat(4) + b"\x01",
    "negative seat": _kind(Steady) + _seat(-1) + b"\x01",
    "bool 2": _kind(Steady) + _seat(0) + b"\x02",
    "bad flag": _kind(Take) + _seat(0) + _text(b"c") + b"\x02" + b"\x00",
    "infinite point": _kind(Take) + _seat(0) + _text(b"c") + b"\x01" + struct.pack("<3d", 0, math.inf, 0) + b"\x00",
    "nan degrees": _kind(TurnFloor) + _seat(0) + struct.pack("<d", math.nan),
    "degrees out of bounds": _kind(TurnFloor) + _seat(0) + struct.pack("<d", 361),
    "unknown colour": _kind(ChooseColour) + _seat(0) + _text(b"purple"),
    "bytes beyond bounds": _kind(messages.Table) + struct.pack("<I", 8193) + b"x" * 8193,
    "bytes length beyond the payload": _kind(messages.Table) + struct.pack("<I", 10) + b"x" * 9,
    "protocol beyond u16": _kind(messages.Hello) + struct.pack("<q", 2**16) + _text(b"0"),
}


@pytest.mark.parametrize("payload", REFUSED.values(), ids=REFUSED.keys())
def test_a_wrong_payload_is_refused_with_a_reason(payload):
    with pytest.raises(WireError) as refused:
        CATALOGUE.decode(payload)
    assert refused.value.why


def test_every_cut_of_a_message_is_refused():
    payload = CATALOGUE.encode(messages.Hand(5, -1, 7, "pulling", 1.5, 2, b"ab", 3.0))
    for end in range(len(payload)):
        with pytest.raises(WireError):
            CATALOGUE.decode(payload[:end])


def test_every_kind_number_with_every_short_body_decodes_or_is_refused():
    """Kinds 0..255 with random bodies of 0 to 64 bytes: a message or a `WireError`, nothing else."""
    dice = random.Random(35)
    decoded = 0
    for number in range(256):
        for length in range(65):
            for body in (bytes(length), bytes(dice.getrandbits(8) for _ in range(length))):
                try:
                    message = CATALOGUE.decode(bytes([number]) + body)
                except WireError:
                    continue
                assert CATALOGUE.encode(message) == bytes([number]) + body
                decoded += 1
    assert decoded > 0       # the bodyless kinds, and zeros that read as a field's smallest values


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_any_bytes_decode_or_are_refused(payload):
    try:
        CATALOGUE.decode(payload)
    except WireError:
        pass


@pytest.mark.parametrize("message", [
    messages.Sit("name", 9), messages.Hello("1", "x"), Steady(0, 1), Take(0, "x" * 33), TurnFloor(0, math.inf),
    Take(0, "c", (1.0, 2.0)), ChooseColour(0, "purple"), messages.Enter("\ud800"), messages.Table(b"x" * 8193),
    messages.Refused("rules", "x", "{}" * 600),
], ids=repr)
def test_a_message_that_breaks_its_own_bounds_is_not_sent(message):
    with pytest.raises(WireError):
        CATALOGUE.encode(message)


def test_a_kind_outside_the_catalogue_is_not_sent_and_a_field_the_wire_cannot_carry_is_found_at_once():
    @dataclass(frozen=True)
    class Stranger:
        things: list

    with pytest.raises(WireError):
        CATALOGUE.encode(Stranger([]))
    with pytest.raises(TypeError, match="does not carry"):
        Catalogue((Stranger,))


def test_inflate_gives_back_what_fits_and_refuses_a_bomb():
    data = b"villa " * 1000
    assert inflate(zlib.compress(data), len(data)) == data
    bomb = zlib.compress(bytes(50_000_000), 9)      # 50 MB of zeros in about 50 kB
    assert len(bomb) < 100_000
    with pytest.raises(WireError, match="beyond"):
        inflate(bomb, 1_000_000)
    with pytest.raises(WireError, match="beyond"):
        inflate(zlib.compress(data), len(data) - 1)


@pytest.mark.parametrize("data", [b"", b"not zlib at all", zlib.compress(b"x" * 100)[:-3],
                                  zlib.compress(b"x") + b"more"], ids=["empty", "garbage", "cut", "trailing"])
def test_inflate_refuses_what_is_not_one_whole_zlib_stream(data):
    with pytest.raises(WireError):
        inflate(data, 10_000)
