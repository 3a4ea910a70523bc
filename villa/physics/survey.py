"""Facts read off the villa's poses: what stands on what.

Everything is judged from where the pieces are, not from Bullet's contact cache, so the
answers are the same for a villa just built, one settled, and one restored from a
snapshot. A column stands on a surface when its foot lies within `TOUCH` of that
surface's plane and overlaps its outline; it carries a floor when its top does the same
against the floor's underside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from panda3d.core import Point3

from villa.physics import geometry
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, column_spec
from villa.rules.facts import ColumnPlaced, FloorLaid, VillaSurvey
from villa.rules.pieces import ALL_COLUMNS, floor_id

TOUCH = 0.25            # cm: how near a foot must be to a surface to stand on it
UPRIGHT_DEG = 20.0      # a column leaning further does not stand


@dataclass(frozen=True)
class Standing:
    level: int
    on_column: str | None = None


def _end(villa, column: str, sign: int) -> Point3:
    """World point at the centre of a column's foot (sign -1) or top (+1)."""
    return villa.nodes[column].getPos() + villa.axis(column) * (sign * COLUMN_HEIGHT / 2)


def _floor_local(villa, level: int, point: Point3) -> Point3:
    return villa.nodes[floor_id(level)].getRelativePoint(villa.root, point)


def _laid(villa) -> list[int]:
    return [lv for lv in villa.floor_levels if floor_id(lv) not in villa.in_hand]


def standing(villa, column: str, exclude: frozenset[str] = frozenset()) -> Standing | None:
    """Where a column stands: the level (and the column under it, if stacked), or None if it does not."""
    if villa.tilt_deg(column) > UPRIGHT_DEG:
        return None
    r = column_spec(column).radius
    foot = _end(villa, column, -1)
    for level in sorted(_laid(villa), reverse=True):
        local = _floor_local(villa, level, foot)
        spec = FLOORS[level]
        if abs(local.z - spec.thickness / 2) < TOUCH and spec.meets(local.x, local.y, r):
            return Standing(level)
    for other in villa.columns:
        if other in (column, *exclude) or other in villa.in_hand:
            continue
        top = _end(villa, other, +1)
        if abs(foot.z - top.z) < TOUCH and math.hypot(foot.x - top.x, foot.y - top.y) < r + column_spec(other).radius:
            below = standing(villa, other, exclude | {column})
            return Standing(below.level, other) if below else None
    if abs(foot.z - BASE.top_z) < TOUCH and math.hypot(foot.x, foot.y) < BASE.radius + r:
        return Standing(0)
    return None


def carries(villa, column: str, level: int) -> bool:
    """Does the column's top touch the underside of the floor forming `level`?"""
    if villa.tilt_deg(column) > UPRIGHT_DEG:
        return False
    local = _floor_local(villa, level, _end(villa, column, +1))
    spec = FLOORS[level]
    r = column_spec(column).radius
    return abs(local.z + spec.thickness / 2) < TOUCH and spec.meets(local.x, local.y, r)


def footprint_inside(villa, column: str, level: int) -> bool:
    """Does the column's whole foot lie on the surface forming `level` (regulation 3)?"""
    spec = column_spec(column)
    np = villa.nodes[column]
    foot = _end(villa, column, -1)
    yaw = np.getH()
    world_foot = geometry.transform(spec.footprint(), foot.x, foot.y, yaw)
    if level == 0:
        return all(math.hypot(x, y) <= BASE.site_radius for x, y in world_foot)
    floor = villa.nodes[floor_id(level)]
    local = [floor.getRelativePoint(villa.root, Point3(x, y, foot.z)) for x, y in world_foot]
    return geometry.polygon_inside([(p.x, p.y) for p in local], FLOORS[level].outline)


def floor_supports(villa, level: int) -> frozenset[str]:
    """The columns carrying the floor forming `level`."""
    return frozenset(c for c in villa.columns if c not in villa.in_hand and carries(villa, c, level))


def inside_base(villa, level: int) -> bool:
    """Seen from above, does the floor's outline lie wholly within the base plate?"""
    floor = villa.nodes[floor_id(level)]
    for x, y in FLOORS[level].outline:
        p = villa.root.getRelativePoint(floor, Point3(x, y, 0))
        if math.hypot(p.x, p.y) > BASE.radius:
            return False
    return True


def survey(villa) -> VillaSurvey:
    """Where every column stands, what carries each floor, and the top level."""
    levels: dict[str, int | None] = {c.id: None for c in ALL_COLUMNS}
    for column in villa.columns:
        if column not in villa.in_hand:
            where = standing(villa, column)
            levels[column] = where.level if where else None
    supports = {lv: floor_supports(villa, lv) for lv in _laid(villa)}
    return VillaSurvey(levels, supports, villa.top_level)


def column_placed(villa, column: str) -> ColumnPlaced:
    """The fact about a column just set down (read once the villa has settled).

    A column that stands nowhere (it fell over) is reported at level -1; the collapse
    watch will have reported its fall.
    """
    where = standing(villa, column)
    if where is None:
        return ColumnPlaced(column, -1, False, None)
    return ColumnPlaced(column, where.level, footprint_inside(villa, column, where.level), where.on_column)


def floor_laid(villa, level: int) -> FloorLaid:
    return FloorLaid(level, floor_supports(villa, level), inside_base(villa, level))
