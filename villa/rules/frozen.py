"""A read-only mapping, so that a game state is immutable all the way down.

`FrozenMap` copies what it is given and offers no way to change it: a state handed on to
the next one can never be changed behind an earlier state's back. It is hashable (when
its values are) and equal to any mapping with the same items, a plain dict included.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    __slots__ = ("_items", "_hash")

    def __init__(self, items: Mapping[K, V] | Any = ()) -> None:
        object.__setattr__(self, "_items", MappingProxyType(dict(items)))
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K, default: Any = None) -> Any:
        return self._items.get(key, default)

    # The read-only views of the items themselves: faster than the generic ones, as safe.
    def keys(self):
        return self._items.keys()

    def values(self):
        return self._items.values()

    def items(self):
        return self._items.items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(frozenset(self._items.items())))
        return self._hash

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a FrozenMap cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a FrozenMap cannot be changed")

    def __reduce__(self):
        return FrozenMap, (dict(self._items),)

    def __repr__(self) -> str:
        return f"FrozenMap({dict(self._items)!r})"
