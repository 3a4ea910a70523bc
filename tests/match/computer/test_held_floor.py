"""A computer player lays a floor with the builder's hands: lowered and held, felt, shifted until it sits,
and only then let go."""

from __future__ import annotations

from villa.match.computer import hands
from villa.match.computer.plans import Plan
from villa.rules.state import Step

from tests.match.test_held_hand import KNOCKED_OFF_X, OFF_BALANCE_X, _laying


def _lay(plan: Plan):
    match = _laying()
    proposer = match.actor
    for _ in hands.lay_floor(match, plan):
        match.frame()
    for _ in range(60 * 10):
        if match.over or match.actor != proposer:
            break
        match.frame()
    return match, proposer


def test_a_floor_lowered_off_balance_is_lifted_and_shifted_until_it_sits_then_laid():
    match, proposer = _lay(Plan(floor=(OFF_BALANCE_X, 0.0, 0.0), shifts=4))
    assert not match.over and match.state.top_level == 2 and match.actor != proposer
    assert match.villa.tilt_deg("floor-2") < 0.5


def test_a_floor_that_will_not_sit_is_given_up_not_let_go():
    match, proposer = _lay(Plan(floor=(KNOCKED_OFF_X, 0.0, 0.0), shifts=0))
    assert not match.over and not match.collapsed and match.state.top_level == 1
    assert match.state.turn.step is not Step.LAY_FLOOR and "floor-2" not in match.villa.nodes


def test_a_rash_hand_lets_go_a_floor_that_tips_and_brings_the_villa_down():
    match, proposer = _lay(Plan(floor=(KNOCKED_OFF_X, 0.0, 0.0), shifts=0, rash=True))
    assert match.over and match.state.result.collapsed_by == proposer
