"""The family edition in the window: a collapse ends the round, is shown again, and the next round
starts on a freshly built villa."""

from __future__ import annotations

import pytest
from panda3d.core import Vec3

from villa.rules import RULE_SETS, SealRoll

from .conftest import new_match

pytestmark = pytest.mark.gui


def test_a_collapse_ends_the_round_and_the_next_starts_on_a_fresh_villa(stage, frames):
    from villa.presentation.game import GameScreen
    match = new_match(players=("Anna", "Ben"), ruleset=RULE_SETS["family-freestyle-basic"])
    screen = GameScreen(stage, match)
    villa = match.villa
    try:
        frames(5)
        assert "round 1 of 3" in screen.hud.info.getText()
        culprit = match.actor
        villa.wake()
        villa.body("floor-1").setLinearVelocity(Vec3(80, 0, 0))
        for _ in range(900):
            frames()
            if screen.mode == "Replay":
                break
        assert screen.mode == "Replay", f"the fall is shown again ({villa.collapse}, {match.state.round})"
        assert match.state.round == 2 and match.state.scores[culprit] == 1
        assert "round 2 of 3" in screen.hud.info.getText()
        screen.escape()   # skips the replay
        for _ in range(1200):   # the fallen pieces come to rest, then the villa is built anew
            frames()
            if match.villa is not villa:
                break
        assert match.villa is not villa and match.villa.collapse is None
        assert len(match.villa.columns) == 20 and screen.panel is None and not match.over
        assert screen.mode == "Idle"
    finally:
        screen.close()


def test_the_seal_is_rolled_for_the_turn_as_a_tumbling_die(stage, frames, press_button, snapshot):
    """Family edition, random colour: "Roll the seal" sets the seal tumbling over the villa; once it
    lies, the colour is named, and a moment later the turn asks for a column of that colour."""
    from villa.presentation import panels
    from villa.presentation.game import GameScreen
    from villa.presentation.words import guidance
    from villa.rules import Task
    match = new_match(players=("Anna", "Ben"), ruleset=RULE_SETS["family-random-basic"], seed=3)
    screen = GameScreen(stage, match)
    try:
        frames(5)
        assert guidance(match.state).task is Task.SEAL_ROLL
        press_button(screen.hud.commands.buttons["roll"])
        toss = screen.panel
        assert isinstance(toss, panels.SealToss) and toss.rolling and screen.mode == "Rolling"
        assert toss.over.getText() == "Anna rolls the Master Builder Seal"
        assert guidance(match.state).task is Task.SEAL_ROLL, "nothing is decided while the seal tumbles"
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
        assert match.state.log[-1] == SealRoll(rolled)
        assert guidance(match.state).task is not Task.SEAL_ROLL
        shown = toss.title.getText()
        assert shown == ("An end face: any colour" if rolled is None else rolled.value.capitalize())
    finally:
        screen.close()
