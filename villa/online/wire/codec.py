"""The codec: a message as bytes and back, read from its dataclass's field types, so a new message needs no code.

    catalogue = Catalogue(messages.KINDS)
    payload = catalogue.encode(Take(0, "red-thin-2", None))    # 1 byte: the kind's number; then each field
    message = catalogue.decode(payload)                          # or WireError: the payload is refused whole

A field's type says how it is written: `bool` 1 byte (0 or 1), `int` 8 bytes signed little-endian, `float`
8 bytes IEEE, `str` a u16 length and UTF-8, `bytes` a u32 length and the bytes, an Enum of words as its word,
a fixed tuple as its items in order, `X | None` a flag byte (0: None, 1: an X follows). `Bounds` (through
`typing.Annotated`) hold numbers to a range and text and bytes to a length; text with no bounds is held to
`TEXT` characters, bytes to a frame's size. Decoding trusts nothing: whatever is wrong with a payload (an
unknown kind, a field cut short, bytes left over, text that is not UTF-8, a number out of its bounds, a flag
neither 0 nor 1) raises `WireError` saying what, and nothing else escapes. Encoding a value that breaks its
own field's type or bounds is the program's mistake, and raises `WireError` too.

`inflate` undoes zlib up to a limit: a hostile server's few kilobytes must not become gigabytes in a window.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import struct
import types
import typing
import zlib
from enum import Enum
from typing import Annotated, Any, Callable, NamedTuple, Union

from villa.match.requests import Bounds
from villa.online.wire.frames import MAX_FRAME, WireError

TEXT = 1024                # characters of a `str` field without bounds

_I64 = struct.Struct("<q")
_F64 = struct.Struct("<d")
_U16 = struct.Struct("<H")
_U32 = struct.Struct("<I")


class _Field(NamedTuple):
    """How one field's value is written (`put` appends it) and read (`take` returns it and where it ends)."""

    put: Callable[[bytearray, Any], None]
    take: Callable[[bytes, int], tuple[Any, int]]


def _end(data: bytes, at: int, size: int) -> int:
    end = at + size
    if end > len(data):
        raise WireError("cut short")
    return end


def _bool() -> _Field:
    def put(out: bytearray, value: Any) -> None:
        if not isinstance(value, bool):
            raise WireError(f"{value!r} is not a bool")
        out.append(1 if value else 0)

    def take(data: bytes, at: int) -> tuple[Any, int]:
        if at >= len(data):
            raise WireError("cut short")
        byte = data[at]
        if byte > 1:
            raise WireError(f"bool {byte}")
        return byte == 1, at + 1
    return _Field(put, take)


def _int(bounds: Bounds | None) -> _Field:
    low, high = (bounds.low, bounds.high) if bounds else (-2**63, 2**63 - 1)

    def put(out: bytearray, value: Any) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise WireError(f"{value!r} is not an int")
        if not low <= value <= high:
            raise WireError(f"{value} beyond {low}..{high}")
        out += _I64.pack(value)

    def take(data: bytes, at: int) -> tuple[Any, int]:
        end = _end(data, at, 8)
        (value,) = _I64.unpack_from(data, at)
        if not low <= value <= high:
            raise WireError(f"{value} beyond {low}..{high}")
        return value, end
    return _Field(put, take)


def _float(bounds: Bounds | None) -> _Field:
    finite = bounds is not None and bounds.finite

    def check(value: float) -> None:
        if finite and not math.isfinite(value):
            raise WireError(f"{value} is not finite")
        if bounds is not None and not bounds.low <= value <= bounds.high:
            raise WireError(f"{value} beyond {bounds.low}..{bounds.high}")

    def put(out: bytearray, value: Any) -> None:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise WireError(f"{value!r} is not a number")
        try:
            value = float(value)
        except OverflowError:
            raise WireError("number too large") from None
        check(value)
        out += _F64.pack(value)

    def take(data: bytes, at: int) -> tuple[Any, int]:
        end = _end(data, at, 8)
        (value,) = _F64.unpack_from(data, at)
        check(value)
        return value, end
    return _Field(put, take)


def _put_text(out: bytearray, text: str, most: int) -> None:
    if len(text) > most:
        raise WireError(f"text of {len(text)} characters (at most {most})")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise WireError("text not UTF-8") from None
    if len(data) > 0xFFFF:
        raise WireError(f"text of {len(data)} bytes")
    out += _U16.pack(len(data))
    out += data


def _take_text(data: bytes, at: int, most: int) -> tuple[str, int]:
    start = _end(data, at, 2)
    (size,) = _U16.unpack_from(data, at)
    if size > 4 * most:                      # a character is at most 4 bytes of UTF-8
        raise WireError(f"text of {size} bytes (at most {most} characters)")
    end = _end(data, start, size)
    try:
        text = data[start:end].decode("utf-8")
    except UnicodeDecodeError:
        raise WireError("text not UTF-8") from None
    if len(text) > most:
        raise WireError(f"text of {len(text)} characters (at most {most})")
    return text, end


def _str(bounds: Bounds | None) -> _Field:
    most = int(bounds.high) if bounds else TEXT

    def put(out: bytearray, value: Any) -> None:
        if not isinstance(value, str):
            raise WireError(f"{value!r} is not text")
        _put_text(out, value, most)
    return _Field(put, lambda data, at: _take_text(data, at, most))


