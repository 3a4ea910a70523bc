"""The procedural pieces are closed solids with outward normals, the floors' organic outlines included."""

from __future__ import annotations

import math

import pytest
from panda3d.core import GeomVertexReader, Vec3

from villa.physics import dimensions as dim
from villa.presentation import meshes


def _vertices(node):
    geom = node.getGeom(0)
    data = geom.getVertexData()
    vertex, normal = GeomVertexReader(data, "vertex"), GeomVertexReader(data, "normal")
    points, normals = [], []
    while not vertex.isAtEnd():
        points.append(Vec3(vertex.getData3()))
        normals.append(Vec3(normal.getData3()))
    return geom, points, normals


@pytest.mark.parametrize("level", sorted(dim.FLOORS))
def test_a_floor_is_its_outline_extruded_to_its_thickness(level):
    spec = dim.FLOORS[level]
    node = meshes.extrusion("floor", spec.outline, -spec.thickness / 2, spec.thickness / 2, chamfer=0.12)
    geom, points, normals = _vertices(node)
    zs = [p.z for p in points]
    assert min(zs) == pytest.approx(-spec.thickness / 2) and max(zs) == pytest.approx(spec.thickness / 2)
    reach = max(p.getXy().length() for p in points)
    assert reach == pytest.approx(spec.radius, rel=0.02)
    assert geom.getPrimitive(0).getNumPrimitives() > 2 * len(spec.outline)


@pytest.mark.parametrize("kind", sorted(dim.COLUMNS))
def test_normals_point_away_from_a_column_s_axis(kind):
    spec = dim.COLUMNS[kind]
    outline = list(spec.corners()) if spec.sides else meshes.circle(spec.radius)
    node = meshes.extrusion(kind, outline, -spec.height / 2, spec.height / 2, chamfer=0.09, smooth=not spec.sides)
    _, points, normals = _vertices(node)
    for point, normal in zip(points, normals):
        assert normal.length() == pytest.approx(1.0, abs=1e-3)
        if abs(normal.z) < 0.5:   # a side face
            assert point.getXy().dot(normal.getXy()) > 0
        else:                     # an end face
            assert point.z * normal.z > 0


def test_the_floor_triangles_face_up_on_top_and_down_below():
    spec = dim.FLOORS[1]  # the crescent: not convex
    node = meshes.extrusion("blue", spec.outline, -0.3, 0.3)
    geom, points, normals = _vertices(node)
    triangles = geom.getPrimitive(0).decompose()
    for t in range(triangles.getNumPrimitives()):
        start = triangles.getPrimitiveStart(t)
        a, b, c = (points[triangles.getVertex(start + i)] for i in range(3))
        n = normals[triangles.getVertex(start)]
        if abs(n.z) > 0.99:
            assert (b - a).cross(c - a).z * n.z > 0, "the winding agrees with the normal"


def _stoutness(points, triangle) -> float:
    """Longest edge squared over area: about 2.3 for an equilateral triangle, huge for a sliver."""
    longest = max(math.dist(points[triangle[i]], points[triangle[i - 1]]) for i in range(3))
    return longest * longest / abs(meshes._area(points, triangle))


@pytest.mark.parametrize("outline", [meshes.circle(100.0, 128), meshes.circle(14.5, 96), dim.FLOORS[1].outline],
                         ids=["table", "base", "crescent"])
def test_a_big_end_face_is_filled_with_stout_triangles_not_slivers(outline):
    """A software renderer shades whole blocks of pixels wherever an edge passes."""
    points, triangles = meshes.cap_triangles(outline)
    assert all(meshes._area(points, t) > 0 for t in triangles)
    assert max(_stoutness(points, t) for t in triangles) < 20
    polygon = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(outline, outline[1:] + outline[:1])) / 2
    assert sum(meshes._area(points, t) for t in triangles) == pytest.approx(polygon)


def test_the_table_top_s_middle_reaches_past_the_corners_of_the_shadows_square():
    reach = 50.0
    middle, rim = meshes.disc_parts("top", 99.4, 128, 0.0, meshes.PlanarUV(70.0), middle=reach * math.sqrt(2))
    _, middle_points, _ = _vertices(middle)
    _, rim_points, _ = _vertices(rim)

    def used(node, points):
        triangles = node.getGeom(0).getPrimitive(0).decompose()
        return [points[triangles.getVertex(i)] for i in range(triangles.getNumVertices())]

    assert min(p.getXy().length() for p in used(middle, middle_points)) == pytest.approx(0.0)
    assert max(p.getXy().length() for p in used(middle, middle_points)) > reach * math.sqrt(2)
    assert max(p.getXy().length() for p in used(rim, rim_points)) == pytest.approx(99.4, rel=1e-4)
    area = sum(node.getGeom(0).getPrimitive(0).getNumPrimitives() for node in (middle, rim))
    assert area == len(meshes.cap_triangles(meshes.circle(99.4, 128))[1])


