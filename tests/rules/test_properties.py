"""Random legal games for 2, 3 and 4 players under every rule set, checking the engine's contract.

The default run plays a few hundred games; VILLA_RULES_PROFILE=thorough plays thousands.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from villa.rules import RULE_SETS

from . import random_games

settings.register_profile("villa-rules-default", max_examples=20, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("villa-rules-thorough", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
random_games.PROFILE = os.environ.get("VILLA_RULES_PROFILE", "default")
PROFILE = settings.get_profile(f"villa-rules-{random_games.PROFILE}")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ruleset_name", sorted(RULE_SETS))
@settings(PROFILE)
@given(seed=st.integers(0, 2**32 - 1), collapse_rate=st.sampled_from([0.0, 0.003, 0.03]))
def test_random_legal_games_keep_the_rules(ruleset_name, players, seed, collapse_rate):
    random_games.play(RULE_SETS[ruleset_name], players, seed, collapse_rate)
