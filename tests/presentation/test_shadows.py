"""A shadow that nothing moved is not drawn again; one that something moved is."""

from __future__ import annotations

import pytest

from villa.rules import grabbable_columns as grabbable
from villa.match import requests as rq

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
