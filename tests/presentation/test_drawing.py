"""Left alone, the window draws only now and then; input, a moving villa or a new turn draw at once, and
the loop runs at most 60 times a second.

The session's window draws every frame (its clock is fixed); each test here puts the policy of a
player's window on it, frames counted, not timed, with the clock's 1/60 s a frame.
"""

from __future__ import annotations

import time

import pytest
from panda3d.core import Vec3

from villa.presentation.drawing import FRAME_CAP, QUIET_RATE, Drawing


@pytest.fixture
def drawing(stage):
    stage.drawing = Drawing(stage.base, stage.clock)
    yield stage.drawing
    stage.drawing.stop()
    stage.drawing = None


def drawn_in(drawing, frames, count: int) -> int:
    before = drawing.drawn
    frames(count)
    return drawing.drawn - before


def at_rest(game, frames):
    screen = game(layout="rings", floors=1)
    screen.match.villa.run_until_settled(10.0)
    screen.view.camera.snap()
    frames(32)   # the game's opening words are news for half a second
    assert screen.mode == "Idle" and not screen.view.moving
    return screen


def test_a_villa_at_rest_is_drawn_only_at_the_quiet_rate_and_input_draws_at_once(drawing, game, frames, stage,
                                                                                 mouse):
    at_rest(game, frames)
    assert drawn_in(drawing, frames, 60) <= QUIET_RATE + 1   # a second of the game's time
    # a frame left out draws nothing at all (the last of those 60 may have been the quiet rate's: the next is not)
    assert any(drawn_in(drawing, frames, 1) == 0 for _ in range(3)) and not stage.win.isActive()
    # the window reads the input as it draws (or leaves out) a frame; the next frame hands it out
    mouse.move(420, 310)
    assert drawn_in(drawing, frames, 2) >= 1
    frames(31)
    assert drawn_in(drawing, frames, 10) == 0
    mouse.key("h")   # the controls' help, shown or hidden
    assert drawn_in(drawing, frames, 2) >= 1


def test_a_villa_in_motion_and_a_new_mode_are_drawn_every_frame(drawing, game, frames):
    screen = at_rest(game, frames)
    villa = screen.match.villa
    villa.wake()
    villa.body("floor-1").setLinearVelocity(Vec3(0, 0, 50))   # tossed a centimetre up: it flies, then lands
    assert drawn_in(drawing, frames, 5) == 5
    villa.run_until_settled(10.0)
    frames(2)
    screen.pause()
    assert drawn_in(drawing, frames, 1) == 1   # the paused game's first frame
    assert drawn_in(drawing, frames, 30) == 0


def test_the_loop_runs_at_most_sixty_times_a_second(drawing, frames):
    before = drawing.frames
    start = time.perf_counter()
    frames(30)
    assert (drawing.frames - before) / (time.perf_counter() - start) <= FRAME_CAP * 1.05
