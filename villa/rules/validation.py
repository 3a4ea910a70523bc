"""Checking an action's fields before any rule is asked: each must have exactly its declared
type (a colour is a `Colour`, not the text "blue"; a count is an int, not a bool), so that
nothing malformed reaches the rules or the log. A field that fails is refused as
"malformed-action", naming the action, the field, the value and what was expected.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .actions import (Abort, AssignColoursAtRandom, Challenge, ChooseColour, Decline, ForgoPenalty, GiveUpFloor,
                      Object, Pass, ProposeFloor, SealRoll, SetUpHigher, TakeColumn)
from .errors import Rule
from .facts import Collapse, CollapseCause, ColumnPlaced, ColumnTakenOut, FloorLaid
from .pieces import Colour


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _yes_no(v: Any) -> bool:
    return v is True or v is False


def _text(v: Any) -> bool:
    return isinstance(v, str)


def _texts(v: Any) -> bool:
    return isinstance(v, frozenset) and all(isinstance(c, str) for c in v)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _pairs(v: Any, first: Callable[[Any], bool], second: Callable[[Any], bool]) -> bool:
    return isinstance(v, tuple) and all(isinstance(p, tuple) and len(p) == 2 and first(p[0]) and second(p[1])
                                        for p in v)


def _column_levels(v: Any) -> bool:
    return _pairs(v, _text, _whole)


def _floor_supports(v: Any) -> bool:
    return _pairs(v, _whole, lambda cs: isinstance(cs, tuple) and all(isinstance(c, str) for c in cs))


# For each action: its fields, how each is checked, and what it must be (named as its type).
Check = tuple[str, Callable[[Any], bool], str]
FIELDS: dict[type, tuple[Check, ...]] = {
    SealRoll: (("colour", lambda v: v is None or isinstance(v, Colour), "Colour or None"),),
    ChooseColour: (("colour", lambda v: isinstance(v, Colour), "Colour"),),
    AssignColoursAtRandom: (("seed", _whole, "int"),),
    SetUpHigher: (("levels", _column_levels, "tuple of (str, int) pairs"),
                  ("floor_supports", _floor_supports, "tuple of (int, tuple of str) pairs")),
    TakeColumn: (("column", _text, "str"),),
    Abort: (), ProposeFloor: (), Object: (), Challenge: (), Decline: (), ForgoPenalty: (), GiveUpFloor: (), Pass: (),
    ColumnPlaced: (("column", _text, "str"), ("level", _whole, "int"), ("footprint_inside", _yes_no, "bool"),
                   ("on_column", lambda v: v is None or isinstance(v, str), "str or None")),
    FloorLaid: (("level", _whole, "int"), ("resting_on", _texts, "frozenset of str"),
                ("inside_base", _yes_no, "bool")),
    ColumnTakenOut: (("column", _text, "str"),),
    Collapse: (("at_s", _number, "finite float"), ("cause", lambda v: isinstance(v, CollapseCause), "CollapseCause"),
               ("piece", _text, "str")),
}


def check_fields(action: Any) -> None:
    """Raise "malformed-action" for the first field of `action` that is not what it must be."""
    for name, fits, expected in FIELDS.get(type(action), ()):
        value = getattr(action, name, None)
        if not fits(value):
            raise Rule.MALFORMED_ACTION.refuse(action=type(action).__name__, field=name, value=_shown(value),
                                               expected=expected)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
