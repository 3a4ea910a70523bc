"""The game's pieces as the rules see them: colours, column kinds and their points, floors and levels.

Levels count from the ground: level 0 is the base plate, level 1 the blue floor, up to
level 5, the red floor. A column "on level n" stands on that surface.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Colour(str, Enum):
    """The four player colours (also the faces of the Master Builder Seal)."""

    BLUE = "blue"
    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"


class ColumnKind(str, Enum):
    THIN = "thin"    # thin round column, 3 per colour
    HEX = "hex"      # hexagonal column, 1 per colour
    THICK = "thick"  # thick round column, 1 per colour

    @property
    def points(self) -> int:
        return {"thin": 1, "hex": 2, "thick": 3}[self.value]


# The floors in building order, largest first; floor i (1-based) is level i.
FLOOR_COLOURS: tuple[str, ...] = ("blue", "green", "yellow", "orange", "red")
TOP_FLOOR_LEVEL = len(FLOOR_COLOURS)  # the red floor: the only level where columns may stack
GREEN_LEVEL = 2                       # the contest for the seal (and the family's points) starts here


def floor_id(level: int) -> str:
    """The piece id of the floor that forms `level`: "floor-3"."""
    return f"floor-{level}"


def level_of_floor(piece: str) -> int | None:
    """The level a floor's piece id forms; None for any other piece ("base", a column id)."""
    return int(piece[len("floor-"):]) if piece.startswith("floor-") else None


def floor_colour(level: int) -> str:
    """The colour of the floor that forms `level` (1..5)."""
    if not 1 <= level <= TOP_FLOOR_LEVEL:
        raise ValueError(f"no floor forms level {level}")
    return FLOOR_COLOURS[level - 1]


@dataclass(frozen=True, order=True)
class Column:
    colour: Colour
    kind: ColumnKind
    number: int = 1  # 1..3 for thin columns, 1 for the others

    @property
    def id(self) -> str:
        if self.kind is ColumnKind.THIN:
            return f"{self.colour.value}-thin-{self.number}"
        return f"{self.colour.value}-{self.kind.value}"

    @property
    def points(self) -> int:
        return self.kind.points


def _all_columns() -> tuple[Column, ...]:
    columns = []
    for colour in Colour:
        columns += [Column(colour, ColumnKind.THIN, n) for n in (1, 2, 3)]
        columns += [Column(colour, ColumnKind.HEX), Column(colour, ColumnKind.THICK)]
    return tuple(columns)


ALL_COLUMNS: tuple[Column, ...] = _all_columns()
COLUMNS_BY_ID: dict[str, Column] = {c.id: c for c in ALL_COLUMNS}


def column(column_id: str) -> Column:
    """The column with this id, e.g. 'blue-thin-2', 'red-hex', 'green-thick'."""
    try:
        return COLUMNS_BY_ID[column_id]
    except KeyError:
        raise ValueError(f"no column is called {column_id!r}") from None
