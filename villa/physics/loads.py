"""How the villa's weight comes down through its pieces: what rests on what, and the load
at each contact, read off the poses (statics).

Read off the poses alone, never Bullet's contact cache, so a villa restored from a
snapshot finds exactly the loads of the live one. A floor on more than three columns is
statically indeterminate: it is taken as a rigid plate on equally stiff columns, whose
loads then vary linearly across it (the least-squares answer); a column that would have
to pull the floor down is left out. The contacts are judged as in `survey`: a foot within
`TOUCH` of a surface and overlapping it, a top within `TOUCH` of a floor's underside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from panda3d.core import Point3

from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, GRAVITY, column_spec
from villa.physics.survey import TOUCH, UPRIGHT_DEG
from villa.rules.pieces import floor_id, level_of_floor


@dataclass(frozen=True)
class Support:
    """A column carrying a floor: where its top touches (world x, y) and what it bears (kg·cm/s²)."""

    column: str
    x: float
    y: float
    load: float


@dataclass(frozen=True)
class Resting:
    """What rests on what, and the loads: the villa's statics at its present poses."""

    stands_on: dict[str, str]               # column -> "base", "floor-N" or the column under it
    foot_loads: dict[str, float]            # column -> what its foot bears: its weight and all above
    supports: dict[str, tuple[Support, ...]]  # floor -> the columns carrying it, by id
    loads: dict[str, tuple[float, float, float]]  # floor -> its load (all it bears) and where it acts (x, y)


def resting(villa) -> Resting:
    """The statics at the present poses: every floor not in hand, every standing column
    (one in hand too: while it is drawn out from under its floor, it still carries)."""
    floors = [floor_id(lv) for lv in sorted(villa.floor_levels, reverse=True) if floor_id(lv) not in villa.in_hand]
    ends = {}   # column -> (foot, top, radius)
    for column in sorted(villa.columns):
        if villa.tilt_deg(column) > UPRIGHT_DEG:
            continue
        np, axis = villa.nodes[column], villa.axis(column)
        ends[column] = (np.getPos() - axis * (COLUMN_HEIGHT / 2), np.getPos() + axis * (COLUMN_HEIGHT / 2),
                        column_spec(column).radius)
    stands_on: dict[str, str] = {}
    carried: dict[str, list[str]] = {f: [] for f in floors}
    for column, (foot, top, r) in ends.items():
        under = next((f for f in floors if _touches(villa, f, foot, r, +1)), None) or _column_under(foot, r, ends, column)
        if under is None and abs(foot.z - BASE.top_z) < TOUCH and math.hypot(foot.x, foot.y) < BASE.radius + r:
            under = "base"
        if under is not None:
            stands_on[column] = under
        for floor in floors:
            if _touches(villa, floor, top, r, -1):
                carried[floor].append(column)
    # the weight comes down from the top: each floor's load is shared among its columns,
    # each column passes on its share and its own weight to what it stands on
    weight = {p: villa.body(p).getMass() * GRAVITY for p in (*floors, *ends)}
    top_load = {c: 0.0 for c in ends}
    foot_loads: dict[str, float] = {}
    supports: dict[str, tuple[Support, ...]] = {}
    floor_loads: dict[str, tuple[float, float, float]] = {}

    def foot_load(column: str) -> float:
        if column not in foot_loads:
            on_top = sum(foot_load(c) for c, under in stands_on.items() if under == column)
            foot_loads[column] = weight[column] + top_load[column] + on_top
        return foot_loads[column]

    for floor in floors:
        np = villa.nodes[floor]
        load, mx, my = weight[floor], weight[floor] * np.getX(), weight[floor] * np.getY()
        for column, under in stands_on.items():
            if under == floor:
                w, foot = foot_load(column), ends[column][0]
                load, mx, my = load + w, mx + w * foot.x, my + w * foot.y
        floor_loads[floor] = (load, mx / load, my / load)
        columns = sorted(carried[floor])
        spots = [(ends[c][1].x, ends[c][1].y) for c in columns]
        shares = share_load(load, mx / load, my / load, spots)
        supports[floor] = tuple(Support(c, x, y, n) for c, (x, y), n in zip(columns, spots, shares))
        for c, n in zip(columns, shares):
            top_load[c] += n
    for column in ends:
        foot_load(column)
    return Resting(stands_on, foot_loads, supports, floor_loads)


def _touches(villa, floor: str, point: Point3, r: float, side: int) -> bool:
    """Does a column end at `point` meet the floor's top (side +1) or underside (-1)?"""
    spec = FLOORS[level_of_floor(floor)]
    local = villa.nodes[floor].getRelativePoint(villa.root, point)
    return abs(local.z - side * spec.thickness / 2) < TOUCH and spec.meets(local.x, local.y, r)


def _column_under(foot: Point3, r: float, ends: dict, column: str) -> str | None:
    for other, (_, top, ro) in ends.items():
        if other != column and abs(foot.z - top.z) < TOUCH and math.hypot(foot.x - top.x, foot.y - top.y) < r + ro:
            return other
    return None


def share_load(load: float, x: float, y: float, spots: list[tuple[float, float]]) -> list[float]:
    """How a rigid plate bearing `load` at (x, y) shares it among supports at `spots`.

    Equally stiff supports sink alike under a rigid plate, so their loads vary linearly
    across it: N = a + b·x + c·y, fixed by the balance of force and moments (least
    squares when more than three). A support that would have to pull is left out and the
    rest shared again.
    """
    active = list(range(len(spots)))
    while active:
        shares = _linear_shares(load, x, y, [spots[i] for i in active])
        worst = min(range(len(active)), key=lambda k: shares[k])
        if shares[worst] >= 0:
            out = [0.0] * len(spots)
            for k, i in enumerate(active):
                out[i] = shares[k]
            return out
        active.pop(worst)
    return [0.0] * len(spots)


def _linear_shares(load: float, x: float, y: float, spots) -> list[float]:
    n = len(spots)
    if n == 1:
        return [load]
    mx = sum(p[0] for p in spots) / n
    my = sum(p[1] for p in spots) / n
    dx, dy = [p[0] - mx for p in spots], [p[1] - my for p in spots]
    sxx, syy, sxy = sum(a * a for a in dx), sum(b * b for b in dy), sum(a * b for a, b in zip(dx, dy))
    det = sxx * syy - sxy * sxy
    # N_i = load/n + b·dx_i + c·dy_i; the moments about the supports' centroid fix b and c
    tx, ty = load * (x - mx), load * (y - my)
    if det > 1e-9 * (sxx + syy) ** 2:
        b = (tx * syy - ty * sxy) / det
        c = (ty * sxx - tx * sxy) / det
        return [load / n + b * a + c * d for a, d in zip(dx, dy)]
    # in a line (or at one spot): only the moment along the line can be balanced
    if sxx + syy < 1e-12:
        return [load / n] * n
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    ux, uy = math.cos(angle), math.sin(angle)
    along = [a * ux + d * uy for a, d in zip(dx, dy)]
    b = (tx * ux + ty * uy) / sum(s * s for s in along)
    return [load / n + b * s for s in along]
