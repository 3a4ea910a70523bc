"""A shadow that nothing moved is not drawn again; one that something moved is."""

from __future__ import annotations

import pytest

from villa.presentation.game import GameScreen
from villa.rules import grabbable_columns as grabbable
from villa.match import requests as rq

from .conftest import new_match

pytestmark = pytest.mark.gui


def test_shadows_are_drawn_only_in_frames_after_something_moved(stage, game, frames):
    screen = game(layout="rings", seed=2)
    screen.villa.run_until_settled(10)
    frames(4)
    drawn = []
    for turn in range(20):
        screen.view.camera.orbit(3, 0)   # turning the view moves no shadow
        frames()
        drawn.append(screen.view.shadows.drawn_this_frame)
    assert not any(drawn)

    column = grabbable(screen.match.state)[0]
    assert rq.ask(screen.match, lambda s: rq.Take(s, column)).accepted
    rq.ask(screen.match, lambda s: rq.Aim(s, tuple(screen.villa.nodes[column].getPos() + (0, -3, 0))))
    frames(2)
    assert screen.view.shadows.drawn_this_frame


def test_the_next_game_draws_its_light_into_the_buffers_the_last_one_left(stage, game, frames):
    """The pictures of the table (two of them 21 MB with their mipmaps) are not made anew for every game:
    a software renderer would hold a few games' worth of them, let go of some games later."""
    first = GameScreen(stage, new_match(layout="rings", seed=1))
    frames(2)
    buffers = list(first.view.shadows.table.buffers)
    textures = [first.view.shadows.table.whole, first.view.shadows.table.near]
    first.close()
    second = game(layout="colonnade", seed=2)
    frames(2)
    assert second.view.shadows.table.buffers == buffers
    assert [second.view.shadows.table.whole, second.view.shadows.table.near] == textures
    assert all(buffer.isActive() or buffer.getNumDisplayRegions() > 1 for buffer in buffers)   # drawn anew
    engine = stage.base.graphicsEngine
    windows = [engine.getWindow(i) for i in range(engine.getNumWindows())]
    assert all(windows.count(buffer) == 1 for buffer in buffers)
