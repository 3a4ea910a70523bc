"""The procedural pieces are closed solids with outward normals, the floors' organic outlines included."""

from __future__ import annotations

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
