"""The game in play, headless: requests in, facts to the referee once the villa settles, events out."""

from __future__ import annotations

import pytest

from villa import rules
from villa.match import (Accepted, Collapsed, GameOver, Match, MatchSetup, Seat, TurnSettled, layout_named)
from villa.match import record as records
from villa.physics.pulling import PlacementError
from villa.rules import grabbable_columns as grabbable
from villa.rules.state import Step
from villa.match import requests as rq

FRAMES_TO_SETTLE = 60 * 20


def _match(players=("Anna", "Ben", "Cleo", "Dario"), layout="free corners", seed=1, **setup) -> Match:
    return Match(MatchSetup(tuple(Seat(p) for p in players), layout_named(layout, seed), seed=seed,
                            deal_colours=True, **setup))


def _until(match: Match, done, frames: int = FRAMES_TO_SETTLE) -> None:
    for _ in range(frames):
        if done():
            return
        match.frame()
    assert done(), f"not after {frames} frames: {match.state.turn}"


def _carry_and_set_down(match: Match, column: str) -> None:
    """Draw a free column out, carry it over the middle of the top floor and set it down."""
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    pull = match.hand
    _until(match, lambda: pull.state == "carrying", 600)
    floor = match.villa.nodes[f"floor-{match.state.top_level}"].getPos()
    rq.ask(match, lambda s: rq.Aim(s, tuple(floor)))
    node = match.villa.nodes[column]
    _until(match, lambda: (node.getX() - floor.x) ** 2 + (node.getY() - floor.y) ** 2 < 0.01, 600)
    assert rq.ask(match, rq.SetDown).accepted


def test_a_new_match_deals_the_colours_and_records_the_villa_as_built():
    match = _match()
    assert all(match.state.colours) and match.state.turn.step is Step.START
    assert match.turn == 0 and match.turns[0].actions == len(match.state.log)
    assert match.villa.settled and not match.busy


def test_a_free_column_set_on_the_top_floor_is_judged_once_the_villa_settles():
    match = _match()
    seen = []
    match.events.subscribe(None, seen.append)
    player = match.actor
    column = f"{match.state.colours[player][0].value}-thin-3"   # free corners: it stands free
    _carry_and_set_down(match, column)
    assert match.state.turn.step is Step.IN_HAND, "the referee waits until the villa has settled"
    _until(match, lambda: match.turn == 1)
    assert match.state.levels[column] == 1 and match.actor != player and match.hand is None
    kinds = [type(e) for e in seen]
    assert kinds.count(Accepted) == 2 and kinds[-1] is TurnSettled
    assert seen[1].action == rules.ColumnPlaced(column, 1, True)


def test_refusals_come_back_and_change_nothing():
    match = _match()
    state = match.state
    other = next(c for c in rules.Colour if c not in state.colours[match.actor])
    refusal = rq.ask(match, lambda s: rq.Take(s, f"{other.value}-thick")).refusal
    assert isinstance(refusal, rules.RuleError) and refusal.rule == "own-column"
    assert isinstance(rq.ask(match, rq.SetDown).refusal, PlacementError), "nothing is carried"
    assert isinstance(rq.ask(match, rq.GiveUp).refusal, rules.RuleError)
    assert match.state is state and match.hand is None


def test_giving_up_puts_the_column_back_blocked_and_ends_the_turn():
    match = _match()
    before = match.villa.poses()
    column = grabbable(match.state)[0]
    player = match.actor
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted and rq.ask(match, rq.GiveUp).accepted
    assert column in match.state.blocked and match.actor != player
    assert match.villa.poses()[column] == before[column]
    _until(match, lambda: match.turn == 1)


def test_a_column_may_not_be_set_down_where_the_referee_would_refuse_it():
    match = _match()
    column = f"{match.state.colours[match.actor][0].value}-thin-3"
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    pull = match.hand
    _until(match, lambda: pull.state == "carrying", 600)
    where = match.villa.nodes[column].getPos()
    rq.ask(match, lambda s: rq.Aim(s, tuple((where.x, -12.5, where.z))))   # over the bare base plate, in front of the blue floor
    for _ in range(120):
        match.frame()
    refusal = rq.ask(match, rq.SetDown).refusal
    assert isinstance(refusal, rules.RuleError) and refusal.rule == "onto-top-floor"
    assert pull.state == "carrying" and match.state.turn.step is Step.IN_HAND


def test_a_collapse_ends_the_game_and_its_last_turn_is_written_down():
    match = _match()
    seen = []
    match.events.subscribe(None, seen.append)
    culprit = match.actor
    match.villa.wake()
    match.villa.body("floor-1").setLinearVelocity((90, 0, 0))
    _until(match, lambda: match.over)
    assert match.state.result.collapsed_by == culprit
    assert any(isinstance(e, Collapsed) for e in seen) and any(isinstance(e, GameOver) for e in seen)
    _until(match, lambda: match.turns[-1].actions == len(match.state.log))
    again = records.from_document(records.to_document(match.record))
    assert again.state == match.state, "a fallen villa's game loads back"


def test_a_family_round_that_ends_starts_the_next_on_a_villa_built_anew():
    match = _match(players=("Anna", "Ben"), ruleset=rules.RULE_SETS["family-freestyle-basic"])
    fallen = match.villa
    fallen.wake()
    fallen.body("floor-1").setLinearVelocity((90, 0, 0))
    _until(match, lambda: match.villa is not fallen)
    assert match.state.round == 2 and not match.collapsed and len(match.villa.columns) == 20
    again = records.from_document(records.to_document(match.record))
    assert Match(again.setup, again).villa.snapshot() == match.villa.snapshot()


def test_the_seal_rolls_the_same_for_the_same_game_taken_up_again():
    match = _match(players=("Anna", "Ben"), ruleset=rules.RULE_SETS["family-random-basic"], seed=5)
    roll = match.next_roll()
    copy = records.from_document(records.to_document(match.record))
    assert Match(copy.setup, copy).next_roll() == roll
    assert rq.ask(match, rq.Roll).accepted and match.state.log[-1] == roll


@pytest.mark.parametrize("floors", [2, 4])
def test_a_villa_started_higher_is_taken_up_by_the_referee(floors):
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben"), Seat("Cleo")), layout_named("random", 3, floors), seed=3))
    assert match.state.top_level == floors
    assert not rules.check_survey(match.state, match.villa.survey())

