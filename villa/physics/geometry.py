"""Plane geometry on plain polygons (sequences of (x, y)), used for shapes, layouts and facts."""

from __future__ import annotations

import math
from typing import Sequence

from panda3d.core import Point3, Vec3

Point = tuple[float, float]
Polygon = Sequence[Point]


def edges(poly: Polygon):
    n = len(poly)
    return ((poly[i], poly[(i + 1) % n]) for i in range(n))


def contains(poly: Polygon, x: float, y: float) -> bool:
    """Is (x, y) inside the polygon (even-odd rule)?"""
    inside = False
    for (x0, y0), (x1, y1) in edges(poly):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def segment_distance(px: float, py: float, a: Point, b: Point) -> float:
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def edge_distance(poly: Polygon, x: float, y: float) -> float:
    """Distance from (x, y) to the polygon's outline."""
    return min(segment_distance(x, y, a, b) for a, b in edges(poly))


def near_outline(poly: Polygon, x: float, y: float, reach: float) -> bool:
    """Is (x, y) nearer than `reach` to the polygon's outline? (stops at the first edge that is)"""
    return any(segment_distance(x, y, a, b) < reach for a, b in edges(poly))


def signed_distance(poly: Polygon, x: float, y: float) -> float:
    """Distance to the outline, positive inside, negative outside."""
    d = edge_distance(poly, x, y)
    return d if contains(poly, x, y) else -d


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do the segments ab and cd properly intersect?"""
    d1, d2, d3, d4 = _cross(c, d, a), _cross(c, d, b), _cross(a, b, c), _cross(a, b, d)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def polygon_inside(inner: Polygon, outer: Polygon) -> bool:
    """Does `inner` lie wholly within `outer`? (every corner inside, no edges crossing)"""
    if not all(contains(outer, x, y) for x, y in inner):
        return False
    return not any(segments_cross(a, b, c, d) for a, b in edges(inner) for c, d in edges(outer))


def transform(poly: Polygon, x: float, y: float, yaw_deg: float) -> list[Point]:
    """The polygon turned by `yaw_deg` about the origin, then moved to (x, y)."""
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    return [(x + c * px - s * py, y + s * px + c * py) for px, py in poly]


def to_local(x: float, y: float, ox: float, oy: float, yaw_deg: float) -> Point:
    """World (x, y) in the frame placed at (ox, oy) turned by `yaw_deg`."""
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    dx, dy = x - ox, y - oy
    return c * dx + s * dy, -s * dx + c * dy


def convex_hull(points: Sequence[Point]) -> list[Point]:
    """Counter-clockwise hull (Andrew's monotone chain); fewer than 3 points come back as they are."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def support_margin(points: Sequence[Point], x: float, y: float) -> float:
    """How far (x, y) lies inside the convex hull of `points` (negative: outside).

    With fewer than three points the hull has no inside: the margin is minus the
    distance to the segment or point.
    """
    return hull_margin(convex_hull(points), x, y)


def hull_margin(hull: Polygon, x: float, y: float) -> float:
    """`support_margin` for a hull already worked out (`convex_hull`)."""
    if len(hull) == 1:
        return -math.hypot(x - hull[0][0], y - hull[0][1])
    if len(hull) == 2:
        return -segment_distance(x, y, hull[0], hull[1])
    return signed_distance(hull, x, y)


def row_intervals(poly: Polygon, y: float) -> list[tuple[float, float]]:
    """The x intervals where the horizontal line at `y` runs inside the polygon."""
    xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                for (x0, y0), (x1, y1) in edges(poly) if (y0 > y) != (y1 > y))
    return list(zip(xs[0::2], xs[1::2]))


def second_moments(poly: Polygon) -> tuple[float, float]:
    """(∫x² dA, ∫y² dA) of a counter-clockwise polygon about its origin."""
    ixx = iyy = 0.0
    for (x0, y0), (x1, y1) in edges(poly):
        k = x0 * y1 - x1 * y0
        ixx += k * (x0 * x0 + x0 * x1 + x1 * x1)
        iyy += k * (y0 * y0 + y0 * y1 + y1 * y1)
    return ixx / 12.0, iyy / 12.0


def on_plane(origin: Point3, direction: Vec3, z: float) -> Point3 | None:
    """Where a ray (the mouse's, say) meets the horizontal plane at height `z` (None: it runs
    parallel to it, or away from it)."""
    if abs(direction.z) < 1e-9:
        return None
    t = (z - origin.z) / direction.z
    return Point3(origin) + Vec3(direction) * t if t > 0 else None