def _frames(node):
    """Per vertex: position, uv, normal, tangent, binormal, baked light."""
    data = node.getGeom(0).getVertexData()
    readers = [GeomVertexReader(data, name) for name in ("vertex", "texcoord", "normal", "tangent", "binormal",
                                                          "color")]
    rows = []
    while not readers[0].isAtEnd():
        rows.append([Vec3(readers[0].getData3()), readers[1].getData2(), *(Vec3(r.getData3()) for r in readers[2:5]),
                     readers[5].getData4()])
    return rows


@pytest.mark.parametrize("make", [
    lambda: meshes.extrusion("floor", dim.FLOORS[1].outline, -0.3, 0.3, chamfer=0.12,
                             uv=meshes.FaceUV(meshes.FLOOR_FACE_CM)),
    lambda: meshes.extrusion("column", meshes.circle(1.6, 40), -4, 4, chamfer=0.09, uv=meshes.ColumnUV(),
                             rings=(-3.0, 3.0)),
    lambda: meshes.extrusion("hex", dim.COLUMNS["hex"].corners(), -4, 4, chamfer=0.09, smooth=False,
                             uv=meshes.ColumnUV()),
], ids=["floor", "round column", "hex column"])
def test_normal_maps_find_their_way_the_tangent_follows_u_and_the_binormal_v(make):
    node = make()
    rows = _frames(node)
    triangles = node.getGeom(0).getPrimitive(0).decompose()
    checked = 0
    for t in range(triangles.getNumPrimitives()):
        start = triangles.getPrimitiveStart(t)
        (p0, uv0, n0, t0, b0, _), (p1, uv1, *_), (p2, uv2, *_) = (rows[triangles.getVertex(start + i)]
                                                                   for i in range(3))
        e1, e2 = p1 - p0, p2 - p0
        du1, dv1, du2, dv2 = uv1.x - uv0.x, uv1.y - uv0.y, uv2.x - uv0.x, uv2.y - uv0.y
        det = du1 * dv2 - du2 * dv1
        if abs(det) < 1e-9 or abs(du1) > 0.5 or abs(du2) > 0.5:   # no area in the picture, or across the seam
            continue
        along_u = (e1 * dv2 - e2 * dv1) / det
        along_v = (e2 * du1 - e1 * du2) / det
        assert abs(t0.length() - 1) < 1e-3 and abs(b0.length() - 1) < 1e-3
        assert abs(t0.dot(n0)) < 1e-3 and abs(b0.dot(n0)) < 1e-3 + abs(n0.z) * 0.2
        assert t0.dot(along_u) > 0 and b0.dot(along_v) > 0
        checked += 1
    assert checked > 40


def test_a_column_s_ends_are_darker_where_it_meets_the_floors():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("make_models", Path(meshes.__file__).parents[2] / "scripts"
                                                  / "make_models.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    shade = script.column_shade(8.0)
    assert shade(0, 0, -4.0) < 0.75 and shade(0, 0, 4.0) < 0.75
    assert shade(0, 0, 0.0) > 0.99
    assert shade(0, 0, -3.0) > shade(0, 0, -3.9)


def test_the_table_top_splits_exactly_round_the_shadows_square_into_stout_triangles():
    reach = 50.0 * math.sqrt(2) * 1.01
    middle, rim = meshes.disc_and_ring("top", 124.4, 96, 0.0, meshes.PlanarUV(64.0), middle=reach)
    _, middle_points, _ = _vertices(middle)
    _, rim_points, _ = _vertices(rim)
    assert max(p.getXy().length() for p in middle_points) == pytest.approx(reach, rel=1e-5)
    assert min(p.getXy().length() for p in rim_points) == pytest.approx(reach, rel=1e-5)
    assert max(p.getXy().length() for p in rim_points) == pytest.approx(124.4, rel=1e-5)
    points = [(p.x, p.y) for p in rim_points]
    triangles = rim.getGeom(0).getPrimitive(0).decompose()
    shapes = [tuple(triangles.getVertex(3 * t + i) for i in range(3)) for t in range(triangles.getNumPrimitives())]
    assert max(_stoutness(points, t) for t in shapes) < 20
