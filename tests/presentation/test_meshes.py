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
