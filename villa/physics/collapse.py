"""Watching for the collapse: the first piece to give way, and when.

Thresholds, and why:
- a floor tilted more than `FLOOR_TILT_DEG` from level has lost a support: a floor
  dragged by a pulled column tilts well under a degree;
- a floor more than `FLOOR_DROP` below where it last rested has fallen (sinking under
  load is below a millimetre);
- a column leaning more than `COLUMN_TILT_DEG` has toppled (an upright column on a
  floor tilted that far would already have given the floor away);
- any piece whose lowest point is below the base plate's top by `TABLE_DEPTH` has
  left the base plate for the table;
- a floor that comes to rest tilted more than `ASKEW_DEG` from where it last rested lies
  on something it was not laid on (`lies_askew`, asked when the villa is quiet): floors
  lie level on columns of one height, and sink under load by far less than that.
Pieces in hand (a pulled column, a floor being laid) are not watched.
"""

from __future__ import annotations

import math
import weakref

from panda3d.core import Vec3

from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, column_spec
from villa.rules.facts import Collapse, CollapseCause
from villa.rules.pieces import floor_id

FLOOR_TILT_DEG = 10.0
FLOOR_DROP = 1.5
COLUMN_TILT_DEG = 25.0
COS_COLUMN_TILT = math.cos(math.radians(COLUMN_TILT_DEG))
TABLE_DEPTH = 0.5
ASKEW_DEG = 1.0


class CollapseWatch:
    def __init__(self, villa) -> None:
        # a weak reference: the villa holds its watch, and a villa dropped must be freed at
        # once by its reference count (a world is megabytes), not when the cyclic collector runs
        self.villa = weakref.proxy(villa)
        self.collapse: Collapse | None = None
        self.rest_z: dict[int, float] = {}
        self.rest_axis: dict[int, Vec3] = {}
        self.floor_tilts: dict[str, float] = {}   # degrees from where each floor rested, at the last check

    def reset(self) -> None:
        """Take the floors' present poses as where they rest."""
        self.rest_z, self.rest_axis = {}, {}
        for level in self.villa.floor_levels:
            self.rest_floor(level)

    def rest_floor(self, level: int) -> None:
        self.rest_z[level] = self.villa.nodes[floor_id(level)].getZ()
        self.rest_axis[level] = self.villa.axis(floor_id(level))

    def tilt_from_rest(self, level: int) -> float:
        """How far (degrees) the floor forming `level` has turned from where it last rested."""
        axis, rest = self.villa.axis(floor_id(level)), self.rest_axis.get(level)
        if rest is None:
            return 0.0
        return math.degrees(math.acos(max(-1.0, min(1.0, axis.dot(rest)))))

    def check(self) -> Collapse | None:
        if self.collapse is None:
            found = self._first_failure()
            if found:
                self._call(*found)
        return self.collapse

    def lies_askew(self) -> Collapse | None:
        """A floor at rest tilted beyond `ASKEW_DEG` from where it rested has fallen onto
        something: the collapse (asked when every piece is still)."""
        if self.collapse is None:
            for level in self.villa.floor_levels:
                piece = floor_id(level)
                if piece not in self.villa.in_hand and self.tilt_from_rest(level) > ASKEW_DEG:
                    self._call(CollapseCause.FLOOR_TILTED, piece)
                    break
        return self.collapse

    def _call(self, cause: CollapseCause, piece: str) -> None:
        self.collapse = Collapse(round(self.villa.time, 6), cause, piece)

    def _first_failure(self) -> tuple[CollapseCause, str] | None:
        villa = self.villa
        self.floor_tilts = {}
        in_hand, lowest = villa.in_hand, BASE.top_z - TABLE_DEPTH
        # lowest floor first: when several give way together, the lowest went first
        for level in villa.floor_levels:
            piece = floor_id(level)
            if piece in in_hand:
                continue
            self.floor_tilts[piece] = self.tilt_from_rest(level)
            tilt = villa.tilt_deg(piece)
            z = villa.nodes[piece].getZ()
            if tilt > FLOOR_TILT_DEG:
                return CollapseCause.FLOOR_TILTED, piece
            if z < self.rest_z.get(level, z) - FLOOR_DROP:
                return CollapseCause.FLOOR_DROPPED, piece
            low = z - FLOORS[level].radius * math.sin(math.radians(tilt)) - FLOORS[level].thickness / 2
            if low < lowest:
                return CollapseCause.PIECE_ON_TABLE, piece
        # every column every 1/60 s: the cosine of its lean straight from its quaternion (the z
        # of its axis, 1 - 2(x² + y²)), no arccosine
        for column in villa.columns:
            if column in in_hand:
                continue
            np = villa.nodes[column]
            _, qx, qy, _ = np.getQuat()
            cos_t = 1.0 - 2.0 * (qx * qx + qy * qy)
            if cos_t < COS_COLUMN_TILT:
                return CollapseCause.COLUMN_TOPPLED, column
            sin_t = math.sqrt(max(0.0, 1.0 - cos_t * cos_t))
            if np.getZ() - COLUMN_HEIGHT / 2 * cos_t - column_spec(column).radius * sin_t < lowest:
                return CollapseCause.PIECE_ON_TABLE, column
        return None
