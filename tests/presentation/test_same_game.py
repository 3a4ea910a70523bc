"""One match object under every front: a seeded game of computer players plays the very same, move for
move and pose for pose, headless and on the window's game screen."""

from __future__ import annotations

import pytest

from villa.app import headless
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match.computer import seat_computers

pytestmark = pytest.mark.gui

TURNS = 2


def test_a_seeded_game_plays_the_same_headless_and_through_the_window(stage, frames):
    from villa.presentation.game import GameScreen
    seats = tuple(Seat(f"Computer {i + 1}", Strength.MEDIUM) for i in range(3))
    setup = MatchSetup(seats, layout_named("rings"), seed=11)   # the colours rolled and chosen in play

    alone = Match(setup)
    headless.play(alone, TURNS)

    shown = Match(setup)
    seat_computers(shown)
    screen = GameScreen(stage, shown)
    try:
        for _ in range(60 * 60 * 5):
            if shown.turn >= alone.turn:
                break
            frames()
    finally:
        screen.close()
    assert shown.turn == alone.turn
    assert shown.state.log == alone.state.log
    assert shown.villa.snapshot() == alone.villa.snapshot()
    assert [t.villa for t in shown.turns] == [t.villa for t in alone.turns]
