"""The builder's hands in the match: a floor or a column lowered and held, felt, lifted again, let go."""

from __future__ import annotations

import dataclasses

from panda3d.core import Point3

from villa import rules
from villa.match import LetGo, Match, MatchSetup, Seat, Touched, layout_named
from villa.physics.layouts import preset
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.state import Step
from villa.match import requests as rq

OFF_BALANCE_X = -6.0   # the green floor's centre 2 cm past the two column tops at x = -4: it tips onto them
KNOCKED_OFF_X = -8.0   # 4 cm past them: let go there, it falls


def square_on_blue() -> MatchSetup:
    """Two players on rings, four columns built up onto the blue floor in a square (x ±4, y ±2.5)."""
    layout = preset("rings")
    middle = sorted(layout.columns, key=lambda c: abs(c.y) + abs(c.x) / 10)[:4]
    corners = iter([(-4.0, -2.5), (4.0, -2.5), (-4.0, 2.5), (4.0, 2.5)])
    columns = tuple(dataclasses.replace(c, level=1, **dict(zip("xy", next(corners)))) if c in middle else c
                    for c in layout.columns)
    return MatchSetup((Seat("Anna"), Seat("Ben")), dataclasses.replace(layout, columns=columns), seed=4,
                      deal_colours=True)


def _laying() -> Match:
    """`square_on_blue`, the green floor proposed, nobody objects: the proposer is to lay it."""
    match = Match(square_on_blue())
    assert rq.ask(match, rq.Propose).accepted and rq.ask(match, lambda s: rq.Answer(s, False)).accepted
    assert match.state.turn.step is Step.LAY_FLOOR
    return match


def _frames(match: Match, count: int, until=lambda: False) -> None:
    for _ in range(count):
        if until():
            return
        match.frame()


def _held_at(match: Match, x: float):
    """Carry the floor over x (the blue floor's y), lower it and hold it there."""
    assert rq.ask(match, rq.LayFloor).accepted
    lay = match.hand
    rq.ask(match, lambda s: rq.Aim(s, tuple(Point3(x, 0, 0))))
    _frames(match, 60)
    assert rq.ask(match, lambda s: rq.Lower(s, hold=True)).accepted
    _frames(match, 90)
    return lay


def test_a_floor_held_off_balance_tips_is_lifted_moved_lowered_again_and_laid_once_it_sits():
    match = _laying()
    seen = []
    match.events.subscribe(None, seen.append)
    proposer = match.actor
    lay = _held_at(match, OFF_BALANCE_X)
    assert match.holding and lay.touching() and lay.tilt_deg() > 1.0, "it tips onto the two columns it reaches"
    tilt = lay.tilt_deg()
    _frames(match, 60)
    assert abs(lay.tilt_deg() - tilt) < 0.5 and not match.collapsed, "held: leaning, not falling"
    assert [type(e) for e in seen].count(Touched) == 1 and seen[-1].piece == "floor-2"
    assert rq.ask(match, rq.Lift).accepted
    _frames(match, 40)
    assert match.holding and not lay.touching(), "lifted clear, still in the hands"
    high_x, high_y = lay.high_side()
    grip = lay.grip_point()
    rq.ask(match, lambda s: rq.Aim(s, tuple(Point3(grip.x + 5 * high_x, grip.y + 5 * high_y, 0))))   # towards the side that stayed up
    _frames(match, 40)
    assert rq.ask(match, lambda s: rq.Lower(s, hold=True)).accepted
    _frames(match, 90)
    assert lay.touching() and lay.tilt_deg() < 0.5, "over its columns it sits level"
    assert match.state.turn.step is Step.LAY_FLOOR, "nothing counts while it is held"
    assert rq.ask(match, rq.LetGo).accepted and not match.holding
    assert isinstance(seen[-1], LetGo) and seen[-1].piece == "floor-2"
    _frames(match, 60 * 10, lambda: match.actor != proposer)
    assert match.state.top_level == 2 and not match.over and match.actor != proposer, "laid: the game goes on"


def test_a_floor_let_go_off_balance_falls_and_the_proposer_brought_the_villa_down():
    match = _laying()
    proposer = match.actor
    lay = _held_at(match, KNOCKED_OFF_X)
    assert not match.collapsed, "held, it does not fall"
    assert rq.ask(match, rq.LetGo).accepted
    _frames(match, 60 * 10, lambda: match.over)
    assert match.over and match.state.result.collapsed_by == proposer
    assert lay.state == "laid"


