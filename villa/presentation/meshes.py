"""Procedural meshes: every piece is an outline extruded along a profile with chamfered edges.

Units are centimetres, z up. Meshes carry normals and texture coordinates; colour
comes from textures and the shader.
"""

from __future__ import annotations

import math
from typing import Sequence

from panda3d.core import (Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat, GeomVertexWriter,
                          Triangulator)

Point = tuple[float, float]
RING_CAPS_FROM = 4.0  # cm: caps at least this far round the centre are filled with rings (see cap_triangles)


def circle(radius: float, segments: int = 32) -> list[Point]:
    return [(radius * math.cos(2 * math.pi * i / segments), radius * math.sin(2 * math.pi * i / segments))
            for i in range(segments)]


def _vertex_normals(outline: Sequence[Point]) -> list[Point]:
    """Outward unit normals at each vertex of a counter-clockwise outline (mean of the two edges')."""
    n = len(outline)
    normals = []
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = outline[i - 1], outline[i], outline[(i + 1) % n]
        ex, ey = (y1 - y0) + (y2 - y1), -(x1 - x0) - (x2 - x1)
        length = math.hypot(ex, ey) or 1.0
        normals.append((ex / length, ey / length))
    return normals


class _Writer:
    def __init__(self, name: str) -> None:
        self.data = GeomVertexData(name, GeomVertexFormat.getV3n3t2(), Geom.UH_static)
        self.vertex = GeomVertexWriter(self.data, "vertex")
        self.normal = GeomVertexWriter(self.data, "normal")
        self.texcoord = GeomVertexWriter(self.data, "texcoord")
        self.triangles = GeomTriangles(Geom.UH_static)
        self.count = 0

    def add(self, x, y, z, nx, ny, nz, u, v) -> int:
        self.vertex.addData3(x, y, z)
        self.normal.addData3(nx, ny, nz)
        self.texcoord.addData2(u, v)
        self.count += 1
        return self.count - 1

    def node(self, name: str) -> GeomNode:
        geom = Geom(self.data)
        geom.addPrimitive(self.triangles)
        node = GeomNode(name)
        node.addGeom(geom)
        return node


class ColumnUV:
    """Column texture layout (see scripts/make_textures.py): side in v 0..0.75, end face in the top-left square."""

    side_top = 0.75

    def side(self, along: float, z_fraction: float) -> tuple[float, float]:
        return along, z_fraction * self.side_top

    def cap(self, x: float, y: float, radius: float) -> tuple[float, float]:
        return 0.125 + 0.125 * x / radius, 0.875 + 0.125 * y / radius


class PlanarUV:
    """Wood laid flat: texture repeats every `repeat` cm."""

    def __init__(self, repeat: float) -> None:
        self.repeat = repeat

    def side(self, along: float, z_fraction: float, perimeter: float = 0.0, height: float = 0.0):
        return along * perimeter / self.repeat, z_fraction * height / self.repeat

    def cap(self, x: float, y: float, radius: float) -> tuple[float, float]:
        return x / self.repeat, y / self.repeat


