"""Games saved by version 0.1 of the game (before the match layer) still load and play on."""

from __future__ import annotations

from pathlib import Path

import pytest

from villa.app import saves

OLD = sorted((Path(__file__).parent / "saves_0_1").glob("*.json"))


@pytest.mark.parametrize("path", OLD, ids=[p.stem for p in OLD])
def test_a_save_of_version_0_1_loads(path):
    game = saves.load(path)
    assert game.turn >= 1
    assert len(game.state.log) > len(game.start.log)
    assert not game.setup.builders_eye   # saved before the builder's eye: played without it