def _bytes(bounds: Bounds | None) -> _Field:
    most = int(bounds.high) if bounds else MAX_FRAME

    def put(out: bytearray, value: Any) -> None:
        if not isinstance(value, (bytes, bytearray)):
            raise WireError(f"{type(value).__name__} is not bytes")
        if len(value) > most:
            raise WireError(f"{len(value)} bytes (at most {most})")
        out += _U32.pack(len(value))
        out += value

    def take(data: bytes, at: int) -> tuple[Any, int]:
        start = _end(data, at, 4)
        (size,) = _U32.unpack_from(data, at)
        if size > most:
            raise WireError(f"{size} bytes (at most {most})")
        end = _end(data, start, size)
        return data[start:end], end
    return _Field(put, take)


def _words(enum: type[Enum]) -> _Field:
    members = {member.value: member for member in enum}
    if not all(isinstance(word, str) for word in members):
        raise TypeError(f"the wire carries an Enum of words only, not {enum.__name__}")
    most = max(len(word) for word in members)

    def put(out: bytearray, value: Any) -> None:
        try:
            member = enum(value)
        except ValueError:
            raise WireError(f"{value!r} is not a {enum.__name__}") from None
        _put_text(out, member.value, most)

    def take(data: bytes, at: int) -> tuple[Any, int]:
        word, end = _take_text(data, at, most)
        member = members.get(word)
        if member is None:
            raise WireError(f"{word!r} is not a {enum.__name__}")
        return member, end
    return _Field(put, take)


def _tuple(items: list[_Field]) -> _Field:
    def put(out: bytearray, value: Any) -> None:
        if not isinstance(value, (tuple, list)) or len(value) != len(items):
            raise WireError(f"{value!r} is not {len(items)} items")
        for item, part in zip(items, value):
            item.put(out, part)

    def take(data: bytes, at: int) -> tuple[Any, int]:
        parts = []
        for item in items:
            part, at = item.take(data, at)
            parts.append(part)
        return tuple(parts), at
    return _Field(put, take)


def _optional(inner: _Field) -> _Field:
    def put(out: bytearray, value: Any) -> None:
        if value is None:
            out.append(0)
        else:
            out.append(1)
            inner.put(out, value)

    def take(data: bytes, at: int) -> tuple[Any, int]:
        if at >= len(data):
            raise WireError("cut short")
        flag = data[at]
        if flag == 0:
            return None, at + 1
        if flag == 1:
            return inner.take(data, at + 1)
        raise WireError(f"flag {flag}")
    return _Field(put, take)


def _field(hint: Any) -> _Field:
    """How a field of this type (as `typing.get_type_hints` gives it, with its `Annotated` bounds) is carried."""
    bounds = None
    if typing.get_origin(hint) is Annotated:
        hint, *extras = typing.get_args(hint)
        bounds = next((extra for extra in extras if isinstance(extra, Bounds)), None)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
        return _optional(_field(args[0] if args[1] is type(None) else args[1]))
    if origin is tuple and args and Ellipsis not in args:
        return _tuple([_field(arg) for arg in args])
    if hint is bool:
        return _bool()
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _words(hint)
    carriers = {int: _int, float: _float, str: _str, bytes: _bytes}
    if hint in carriers:
        return carriers[hint](bounds)
    raise TypeError(f"the wire does not carry {hint!r}")


@functools.cache
def _layout(kind: type) -> tuple[tuple[str, _Field], ...]:
    """A message class's fields, in order, each with how it is carried (made once per class)."""
    hints = typing.get_type_hints(kind, include_extras=True)
    return tuple((field.name, _field(hints[field.name])) for field in dataclasses.fields(kind))


class Catalogue:
    """The messages a wire carries, numbered by their place in `kinds` (at most 256)."""

    def __init__(self, kinds: typing.Sequence[type]) -> None:
        if len(kinds) > 256:
            raise ValueError(f"{len(kinds)} kinds of message: a kind's number is one byte")
        self.kinds = tuple(kinds)
        self._numbers = {kind: number for number, kind in enumerate(self.kinds)}
        self._layouts = [_layout(kind) for kind in self.kinds]

    def encode(self, message: Any) -> bytes:
        """The message's payload: its kind's number, then its fields."""
        number = self._numbers.get(type(message))
        if number is None:
            raise WireError(f"{type(message).__name__} is not in the catalogue")
        out = bytearray((number,))
        for name, field in self._layouts[number]:
            try:
                field.put(out, getattr(message, name))
            except WireError as error:
                raise WireError(f"{type(message).__name__}.{name}: {error.why}") from None
        return bytes(out)

    def decode(self, payload: bytes) -> Any:
        """The message a payload holds; `WireError` if it is anything but exactly one well-formed message."""
        if not payload:
            raise WireError("empty")
        number = payload[0]
        if number >= len(self.kinds):
            raise WireError(f"unknown kind {number}")
        kind = self.kinds[number]
        values = []
        at = 1
        for name, field in self._layouts[number]:
            try:
                value, at = field.take(payload, at)
            except WireError as error:
                raise WireError(f"{kind.__name__}.{name}: {error.why}") from None
            values.append(value)
        if at != len(payload):
            raise WireError(f"{kind.__name__}: {len(payload) - at} bytes left over")
        return kind(*values)


def inflate(data: bytes, limit: int) -> bytes:
    """`data` un-zlib'd, refused (`WireError`) if it is not a whole zlib stream or would inflate beyond `limit`."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit + 1)
    except zlib.error:
        raise WireError("not zlib") from None
    if len(out) > limit:
        raise WireError(f"inflates beyond {limit} bytes")
    if not inflater.eof or inflater.unused_data:
        raise WireError("not one whole zlib stream")
    return out
