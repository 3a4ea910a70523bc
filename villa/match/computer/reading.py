"""Reading the villa as a builder does: what stands where, which ways a column comes out, how firmly
each floor stands (statics), where a column can be set down and where the next floor can lie.

All of it is read off the poses of a villa (the live one or a copy); nothing here moves a piece.
The statics are a cheap prior: a floor stands while the centre of mass of everything it carries
lies inside the columns under it, and the margin says by how far.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from villa.match.computer import outlines
from villa.physics import geometry, survey
from villa.physics.dimensions import BASE, FLOORS, column_spec
from villa.physics.pulling import FREE_MARGIN
from villa.rules.pieces import floor_id, level_of_floor

PATH_GAP = 0.4           # cm kept between a pulled column and the others on its way out
WAYS = 36                # directions looked at for a way out
STEPS = 40               # half-centimetre steps along each
LANDING_EDGE = 0.8       # cm kept between a set-down column and its floor's edge
LANDING_GAP = 0.8        # cm kept between columns on the top floor
LANDING_TIERS = ((LANDING_EDGE, LANDING_GAP),   # cm from the top floor's edge and the others:
                 (0.15, 0.15),                  # where none is free, closer in,
                 (0.2, 0.05))                   # and at last squeezed in where most room is left
                                                # (never half on another's top: it slides off)
FLOOR_EDGE = 0.3         # cm a new floor's supports lie inside its outline
FLOOR_MARGIN = 1.0       # cm the new floor's load lies inside its supports, at least
NEXT_FLOOR_EDGE = 1.0    # cm a column set down keeps inside the next floor's narrowest reach
FLOOR_SHIFTS = (-2.0, -1.0, 0.0, 1.0, 2.0)   # cm the next floor is tried off the top columns' middle
FLOOR_TURNS = tuple(range(0, 360, 20))      # degrees it is tried turned


@dataclass(frozen=True)
class Piece:
    """A piece as the statics see it: its mass and where it acts, the level it loads from, and for a
    column the floor it carries (None: none)."""

    name: str
    mass: float
    x: float
    y: float
    level: int               # a column: the surface it stands on; a floor: the level it forms
    carries: int | None = None


@dataclass(frozen=True)
class WayOut:
    """A straight way for a column out from under the floors: its direction and how far to go."""

    column: str
    direction: tuple[float, float] | None    # None: it stands free and rises straight up
    distance: float


class Frame:
    """The villa's load paths: each floor, what it carries, what carries it. Margins can be asked
    of the villa as it is, or with a column taken away and set elsewhere."""

    def __init__(self, villa) -> None:
        self.pieces: dict[str, Piece] = {}
        self._hulls: dict[tuple[int, str | None], list[geometry.Point]] = {}
        floors = [lv for lv in villa.floor_levels if floor_id(lv) not in villa.in_hand]
        self.floors = floors
        self.top = max(floors, default=0)
        for lv in floors:
            np = villa.nodes[floor_id(lv)]
            self.pieces[floor_id(lv)] = Piece(floor_id(lv), np.node().getMass(), np.getX(), np.getY(), lv)
        for c in villa.columns:
            if c in villa.in_hand:
                continue
            where = survey.standing(villa, c)
            if where is None:
                continue
            carried = next((lv for lv in floors if lv > where.level and survey.carries(villa, c, lv)), None)
            np = villa.nodes[c]
            self.pieces[c] = Piece(c, np.node().getMass(), np.getX(), np.getY(), where.level, carried)

    def level_of(self, column: str) -> int | None:
        piece = self.pieces.get(column)
        return piece.level if piece is not None and piece.name in self.columns else None

    @property
    def columns(self) -> list[str]:
        return [p for p in self.pieces if level_of_floor(p) is None]

    def on_level(self, level: int) -> list[str]:
        return [c for c in self.columns if self.pieces[c].level == level]

    def supports(self, level: int) -> list[str]:
        return [c for c in self.columns if self.pieces[c].carries == level]

    def _hull(self, level: int, without: str | None) -> list[geometry.Point]:
        """The convex hull of the feet under the floor forming `level` (without one of them): asked for
        again and again while a decision weighs its pulls, and the same for every one of them."""
        key = (level, without)
        if key not in self._hulls:
            self._hulls[key] = feet_hull({c: (self.pieces[c].x, self.pieces[c].y)
                                          for c in self.supports(level) if c != without})
        return self._hulls[key]

    def margin(self, level: int, without: str | None = None, added: Piece | None = None) -> float:
        """How far inside its supports the load on the floor forming `level` lies (cm; negative: it tips),
        with `without` taken away and `added` set on some level."""
        mass = sx = sy = 0.0
        for piece in self.pieces.values():
            if piece.name == without or piece.level < level:
                continue
            if level_of_floor(piece.name) is not None or piece.level >= level:
                mass, sx, sy = mass + piece.mass, sx + piece.mass * piece.x, sy + piece.mass * piece.y
        if added is not None and added.level >= level:
            mass, sx, sy = mass + added.mass, sx + added.mass * added.x, sy + added.mass * added.y
        hull = self._hull(level, without)
        if not hull or mass == 0:
            return -math.inf
        return geometry.hull_margin(hull, sx / mass, sy / mass)

    def weakest(self, without: str | None = None, added: Piece | None = None) -> float:
        """The smallest margin of any floor above the base (the villa stands as firmly as its weakest floor)."""
        levels = [lv for lv in self.floors if lv > 1 or self.supports(1)]
        return min((self.margin(lv, without, added) for lv in levels), default=math.inf)

    def carried_by(self, column: str) -> int | None:
        piece = self.pieces.get(column)
        return None if piece is None else piece.carries


def feet_hull(feet: dict[str, tuple[float, float]]) -> list[geometry.Point]:
    """The convex hull of the columns' feet standing at these points: what a floor on them can lean over."""
    return geometry.convex_hull([p for c, (x, y) in feet.items()
                                 for p in geometry.transform(column_spec(c).footprint(8), x, y, 0)])