def test_knocking_the_villa_down_while_holding_the_floor_is_the_proposers_collapse():
    match = _laying()
    proposer = match.actor
    lay = _held_at(match, OFF_BALANCE_X)
    match.villa.wake()
    match.villa.body("floor-1").setLinearVelocity((90, 0, 0))
    _frames(match, 60 * 10, lambda: match.over)
    assert match.over and match.state.result.collapsed_by == proposer
    assert lay.state == "dropped" and match.hand is None and not match.holding


def test_giving_up_a_held_floor_puts_it_back_in_the_box_as_giving_up_a_carried_one_does():
    ends = []
    for held in (False, True):
        match = _laying()
        if held:
            _held_at(match, OFF_BALANCE_X)
            assert match.holding
        else:
            assert rq.ask(match, rq.LayFloor).accepted
        assert rq.ask(match, rq.GiveUp).accepted
        _frames(match, 60)
        assert match.hand is None and "floor-2" not in match.villa.nodes and not match.collapsed
        ends.append((match.state.turn, match.state.log[-1]))
    assert ends[0] == ends[1] and isinstance(ends[1][1], rules.GiveUpFloor)


def test_a_column_held_on_the_top_floor_and_let_go_is_placed():
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("free corners", 1), seed=1,
                             deal_colours=True))
    seen = []
    match.events.subscribe(None, seen.append)
    player = match.actor
    column = f"{match.state.colours[player][0].value}-thin-3"   # free corners: it stands free
    assert match.strain == 0.0, "no column in hand"
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    pull = match.hand
    _frames(match, 600, lambda: pull.state == "carrying")
    assert match.strain == pull.strain
    floor = match.villa.nodes["floor-1"].getPos()
    rq.ask(match, lambda s: rq.Aim(s, tuple(floor)))
    node = match.villa.nodes[column]
    _frames(match, 600, lambda: (node.getX() - floor.x) ** 2 + (node.getY() - floor.y) ** 2 < 0.01)
    assert rq.ask(match, lambda s: rq.SetDown(s, hold=True)).accepted
    _frames(match, 600, lambda: match.holding)
    _frames(match, 30)
    assert match.holding and pull.state == "held" and Touched(column) in seen
    assert match.state.turn.step is Step.IN_HAND, "held upright: not yet placed"
    assert rq.ask(match, rq.LetGo).accepted and LetGo(column) in seen
    _frames(match, 60 * 10, lambda: match.actor != player)
    assert match.state.levels[column] == 1 and match.hand is None


def test_a_held_column_lifted_again_is_carried_and_may_be_given_up():
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("free corners", 1), seed=1,
                             deal_colours=True))
    column = f"{match.state.colours[match.actor][0].value}-thin-3"
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    pull = match.hand
    _frames(match, 600, lambda: pull.state == "carrying")
    rq.ask(match, lambda s: rq.Aim(s, tuple(match.villa.nodes["floor-1"].getPos())))
    _frames(match, 240)
    assert rq.ask(match, lambda s: rq.SetDown(s, hold=True)).accepted
    _frames(match, 600, lambda: match.holding)
    assert rq.ask(match, rq.GiveUp).accepted and match.hand is None
    assert column in match.state.blocked, "given up while held: back, and blocked"


def test_hands_that_hold_nothing_are_refused_with_codes():
    match = _laying()
    state = match.state
    for request in (rq.Lift, rq.LetGo, rq.Lower):
        refusal = rq.ask(match, request).refusal
        assert isinstance(refusal, rules.RuleError) and refusal.rule == "not-now", request.__name__
    refusal = rq.ask(match, lambda s: rq.SetDown(s, hold=True)).refusal
    assert isinstance(refusal, PlacementError) and refusal.code is Refusal.NOT_FREE_TO_SET_DOWN
    assert rq.ask(match, rq.LayFloor).accepted and not match.holding
    for request in (rq.Lift, rq.LetGo):   # carried, not yet held
        refusal = rq.ask(match, request).refusal
        assert isinstance(refusal, rules.RuleError) and refusal.rule == "not-now", request.__name__
    assert match.state is state and match.hand.state == "carrying"