def extrusion(name: str, outline: Sequence[Point], z0: float, z1: float, chamfer: float = 0.0,
              smooth: bool = True, uv=None, bottom: bool = True, top: bool = True) -> GeomNode:
    """A prism of the counter-clockwise `outline` from z0 to z1, its edges chamfered by `chamfer`.

    `smooth`: shade the side as a curve (round columns, floors) or with flat faces (hexagons).
    `bottom`, `top`: whether to close it with its end faces.
    """
    uv = uv or PlanarUV(20.0)
    outline = list(outline)
    n = len(outline)
    normals = _vertex_normals(outline)
    radius = max(math.hypot(x, y) for x, y in outline)
    height = z1 - z0
    c = min(chamfer, height / 3)
    # the profile up the side: (inset, z)
    profile = [(c, z0), (0.0, z0 + c), (0.0, z1 - c), (c, z1)] if c > 0 else [(0.0, z0), (0.0, z1)]
    lengths = [0.0]
    for i in range(n):
        lengths.append(lengths[-1] + math.dist(outline[i], outline[(i + 1) % n]))
    perimeter = lengths[-1]
    w = _Writer(name)

    def side_uv(i: int, z: float):
        along, frac = lengths[i] / perimeter, (z - z0) / height
        if isinstance(uv, PlanarUV):
            return uv.side(along, frac, perimeter, height)
        return uv.side(along, frac)

    for k in range(len(profile) - 1):
        (ia, za), (ib, zb) = profile[k], profile[k + 1]
        dr, dz = ia - ib, zb - za  # radial change outward, height change
        length = math.hypot(dr, dz)
        radial, up = dz / length, -dr / length  # the band's normal in (outward, up)
        if smooth:
            lower, upper = [], []
            for i in range(n + 1):
                j = i % n
                (px, py), (nx, ny) = outline[j], normals[j]
                u, va = side_uv(i, za)
                _, vb = side_uv(i, zb)
                lower.append(w.add(px - nx * ia, py - ny * ia, za, nx * radial, ny * radial, up, u, va))
                upper.append(w.add(px - nx * ib, py - ny * ib, zb, nx * radial, ny * radial, up, u, vb))
            for i in range(n):
                w.triangles.addVertices(lower[i], lower[i + 1], upper[i + 1])
                w.triangles.addVertices(lower[i], upper[i + 1], upper[i])
        else:
            for i in range(n):
                (x0, y0), (x1, y1) = outline[i], outline[(i + 1) % n]
                ex, ey = y1 - y0, -(x1 - x0)
                el = math.hypot(ex, ey)
                ex, ey = ex / el, ey / el
                (n0x, n0y), (n1x, n1y) = normals[i], normals[(i + 1) % n]
                u0, va0 = side_uv(i, za)
                u1, _ = side_uv(i + 1, za)
                _, vb = side_uv(i, zb)
                # insets move along the vertex normals so chamfers meet cleanly at the corners
                scale0 = 1.0 / max(0.5, n0x * ex + n0y * ey)
                scale1 = 1.0 / max(0.5, n1x * ex + n1y * ey)
                a = w.add(x0 - n0x * ia * scale0, y0 - n0y * ia * scale0, za, ex * radial, ey * radial, up, u0, va0)
                b = w.add(x1 - n1x * ia * scale1, y1 - n1y * ia * scale1, za, ex * radial, ey * radial, up, u1, va0)
                d = w.add(x1 - n1x * ib * scale1, y1 - n1y * ib * scale1, zb, ex * radial, ey * radial, up, u1, vb)
                e = w.add(x0 - n0x * ib * scale0, y0 - n0y * ib * scale0, zb, ex * radial, ey * radial, up, u0, vb)
                w.triangles.addVertices(a, b, d)
                w.triangles.addVertices(a, d, e)

    # the caps (see cap_triangles)
    inset_outline = []
    for j in range(n):
        (px, py), (nx, ny) = outline[j], normals[j]
        scale = 1.0
        if not smooth:
            (x0, y0), (x1, y1) = outline[j], outline[(j + 1) % n]
            ex, ey = y1 - y0, -(x1 - x0)
            el = math.hypot(ex, ey)
            scale = 1.0 / max(0.5, (nx * ex + ny * ey) / el)
        inset_outline.append((px - nx * c * scale, py - ny * c * scale))
    points, triangles = cap_triangles(inset_outline)
    for z, nz in ((z1, 1.0),) * top + ((z0, -1.0),) * bottom:
        _flat_face(w, points, triangles, z, nz, uv, radius)
    return w.node(name)


def _flat_face(w: _Writer, points: Sequence[Point], triangles, z: float, nz: float, uv, radius: float) -> None:
    """Triangles of `points` at height z, facing up (nz 1) or down (nz -1)."""
    first = w.count
    for x, y in points:
        u, v = uv.cap(x if nz > 0 else -x, y, radius)
        w.add(x, y, z, 0.0, 0.0, nz, u, v)
    for a, b, d in triangles:
        # the triangulator's winding may be either way: make each face point along nz
        (ax, ay), (bx, by), (dx, dy) = points[a], points[b], points[d]
        ccw = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax) > 0
        if ccw == (nz > 0):
            w.triangles.addVertices(first + a, first + b, first + d)
        else:
            w.triangles.addVertices(first + a, first + d, first + b)


