"""`--load FILE` and `--continue` in the window take the game up as the main menu's Continue does:
Esc pauses, the end screen follows the end, "Play again" and "Quit to the main menu" work.

The command line runs in this process on the test session's window; the main loop is replaced
by the test's own steps (real key presses and clicks with xdotool)."""

from __future__ import annotations

import pytest

from villa import rules
from villa.app import saves
from villa.match import record as records
from villa.presentation.preferences import Settings
from villa.match import requests as rq

from .conftest import new_match

pytestmark = pytest.mark.gui


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("villa.app.settings.load_settings", lambda **_kw: Settings(language="en"))
    return tmp_path


@pytest.fixture(scope="module")
def saved_game():
    """A game of two just begun, colours dealt, the villa settled: as a save file's text."""
    return records.dumps(new_match(players=("Anna", "Ben"), seed=2).record, "save")


@pytest.fixture
def command_line(stage, monkeypatch):
    """`command_line(args, steps)`: run `villa ARGS` with `steps(front)` instead of the main loop; the exit code."""
    from villa.app import front as front_module
    from villa.app.main import main
    fronts, failures = [], []

    class Watched(front_module.Front):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            fronts.append(self)

    monkeypatch.setattr(front_module, "Front", Watched)

    def run(args, steps) -> int:
        def loop() -> None:
            try:
                steps(fronts[-1])
            except BaseException as failure:   # the command line's guard would make it an exit code
                failures.append(failure)
        monkeypatch.setattr(stage.base, "run", loop)
        code = main(args)
        if failures:
            raise failures[0]
        return code

    yield run
    for app in fronts:
        app.close()


def _pause_and_quit_to_menu(front, frames, mouse, press_button) -> None:
    from villa.presentation.menus import MainMenu
    screen = front.screen
    assert screen is not None and front.menu is None and front.pause_menu is None
    mouse.move(640, 400)
    frames(3)
    mouse.key("Escape")                                # nothing in hand: the pause menu
    frames(3)
    assert front.pause_menu is not None and screen.mode == "Paused"
    press_button(front.pause_menu.widgets["resume"])
    assert front.pause_menu is None and screen.mode != "Paused"
    mouse.key("Escape")
    frames(3)
    press_button(front.pause_menu.widgets["quit_to_menu"])
    assert isinstance(front.menu, MainMenu) and front.screen is None and front.pause_menu is None


def test_load_from_the_command_line_pauses_on_esc(home, saved_game, command_line, frames, mouse, press_button,
                                                  snapshot):
    path = home / "game.json"
    path.write_text(saved_game, encoding="utf-8")
    before = path.read_bytes()

    def steps(front) -> None:
        frames(5)
        state = front.match.state
        assert state == saves.from_text(saved_game).state and state.players == ("Anna", "Ben")
        mouse.key("Escape")
        frames(3)
        snapshot("load-1-paused")
        mouse.key("Escape")   # Esc again does not stack a second menu
        frames(2)
        press_button(front.pause_menu.widgets["resume"])
        _pause_and_quit_to_menu(front, frames, mouse, press_button)

    assert command_line(["--load", str(path)], steps) == 0
    assert path.read_bytes() == before, "the save file is left as it was"


def test_continue_from_the_command_line_ends_on_the_end_screen_and_plays_again(home, saved_game, command_line,
                                                                             frames, mouse, press_button, snapshot):
    from villa.presentation.menus import EndScreen
    autosave = saves.autosave_path()
    autosave.parent.mkdir(parents=True)
    autosave.write_text(saved_game, encoding="utf-8")
    saved = saves.from_text(saved_game)

    def steps(front) -> None:
        frames(5)
        screen, match = front.screen, front.match
        mouse.move(640, 400)
        frames(2)
        mouse.key("Escape")
        frames(3)
        assert front.pause_menu is not None and screen.mode == "Paused"
        press_button(front.pause_menu.widgets["resume"])
        assert match._apply(rules.Collapse(1.0, rules.CollapseCause.FLOOR_TILTED, "floor-1")) is None
        frames(5)
        assert isinstance(front.menu, EndScreen)
        snapshot("continue-1-end")
        press_button(front.menu.widgets["play_again"])  # the same players and rules, a new game
        again = front.screen
        assert again is not screen and front.match is not match
        assert front.match.state.players == saved.setup.players and not front.match.over
        assert front.match.setup.layout == saved.setup.layout and front.match.setup.game != saved.setup.game
        if front.menu is not None:      # the colours of the new game first
            front.menu.finish_roll()
            frames(3)
            while front.menu.chooser is not None:
                press_button(front.menu.widgets[f"colour_{front.menu.colours_left[-1].value}"])
            press_button(front.menu.widgets["start"])
        assert front.menu is None
        _pause_and_quit_to_menu(front, frames, mouse, press_button)

    assert command_line(["--continue"], steps) == 0
