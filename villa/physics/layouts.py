"""Layouts of the villa: the presets, a random valid layout from a seed, and validation.

A layout (see `villa.physics.dimensions.Layout`) lists where columns stand and where
floors lie. `validate_layout` checks one arranged by hand and raises `LayoutError`
naming every problem in words a player understands; `setup=True` adds the rules of the
game's set-up (all twenty columns on the building site, the blue floor on them, not
beyond the base plate).
"""

from __future__ import annotations

import functools

import math
import random
from dataclasses import dataclass
from enum import StrEnum

from villa.physics import geometry
from villa.physics.dimensions import (BASE, COLUMN_DENSITY, FLOORS, ColumnSpot, FloorSpot, Layout,
                                      column_spec)
from villa.rules.pieces import ALL_COLUMNS, COLUMNS_BY_ID

COLUMN_GAP = 0.2          # least clearance between two columns on one level
STATICS_MARGIN = 0.3      # a floor's load must lie this far inside its supports
RANDOM_MARGIN = 1.0       # random layouts keep well clear of tipping


class LayoutError(ValueError):
    """The layout cannot be built; `problems` lists why, one sentence each."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def footprint(spot: ColumnSpot) -> list[tuple[float, float]]:
    return geometry.transform(column_spec(spot.column).footprint(), spot.x, spot.y, spot.yaw)


def floor_outline(spot: FloorSpot) -> list[tuple[float, float]]:
    return geometry.transform(FLOORS[spot.level].outline, spot.x, spot.y, spot.yaw)


def column_mass(column_id: str) -> float:
    return column_spec(column_id).volume * COLUMN_DENSITY


def under_outline(spot: ColumnSpot, outline) -> str:
    """'inside', 'clear' or 'edge': how a column's footprint lies against an outline above or below it."""
    r = column_spec(spot.column).radius
    if geometry.edge_distance(outline, spot.x, spot.y) > r:
        # the footprint (within r of its centre) lies wholly on one side: no need to cross every edge
        return "inside" if geometry.contains(outline, spot.x, spot.y) else "clear"
    return "inside" if geometry.polygon_inside(footprint(spot), outline) else "edge"


@functools.lru_cache(maxsize=256)
def supports(layout: Layout, level: int) -> tuple[ColumnSpot, ...]:
    """The columns of `layout` on `level - 1` that carry the floor forming `level`. Kept for the layouts lately
    asked about: a server asks it of every room's plan, and of the same plan again at the game's start."""
    floor = next(f for f in layout.floors if f.level == level)
    outline = floor_outline(floor)
    return tuple(c for c in layout.columns if c.level == level - 1 and under_outline(c, outline) != "clear")


def statics_margin(layout: Layout, level: int) -> float:
    """How far inside its supports the load on the floor forming `level` lies (cm; negative: it tips).

    The load is the floor and everything above it; its resultant acts at their joint
    centre of mass, so the floor stands when that lies inside the convex hull of the
    carrying columns' footprints.
    """
    mass = sx = sy = 0.0
    for f in layout.floors:
        if f.level >= level:
            m = FLOORS[f.level].mass
            mass, sx, sy = mass + m, sx + m * f.x, sy + m * f.y
    for c in layout.columns:
        if c.level >= level:
            m = column_mass(c.column)
            mass, sx, sy = mass + m, sx + m * c.x, sy + m * c.y
    points = [p for c in supports(layout, level) for p in footprint(c)]
    if not points:
        return -math.inf
    return geometry.support_margin(points, sx / mass, sy / mass)


class Check(StrEnum):
    """What a layout check found wrong."""

    NO_SUCH_COLUMN = "no such column"
    PLACED_TWICE = "placed twice"
    FLOOR_ORDER = "floor order"
    NO_SUCH_LEVEL = "no such level"
    SITE = "site"            # a column in the border ring, outside the building site
    OVERHANG = "overhang"    # a column overhangs the floor it stands on
    APART = "apart"          # two columns too close together
    EDGE = "edge"            # a column half under a floor's edge
    UNCARRIED = "uncarried"  # a floor rests on no column
    TIPS = "tips"            # a floor's load is not well inside its columns
    SET_UP_FLOORS = "set-up floors"
    SET_UP_COLUMNS = "set-up columns"
    PLATE = "plate"          # the blue floor reaches beyond the base plate


