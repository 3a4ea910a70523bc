"""Games played in the window one after another: the autosave after every settled turn, and "Play again"."""

from __future__ import annotations

import pytest

from villa import rules

pytestmark = pytest.mark.gui


def test_a_new_game_autosaves_after_each_turn_and_play_again_starts_one_with_the_same_players(
        stage, frames, press_button, monkeypatch, tmp_path):
    from villa.app import saves
    from villa.app.match import MatchOptions
    from villa.app.play import Session, from_options
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    session = Session(stage)
    session.play(from_options(MatchOptions(players=("Anna", "Ben"), layout="free corners", seed=1)))
    try:
        screen = session.screen
        referee = screen.referee
        frames(5)
        assert not saves.autosave_path().exists(), "nothing is saved before a turn is played"
        # a turn: a column taken and given up (it goes back, so the villa stands as it was)
        column = referee.takeable()[0]
        assert referee.submit(rules.TakeColumn(column)) is None
        assert referee.submit(rules.Abort()) is None
        for _ in range(600):   # saved once the villa has settled
            frames()
            if saves.autosave_path().exists():
                break
        saved = saves.load(saves.autosave_path())
        assert saved.state == referee.state and saved.turn == 1

        assert referee.submit(rules.Collapse(1.0, rules.CollapseCause.FLOOR_TILTED, "floor-1")) is None
        frames(5)
        assert screen.panel is not None and "Master Builder" in screen.panel.title.getText()
        press_button(screen.panel.buttons[0])   # "Play again"
        assert session.screen is not screen and session.screen.referee.state.players == ("Anna", "Ben")
        assert not session.screen.referee.over and session.screen.panel is None
    finally:
        session.close()
