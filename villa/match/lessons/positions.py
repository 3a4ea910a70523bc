"""The lessons' villas, made from the presets: a column moved, some left out of the game."""

from __future__ import annotations

import math
from dataclasses import replace

from villa.physics import layouts
from villa.physics.dimensions import ColumnSpot, FloorSpot, Layout


def moved(layout: Layout, column: str, x: float, y: float) -> Layout:
    """`layout` with `column` standing at (x, y) on the base plate instead."""
    return replace(layout, columns=tuple(ColumnSpot(c.column, 0, x, y) if c.column == column else c
                                         for c in layout.columns))


def raised(layout: Layout, spots: dict[str, tuple[int, float, float]], floor: FloorSpot | None,
           name: str) -> Layout:
    """`layout` with columns moved (column -> level, x, y) and the next floor laid on them (None: not yet)."""
    columns = tuple(ColumnSpot(c.column, *spots[c.column]) if c.column in spots else c for c in layout.columns)
    return Layout(name, columns, (*layout.floors, *([floor] if floor else [])))


def without(layout: Layout, *columns: str) -> Layout:
    """`layout` with `columns` out of the game (a villa taken up as built higher)."""
    return replace(layout, columns=tuple(c for c in layout.columns if c.column not in columns))


FREE_CORNERS = layouts.preset("free corners")
RINGS = layouts.preset("rings")
# three players: a second neutral (red) column stands free, so that a challenge can be proved
TWO_FREE_REDS = moved(FREE_CORNERS, "red-thin-2", 5.5, -8.6)


def _round_the_middle(angles: dict[str, float]) -> dict[str, tuple[int, float, float]]:
    """Columns on the blue floor, on an ellipse about its middle at these angles (degrees)."""
    return {column: (1, round(3.2 * math.cos(math.radians(a)), 3), round(0.6 + 1.8 * math.sin(math.radians(a)), 3))
            for column, a in angles.items()}


_EDGE_HEX = {"yellow-hex": (1, -5.5, -2.0)}   # on the blue floor, under the green one's edge: drawn out sideways
# four thin columns up on the blue floor, in a ring about its middle
FOUR_UP = raised(FREE_CORNERS, _round_the_middle({"blue-thin-1": 0, "red-thin-1": 90, "yellow-thin-1": 180,
                                                  "green-thin-1": 270}), None, "four up")
# two floors: the green one on those four and the yellow hexagonal column
GREEN_ON_TOP = raised(FOUR_UP, _EDGE_HEX, FloorSpot(2, 0.0, 0.6), "green on top")
# the green floor on three thin columns and the hexagonal one: pull the thin green one fast and it falls
GREEN_ON_THREE = raised(FREE_CORNERS, {**_round_the_middle({"red-thin-1": 90, "yellow-thin-1": 210,
                                                            "green-thin-1": 330}), **_EDGE_HEX},
                        FloorSpot(2, 0.0, 0.6), "green on three")