def _under_any(villa, level: int, points: np.ndarray, reach: float) -> np.ndarray:
    """Which world points (N x 2) lie under a floor above `level` for a column of `reach`."""
    hit = np.zeros(len(points), dtype=bool)
    for lv in villa.floor_levels:
        if lv <= level or floor_id(lv) in villa.in_hand:
            continue
        floor = villa.nodes[floor_id(lv)]
        hit |= outlines.under(lv, outlines.to_local(points, floor.getX(), floor.getY(), floor.getH()), reach)
    return hit


def ways_out(villa, column: str, frame: Frame) -> list[WayOut]:
    """The straight ways out from under the floors that pass clear of every other column on its level,
    shortest first, at least 25 degrees apart."""
    level = frame.level_of(column)
    if level is None:
        return []
    node = villa.nodes[column]
    x0, y0 = node.getX(), node.getY()
    r = column_spec(column).radius
    reach = r + FREE_MARGIN
    if not _under_any(villa, level, np.array([[x0, y0]]), reach)[0]:
        return [WayOut(column, None, 0.0)]
    others = [(frame.pieces[c].x, frame.pieces[c].y, column_spec(c).radius) for c in frame.on_level(level)
              if c != column]
    angles = 2 * np.pi * np.arange(WAYS) / WAYS
    steps = 0.5 * np.arange(1, STEPS + 1)
    xs = x0 + np.cos(angles)[:, None] * steps[None, :]
    ys = y0 + np.sin(angles)[:, None] * steps[None, :]
    blocked = _under_any(villa, level, np.stack([xs.ravel(), ys.ravel()], axis=1), reach).reshape(WAYS, STEPS)
    found: list[tuple[float, float, WayOut]] = []
    for k in range(WAYS):
        clear = np.flatnonzero(~blocked[k])
        if len(clear) == 0:
            continue
        distance = float(steps[clear[0]]) + 0.5
        a = float(angles[k])
        dx, dy = math.cos(a), math.sin(a)
        end = (x0 + dx * distance, y0 + dy * distance)
        # a neighbour already nearer than the gap is passed if the way leads away from it
        if any(geometry.segment_distance(ox, oy, (x0, y0), end)
               < min(r + orr + PATH_GAP, math.hypot(ox - x0, oy - y0) - 1e-6) for ox, oy, orr in others):
            continue
        if level == 0 and math.hypot(*end) > BASE.radius + 2.0:
            continue   # off the base plate's edge: it would tip over the rim
        found.append((distance, a, WayOut(column, (dx, dy), distance)))
    found.sort(key=lambda f: (f[0], f[1]))
    chosen: list[tuple[float, WayOut]] = []
    for _, a, way in found:
        if all(abs((a - b + math.pi) % (2 * math.pi) - math.pi) > math.radians(25) for b, _ in chosen):
            chosen.append((a, way))
    return [way for _, way in chosen]


