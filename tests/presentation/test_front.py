"""From the main menu into a game and out again, clicked with the real pointer (xdotool under Xvfb)."""

from __future__ import annotations

import random

import pytest

from villa import rules
from villa.app.match import MatchOptions
from villa.app.settings import Settings

pytestmark = pytest.mark.gui


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, MatchOptions(players=("Anna", "Ben", "Cleo")), Settings(language="en"), rng=random.Random(3))
    yield app
    app.session.close()
    app._close_pause()
    app._close_menu()


def test_new_game_seal_roll_game_pause_and_the_end_screen(front, frames, press_button, mouse, snapshot):
    front.main_menu()
    frames(3)
    assert not front.menu.widgets["continue"]["state"] == "normal", "no autosave yet: nothing to continue"
    press_button(front.menu.widgets["new_game"])
    press_button(front.menu.widgets["start"])          # the three players the game was started with
    roll = front.menu
    roll.finish_roll()
    frames(3)
    while roll.chooser is not None:
        press_button(roll.widgets[f"colour_{roll.colours_left[-1].value}"])
    picks = list(roll.picks)
    press_button(roll.widgets["start"])

    screen = front.session.screen
    assert screen is not None and front.menu is None
    state = screen.referee.state
    assert state.players == ("Anna", "Ben", "Cleo") and state.neutral is not None
    assert [state.colours[seat][0] for seat, _ in picks] == [colour for _, colour in picks]
    assert screen.referee.guidance().task.value == "neutral"
    frames(5)
    snapshot("front-1-game")

    mouse.move(640, 400)
    frames(2)
    mouse.key("Escape")                                 # nothing in hand: the pause menu
    frames(3)
    assert front.pause_menu is not None and screen.paused
    snapshot("front-2-pause")
    press_button(front.pause_menu.widgets["resume"])
    assert front.pause_menu is None and not screen.paused

    screen.referee.submit(rules.Collapse(1.0, rules.CollapseCause.FLOOR_TILTED, "floor-1"))
    frames(5)
    assert type(front.menu).__name__ == "EndScreen" and screen.panel is None
    assert "No Master Builder" in front.menu.widgets["headline"]["text"]
    snapshot("front-3-end")
    press_button(front.menu.widgets["play_again"])
    again = front.session.screen
    assert again is not screen and again.referee.state.players == state.players and not again.referee.over


def test_continue_takes_up_the_autosaved_game(front, frames, press_button):
    from villa.app import saves
    from villa.presentation.menus import GameChoices
    front.main_menu()
    frames(2)
    # two players: seat 0 rolled blue, then the picks went 1, 0, 1
    front.start(GameChoices(players=("Anna", "Ben")), [(0, rules.Colour.BLUE), (1, rules.Colour.RED),
                                                        (0, rules.Colour.YELLOW), (1, rules.Colour.GREEN)])
    referee = front.session.screen.referee
    assert referee.state.colours == ((rules.Colour.BLUE, rules.Colour.YELLOW), (rules.Colour.RED, rules.Colour.GREEN))
    column = referee.takeable()[0]
    referee.submit(rules.TakeColumn(column))
    referee.submit(rules.Abort())
    for _ in range(600):
        frames()
        if saves.autosave_path().exists():
            break
    played = referee.state
    front.main_menu()
    frames(2)
    assert front.session.screen is None and front.menu.widgets["continue"]["state"] == "normal"
    press_button(front.menu.widgets["continue"])
    assert front.session.screen is not None and front.session.screen.referee.state == played