@dataclass(frozen=True)
class Flaw:
    """One reason a layout cannot stand: the check, the columns at fault, and the English sentence."""

    check: Check
    columns: tuple[str, ...]
    sentence: str


def flaws(layout: Layout, setup: bool = False) -> list[Flaw]:
    """Every reason `layout` cannot stand (empty when it is valid): the one layout check."""
    found: list[Flaw] = []
    ids = [c.column for c in layout.columns]
    for cid in sorted(set(ids)):
        if cid not in COLUMNS_BY_ID:
            found.append(Flaw(Check.NO_SUCH_COLUMN, (cid,), f"there is no column called {cid!r}"))
        elif ids.count(cid) > 1:
            found.append(Flaw(Check.PLACED_TWICE, (cid,), f"{cid} is placed {ids.count(cid)} times"))
    if found:
        return found
    levels = sorted(f.level for f in layout.floors)
    if levels != list(range(1, len(levels) + 1)):
        return [Flaw(Check.FLOOR_ORDER, (),
                     f"floors must be laid in order from the blue one up without gaps, not levels {levels}")]
    floors = {f.level: f for f in layout.floors}
    top = len(levels)
    for c in layout.columns:
        r = column_spec(c.column).radius
        if not 0 <= c.level <= top:
            found.append(Flaw(Check.NO_SUCH_LEVEL, (c.column,),
                              f"{c.column} stands on level {c.level}, but there is no such floor"))
        elif c.level == 0 and math.hypot(c.x, c.y) + r > BASE.site_radius:
            found.append(Flaw(Check.SITE, (c.column,), f"{c.column} stands in the border ring, outside the building site"))
        elif c.level > 0 and under_outline(c, floor_outline(floors[c.level])) != "inside":
            found.append(Flaw(Check.OVERHANG, (c.column,),
                              f"{c.column} overhangs the edge of the {FLOORS[c.level].colour} floor"))
    by_level: dict[int, list[ColumnSpot]] = {}
    for c in layout.columns:
        by_level.setdefault(c.level, []).append(c)
    for level, spots in sorted(by_level.items()):
        for i, a in enumerate(spots):
            for b in spots[i + 1:]:
                clearance = math.hypot(a.x - b.x, a.y - b.y) - column_spec(a.column).radius - column_spec(b.column).radius
                if clearance < COLUMN_GAP:
                    found.append(Flaw(Check.APART, (a.column, b.column), f"{a.column} and {b.column} stand too close together"))
    for level in levels:
        outline = floor_outline(floors[level])
        colour = FLOORS[level].colour
        for c in by_level.get(level - 1, []):
            if under_outline(c, outline) == "edge":
                found.append(Flaw(Check.EDGE, (c.column,), f"{c.column} stands half under the edge of the {colour} floor"))
        carrying = tuple(c.column for c in supports(layout, level))
        if not carrying:
            found.append(Flaw(Check.UNCARRIED, (), f"the {colour} floor rests on no column"))
        elif statics_margin(layout, level) < STATICS_MARGIN:
            found.append(Flaw(Check.TIPS, carrying, f"the {colour} floor would tip: its load is not well inside its columns"))
    if setup:
        if top != 1:
            found.append(Flaw(Check.SET_UP_FLOORS, (), "at the start only the blue floor is laid"))
        if sorted(ids) != sorted(c.id for c in ALL_COLUMNS) or any(c.level != 0 for c in layout.columns):
            found.append(Flaw(Check.SET_UP_COLUMNS, (), "at the start all twenty columns stand on the building site"))
        if 1 in floors and any(math.hypot(x, y) > BASE.radius for x, y in floor_outline(floors[1])):
            found.append(Flaw(Check.PLATE, (), "the blue floor reaches beyond the base plate"))
    return found


