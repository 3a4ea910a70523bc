"""From the main menu into a game and out again, clicked with the real pointer (xdotool under Xvfb)."""

from __future__ import annotations

import random

import pytest

from villa import rules
from villa.match import Seat
from villa.presentation.preferences import Settings
from villa.rules import grabbable_columns as grabbable
from villa.match import requests as rq

pytestmark = pytest.mark.gui


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), players=tuple(Seat(n) for n in ("Anna", "Ben", "Cleo")),
                rng=random.Random(3))
    yield app
    app.close()


def test_new_game_seal_roll_game_pause_and_the_end_screen(front, frames, press_button, mouse, snapshot):
    front.main_menu()
    frames(3)
    assert not front.menu.widgets["continue"]["state"] == "normal", "no autosave yet: nothing to continue"
    press_button(front.menu.widgets["new_game"])
    press_button(front.menu.widgets["start"])          # the three players the game was started with
    roll = front.menu
    roll.finish_roll()
    frames(3)
    picks = []
    while roll.chooser is not None:
        picks.append((roll.chooser, roll.colours_left[-1]))
        press_button(roll.widgets[f"colour_{roll.colours_left[-1].value}"])
    press_button(roll.widgets["start"])

    screen, match = front.screen, front.match
    assert screen is not None and front.menu is None
    state = match.state
    assert state.players == ("Anna", "Ben", "Cleo") and state.neutral is not None
    assert all(state.colours[seat][0] is colour for seat, colour in picks) and len(picks) == 2
    assert screen.mode == "Idle" and "neutral" in screen.hud.status.getText()
    frames(5)
    snapshot("front-1-game")

    mouse.move(640, 400)
    frames(2)
    mouse.key("Escape")                                 # nothing in hand: the pause menu
    frames(3)
    assert front.pause_menu is not None and screen.mode == "Paused"
    snapshot("front-2-pause")
    press_button(front.pause_menu.widgets["resume"])
    assert front.pause_menu is None and screen.mode == "Idle"

    assert match._apply(rules.Collapse(1.0, rules.CollapseCause.FLOOR_TILTED, "floor-1")) is None
    frames(5)
    assert type(front.menu).__name__ == "EndScreen" and screen.panel is None
    assert "No Master Builder" in front.menu.widgets["headline"]["text"]
    snapshot("front-3-end")
    press_button(front.menu.widgets["play_again"])
    assert front.match is not match and front.match.state.players == state.players and not front.match.over
    assert type(front.menu).__name__ == "SealRollScreen", "a new game starts with the colours"


def test_continue_takes_up_the_autosaved_game(front, frames, press_button):
    from villa.app import saves
    from villa.match import MatchSetup, layout_named
    front.main_menu()
    frames(2)
    front.start(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings"), seed=5, deal_colours=True))
    match = front.match
    assert all(len(colours) == 2 for colours in match.state.colours)
    column = grabbable(match.state)[0]
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted and rq.ask(match, rq.GiveUp).accepted
    for _ in range(600):
        frames()
        if saves.autosave_path().exists():
            break
    played = match.state
    front.main_menu()
    frames(2)
    assert front.screen is None and front.menu.widgets["continue"]["state"] == "normal"
    press_button(front.menu.widgets["continue"])
    assert front.screen is not None and front.match.state == played


def test_a_save_that_cannot_be_written_is_told_on_screen_and_the_game_goes_on(front, frames, monkeypatch):
    import errno

    from villa.app import saves
    from villa.match import MatchSetup, layout_named

    def full_disk(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(saves, "write_atomically", full_disk)
    front.main_menu()
    frames(2)
    front.start(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings"), seed=5, deal_colours=True))
    match, screen = front.match, front.screen
    column = grabbable(match.state)[0]
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted and rq.ask(match, rq.GiveUp).accepted
    for _ in range(600):
        frames()
        if match.turn == 1:
            break
    frames(2)
    assert match.turn == 1 and not saves.autosave_path().exists()
    assert "could not be saved" in screen.hud.message.getText() and "No space left" in screen.hud.message.getText()
    assert front.screen is screen and not match.over, "the game goes on"
