"""Bullet bodies for the pieces, with shapes chosen for steady contacts.

- Ends of columns are thin boxes ("feet") and floors are compounds of box slabs, so
  every column touches a floor box to box: Bullet's box-box detector gives a whole
  contact patch at once, where a cylinder or hull end would touch at one wandering
  point and make columns walk and sink.
- The boxes' corners outline the end faces, so a floor tips where the real one would. A
  hexagonal end is two rectangles whose corners are the hexagon's six. A round column's
  top is an octagon (two squares, 0° and 45°) whose corners lie a little outside the disc
  and whose flats a little inside, by the same 4 % of the radius either way; its foot is
  one square. Floors tip about the tops; a foot under a load only has to carry it, and
  the column cannot rock on it while friction holds its top under an anchored floor (see
  `friction`). A second square at every foot would cost a third more each step.
- Bullet estimates a compound's inertia from its bounding box, and Panda3D works it
  out again whenever a shape is added or the mass set: each body's inertia is set from
  its true solid shape last of all.
- Bullet never puts a body to sleep on its own (its thresholds are speeds, and a floor
  pivoting slowly on its edge is slow): the villa decides (see `world`).
"""

from __future__ import annotations

import functools
import math

from panda3d.bullet import (BulletBoxShape, BulletConvexHullShape, BulletCylinderShape,
                            BulletRigidBodyNode, ZUp)
from panda3d.core import Point3, TransformState, Vec3

from villa.physics import geometry
from villa.physics.dimensions import BASE, FLOORS, ColumnSpec, FloorSpec
from villa.rules.pieces import floor_id

FRICTION = 0.7          # Bullet multiplies the two bodies' values: 0.49, wood on wood
FOOT_THICKNESS = 0.1    # the box feet, flush with each end face
SLAB_ROW = 1.2          # width of the box slabs that make a floor: few slabs, few contact manifolds
BASE_ROW = 2.4
HULL_MARGIN = 0.04      # Bullet's default collision margin (0.4 mm in centimetres)
ROUND_FOOT_TURNS = (0.0, 45.0)  # two squares: an octagon (at the top; the foot is the first one)
HEX_FOOT_TURNS = (0.0, 60.0)    # two rectangles: together their corners are the six corners
ROUND_FOOT_REACH = 2 / (1 + math.cos(math.pi / 8))  # the octagon's corners, in radii: its flats
                                                    # then lie as far inside the disc as its corners outside


def _dynamic(name: str) -> BulletRigidBodyNode:
    body = BulletRigidBodyNode(name)
    body.setFriction(FRICTION)
    body.setRestitution(0.0)
    body.setLinearSleepThreshold(0.0)   # Bullet never puts it to sleep: the villa does
    body.setAngularSleepThreshold(0.0)
    return body


def _weigh(body: BulletRigidBodyNode, mass: float, inertia: Vec3) -> BulletRigidBodyNode:
    """Mass and inertia, once every shape is on: Panda3D recomputes the inertia from the
    shapes' bounding box when a shape is added or the mass is set."""
    body.setMass(mass)
    body.setInertia(inertia)
    return body


def column_inertia(spec: ColumnSpec) -> Vec3:
    """The principal moments of the solid column about its centre: a cylinder, or a
    hexagonal prism (per unit mass, a regular hexagon's polar moment is 5/12 r² against
    a disc's 1/2 r², r its circumradius)."""
    h, r, m = spec.height, spec.radius, spec.mass
    polar = 5 * r * r / 12 if spec.sides else r * r / 2
    side = polar / 2 + h * h / 12       # about a diameter: half the polar moment, and the length
    return Vec3(m * side, m * side, m * polar)


def foot_boxes(spec: ColumnSpec) -> list[tuple[float, float, float]]:
    """(half x, half y, turn in degrees) of the boxes that make each end face."""
    r = spec.radius
    if spec.sides:  # rectangles whose corners are corners of the hexagon
        return [(r / 2, r * math.sqrt(3) / 2, turn) for turn in HEX_FOOT_TURNS]
    half = r * ROUND_FOOT_REACH / math.sqrt(2)  # squares with their corners just outside the disc
    return [(half, half, turn) for turn in ROUND_FOOT_TURNS]


@functools.cache
def _column_shapes(spec: ColumnSpec) -> tuple:
    """The shapes of a column kind and where they sit: made once, shared by every such column
    (Bullet shapes hold no state of their own)."""
    h, r = spec.height, spec.radius
    core = h - 2 * FOOT_THICKNESS / 2  # shortened by half a foot at each end; the feet finish it
    if spec.sides:
        rr, zz = r - HULL_MARGIN, core / 2 - HULL_MARGIN  # a hull's margin lies outside its points
        body = BulletConvexHullShape()
        for x, y in spec.corners():
            for z in (-zz, zz):
                body.addPoint(Point3(x * rr / r, y * rr / r, z))
    else:
        body = BulletCylinderShape(r, core, ZUp)
    shapes = [(body, TransformState.makeIdentity())]
    top, foot = (h - FOOT_THICKNESS) / 2, -(h - FOOT_THICKNESS) / 2
    for hx, hy, yaw in foot_boxes(spec):
        box = BulletBoxShape(Vec3(hx, hy, FOOT_THICKNESS / 2))
        ends = (top, foot) if spec.sides or yaw == 0 else (top,)   # a round foot: one square
        for z in ends:
            shapes.append((box, TransformState.makePosHpr(Point3(0, 0, z), Vec3(yaw, 0, 0))))
    return tuple(shapes)


