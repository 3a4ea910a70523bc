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


def test_the_seal_is_rolled_for_the_turn_as_a_tumbling_die(stage, frames, press_button, snapshot):
    """Family edition, random colour: "Roll the seal" sets the seal tumbling over the villa; once it
    lies, the colour is named, and a moment later the turn asks for a column of that colour."""
    from villa.app.match import MatchOptions, build_layout
    from villa.physics import layouts
    from villa.physics.world import Villa
    from villa.presentation import panels
    from villa.presentation.flow import Task
    from villa.presentation.game import GameScreen, Match
    from villa.presentation.referee import Referee
    from villa.rules import SealRoll
    layout = build_layout(MatchOptions(layout="rings"))
    villa = Villa.from_layout(layout, setup=True)
    villa.run_until_settled(5)
    referee = Referee(("Anna", "Ben"), frozenset(s.column for s in layouts.supports(layout, 1)),
                      ruleset=RULE_SETS["family-random-basic"])
    screen = GameScreen(stage, Match(layout, villa, referee), seed=3)
    try:
        frames(5)
        assert referee.guidance().task is Task.SEAL_ROLL
        press_button(screen.hud.commands.buttons["roll"])
        toss = screen.panel
        assert isinstance(toss, panels.SealToss) and toss.rolling
        assert toss.over.getText() == "Anna rolls the Master Builder Seal"
        assert referee.guidance().task is Task.SEAL_ROLL, "nothing is decided while the seal tumbles"
        frames(30)
        snapshot("family-seal-tumbling")
        for _ in range(int((panels.TOSS_SECONDS + 0.5) * 60)):
            frames()
            if not toss.rolling:
                break
        assert not toss.rolling and toss.title.getText() != " "
        snapshot("family-seal-landed")
        rolled = toss.seal.colour
        for _ in range(int((panels.SHOWN_SECONDS + 0.5) * 60)):
            frames()
            if screen.panel is None:
                break
        assert screen.panel is None
        assert referee.state.log[-1] == SealRoll(rolled)
        assert referee.guidance().task is not Task.SEAL_ROLL
        shown = toss.title.getText()
        assert shown == ("An end face: any colour" if rolled is None else rolled.value.capitalize())
    finally:
        screen.close()
