"""The family edition in the window: a collapse ends the round, is shown again, and the next round
starts on a freshly built villa."""

from __future__ import annotations

import pytest
from panda3d.core import Vec3

from villa.rules import RULE_SETS

pytestmark = pytest.mark.gui


def test_a_collapse_ends_the_round_and_the_next_starts_on_a_fresh_villa(stage, frames):
    from villa.app.match import MatchOptions, build_layout
    from villa.physics import layouts
    from villa.physics.world import Villa
    from villa.presentation.game import GameScreen, Match
    from villa.presentation.referee import Referee
    layout = build_layout(MatchOptions(layout="rings"))
    villa = Villa.from_layout(layout, setup=True)
    villa.run_until_settled(5)
    referee = Referee(("Anna", "Ben"), frozenset(s.column for s in layouts.supports(layout, 1)),
                      ruleset=RULE_SETS["family-freestyle-basic"])
    screen = GameScreen(stage, Match(layout, villa, referee))
    try:
        frames(5)
        assert "round 1 of 3" in screen.hud.info.getText()
        culprit = referee.actor
        villa.wake()
        villa.body("floor-1").setLinearVelocity(Vec3(80, 0, 0))
        for _ in range(600):
            frames()
            if screen.playback is not None:
                break
        assert screen.playback is not None, f"the fall is shown again ({villa.collapse}, {referee.state.round})"
        assert referee.state.round == 2 and referee.state.scores[culprit] == 1
        assert "round 2 of 3" in screen.hud.info.getText()
        screen.escape()   # skips the replay
        frames(3)
        assert screen.villa is not villa and screen.villa.collapse is None
        assert len(screen.villa.columns) == 20 and screen.panel is None and not referee.over
    finally:
        screen.close()
