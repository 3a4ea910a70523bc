"""Watching for the collapse: the first piece to give way, and when.

Thresholds, and why:
- a floor tilted more than `FLOOR_TILT_DEG` from level has lost a support: a floor
  dragged by a pulled column tilts well under a degree;
- a floor more than `FLOOR_DROP` below where it last rested has fallen (sinking under
  load is below a millimetre);
- a column leaning more than `COLUMN_TILT_DEG` has toppled (an upright column on a
  floor tilted that far would already have given the floor away);
- any piece whose lowest point is below the base plate's top by `TABLE_DEPTH` has
  left the base plate for the table.
Pieces in hand (a pulled column, a floor being laid) are not watched.
"""

from __future__ import annotations

import math

from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, column_spec
from villa.rules.facts import Collapse, CollapseCause

FLOOR_TILT_DEG = 10.0
FLOOR_DROP = 1.5
COLUMN_TILT_DEG = 25.0
TABLE_DEPTH = 0.5


class CollapseWatch:
    def __init__(self, villa) -> None:
        self.villa = villa
        self.collapse: Collapse | None = None
        self.rest_z: dict[int, float] = {}

    def reset(self) -> None:
        """Take the floors' present heights as where they rest."""
        self.rest_z = {lv: self.villa.nodes[f"floor-{lv}"].getZ() for lv in self.villa.floor_levels}

    def rest_floor(self, level: int) -> None:
        self.rest_z[level] = self.villa.nodes[f"floor-{level}"].getZ()

    def check(self) -> Collapse | None:
        if self.collapse is None:
            found = self._first_failure()
            if found:
                cause, piece = found
                self.collapse = Collapse(round(self.villa.time, 6), cause, piece)
        return self.collapse

    def _first_failure(self) -> tuple[CollapseCause, str] | None:
        villa = self.villa
        # lowest floor first: when several give way together, the lowest went first
        for level in villa.floor_levels:
            piece = f"floor-{level}"
            if piece in villa.in_hand:
                continue
            tilt = villa.tilt_deg(piece)
            z = villa.nodes[piece].getZ()
            if tilt > FLOOR_TILT_DEG:
                return CollapseCause.FLOOR_TILTED, piece
            if z < self.rest_z.get(level, z) - FLOOR_DROP:
                return CollapseCause.FLOOR_DROPPED, piece
            low = z - FLOORS[level].radius * math.sin(math.radians(tilt)) - FLOORS[level].thickness / 2
            if low < BASE.top_z - TABLE_DEPTH:
                return CollapseCause.PIECE_ON_TABLE, piece
        for column in villa.columns:
            if column in villa.in_hand:
                continue
            tilt = villa.tilt_deg(column)
            if tilt > COLUMN_TILT_DEG:
                return CollapseCause.COLUMN_TOPPLED, column
            t = math.radians(tilt)
            low = villa.nodes[column].getZ() - COLUMN_HEIGHT / 2 * math.cos(t) - column_spec(column).radius * math.sin(t)
            if low < BASE.top_z - TABLE_DEPTH:
                return CollapseCause.PIECE_ON_TABLE, column
        return None
