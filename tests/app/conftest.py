"""Shared by the saved-game tests: a game played headless once per session, and the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from panda3d.core import Vec3

ROOT = Path(__file__).resolve().parents[2]
GAME_SEED = 3          # the rings layout, four computer players
MAX_TURNS = 14


def run_villa(*args: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python -m villa ARGS` with its user folders under `home`."""
    env = {**os.environ, "VILLA_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "villa", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="session")
def recorded_game(made_once):
    """A whole game of computer players, played once for the run: its `Record` at the end, read back from its
    document."""
    from villa.app import saves
    return saves.from_text(made_once("recorded-game", _play_a_recorded_game))


def _play_a_recorded_game() -> str:
    from villa.app import headless
    from villa.match import Match, MatchSetup, Seat, layout_named
    from villa.match import record as records
    match = Match(MatchSetup(tuple(Seat(n) for n in ("Anna", "Ben", "Cleo", "Dario")), layout_named("rings"),
                             seed=GAME_SEED))
    headless.play(match, MAX_TURNS)
    if not match.over:   # the wood held: a player's elbow knocks the top floor, and the game ends in a collapse
        match.villa.wake()
        match.villa.body(f"floor-{match.state.top_level}").setLinearVelocity(Vec3(80, 0, 0))
        headless.play(match, 1)
    assert match.turn >= 3 and match.over
    return records.dumps(match.record, "replay")


@pytest.fixture(scope="session")
def game_in_play(recorded_game):
    """The recorded game as it stood before its last turn (still in play)."""
    from villa.app import saves
    from villa.match import record as records
    turns = recorded_game.turns[:-1]
    state = records.state_at(recorded_game, turns[-1])
    assert not state.over
    return saves.from_text(records.dumps(replace(recorded_game, state=state, turns=turns)))


@pytest.fixture
def save_file(game_in_play, tmp_path) -> Path:
    """The game in play written as a save file (a fresh copy for each test)."""
    from villa.match import record as records
    path = tmp_path / "game.json"
    path.write_text(records.dumps(game_in_play, "save"), encoding="utf-8")
    return path
