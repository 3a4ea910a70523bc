"""The builder's hands in the real window: a floor pressed down is held, felt sitting or tipping,
lifted with the wheel, moved, lowered again and let go with the button (xdotool)."""

from __future__ import annotations

import dataclasses

import pytest
from panda3d.core import Point3

from villa import rules
from villa.match import requests as rq

pytestmark = pytest.mark.gui

OFF_BALANCE_X = -6.0   # the green floor's centre 2 cm past the column tops at x = -4: it tips onto them
KNOCKED_OFF_X = -8.0   # 4 cm past them: let go there, it falls


def _laying(stage, builders_eye: bool = False):
    """Two players, four columns on the blue floor in a square (x ±4, y ±2.5); the green floor proposed and
    nobody objects: the game screen opens with the proposer to lay it."""
    from villa.match import Match, MatchSetup, Seat
    from villa.physics.layouts import preset
    from villa.presentation.game import GameScreen
    layout = preset("rings")
    middle = sorted(layout.columns, key=lambda c: abs(c.y) + abs(c.x) / 10)[:4]
    corners = iter([(-4.0, -2.5), (4.0, -2.5), (-4.0, 2.5), (4.0, 2.5)])
    columns = tuple(dataclasses.replace(c, level=1, **dict(zip("xy", next(corners)))) if c in middle else c
                    for c in layout.columns)
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben")), dataclasses.replace(layout, columns=columns), seed=4,
                             deal_colours=True, builders_eye=builders_eye))
    assert rq.ask(match, rq.Propose).accepted and rq.ask(match, lambda s: rq.Answer(s, False)).accepted
    return match, GameScreen(stage, match)


def _over(frames, until, most: int) -> None:
    for _ in range(most):
        frames()
        if until():
            return


def test_a_floor_pressed_down_off_balance_tips_in_the_hands_is_lifted_moved_lowered_and_laid_on_release(
        stage, frames, mouse, on_screen, snapshot):
    match, screen = _laying(stage, builders_eye=True)
    try:
        frames(30)
        proposer, lay = match.actor, match.hand
        assert screen.mode == "Laying" and lay is not None
        assert not screen.eye.drawing.root.isHidden(), "the builder's eye shows the floor's load over its supports"
        mouse.move(*on_screen(Point3(OFF_BALANCE_X, 0, lay.rest_z)))
        frames(60)
        assert abs(lay.x - OFF_BALANCE_X) < 0.5
        mouse.down()
        _over(frames, lambda: lay.touching() and lay.tilt_deg() > 1.0, 150)
        assert match.holding and lay.tilt_deg() > 1.0, "pressed down off balance, it tips onto two columns"
        frames(30)
        assert match.holding and not match.collapsed and screen.mode == "Laying", "held: leaning, not falling"
        assert "tips" in screen.hint
        mouse.wheel(1)   # the wheel up lifts it clear, the button still down
        frames(40)
        assert match.holding and not lay.touching(), "lifted clear, still in the hands"
        high_x, high_y = lay.high_side()
        grip = lay.grip_point()
        mouse.move(*on_screen(Point3(grip.x + 5 * high_x, grip.y + 5 * high_y, lay.rest_z)))
        frames(40)
        mouse.wheel(-1)  # and down again, held
        _over(frames, lambda: lay.touching() and lay.tilt_deg() < 0.5, 150)
        frames(20)
        assert lay.touching() and lay.tilt_deg() < 0.5 and "sits level" in screen.hint
        snapshot("holding-floor")   # the README's picture of a floor being laid
        assert match.state.turn.step is rules.Step.LAY_FLOOR, "nothing counts while it is held"
        mouse.up()       # let go
        _over(frames, lambda: match.actor != proposer, 900)
        assert match.state.top_level == 2 and not match.over and match.actor != proposer, "laid: the game goes on"
    finally:
        screen.close()


def test_a_click_lays_a_floor_only_once_it_sits_off_balance_the_hands_keep_it_and_the_next_click_drops_it(
        stage, frames, mouse, on_screen):
    match, screen = _laying(stage)
    try:
        frames(30)
        proposer, lay = match.actor, match.hand
        mouse.move(*on_screen(Point3(KNOCKED_OFF_X, 0, lay.rest_z)))
        frames(60)
        mouse.down()
        frames(2)
        mouse.up()       # a click, as on a touchpad
        frames(120)
        assert match.holding and lay.touching() and not match.collapsed, "it tips: the hands keep it"
        assert "tips" in screen.hint
        mouse.down()
        frames(2)
        mouse.up()       # the next click lets go
        _over(frames, lambda: match.over, 900)
        assert match.over and match.state.result.collapsed_by == proposer, "the proposer brought the villa down"
    finally:
        screen.close()
