"""Why the hand cannot do what was asked: a stable code for each refusal, for the screen to
word in its own language, with the values it needs as plain data."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    COLLAPSED = "collapsed"                    # the villa has collapsed
    NOT_IN_VILLA = "not in villa"              # the column is not in the villa (values: column)
    NOT_FREE_TO_SET_DOWN = "not free to set down"   # the column is still under a floor
    NOT_FREE_TO_TAKE_OUT = "not free to take out"   # the column is still under a floor
    NO_FLOOR_UNDER = "no floor under"          # nothing to set the column down on
    ON_A_RIM = "on a rim"                      # it would come down on a column's rim (values: column, on_column)
    CANNOT_PUT_BACK = "cannot put back"        # the villa has collapsed: an abort cannot undo it
    ALL_FLOORS_LAID = "all floors laid"        # there is no floor left to lay
    FLOOR_ALREADY_LAID = "floor already laid"  # (values: level, colour)
    NO_COLUMN_UNDER = "no column under"        # nothing under the floor to lower it onto


class PlacementError(ValueError):
    """The column or floor cannot be set down (or taken) here.

    `code` says why (a `Refusal`), `values` holds what the words need (plain data); the screen
    words it (`villa.presentation.words`), and `str()` of it is the code and its values, for logs.
    """

    def __init__(self, code: Refusal, **values: Any) -> None:
        super().__init__(code.value)
        self.code = code
        self.values = values

    def __str__(self) -> str:
        """'not in villa (column=red-hex)'."""
        details = ", ".join(f"{k}={v}" for k, v in self.values.items())
        return f"{self.code.value} ({details})" if details else self.code.value