def problems(layout: Layout, setup: bool = False) -> list[str]:
    """Every reason `layout` cannot stand, as sentences (empty when it is valid)."""
    return [flaw.sentence for flaw in flaws(layout, setup)]


def validate_layout(layout: Layout, setup: bool = False) -> Layout:
    """`layout` itself when it can stand; otherwise raises LayoutError naming every problem."""
    found = problems(layout, setup)
    if found:
        raise LayoutError(found)
    return layout


# --- presets ---

def _ring(ids, radius, start_deg, span_deg=360.0):
    """Columns spaced evenly round an arc about the centre of the base plate.

    `radius` is a number for a circle or (rx, ry) for an ellipse.
    """
    rx, ry = radius if isinstance(radius, tuple) else (radius, radius)
    n = len(ids)
    gaps = n if span_deg >= 360 else n - 1
    angles = [math.radians(start_deg + span_deg * i / gaps) for i in range(n)]
    return [ColumnSpot(cid, 0, round(rx * math.cos(a), 3), round(ry * math.sin(a), 3))
            for cid, a in zip(ids, angles)]


def _colour_ids(kind: str) -> list[str]:
    return [c.id for c in ALL_COLUMNS if c.kind.value == kind]


def _preset_rings() -> Layout:
    """Thick and hexagonal columns in a wide ring, thin ones in two rings inside."""
    thick, hexes, thin = _colour_ids("thick"), _colour_ids("hex"), _colour_ids("thin")
    outer = [c for pair in zip(thick, hexes) for c in pair]
    # the outer ring leaves out the crescent's bite (round 90°)
    columns = _ring(outer, (7.4, 5.0), 140, 260) + _ring(thin[:8], (4.6, 2.4), 0)
    columns += [ColumnSpot(cid, 0, x, 0.0) for cid, x in zip(thin[8:], (-2.7, -0.9, 0.9, 2.7))]
    return Layout("rings", tuple(columns), (FloorSpot(1, 0.0, 0.0, 0.0),))


def _preset_colonnade() -> Layout:
    """Four rows of columns, one colour to a row, the crescent's bite left open."""
    # per row: y, then x of the thick, thin-1, hex, thin-2 and thin-3 column
    lines = ((-4.8, (-0.2, -6.4, -3.6, 3.0, 6.0)), (-1.5, (-6.0, -2.6, 0.8, 4.2, 7.6)),
             (1.8, (6.0, -7.6, -4.0, -0.8, 1.8)), (4.6, (-6.4, -3.2, 3.8, 7.0, -9.0)))
    rows = []
    for (y, xs), colour in zip(lines, ("blue", "red", "yellow", "green")):
        ids = [f"{colour}-thick", f"{colour}-thin-1", f"{colour}-hex", f"{colour}-thin-2", f"{colour}-thin-3"]
        rows += [ColumnSpot(cid, 0, x, y) for cid, x in zip(ids, xs)]
    return Layout("colonnade", tuple(rows), (FloorSpot(1, 0.0, 0.0, 0.0),))


def _preset_free_corners() -> Layout:
    """Rings that carry the floor, and four thin columns standing free in front of it."""
    thick, hexes, thin = _colour_ids("thick"), _colour_ids("hex"), _colour_ids("thin")
    free = [f"{c}-thin-3" for c in ("blue", "red", "yellow", "green")]
    carrying = [c for c in thin if c not in free]
    outer = [c for pair in zip(thick, hexes) for c in pair]
    columns = _ring(outer, (7.4, 5.0), 140, 260) + _ring(carrying, (4.2, 2.2), 0)
    columns += [ColumnSpot(cid, 0, x, -9.6) for cid, x in zip(free, (-3.3, -1.1, 1.1, 3.3))]
    return Layout("free corners", tuple(columns), (FloorSpot(1, 0.0, 0.6, 0.0),))


PRESETS: dict[str, Layout] = {p.name: p for p in (_preset_rings(), _preset_colonnade(), _preset_free_corners())}


def preset(name: str) -> Layout:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"no preset layout is called {name!r}; there are {', '.join(PRESETS)}") from None


