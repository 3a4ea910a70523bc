"""The camera never goes under the table and never into the villa, wherever the player turns it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from panda3d.core import NodePath, PerspectiveLens, Point3, Vec3

from villa.presentation.camera import CLEARANCE, MIN_HEIGHT, NEAR, OrbitCamera, clear_distance

VILLA = [(Point3(0, 0, 0.6), 14.5), (Point3(0, 0, 9.5), 12.0), (Point3(2, 1, 5), 4.1),
         (Point3(-3, 2, 18), 10.3), (Point3(0, 0, 27), 8.6), (Point3(1, -1, 14), 4.1)]


def test_a_camera_inside_a_piece_is_pushed_out_along_its_line_of_sight():
    target, direction = Point3(0, 0, 10), Vec3(0, -1, 0)
    distance = clear_distance(target, direction, 3.0, [(Point3(0, 0, 10), 5.0)])
    assert distance >= 5.0 + CLEARANCE


def test_pieces_out_of_the_line_of_sight_leave_the_distance_alone():
    assert clear_distance(Point3(0, 0, 10), Vec3(0, -1, 0), 40.0, [(Point3(30, 0, 10), 5.0)]) == 40.0


@settings(max_examples=150, deadline=None)
@given(turns=st.lists(st.tuples(st.floats(-400, 400), st.floats(-200, 200), st.floats(0.2, 5.0),
                                st.floats(-80, 80), st.floats(-80, 80)), min_size=1, max_size=12))
def test_no_turn_zoom_or_pan_takes_the_camera_under_the_table_or_into_the_villa(turns):
    camera = NodePath("camera")
    lens = PerspectiveLens()
    orbit = OrbitCamera(camera, lens, lambda: VILLA)
    for heading, pitch, zoom, right, forward in turns:
        orbit.orbit(heading, pitch)
        orbit.zoom(zoom)
        orbit.pan(right, forward)
        for _ in range(3):
            orbit.update(0.2)
            position = camera.getPos()
            assert position.z >= MIN_HEIGHT
            for centre, radius in VILLA:
                assert (position - centre).length() > radius + NEAR, "the near plane would cut a piece"


def test_the_camera_glides_to_its_goal():
    camera = NodePath("camera")
    orbit = OrbitCamera(camera, PerspectiveLens(), lambda: [])
    orbit.focus(Point3(5, 5, 20), distance=80)
    for _ in range(120):
        orbit.update(1 / 60)
    assert (orbit.view.target - Point3(5, 5, 20)).length() < 0.1
    assert math.isclose((camera.getPos() - Point3(5, 5, 20)).length(), 80, rel_tol=0.01)
