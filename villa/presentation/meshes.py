"""Procedural meshes: every piece is an outline extruded along a profile with chamfered edges.

Units are centimetres, z up. Vertices carry a normal, texture coordinates with their
tangent and binormal (for normal maps), and a grey colour: light baked in where the
piece always meets another (a column's ends). Colour comes from textures and the shader.
scripts/make_models.py writes the pieces with these to models/; the table is made here
at run time.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from panda3d.core import (Geom, GeomNode, GeomTriangles, GeomVertexArrayFormat, GeomVertexData, GeomVertexFormat,
                          GeomVertexWriter, InternalName, Triangulator)

Point = tuple[float, float]
Shade = Callable[[float, float, float], float]   # (x, y, z) -> baked light, 0..1
RING_CAPS_FROM = 4.0       # cm: caps at least this far round the centre are filled with rings (see cap_triangles)
TABLE_WOOD_REPEAT = 64.0   # cm of table per repeat of its wood texture
FLOOR_FACE_CM = 26.0       # a floor's texture: its face fills a square this wide about its centre
BASE_FACE_CM = 30.0        # the base plate's, likewise


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


def vertex_format() -> GeomVertexFormat:
    """Position, normal, baked light (colour), texture coordinates, tangent and binormal."""
    array = GeomVertexArrayFormat()
    array.addColumn(InternalName.getVertex(), 3, Geom.NT_float32, Geom.C_point)
    array.addColumn(InternalName.getNormal(), 3, Geom.NT_float32, Geom.C_normal)
    array.addColumn(InternalName.getColor(), 4, Geom.NT_uint8, Geom.C_color)
    array.addColumn(InternalName.getTexcoord(), 2, Geom.NT_float32, Geom.C_texcoord)
    array.addColumn(InternalName.getTangent(), 3, Geom.NT_float32, Geom.C_vector)
    array.addColumn(InternalName.getBinormal(), 3, Geom.NT_float32, Geom.C_vector)
    return GeomVertexFormat.registerFormat(GeomVertexFormat(array))


class _Writer:
    def __init__(self, name: str) -> None:
        self.data = GeomVertexData(name, vertex_format(), Geom.UH_static)
        self.vertex = GeomVertexWriter(self.data, "vertex")
        self.normal = GeomVertexWriter(self.data, "normal")
        self.colour = GeomVertexWriter(self.data, "color")
        self.texcoord = GeomVertexWriter(self.data, "texcoord")
        self.tangent = GeomVertexWriter(self.data, "tangent")
        self.binormal = GeomVertexWriter(self.data, "binormal")
        self.triangles = GeomTriangles(Geom.UH_static)
        self.count = 0

    def add(self, position, normal, uv, tangent, binormal, light: float = 1.0, colour=(1.0, 1.0, 1.0)) -> int:
        self.vertex.addData3(*position)
        self.normal.addData3(*normal)
        self.colour.addData4(colour[0] * light, colour[1] * light, colour[2] * light, 1.0)
        self.texcoord.addData2(*uv)
        self.tangent.addData3(*tangent)
        self.binormal.addData3(*binormal)
        self.count += 1
        return self.count - 1

    def node(self, name: str) -> GeomNode:
        geom = Geom(self.data)
        geom.addPrimitive(self.triangles)
        node = GeomNode(name)
        node.addGeom(geom)
        return node


# --- texture layouts (the pictures are made by scripts/make_textures.py) ---

class ColumnUV:
    """A column's picture, twice as tall as wide: the side in v 0..0.75 (u once round), the end
    face in the square at the top left."""

    side_top = 0.75

    def side(self, along: float, z_fraction: float, perimeter: float, height: float) -> tuple[float, float]:
        return along, z_fraction * self.side_top

    def cap(self, x: float, y: float, radius: float) -> tuple[float, float]:
        return 0.25 + 0.25 * x / radius, 0.875 + 0.125 * y / radius


class FaceUV:
    """A floor's or the base plate's picture: the face, a `face_cm` square about the piece's
    centre, fills v from `strip` to 1; the rim runs once round in the strip below (u along
    the rim, v from the bottom face up to the top face)."""

    strip = 1 / 16

    def __init__(self, face_cm: float) -> None:
        self.face_cm = face_cm

    def side(self, along: float, z_fraction: float, perimeter: float, height: float) -> tuple[float, float]:
        return along, z_fraction * self.strip

    def cap(self, x: float, y: float, radius: float) -> tuple[float, float]:
        return 0.5 + x / self.face_cm, self.strip + (0.5 + y / self.face_cm) * (1 - self.strip)


class PlanarUV:
    """Wood laid flat (the table): the texture repeats every `repeat` cm."""

    def __init__(self, repeat: float) -> None:
        self.repeat = repeat

    def side(self, along: float, z_fraction: float, perimeter: float, height: float) -> tuple[float, float]:
        return along * perimeter / self.repeat, z_fraction * height / self.repeat

    def cap(self, x: float, y: float, radius: float) -> tuple[float, float]:
        return x / self.repeat, y / self.repeat


def extrusion(name: str, outline: Sequence[Point], z0: float, z1: float, chamfer: float = 0.0,
              smooth: bool = True, uv=None, bottom: bool = True, top: bool = True,
              rings: Sequence[float] = (), shade: Shade | None = None) -> GeomNode:
    """A prism of the counter-clockwise `outline` from z0 to z1, its edges chamfered by `chamfer`.

    `smooth`: shade the side as a curve (round columns, floors) or with flat faces (hexagons).
    `bottom`, `top`: whether to close it with its end faces.
    `rings`: heights of extra rows of vertices up the side (for `shade` to vary along).
    `shade(x, y, z)`: light baked into the side's vertices (the end faces get none).
    """
    uv = uv or PlanarUV(20.0)
    outline = list(outline)
    n = len(outline)
    normals = _vertex_normals(outline)
    radius = max(math.hypot(x, y) for x, y in outline)
    height = z1 - z0
    c = min(chamfer, height / 3)
    # the profile up the side: (inset, z)
    inner = [(0.0, z) for z in sorted(rings) if z0 + c < z < z1 - c]
    profile = ([(c, z0), (0.0, z0 + c), *inner, (0.0, z1 - c), (c, z1)] if c > 0
               else [(0.0, z0), *inner, (0.0, z1)])
    lengths = [0.0]
    for i in range(n):
        lengths.append(lengths[-1] + math.dist(outline[i], outline[(i + 1) % n]))
    perimeter = lengths[-1]
    w = _Writer(name)

    def side_uv(i: int, z: float):
        return uv.side(lengths[i] / perimeter, (z - z0) / height, perimeter, height)

    def light(x: float, y: float, z: float) -> float:
        return shade(x, y, z) if shade is not None else 1.0

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
                normal = (nx * radial, ny * radial, up)
                tangent = (-ny, nx, 0.0)
                binormal = (nx * dr / length, ny * dr / length, dz / length)
                for row, inset, z in ((lower, ia, za), (upper, ib, zb)):
                    x, y = px - nx * inset, py - ny * inset
                    row.append(w.add((x, y, z), normal, side_uv(i, z), tangent, binormal, light(x, y, z)))
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
                normal = (ex * radial, ey * radial, up)
                tangent = (-ey, ex, 0.0)
                binormal = (ex * dr / length, ey * dr / length, dz / length)
                # insets move along the vertex normals so chamfers meet cleanly at the corners
                scale0 = 1.0 / max(0.5, n0x * ex + n0y * ey)
                scale1 = 1.0 / max(0.5, n1x * ex + n1y * ey)
                corners = []
                for (px, py, nx_, ny_, scale, j), (inset, z) in (
                        ((x0, y0, n0x, n0y, scale0, i), (ia, za)), ((x1, y1, n1x, n1y, scale1, i + 1), (ia, za)),
                        ((x1, y1, n1x, n1y, scale1, i + 1), (ib, zb)), ((x0, y0, n0x, n0y, scale0, i), (ib, zb))):
                    x, y = px - nx_ * inset * scale, py - ny_ * inset * scale
                    corners.append(w.add((x, y, z), normal, side_uv(j, z), tangent, binormal, light(x, y, z)))
                a, b, d, e = corners
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


def prism(name: str, outline: Sequence[Point], z0: float, z1: float) -> GeomNode:
    """A plain prism of the outline from z0 to z1: a piece's shape for casting its shadow (few
    triangles: the shadow passes draw every piece once more)."""
    return extrusion(name, outline, z0, z1, uv=PlanarUV(10.0))


def _flat_face(w: _Writer, points: Sequence[Point], triangles, z: float, nz: float, uv, radius: float) -> None:
    """Triangles of `points` at height z, facing up (nz 1) or down (nz -1, its picture mirrored)."""
    first = w.count
    for x, y in points:
        w.add((x, y, z), (0.0, 0.0, nz), uv.cap(x if nz > 0 else -x, y, radius), (nz, 0.0, 0.0), (0.0, 1.0, 0.0))
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


def disc_and_ring(name: str, radius: float, segments: int, z: float, uv, middle: float) -> tuple[GeomNode, GeomNode]:
    """Like disc_parts, but cut exactly at `middle`: a disc of that radius, and the ring round it
    in rows about as wide as their segments are long (stout triangles, see cap_triangles)."""
    points, triangles = cap_triangles(circle(middle, segments))
    inner = _Writer(f"{name} middle")
    _flat_face(inner, points, triangles, z, 1.0, uv, radius)
    rows = [middle]
    while rows[-1] < radius:
        rows.append(min(radius, rows[-1] * (1 + 2 * math.pi / segments)))
    if len(rows) > 2 and radius - rows[-2] < 0.3 * (rows[-1] - rows[-2]):
        rows[-2:] = [radius]
    ring_points = [p for r in rows for p in circle(r, segments)]
    ring_triangles = []
    for k in range(len(rows) - 1):
        for i in range(segments):
            a, b = k * segments + i, k * segments + (i + 1) % segments
            ring_triangles += [(a, b, b + segments), (a, b + segments, a + segments)]
    outer = _Writer(name)
    _flat_face(outer, ring_points, ring_triangles, z, 1.0, uv, radius)
    return inner.node(f"{name} middle"), outer.node(name)


def contact_rings(name: str, rings: Sequence[tuple[float, float, int]]) -> GeomNode:
    """Flat rings facing up, each round a column's foot at the origin, for the shade where it meets
    the surface it stands on: (inner radius, outer radius, segments) each. u runs from 0 at a
    ring's inner edge to 1 at its outer edge; v is the ring's index (its shader places each)."""
    w = _Writer(name)
    for index, (inner, outer, segments) in enumerate(rings):
        first = w.count
        for i in range(segments + 1):
            t = 2 * math.pi * i / segments
            cos_t, sin_t = math.cos(t), math.sin(t)
            for r, u in ((inner, 0.0), (outer, 1.0)):
                w.add((r * cos_t, r * sin_t, 0.0), (0.0, 0.0, 1.0), (u, float(index)), (1.0, 0.0, 0.0),
                      (0.0, 1.0, 0.0))
        for i in range(segments):
            a, b, c, d = (first + k for k in (2 * i, 2 * i + 1, 2 * i + 3, 2 * i + 2))
            w.triangles.addVertices(a, b, c)
            w.triangles.addVertices(a, c, d)
    return w.node(name)


def seal(name: str, length: float, side: float, paints: Sequence[Sequence[float]], rim: float) -> GeomNode:
    """The Master Builder Seal: a long square block along x, its four long faces painted (inside a
    wooden rim `rim` wide) in `paints`, in turn +z, +y, -z, -y; its end faces bare wood."""
    w = _Writer(name)
    a, h = length / 2, side / 2

    def quad(centre, u_axis, v_axis, half_u, half_v, normal, colour, lift=0.0) -> None:
        first = w.count
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            position = tuple(centre[i] + su * half_u * u_axis[i] + sv * half_v * v_axis[i] + lift * normal[i]
                             for i in range(3))
            uv = (0.5 + su * half_u / length, 0.5 + sv * half_v / length)
            w.add(position, normal, uv, u_axis, v_axis, colour=colour)
        w.triangles.addVertices(first, first + 1, first + 2)
        w.triangles.addVertices(first, first + 2, first + 3)

    faces = (((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
             ((0, 0, -1), (-1, 0, 0), (0, 1, 0)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)))
    for (normal, u_axis, v_axis), paint in zip(faces, paints):
        centre = tuple(h * c for c in normal)
        quad(centre, u_axis, v_axis, a, h, normal, (1.0, 1.0, 1.0))
        quad(centre, u_axis, v_axis, a - rim, h - rim, normal, paint, lift=0.004)
    for sign in (1, -1):
        normal = (sign, 0, 0)
        quad((sign * a, 0, 0), (0, sign, 0), (0, 0, 1), h, h, normal, (1.0, 1.0, 1.0))
    return w.node(name)