def column_body(column_id: str, spec: ColumnSpec) -> BulletRigidBodyNode:
    body = _dynamic(column_id)
    for shape, place in _column_shapes(spec):
        body.addShape(shape, place)
    return _weigh(body, spec.mass, column_inertia(spec))


def _rows(outline, row: float, inner: bool):
    """(y, half height, x intervals) of rows about `row` wide across the outline.

    A row spans the outline along its middle line; `inner` (for a convex outline) spans
    it along the row's narrower edge instead, so no box pokes out of the outline.
    """
    ys = [y for _, y in outline]
    y0, y1 = min(ys), max(ys)
    count = max(1, math.ceil((y1 - y0) / row))
    step = (y1 - y0) / count
    rows = []
    for i in range(count):
        yc = y0 + (i + 0.5) * step
        line = yc
        if inner:
            edge = yc - step / 2 if abs(yc - step / 2) > abs(yc + step / 2) else yc + step / 2
            line = max(y0 + 1e-6, min(y1 - 1e-6, edge))
        rows.append((yc, step / 2, geometry.row_intervals(outline, line)))
    return rows


def _slabs(outline, row: float, inner: bool = False):
    """Boxes (centre x, centre y, half x, half y) covering the outline.

    One large core box spans as many whole rows as gives it the largest area; the rest
    of each row is a slab of its own. Fewer seams under the columns mean fewer contact
    manifolds, and the solver's work grows with them.
    """
    rows = _rows(outline, row, inner)
    best = (0.0, 0, -1, 0.0, 0.0)  # area, first row, last row, x from, x to
    for i in range(len(rows)):
        lo, hi = -math.inf, math.inf
        for j in range(i, len(rows)):
            if len(rows[j][2]) != 1:
                break
            lo, hi = max(lo, rows[j][2][0][0]), min(hi, rows[j][2][0][1])
            if hi <= lo:
                break
            area = (hi - lo) * sum(2 * r[1] for r in rows[i:j + 1])
            if area > best[0]:
                best = (area, i, j, lo, hi)
    _, first, last, lo, hi = best
    if last >= first:
        y_lo, y_hi = rows[first][0] - rows[first][1], rows[last][0] + rows[last][1]
        yield (lo + hi) / 2, (y_lo + y_hi) / 2, (hi - lo) / 2, (y_hi - y_lo) / 2
    for k, (yc, hy, intervals) in enumerate(rows):
        for xa, xb in intervals:
            pieces = [(xa, lo), (hi, xb)] if first <= k <= last else [(xa, xb)]
            for a, b in pieces:
                if b - a > 0.05:
                    yield (a + b) / 2, yc, (b - a) / 2, hy


@functools.cache
def floor_slabs(level: int) -> tuple[tuple[float, float, float, float], ...]:
    """The floor's box slabs (centre x, centre y, half x, half y) in its own frame.

    They reach up to half a row past the drawn outline here and there.
    """
    return tuple(_slabs(FLOORS[level].outline, SLAB_ROW))


def floor_inertia(spec: FloorSpec) -> Vec3:
    """The plate's moments about its outline's axes through its centre of mass. Bullet
    holds a diagonal inertia in the body frame, which is the outline's: the products of
    inertia are left out (the green floor's principal axes are turned 34° from its frame)."""
    t, mass = spec.thickness, spec.mass
    sx, sy = geometry.second_moments(spec.outline)  # ∫x² dA, ∫y² dA
    areal = mass / spec.area
    return Vec3(areal * sy + mass * t * t / 12, areal * sx + mass * t * t / 12, areal * (sx + sy))


@functools.cache
def _floor_shapes(level: int) -> tuple:
    t = FLOORS[level].thickness
    return tuple((BulletBoxShape(Vec3(hx, hy, t / 2)), TransformState.makePos(Point3(cx, cy, 0)))
                 for cx, cy, hx, hy in floor_slabs(level))


def floor_body(spec: FloorSpec) -> BulletRigidBodyNode:
    body = _dynamic(floor_id(spec.level))
    for shape, place in _floor_shapes(spec.level):
        body.addShape(shape, place)
    return _weigh(body, spec.mass, floor_inertia(spec))


@functools.cache
def _base_shapes() -> tuple:
    disc = [(BASE.radius * math.cos(2 * math.pi * i / 48), BASE.radius * math.sin(2 * math.pi * i / 48))
            for i in range(48)]
    return tuple((BulletBoxShape(Vec3(hx, hy, BASE.thickness / 2)), TransformState.makePos(Point3(cx, cy, 0)))
                 for cx, cy, hx, hy in _slabs(disc, BASE_ROW, inner=True))


def base_body() -> BulletRigidBodyNode:
    body = BulletRigidBodyNode("base")
    for shape, place in _base_shapes():
        body.addShape(shape, place)
    body.setFriction(FRICTION)
    return body


TABLE_HALF = 200.0


@functools.cache
def _table_shape() -> BulletBoxShape:
    return BulletBoxShape(Vec3(TABLE_HALF, TABLE_HALF, 1.0))


def table_body() -> BulletRigidBodyNode:
    """The table: a wide slab whose top is z = 0 (not an endless plane, whose bounds
    would overlap every piece and cost a collision test each)."""
    body = BulletRigidBodyNode("table")
    body.addShape(_table_shape())
    body.setFriction(FRICTION)
    return body
