"""The one table of the pieces' sizes, shared by physics and renderer (pure Python).

No measurements of the real pieces are published: every number here is an estimate
(centimetres, kilograms per cubic centimetre), kept in this one place.

World frame: z up, the table top is z = 0, the base plate lies centred on the z axis.

Pieces and their body frames (the pose a renderer gets is of this frame):
- `BASE`: a round disc, origin at its centre; top face at `BASE.top_z`.
  Columns may stand only on the building site (`BASE.site_radius`); the ring
  outside it is the border where no column may stand.
- `FLOORS[level]` for level 1 (blue) .. 5 (red): a plate `FLOOR_THICKNESS` thick whose
  outline is `FloorSpec.outline`, a counter-clockwise polygon of (x, y) points in the
  floor's own frame. The frame's origin is the outline's area centroid at
  mid-thickness, so the body origin is the floor's centre of mass. A renderer extrudes
  the outline from z = -thickness/2 to +thickness/2.
- `COLUMNS[kind]` for "thin", "hex", "thick": upright along local z, origin at the
  centre of the column; all kinds are `COLUMN_HEIGHT` tall. A hexagonal column has
  corners at 0, 60, ... 300 degrees about its axis (`ColumnSpec.corners()`).

Layouts (where pieces stand when a villa is built) are plain data: `Layout` holds
`ColumnSpot`s (column id, level it stands on, world x, y) and `FloorSpot`s (level,
world x, y of the floor's origin, yaw in degrees). `layout_to_json` and
`layout_from_json` round-trip them through plain JSON. Presets, random layouts and
validation live in `villa.physics.layouts`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from villa.physics import geometry

Point = tuple[float, float]

GRAVITY = 981.0                 # cm/s²
COLUMN_HEIGHT = 8.0             # every kind the same, so floors lie level
FLOOR_THICKNESS = 0.6           # plywood
FLOOR_DENSITY = 0.0006          # kg/cm³, 0.6 g/cm³: plywood
COLUMN_DENSITY = 0.0007         # kg/cm³, 0.7 g/cm³: beech, turned


@dataclass(frozen=True)
class BaseSpec:
    radius: float = 14.5         # the disc, about 29 cm across
    site_radius: float = 11.0    # the building site; the border ring lies between
    thickness: float = 1.2

    @property
    def top_z(self) -> float:
        return self.thickness


@dataclass(frozen=True)
class ColumnSpec:
    kind: str                    # "thin", "hex", "thick" (villa.rules.pieces.ColumnKind values)
    radius: float                # round: radius; hex: circumradius (centre to corner)
    sides: int = 0               # 0 for round, 6 for hexagonal
    height: float = COLUMN_HEIGHT

    @property
    def across_flats(self) -> float:
        return 2 * self.radius * (math.cos(math.pi / self.sides) if self.sides else 1.0)

    def corners(self) -> tuple[Point, ...]:
        """The footprint polygon's corners (hexagon), or () for a round column."""
        return tuple((self.radius * math.cos(math.radians(a)), self.radius * math.sin(math.radians(a)))
                     for a in range(0, 360, 360 // self.sides)) if self.sides else ()

    def footprint(self, segments: int = 24) -> tuple[Point, ...]:
        """The end face as a polygon (a round face as a `segments`-gon)."""
        if self.sides:
            return self.corners()
        return _round_face(self.radius, segments)

    @cached_property
    def volume(self) -> float:
        return polygon_area(self.footprint(64)) * self.height

    @property
    def mass(self) -> float:
        return self.volume * COLUMN_DENSITY


@dataclass(frozen=True)
class FloorSpec:
    level: int                   # 1 blue .. 5 red
    colour: str
    outline: tuple[Point, ...]   # counter-clockwise, area centroid at (0, 0)
    thickness: float = FLOOR_THICKNESS

    @cached_property
    def area(self) -> float:
        return polygon_area(self.outline)

    @property
    def mass(self) -> float:
        return self.area * self.thickness * FLOOR_DENSITY

    @cached_property
    def radius(self) -> float:
        """Distance from the centre of mass to the farthest point of the outline."""
        return max(math.hypot(x, y) for x, y in self.outline)

    @cached_property
    def inner_radius(self) -> float:
        """Distance from the centre of mass to the nearest point of the outline (0 if outside it)."""
        return geometry.edge_distance(self.outline, 0.0, 0.0) if geometry.contains(self.outline, 0.0, 0.0) else 0.0

    def contains(self, x: float, y: float) -> bool:
        """Is (x, y), in the floor's own frame, inside its outline? The hand and the statics ask
        every 1/60 s; the discs of `inner_radius` and `radius` settle most points at once."""
        centre = math.hypot(x, y)
        if centre < self.inner_radius:
            return True
        return centre <= self.radius and geometry.contains(self.outline, x, y)

    def meets(self, x: float, y: float, reach: float) -> bool:
        """Is (x, y), in the floor's own frame, inside the outline or nearer to it than `reach`?
        (A column end of that radius there meets the floor.)"""
        if math.hypot(x, y) >= self.radius + reach:
            return False
        return self.contains(x, y) or geometry.near_outline(self.outline, x, y, reach)


BASE = BaseSpec()

COLUMNS: dict[str, ColumnSpec] = {
    "thin": ColumnSpec("thin", radius=0.7),                              # 1.4 cm across
    "hex": ColumnSpec("hex", radius=2.5 / math.sqrt(3), sides=6),      # 2.5 cm across the flats
    "thick": ColumnSpec("thick", radius=1.6),                            # 3.2 cm across
}


@lru_cache(maxsize=None)
def _round_face(radius: float, segments: int) -> tuple[Point, ...]:
    """A disc as a `segments`-gon (asked for thousands of times a decision by the computer players)."""
    return tuple((radius * math.cos(2 * math.pi * i / segments), radius * math.sin(2 * math.pi * i / segments))
                 for i in range(segments))


def column_kind(column_id: str) -> str:
    """'red-thin-2' -> 'thin', 'red-hex' -> 'hex', 'red-thick' -> 'thick'."""
    return column_id.split("-")[1]


@lru_cache(maxsize=None)
def column_spec(column_id: str) -> ColumnSpec:
    """The spec of a column by its id (asked every 1/60 s for every column: remembered)."""
    return COLUMNS[column_kind(column_id)]


def surface_z(level: int) -> float:
    """Nominal height of the surface forming `level` (0 = base plate top) when stacked perfectly."""
    return BASE.top_z + level * (COLUMN_HEIGHT + FLOOR_THICKNESS)


# --- geometry helpers (plain polygons: sequences of (x, y), counter-clockwise) ---

def polygon_area(poly) -> float:
    poly = list(poly)
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))


