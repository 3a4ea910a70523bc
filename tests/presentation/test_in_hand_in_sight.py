"""The piece in hand stays in sight and clear of the HUD: a column carried over a villa with columns already on its top
floor is lifted clear of them, past the top of the turn's view, into the status line and the points block; the view
draws back just enough to keep all of it below them, the real pointer carrying it over the left end of the floor."""

from __future__ import annotations

import pytest
from panda3d.core import Point2, Point3

from villa.physics.dimensions import FLOORS, column_spec
from villa.physics.pulling import Grip
from villa.presentation.meshes import circle
from villa.presentation.game import GameScreen
from tests.conformance.games import square_on_blue
from tests.conformance.lockstep import Lockstep
from tests.conformance.moves import pull_out

pytestmark = pytest.mark.gui


def _drawn(stage, point) -> tuple[float, float] | None:
    """Where a world point is drawn, in the window's -1 to 1 across and up (None: behind the camera)."""
    lens, film = stage.cam.node().getLens(), Point2()
    if not lens.project(stage.cam.getRelativePoint(stage.render, point), film):
        return None
    return film.x, film.y


def test_a_column_carried_high_to_the_left_is_kept_clear_of_the_points_block_and_the_status_line(stage, frames,
                                                                                               mouse, snapshot):
    tables = Lockstep(square_on_blue(), online=False)
    screen = None
    try:
        tables.play(pull_out("blue-hex"))         # Ben's column is free, in hand; Anna's four stand on the blue floor
        match = tables.local
        assert match.hand.state == Grip.CARRYING
        screen = GameScreen(stage, match)
        framed = screen.view.camera.goal.distance     # the turn's view, before the first frame
        frames(10)
        width, height = stage.win.getXSize(), stage.win.getYSize()
        left = min((_drawn(stage, stage.render.getRelativePoint(screen.view.scene.pieces["floor-1"], Point3(x, y, 0)))
                    for x, y in FLOORS[1].outline), key=lambda at: at[0])
        mouse.move((left[0] + 1.06) / 2 * width, (1 - left[1]) / 2 * height)   # over the left end of the top floor
        frames(150)
        assert match.hand.state == Grip.CARRYING
        node, spec = screen.view.scene.pieces["blue-hex"], column_spec("blue-hex")
        drawn = [_drawn(stage, stage.render.getRelativePoint(node, Point3(x, y, z)))
                 for x, y in circle(spec.radius, 6) for z in (-spec.height / 2, spec.height / 2)]
        assert None not in drawn and all(abs(x) < 1 and abs(y) < 1 for x, y in drawn), "the column left the picture"
        covered = [(x, y) for x, y in drawn for left, bottom, right, top in screen.hud.top_boxes()
                   if left <= x <= right and bottom <= y <= top]
        assert not covered, f"drawn under the HUD at {covered}"
        moved = screen.view.camera.goal.distance - framed
        assert moved > 0.5, "the view had no need to move: the test shows nothing"
        snapshot("carried-clear-of-the-hud")
    finally:
        if screen is not None:
            screen.close()
        tables.close()
