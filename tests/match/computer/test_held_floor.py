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


def test_the_weaker_the_hand_the_further_off_its_place_it_lowers_the_floor_and_the_sooner_it_stops_shifting():
    from villa import rules
    from villa.match.computer import brain
    from villa.match.computer.plans import Request

    match = _laying()
    state = rules.state_to_json(match.state)
    snapshot = match.villa.snapshot()

    def plans(strength):
        return [brain.think(Request(state, snapshot, match.actor, strength, seed)) for seed in range(8)]
    hard = plans("hard")
    place = hard[0].floor
    assert all(p.floor == place and p.shifts == 4 and not p.rash for p in hard), "Hard's hand is sure"

    def off(plan):
        return ((plan.floor[0] - place[0]) ** 2 + (plan.floor[1] - place[1]) ** 2) ** 0.5
    medium, easy = plans("medium"), plans("easy")
    assert 0 < sum(map(off, medium)) < sum(map(off, easy))
    assert {p.shifts for p in medium} == {3} and {p.shifts for p in easy} == {1}
    assert plans("easy") == easy, "the same seed, the same slips"