def polygon_centroid(poly) -> Point:
    poly = list(poly)
    a = polygon_area(poly)
    cx = sum((x0 + x1) * (x0 * y1 - x1 * y0) for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))
    cy = sum((y0 + y1) * (x0 * y1 - x1 * y0) for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))
    return cx / (6 * a), cy / (6 * a)


# --- the floors' organic outlines ---
# Each outline is a smooth closed curve r(angle) = R (1 + a few gentle harmonics),
# with a bite taken out of the blue one to give it its crescent-like shape. The curves
# are traced once here, recentred on their centroid and scaled to the width given.

_OUTLINE_POINTS = 72
# level, colour, greatest width (cm), harmonics [(order, amplitude, phase)], bite (angle°, depth, width°) or None
_FLOOR_TABLE = (
    (1, "blue", 24.0, ((2, 0.10, 0.3), (3, 0.05, 1.0)), (90.0, 0.7, 46.0)),
    (2, "green", 20.5, ((2, 0.08, 1.2), (3, 0.07, 0.2), (5, 0.02, 0.5)), None),
    (3, "yellow", 17.0, ((2, 0.09, 2.1), (3, 0.05, 2.8), (4, 0.03, 0.4)), None),
    (4, "orange", 14.0, ((2, 0.07, 0.7), (3, 0.08, 1.9)), None),
    (5, "red", 11.0, ((2, 0.06, 2.6), (3, 0.05, 0.9), (4, 0.02, 1.5)), None),
)


def _organic_outline(width: float, harmonics, bite) -> tuple[Point, ...]:
    points = []
    for i in range(_OUTLINE_POINTS):
        t = 2 * math.pi * i / _OUTLINE_POINTS
        r = 1.0 + sum(a * math.cos(k * t + p) for k, a, p in harmonics)
        if bite:
            angle, depth, spread = bite
            d = math.remainder(t - math.radians(angle), 2 * math.pi)
            r -= depth * math.exp(-(d / math.radians(spread)) ** 2)
        points.append((r * math.cos(t), r * math.sin(t)))
    cx, cy = polygon_centroid(points)
    points = [(x - cx, y - cy) for x, y in points]
    span = max(math.dist(p, q) for p in points for q in points)
    s = width / span
    return tuple((round(x * s, 4), round(y * s, 4)) for x, y in points)


FLOORS: dict[int, FloorSpec] = {
    level: FloorSpec(level, colour, _organic_outline(width, harmonics, bite))
    for level, colour, width, harmonics, bite in _FLOOR_TABLE
}


# --- layouts: where pieces stand when a villa is built ---

@dataclass(frozen=True)
class ColumnSpot:
    """A column standing upright on `level` (0 = base plate) at world (x, y), turned `yaw` degrees."""

    column: str
    level: int
    x: float
    y: float
    yaw: float = 0.0


@dataclass(frozen=True)
class FloorSpot:
    """The floor forming `level` with its origin (centre of mass) at world (x, y), turned `yaw` degrees."""

    level: int
    x: float
    y: float
    yaw: float = 0.0


@dataclass(frozen=True)
class Layout:
    """A villa to build: columns standing on levels, floors laid on them.

    Columns not listed are not in the villa (out of the game, or not yet placed).
    Floors must be the levels 1..n without gaps; columns stand on levels 0..n.
    """

    name: str
    columns: tuple[ColumnSpot, ...]
    floors: tuple[FloorSpot, ...] = field(default=())


def layout_to_json(layout: Layout) -> dict[str, Any]:
    return {
        "name": layout.name,
        "columns": [{"column": c.column, "level": c.level, "x": c.x, "y": c.y, "yaw": c.yaw} for c in layout.columns],
        "floors": [{"level": f.level, "x": f.x, "y": f.y, "yaw": f.yaw} for f in layout.floors],
    }


def layout_from_json(data: dict[str, Any]) -> Layout:
    """Inverse of `layout_to_json`; raises ValueError on anything malformed."""
    try:
        return Layout(
            str(data.get("name", "")),
            tuple(ColumnSpot(str(c["column"]), int(c["level"]), float(c["x"]), float(c["y"]),
                             float(c.get("yaw", 0.0))) for c in data["columns"]),
            tuple(FloorSpot(int(f["level"]), float(f["x"]), float(f["y"]), float(f.get("yaw", 0.0)))
                  for f in data.get("floors", ())),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"not a valid layout: {error}") from error
