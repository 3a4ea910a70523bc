"""Any game the program can produce can be saved, loaded, continued and replayed: a seeded handful of the
sweep `scripts/sweep_saves.py` runs by the hundred."""

from __future__ import annotations

import pytest

from villa.app import sweep

SAMPLE = list(sweep.setups(60, first_seed=1, every=15))   # two, three and four players, layouts and rule sets


@pytest.mark.parametrize("setup", SAMPLE, ids=[f"{len(s.seats)}p-{s.layout.name}-{s.ruleset.name}" for s in SAMPLE])
def test_every_autosave_of_a_computer_game_loads_back_and_goes_on(setup, tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    assert sweep.check(setup, turns=3) == []
