"""Every rule set, played by a simple policy (`sweep.Policy`) at the hot seat and online at once, tells the same
game: the sweep, behind the `slow` marker (`pytest -m slow tests/conformance`, about five minutes on two busy
cores). The default run's sample is the scripted games of `test_conformance.py`."""

from __future__ import annotations

import pytest

from villa.rules import RULE_SETS
from tests.conformance.lockstep import Lockstep
from tests.conformance.sweep import played_by_policy, setup_for

def _played_the_same(name: str) -> None:
    game = played_by_policy(setup_for(name), name)
    tables = Lockstep(game.setup)
    try:
        tables.play(game.script)
        tables.finish()
    finally:
        tables.close()
    assert tables.local.over


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_rule_set_is_played_the_same_online(name):
    _played_the_same(name)