def landings(villa, column: str, level: int, frame: Frame, count: int = 1,
             avoid: tuple[tuple[float, float], ...] = (), edge: float = LANDING_EDGE,
             room: float = LANDING_GAP) -> list[tuple[float, float]]:
    """The best spots on the floor forming `level` to set `column` down: inside, clear of the others,
    keeping the villa's weakest floor as firm as can be, round the floor's middle so that the next
    floor finds supports all round; `edge` and `room` (cm) kept from the floor's edge and the others."""
    if level < 1 or floor_id(level) not in villa.nodes:
        return []
    floor = villa.nodes[floor_id(level)]
    fx, fy, yaw = floor.getX(), floor.getY(), floor.getH()
    outline = FLOORS[level].outline
    r = column_spec(column).radius
    others = [(frame.pieces[c].x, frame.pieces[c].y, column_spec(c).radius) for c in frame.on_level(level)
              if c != column]
    reach = min(math.hypot(x, y) for x, y in outline)
    ring = 0.55 * reach
    if level + 1 in FLOORS:
        # the next floor is smaller: its supports must stand well inside it, not half under its edge
        reach = min(reach, min(math.hypot(x, y) for x, y in FLOORS[level + 1].outline) - r - NEXT_FLOOR_EDGE)
        ring = min(ring, 0.7 * reach)
    mass = villa.nodes[column].node().getMass()
    inner = _inner_points(level, r + edge)
    world = outlines.to_world(inner, fx, fy, yaw)
    scored = []
    for (lx, ly), (wx, wy) in zip(inner.tolist(), world.tolist()):
        gaps = [math.hypot(wx - ox, wy - oy) - orr - r for ox, oy, orr in others]
        if gaps and min(gaps) < room:
            continue
        if any(math.hypot(wx - ax, wy - ay) < 0.5 for ax, ay in avoid):
            continue
        out = math.hypot(lx, ly)
        scored.append((-abs(out - ring) - 3.0 * max(0.0, out - reach) + 0.3 * min(min(gaps, default=6.0), 6.0),
                       wx, wy))
    scored.sort(reverse=True)
    best = []
    for _, wx, wy in scored[:12]:
        firm = min(frame.weakest(without=column, added=Piece(column, mass, wx, wy, level)), 4.0)
        best.append((firm, wx, wy))
    best.sort(reverse=True)
    return [(x, y) for _, x, y in best[:count]]


def has_room(villa, column: str, level: int, frame: Frame) -> bool:
    """Is there a spot anywhere on the floor forming `level` where `column` fits, squeezed in if need be?"""
    return any(landings(villa, column, level, frame, edge=edge, room=room) for edge, room in LANDING_TIERS)


@lru_cache(maxsize=None)
def _inner_points(level: int, edge: float) -> np.ndarray:
    """Points of a grid on the floor (its own frame) at least `edge` inside its outline."""
    grid = 0.7 * np.arange(-12, 13)
    points = np.stack(np.meshgrid(grid, grid, indexing="ij"), axis=-1).reshape(-1, 2)
    return points[outlines.signed_distance(level, points) >= edge]


@dataclass(frozen=True)
class FloorSpot:
    x: float
    y: float
    yaw: float
    supports: frozenset[str]
    margin: float


def floor_spots(villa, frame: Frame, level: int, need: int, inside_base: bool = False) -> list[FloorSpot]:
    """Where the next floor can lie: on at least `need` top columns well inside its outline (others may
    stand half under its edge, none under its rim on a sliver of its top), its own centre well inside
    them; best first."""
    if level not in FLOORS or floor_id(level) in villa.nodes:
        return []
    tops = frame.on_level(level - 1)
    if len(tops) < need:
        return []
    points = {c: (frame.pieces[c].x, frame.pieces[c].y) for c in tops}
    cx = sum(x for x, _ in points.values()) / len(points)
    cy = sum(y for _, y in points.values()) / len(points)
    outline = FLOORS[level].outline
    names = list(points)
    where = np.array([points[c] for c in names])
    radii = np.array([column_spec(c).radius for c in names])
    spots: list[FloorSpot] = []
    hulls: dict[tuple[str, ...], list[geometry.Point]] = {}   # by the columns well under the floor
    for dx in FLOOR_SHIFTS:
        for dy in FLOOR_SHIFTS:
            x, y = cx + dx, cy + dy
            # every turn at once: the top columns seen from the floor placed here, turned each way
            local = np.concatenate([outlines.to_local(where, x, y, yaw) for yaw in FLOOR_TURNS])
            distances = outlines.signed_distance(level, local).reshape(len(FLOOR_TURNS), len(names))
            for yaw, d in zip(FLOOR_TURNS, distances):
                inside = d > radii + FLOOR_EDGE
                sliver = (d <= 0.0) & (d > -(radii + 0.6))   # a rim on a sliver of a top: it would tip
                if sliver.any() or int(inside.sum()) < need:
                    continue
                under = [c for c, yes in zip(names, (d > 0.0).tolist()) if yes]   # half under the edge too
                if inside_base and any(math.hypot(*p) > BASE.radius - 0.2
                                       for p in geometry.transform(outline, x, y, yaw)):
                    continue
                firm = tuple(c for c, yes in zip(names, inside.tolist()) if yes)
                if firm not in hulls:
                    hulls[firm] = feet_hull({c: points[c] for c in firm})
                margin = geometry.hull_margin(hulls[firm], x, y)
                if margin < FLOOR_MARGIN:
                    continue
                halves = len(under) - int(inside.sum())
                spots.append(FloorSpot(x, y, float(yaw), frozenset(under),
                                       margin - 0.1 * math.hypot(dx, dy) - 0.3 * halves))
    spots.sort(key=lambda s: (-s.margin, s.x, s.y, s.yaw))
    return spots
