"""Proposing and laying the next floor in the real window: keys and mouse through xdotool."""

from __future__ import annotations

import dataclasses

import pytest
from panda3d.core import Point3

from villa import rules

pytestmark = pytest.mark.gui


def _villa_with_columns_on_the_blue_floor():
    """The rings layout, with its four middle columns already built up onto the blue floor, in a square."""
    from villa.physics.layouts import preset, supports
    layout = preset("rings")
    middle = sorted(layout.columns, key=lambda c: abs(c.y) + abs(c.x) / 10)[:4]
    corners = iter([(-4.0, -2.5), (4.0, -2.5), (-4.0, 2.5), (4.0, 2.5)])
    columns = tuple(dataclasses.replace(c, level=1, **dict(zip("xy", next(corners)))) if c in middle else c
                    for c in layout.columns)
    return dataclasses.replace(layout, columns=columns), supports(layout, 1)


def test_a_proposed_floor_nobody_objects_to_is_laid_on_the_top_columns(stage, frames, mouse, on_screen,
                                                                       press_button):
    from villa.physics.world import Villa
    from villa.presentation.game import GameScreen, Match
    from villa.presentation.referee import Referee

    layout, blue_supports = _villa_with_columns_on_the_blue_floor()
    villa = Villa.from_layout(layout, validate=False)
    villa.run_until_settled(5)
    referee = Referee(("Anna", "Ben", "Cleo", "Dario"), frozenset(s.column for s in blue_supports), seed=4)
    referee.continue_from({c.column: c.level for c in layout.columns},
                          {1: frozenset(s.column for s in blue_supports)})
    screen = GameScreen(stage, Match(layout, villa, referee))
    try:
        frames(5)
        proposer = referee.actor
        mouse.move(640, 600)  # the pointer over the window: X sends it the keys
        frames(2)
        mouse.key("p")
        frames(3)
        assert referee.step is rules.Step.ASK
        for _ in range(3):
            assert screen.panel is not None, "each asked player gets the hand-over panel"
            mouse.key("n")
            frames(3)
        assert referee.step is rules.Step.LAY_FLOOR
        # the mouse goes back to the proposer, told that nobody objects
        assert "Nobody objects" in screen.panel.words.getText()
        assert screen.panel.title.getText() == referee.state.players[proposer]
        press_button(screen.panel.buttons[0])
        assert screen.panel is None
        frames(60)  # the view glides up to the top floor
        assert screen.lay is not None and screen.lay.level == 2

        blue = villa.nodes["floor-1"].getPos()
        mouse.move(*on_screen(Point3(blue.x, blue.y, screen.lay.z)))
        frames(60)
        assert abs(screen.lay.x - blue.x) < 0.5 and abs(screen.lay.y - blue.y) < 0.5, "it follows the pointer"
        assert len(screen.lay.columns_under()) == 4
        mouse.down()
        frames(2)
        mouse.up()
        for _ in range(900):
            frames()
            if referee.state.top_level == 2:
                break
        assert referee.state.top_level == 2, screen.hint
        assert referee.actor != proposer
        assert villa.top_level == 2
    finally:
        screen.close()