def cap_triangles(outline: Sequence[Point]) -> tuple[list[Point], list[tuple[int, int, int]]]:
    """A flat face filling `outline` (counter-clockwise): its points (the outline's first) and triangles.

    Software renderers shade whole 4×4-pixel blocks wherever an edge passes, so long
    slivers (a disc fanned out from one rim point) cost far more than the area they
    cover. A big outline that allows it is filled with rings of stout triangles instead;
    on a small one (a column's end) fewer triangles matter more than their shape.
    """
    if max(math.hypot(x, y) for x, y in outline) >= RING_CAPS_FROM:
        rings = _ring_triangles(outline)
        if rings is not None:
            return rings
    triangulator = Triangulator()
    for x, y in outline:
        triangulator.addPolygonVertex(triangulator.addVertex(x, y))
    triangulator.triangulate()
    return list(outline), [(triangulator.getTriangleV0(t), triangulator.getTriangleV1(t),
                            triangulator.getTriangleV2(t)) for t in range(triangulator.getNumTriangles())]


def _ring_triangles(outline: Sequence[Point]) -> tuple[list[Point], list[tuple[int, int, int]]] | None:
    """Rings inward, each with half the points of the one outside it and about as wide as
    its segments are long, then a fan round the centre (the origin). None when a
    triangle would fold over (an outline too far from star-shaped round the origin)."""
    points = list(outline)
    triangles = []
    outer = list(range(len(points)))
    while len(outer) > 8 and len(outer) % 2 == 0:
        n = len(outer)
        scale = 1.0 / (1.0 + 4.0 * math.pi / n)
        inner = []
        for j in outer[::2]:
            points.append((points[j][0] * scale, points[j][1] * scale))
            inner.append(len(points) - 1)
        m = len(inner)
        for j in range(m):
            a, b, c = outer[2 * j], outer[2 * j + 1], outer[(2 * j + 2) % n]
            p, q = inner[j], inner[(j + 1) % m]
            triangles += [(a, b, p), (b, c, q), (p, b, q)]
        outer = inner
    points.append((0.0, 0.0))
    centre = len(points) - 1
    triangles += [(centre, outer[j], outer[(j + 1) % len(outer)]) for j in range(len(outer))]
    if min(_area(points, t) for t in triangles) <= 0.0:
        return None
    return points, triangles


def _area(points: Sequence[Point], triangle: tuple[int, int, int]) -> float:
    (ax, ay), (bx, by), (cx, cy) = (points[i] for i in triangle)
    return ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / 2


def disc_parts(name: str, radius: float, segments: int, z: float, uv, middle: float) -> tuple[GeomNode, GeomNode]:
    """A disc facing up at height z, in two parts: the rings round its centre reaching at least
    `middle` from it, and the rest (so each part can be shaded its own way)."""
    points, triangles = cap_triangles(circle(radius, segments))
    reach = [math.hypot(x, y) for x, y in points]
    cut = min((r for r in reach if r >= middle - 1e-6), default=radius)
    within = [max(reach[i] for i in t) <= cut + 1e-6 for t in triangles]
    parts = []
    for part, inside in ((f"{name} middle", True), (name, False)):
        w = _Writer(part)
        _flat_face(w, points, [t for t, keep in zip(triangles, within) if keep == inside], z, 1.0, uv, radius)
        parts.append(w.node(part))
    return parts[0], parts[1]


def annulus(name: str, inner: float, outer: float, z: float, segments: int = 96, repeat: float = 20.0) -> GeomNode:
    """A flat ring facing up (the base plate's border zone)."""
    w = _Writer(name)
    for i in range(segments + 1):
        t = 2 * math.pi * i / segments
        cos_t, sin_t = math.cos(t), math.sin(t)
        for r in (inner, outer):
            w.add(r * cos_t, r * sin_t, z, 0, 0, 1, r * cos_t / repeat, r * sin_t / repeat)
    for i in range(segments):
        a, b, c, d = 2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2
        w.triangles.addVertices(a, b, c)
        w.triangles.addVertices(a, c, d)
    return w.node(name)
