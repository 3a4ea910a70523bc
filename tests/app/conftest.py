"""Shared by the saved-game tests: a game played headless once per session, and the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME_SEED = 3          # with the rings layout, four computer players bring the villa down in a few turns
MAX_TURNS = 14


def run_villa(*args: str, home: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m villa ARGS` with its user folders under `home`."""
    env = {**os.environ, "VILLA_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "villa", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="session")
def recorded_game():
    """A whole game of computer players, played once: the `saves.Game` at its end."""
    from villa.app import autoplay, saves
    from villa.app.computer import ComputerPlayer
    from villa.app.match import MatchOptions
    game = autoplay.new_game(MatchOptions(seed=GAME_SEED))
    runner = autoplay.TurnRunner(game, ComputerPlayer(GAME_SEED))
    for _ in range(MAX_TURNS):
        if game.state.over:
            break
        runner.play_turn()
    assert game.turn >= 3
    return saves.from_text(saves.dumps(game, "replay"))


@pytest.fixture(scope="session")
def game_in_play(recorded_game):
    """The recorded game as it stood before its last turn (still in play)."""
    from villa.app import saves
    game = saves.from_text(saves.dumps(recorded_game))
    game.turns.pop()
    game.state = saves.state_at(game, game.turns[-1])
    game.villa = saves.villa_of(game.turns[-1], game.state)
    assert not game.state.over
    return saves.from_text(saves.dumps(game))


@pytest.fixture
def save_file(game_in_play, tmp_path) -> Path:
    """The game in play written as a save file (a fresh copy for each test)."""
    from villa.app import saves
    path = tmp_path / "game.json"
    path.write_text(saves.dumps(game_in_play, "save"), encoding="utf-8")
    return path
