"""Proposing and laying the next floor in the real window: keys and mouse through xdotool."""

from __future__ import annotations

import dataclasses

import pytest
from panda3d.core import Point3

from villa import rules

pytestmark = pytest.mark.gui


def _villa_with_columns_on_the_blue_floor():
    """The rings layout, with its four middle columns already built up onto the blue floor, in a square."""
    from villa.physics.layouts import preset
    layout = preset("rings")
    middle = sorted(layout.columns, key=lambda c: abs(c.y) + abs(c.x) / 10)[:4]
    corners = iter([(-4.0, -2.5), (4.0, -2.5), (-4.0, 2.5), (4.0, 2.5)])
    columns = tuple(dataclasses.replace(c, level=1, **dict(zip("xy", next(corners)))) if c in middle else c
                    for c in layout.columns)
    return dataclasses.replace(layout, columns=columns)


def test_a_proposed_floor_nobody_objects_to_is_laid_on_the_top_columns(stage, frames, mouse, on_screen,
                                                                       press_button):
    from villa.match import Match, MatchSetup, Seat
    from villa.presentation.game import GameScreen

    seats = tuple(Seat(name) for name in ("Anna", "Ben", "Cleo", "Dario"))
    match = Match(MatchSetup(seats, _villa_with_columns_on_the_blue_floor(), seed=4, deal_colours=True))
    screen = GameScreen(stage, match)
    try:
        frames(5)
        proposer = match.actor
        mouse.move(640, 600)  # the pointer over the window: X sends it the keys
        frames(2)
        mouse.key("p")
        frames(3)
        assert match.state.turn.step is rules.Step.ASK
        for _ in range(3):
            assert screen.panel is not None and screen.mode == "Asking", "each asked player gets the hand-over panel"
            mouse.key("n")
            frames(3)
        assert match.state.turn.step is rules.Step.LAY_FLOOR
        # the mouse goes back to the proposer, told that nobody objects
        assert "Nobody objects" in screen.panel.words.getText()
        assert screen.panel.title.getText() == match.state.players[proposer]
        press_button(screen.panel.buttons[0])
        assert screen.panel is None
        frames(60)  # the view glides up to the top floor
        lay = match.hand
        assert screen.mode == "Laying" and lay is not None and lay.level == 2
        blue = match.villa.nodes["floor-1"].getPos()
        mouse.move(*on_screen(Point3(blue.x, blue.y, lay.rest_z)))
        frames(60)
        # on the plane of the column tops: what is under the pointer comes under the floor
        assert abs(lay.x - blue.x) < 0.5 and abs(lay.y - blue.y) < 0.5, "it follows the pointer"
        assert not screen.sight.drawing.root.isHidden(), "the outline and the tops beneath show over the villa"
        assert len(lay.columns_under()) == 4
        mouse.down()
        frames(2)
        mouse.up()
        for _ in range(900):
            frames()
            if match.state.top_level == 2:
                break
        assert match.state.top_level == 2, screen.hint
        assert match.actor != proposer
        assert match.villa.top_level == 2
    finally:
        screen.close()
