"""Bullet bodies for the pieces, with shapes chosen for steady contacts.

- Ends of columns are thin boxes ("feet") and floors are compounds of box slabs, so
  every column touches a floor box to box: Bullet's box-box detector gives a whole
  contact patch at once, where a cylinder or hull end would touch at one wandering
  point and make columns walk and sink.
- Bullet estimates a compound's inertia from its bounding box, so each body's inertia
  is set from its true solid shape.
"""

from __future__ import annotations

import functools
import math

from panda3d.bullet import (BulletBoxShape, BulletConvexHullShape, BulletCylinderShape,
                            BulletRigidBodyNode, ZUp)
from panda3d.core import Point3, TransformState, Vec3

from villa.physics import geometry
from villa.physics.dimensions import BASE, COLUMN_DENSITY, FLOORS, ColumnSpec, FloorSpec

FRICTION = 0.7          # Bullet multiplies the two bodies' values: 0.49, wood on wood
LINEAR_SLEEP = 2.5      # cm/s: above g·step (2.04 cm/s), which a resting body reaches now and then
ANGULAR_SLEEP = 1.5     # rad/s
FOOT_THICKNESS = 0.1    # the box feet, flush with each end face
SLAB_ROW = 1.2          # width of the box slabs that make a floor: few slabs, few contact manifolds
BASE_ROW = 2.4
HULL_MARGIN = 0.04      # Bullet's default collision margin (0.4 mm in centimetres)
ROUND_FOOT_TURNS = (0.0,)       # one square, its corners on the rim: a second one turned 45°
                                # rounds the foot but doubles the contacts (and the cost)
HEX_FOOT_TURNS = (0.0, 60.0)    # two rectangles: together their corners are the six corners


def _dynamic(name: str, mass: float, inertia: Vec3) -> BulletRigidBodyNode:
    body = BulletRigidBodyNode(name)
    body.setMass(mass)
    body.setInertia(inertia)
    body.setFriction(FRICTION)
    body.setRestitution(0.0)
    body.setLinearSleepThreshold(LINEAR_SLEEP)
    body.setAngularSleepThreshold(ANGULAR_SLEEP)
    body.setDeactivationEnabled(True)
    return body


def column_body(column_id: str, spec: ColumnSpec) -> BulletRigidBodyNode:
    h, r = spec.height, spec.radius
    mass = spec.volume * COLUMN_DENSITY
    inertia = Vec3(mass * (3 * r * r + h * h) / 12, mass * (3 * r * r + h * h) / 12, mass * r * r / 2)
    body = _dynamic(column_id, mass, inertia)
    core = h - 2 * FOOT_THICKNESS / 2  # shortened by half a foot at each end; the feet finish it
    if spec.sides:
        rr, zz = r - HULL_MARGIN, core / 2 - HULL_MARGIN  # a hull's margin lies outside its points
        hull = BulletConvexHullShape()
        for x, y in spec.corners():
            for z in (-zz, zz):
                hull.addPoint(Point3(x * rr / r, y * rr / r, z))
        body.addShape(hull)
        # rectangles whose corners are corners of the hexagon
        feet = [(r / 2, r * math.sqrt(3) / 2, turn) for turn in HEX_FOOT_TURNS]
    else:
        body.addShape(BulletCylinderShape(r, core, ZUp))
        side = r / math.sqrt(2)  # squares with their corners on the circle
        feet = [(side, side, turn) for turn in ROUND_FOOT_TURNS]
    for hx, hy, yaw in feet:
        for z in (-(h - FOOT_THICKNESS) / 2, (h - FOOT_THICKNESS) / 2):
            body.addShape(BulletBoxShape(Vec3(hx, hy, FOOT_THICKNESS / 2)),
                          TransformState.makePosHpr(Point3(0, 0, z), Vec3(yaw, 0, 0)))
    return body


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


def floor_body(spec: FloorSpec) -> BulletRigidBodyNode:
    t = spec.thickness
    mass = spec.mass
    sx, sy = geometry.second_moments(spec.outline)  # ∫x² dA, ∫y² dA
    areal = mass / spec.area
    inertia = Vec3(areal * sy + mass * t * t / 12, areal * sx + mass * t * t / 12, areal * (sx + sy))
    body = _dynamic(f"floor-{spec.level}", mass, inertia)
    for cx, cy, hx, hy in floor_slabs(spec.level):
        body.addShape(BulletBoxShape(Vec3(hx, hy, t / 2)), TransformState.makePos(Point3(cx, cy, 0)))
    return body


def base_body() -> BulletRigidBodyNode:
    body = BulletRigidBodyNode("base")
    disc = [(BASE.radius * math.cos(2 * math.pi * i / 48), BASE.radius * math.sin(2 * math.pi * i / 48))
            for i in range(48)]
    for cx, cy, hx, hy in _slabs(disc, BASE_ROW, inner=True):
        body.addShape(BulletBoxShape(Vec3(hx, hy, BASE.thickness / 2)), TransformState.makePos(Point3(cx, cy, 0)))
    body.setFriction(FRICTION)
    return body


TABLE_HALF = 200.0


def table_body() -> BulletRigidBodyNode:
    """The table: a wide slab whose top is z = 0 (not an endless plane, whose bounds
    would overlap every piece and cost a collision test each)."""
    body = BulletRigidBodyNode("table")
    body.addShape(BulletBoxShape(Vec3(TABLE_HALF, TABLE_HALF, 1.0)))
    body.setFriction(FRICTION)
    return body
