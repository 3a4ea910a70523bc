"""The camera never goes under the table and never into the villa, wherever the player turns it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from panda3d.core import NodePath, PerspectiveLens, Point3, Vec3

from villa.presentation.camera import CLEARANCE, MAX_PITCH, MIN_HEIGHT, NEAR, OrbitCamera, clear_distance

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


def _film(camera, lens, point):
    """Where a world point in front of the camera falls on the lens's film (-1 .. 1 each way on it)."""
    from panda3d.core import LMatrix4f, LVecBase4f, Point2
    to_camera = LMatrix4f(camera.getMat())
    to_camera.invertInPlace()
    p = to_camera.xformPoint(point)
    clip = lens.getProjectionMat().xform(LVecBase4f(p.x, p.y, p.z, 1.0))
    assert clip.w > 0
    return Point2(clip.x / clip.w, clip.y / clip.w)


def _wide_lens():
    lens = PerspectiveLens()
    lens.setAspectRatio(16 / 9)
    return lens


VILLA_BOX = [Point3(x, y, z) for x in (-14.5, 14.5) for y in (-14.5, 14.5) for z in (0.0, 9.8)]


@pytest.mark.parametrize("heading, pitch", [(-35.0, 24.0), (120.0, 24.0), (10.0, 40.0)])
def test_a_turn_starts_with_the_villa_filling_sixty_percent_of_the_view_s_height(heading, pitch):
    camera, lens = NodePath("camera"), _wide_lens()
    orbit = OrbitCamera(camera, lens, lambda: [])
    orbit.goal.heading, orbit.goal.pitch = heading, pitch
    orbit.frame(VILLA_BOX, 0.6)
    orbit.snap()
    films = [_film(camera, lens, p) for p in VILLA_BOX]
    ys = [f.y for f in films]
    xs = [f.x for f in films]
    assert max(ys) - min(ys) == pytest.approx(2 * 0.6, abs=0.02)   # the film runs from -1 to 1
    assert (max(ys) + min(ys)) / 2 == pytest.approx(0.0, abs=0.02)
    assert (max(xs) + min(xs)) / 2 == pytest.approx(0.0, abs=0.02)


def test_the_view_draws_back_to_keep_a_pulled_column_in_sight():
    camera, lens = NodePath("camera"), _wide_lens()
    orbit = OrbitCamera(camera, lens, lambda: [])
    orbit.frame(VILLA_BOX, 0.6)
    orbit.snap()
    before = orbit.goal.distance
    orbit.keep_in_view([Point3(0, 0, 5)])   # already in sight: nothing changes
    assert orbit.goal.distance == before
    column = Point3(40.0, -30.0, 12.0)      # carried far out to the side
    assert abs(_film(camera, lens, column).x) > 1 or abs(_film(camera, lens, column).y) > 1
    for _ in range(120):
        orbit.keep_in_view([column])
        orbit.update(1 / 60)
    film = _film(camera, lens, column)
    assert abs(film.x) <= 0.86 and abs(film.y) <= 0.86
    assert orbit.goal.distance > before


def test_t_swings_the_view_straight_down_on_the_top_floor_and_back_up_smoothly():
    orbit = OrbitCamera(NodePath("camera"), PerspectiveLens(), lambda: VILLA)
    orbit.update(1.0)
    before = orbit.view.pitch
    orbit.look_down(Point3(1, 2, 27))
    orbit.update(1 / 60)
    assert before < orbit.view.pitch < 60, "it swings, it does not jump"
    for _ in range(120):
        orbit.update(1 / 60)
    assert orbit.view.pitch > 89 and (orbit.view.target - Point3(1, 2, 27)).length() < 0.05
    position = orbit.position
    assert math.hypot(position.x - 1, position.y - 2) < 1.5, "straight above the top floor"
    orbit.look_down(Point3(1, 2, 27))
    for _ in range(120):
        orbit.update(1 / 60)
    assert abs(orbit.view.pitch - before) < 0.05
    orbit.look_down(Point3(0, 0, 27))
    orbit.orbit(0, -5)   # turning the view by hand leaves the view from above
    assert not orbit.looking_down and orbit.goal.pitch <= MAX_PITCH