# --- random layouts ---

def _try_spot(rng: random.Random, cid: str, level: int, region, taken: list[ColumnSpot], under, keep_clear):
    """A random spot for `cid` on `level` inside `region`, clear of `taken`, or None."""
    r = column_spec(cid).radius
    xs, ys = [p[0] for p in region], [p[1] for p in region]
    for _ in range(60):
        spot = ColumnSpot(cid, level, round(rng.uniform(min(xs), max(xs)), 3), round(rng.uniform(min(ys), max(ys)), 3),
                          round(rng.uniform(0, 60), 1))
        if level == 0:
            if math.hypot(spot.x, spot.y) + r > BASE.site_radius - 0.1:
                continue
        elif geometry.signed_distance(region, spot.x, spot.y) < r + 0.1:
            continue
        if any(math.hypot(spot.x - o.x, spot.y - o.y) < r + column_spec(o.column).radius + COLUMN_GAP + 0.1
               for o in taken if o.level == level):
            continue
        if under is not None:
            where = geometry.signed_distance(under, spot.x, spot.y)
            if keep_clear and where > -(r + 0.3):
                continue
            if not keep_clear and where < r + 0.3:
                continue
        return spot
    return None


def random_layout(seed: int, floors: int = 1) -> Layout:
    """A random layout that passes `validate_layout`, the same for the same seed.

    `floors` = 1 gives a set-up (all columns on the building site under the blue floor);
    more floors give a villa in mid-game, with 3 to 5 columns under each floor and the
    rest standing free on random levels.
    """
    if not 1 <= floors <= 5:
        raise ValueError("a villa has 1 to 5 floors")
    rng = random.Random(seed)
    for attempt in range(200):
        layout = _random_attempt(rng, floors, seed, attempt)
        if layout is not None and not problems(layout, setup=(floors == 1)):
            return layout
    raise RuntimeError(f"no valid random layout found for seed {seed}")


def _random_attempt(rng: random.Random, floors: int, seed: int, attempt: int) -> Layout | None:
    ids = [c.id for c in ALL_COLUMNS]
    rng.shuffle(ids)
    disc = [(BASE.site_radius * math.cos(2 * math.pi * i / 48), BASE.site_radius * math.sin(2 * math.pi * i / 48))
            for i in range(48)]
    spots: list[ColumnSpot] = []
    laid: list[FloorSpot] = []
    region = disc
    for level in range(1, floors + 1):
        # the next floor lies roughly over the middle of the surface below
        cx = sum(x for x, _ in region) / len(region)
        cy = sum(y for _, y in region) / len(region)
        spread = 1.5 if level == 1 else 2.5
        floor = FloorSpot(level, round(cx + rng.uniform(-spread, spread), 3), round(cy + rng.uniform(-spread, spread), 3),
                          round(rng.uniform(0, 360), 1))
        if level == 1 and any(math.hypot(x, y) > BASE.radius for x, y in floor_outline(floor)):
            return None
        outline = floor_outline(floor)
        wanted = len(ids) if floors == 1 else rng.randint(3, 5)
        placed = 0
        while ids and placed < wanted:
            spot = _try_spot(rng, ids[0], level - 1, region, spots, outline, keep_clear=False)
            if spot is None:
                break
            spots.append(spot)
            ids.pop(0)
            placed += 1
        if placed < 3 or (floors == 1 and ids):
            return None
        laid.append(floor)
        region = outline
    # the rest stand free on random levels, clear of any floor above them
    outlines = {f.level: floor_outline(f) for f in laid}
    for cid in list(ids):
        level = rng.randint(0, floors)
        region = disc if level == 0 else outlines[level]
        spot = _try_spot(rng, cid, level, region, spots, outlines.get(level + 1), keep_clear=True)
        if spot is not None:
            spots.append(spot)
    layout = Layout(f"random {seed}", tuple(spots), tuple(laid))
    if any(statics_margin(layout, f.level) < RANDOM_MARGIN for f in laid):
        return None
    return layout
