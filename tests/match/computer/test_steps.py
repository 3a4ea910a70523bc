"""Every step the referee can ask of a player has a computer decision the referee accepts: the colours,
the start of a turn under every rule set and player count, the own move after the neutral column,
the neutral challenge, the objection and its proof, the penalty pull (or forgoing it), laying or giving
up a floor, the family edition's rolls and challenges. And a plan the live villa will not follow ends
cleanly, by the rules."""

from __future__ import annotations

import dataclasses
import math

import pytest

from panda3d.core import Point3

from villa import rules

from villa.match import Match, MatchSetup, Refused, Seat, Strength, layout_named
from villa.match.computer import ComputerSeat, brain, hands
from villa.match.computer.plans import Plan, Request
from villa.physics.dimensions import FLOORS, ColumnSpot, FloorSpot, Layout, column_spec
from villa.rules import eligibility
from villa.rules.state import Role, Step
from villa.match import requests as rq

from tests.match.computer.test_calls import FREE_ON_BLUE, GREEN_AT, _base_ring, _green_on

STRENGTHS = ("easy", "medium", "hard")


def _think(match: Match, state: rules.GameState, strength: str = "medium") -> Plan:
    return brain.think(Request(rules.state_to_json(state), match.villa.snapshot(), rules.whose_move(state),
                               strength, 7))


def _accepted(state: rules.GameState, plan: Plan) -> None:
    """The plan is one the referee takes at this step."""
    if plan.pulls:
        assert plan.column in rules.takeable_columns(state) or (
            state.turn.step is Step.TAKE_OUT and plan.column in eligibility.objector_columns_in_villa(state)), plan
    elif plan.lays:
        assert state.turn.step is Step.LAY_FLOOR
    else:
        rules.apply(state, plan.action)   # raises if refused


def _to_first_turn(match: Match, strength: str) -> rules.GameState:
    while match.state.turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE, Step.FAMILY_ROLL):
        if rules.is_chance_node(match.state):
            rq.ask(match, rq.Roll)
            if match.state.turn.step is Step.START:
                break
            continue
        plan = _think(match, match.state, strength)
        assert rq.ask(match, lambda s: rq.request_for(s, plan.action)).accepted
    return match.state


@pytest.mark.parametrize("number,ruleset", list(enumerate(sorted(rules.RULE_SETS))))
def test_colours_and_the_first_turn_under_every_rule_set(number, ruleset):
    players = 2 + number % 3
    strength = STRENGTHS[number % 3]
    seats = tuple(Seat(f"Computer {i}", Strength(strength)) for i in range(players))
    match = Match(MatchSetup(seats, layout_named(("rings", "colonnade", "free corners")[number % 3]),
                             rules.RULE_SETS[ruleset], seed=number + 1))
    state = _to_first_turn(match, strength)
    assert state.turn.step is Step.START
    _accepted(state, _think(match, state, strength))


def _three_players() -> Match:
    seats = tuple(Seat(f"Computer {i}", Strength.MEDIUM) for i in range(3))
    match = Match(MatchSetup(seats, layout_named("free corners"), seed=2, deal_colours=True))
    assert match.state.neutral is not None and match.state.turn.step is Step.START
    return match


def test_the_own_move_after_the_neutral_column_and_the_neutral_challenge():
    match = _three_players()
    state = match.state
    neutral = eligibility.neutral_takeable(state)
    taken = rules.apply(state, rules.TakeColumn(neutral[0]))
    own = rules.apply(taken, rules.ColumnPlaced(neutral[0], 1, True))
    assert own.turn.step is Step.TAKE and own.turn.role is Role.OWN
    _accepted(own, _think(match, own))
    asked = rules.apply(taken, rules.Abort())
    assert asked.turn.step is Step.ASK and asked.turn.role is Role.CHALLENGE
    answer = _think(match, asked)
    _accepted(asked, answer)
    if answer.action == rules.Challenge():
        proof = rules.apply(asked, answer.action)
        _accepted(proof, _think(match, proof))


def _higher(players: int = 4, ruleset: rules.RuleSet = rules.PUBLISHER) -> Match:
    """A villa set up higher: three columns on the green floor, so the yellow one may be proposed."""
    on_green = [ColumnSpot(f"{c}-thin-2", 2, GREEN_AT[0] + x, y) for c, (x, y) in
                zip(("blue", "red", "yellow"), ((3.0, 0.0), (-2.0, 3.0), (-2.0, -3.0)))]
    free = [ColumnSpot(c, 1, *spot) for c, spot in zip(("blue-thick", "red-thick", "green-thick"), FREE_ON_BLUE)]
    layout = Layout("test", tuple(_base_ring() + _green_on(["blue-thin-1", "red-thin-1", "yellow-thin-1"])
                                  + on_green + free), (FloorSpot(1, 0.0, 0.0), FloorSpot(2, *GREEN_AT)))
    seats = tuple(Seat(f"Computer {i}", Strength.MEDIUM) for i in range(players))
    return Match(MatchSetup(seats, layout, ruleset, seed=5))


def _proposal() -> tuple[Match, rules.GameState]:
    match = _higher()
    return match, rules.apply(match.state, rules.ProposeFloor())


def test_the_objection_its_proof_the_penalty_pull_and_the_floor():
    match, asked = _proposal()
    if asked.turn.step is Step.ASK:
        _accepted(asked, _think(match, asked, "hard"))
        proof = rules.apply(asked, rules.Object())
        assert proof.turn.step is Step.TAKE and proof.turn.role is Role.PROOF
        _accepted(proof, _think(match, proof, "hard"))
        column = rules.takeable_columns(proof)[0]
        failed = rules.apply(rules.apply(proof, rules.TakeColumn(column)), rules.Abort())
        assert failed.turn.step is Step.TAKE_OUT
        _accepted(failed, _think(match, failed, "hard"))
    lay = asked
    while lay.turn.step is Step.ASK:
        lay = rules.apply(lay, rules.Decline())
    assert lay.turn.step is Step.LAY_FLOOR
    plan = _think(match, lay, "hard")
    _accepted(lay, plan)
    assert plan.lays   # three columns on the green floor carry the yellow one


def test_the_family_edition_rolls_and_challenges():
    match = _higher(3, rules.RULE_SETS["family-random-tournament"])
    seat = ComputerSeat(match, match.state.turn.actor, Strength.HARD)
    assert rules.is_chance_node(match.state)
    seat.before_frame()   # it rolls the seal for its colour
    state = match.state
    assert state.turn.step is Step.START and state.turn.colours
    claimed = rules.apply(state, rules.ProposeFloor())
    assert claimed.turn.step is Step.ASK and claimed.turn.role is Role.FAMILY_CHALLENGE
    answer = _think(match, claimed, "hard")
    _accepted(claimed, answer)
    lay = rules.apply(rules.apply(claimed, rules.Decline()), rules.Decline())
    assert lay.turn.step is Step.LAY_FLOOR
    _accepted(lay, _think(match, lay, "hard"))


def test_a_pull_the_live_villa_will_not_follow_is_given_up_by_the_rules():
    match, _ = _proposal()
    state = match.state
    column = next(c for c in rules.takeable_columns(state) if c.endswith("thin-1"))   # under the green floor
    seat = ComputerSeat(match, state.turn.actor, Strength.MEDIUM)
    # drawn toward the villa's middle, it stays under the floor: the hand gives it up in time
    plan = Plan(column=column, direction=(1.0, 0.0), distance=0.5, speed=0.2, steady=True, landing=(0.0, 0.0))
    seat.move = hands.pull(match, plan)
    for _ in range(60 * 30):
        if match.state.turn.player != state.turn.player or match.collapsed:
            break
        seat.before_frame()
        match.frame()
    assert not match.collapsed
    assert column in match.state.blocked and match.state.turn.player != state.turn.player


def _pulled_through(match: Match, plan: Plan, measure) -> list[float]:
    """The hand carries `plan` out to the end of the turn; `measure()` is read each time it sets the
    column down."""
    measured = []
    request = match.request

    def watched(asked):
        if isinstance(asked, rq.SetDown):
            measured.append(measure())
        return request(asked)

    match.request = watched
    move = hands.pull(match, plan)
    for _ in range(60 * 40):
        if match.turn == 1 or match.collapsed:
            break
        next(move, None)
        match.frame()
    return measured


def test_a_column_is_never_set_down_swinging_over_the_edge_of_the_top_floor():
    # Carried briskly across the floor to a spot just inside its far edge, the column swings on past
    # the spot for a moment: set down then, it would sink onto the edge and overhang (regulation 3).
    # The hand waits until it hangs still over its spot; nothing is refused.
    match = Match(MatchSetup((Seat("Computer 1", Strength.HARD), Seat("Computer 2", Strength.HARD)),
                             layout_named("free corners"), seed=3, deal_colours=True))
    refused = []
    match.events.subscribe(Refused, refused.append)
    column = f"{match.state.colours[match.actor][0].value}-thin-3"   # free corners: it stands free
    start = match.villa.nodes[column].getPos()
    floor = match.villa.nodes["floor-1"]
    far = max(FLOORS[1].outline, key=lambda p: (p[0] - start.x) ** 2 + (p[1] - start.y) ** 2)
    inward = 1.0 - (column_spec(column).radius + 0.2) / math.hypot(*far)
    spot = match.villa.root.getRelativePoint(floor, Point3(far[0] * inward, far[1] * inward, 0))
    plan = Plan(column=column, direction=None, distance=0.0, speed=9.0, steady=False, landing=(spot.x, spot.y))
    node = match.villa.nodes[column]
    let_go_at = _pulled_through(match, plan, lambda: node.node().getLinearVelocity().getXy().length())
    assert not refused and not match.collapsed
    assert match.state.levels[column] == 1
    assert let_go_at and max(let_go_at) < 1.0, "cm/s the column still swung as it was set down"


def test_a_spot_the_floors_carried_a_column_onto_is_given_up_for_another():
    # A pull can shift the floors and the columns on them: the spot chosen before it may then lie under a
    # neighbour's top, and a column lowered onto that edge tips off it over the floor's edge. The hand
    # finds another spot; nothing is refused.
    match = Match(MatchSetup((Seat("Computer 1", Strength.HARD), Seat("Computer 2", Strength.HARD)),
                             layout_named("random", 3, 3), seed=1, deal_colours=True))
    refused = []
    match.events.subscribe(Refused, refused.append)
    top = match.state.top_level
    neighbour = match.villa.nodes["red-thick"]   # on the top floor
    assert match.state.levels["red-thick"] == top
    plan = brain.think(Request(rules.state_to_json(match.state), match.villa.snapshot(), match.actor, "hard", 1))
    assert plan.pulls and not plan.give_up
    column = plan.column
    # its foot a few millimetres over the neighbour's top (game 182 of the benchmark: 2.8 mm)
    reach = column_spec(column).radius + column_spec("red-thick").radius - 0.3
    outward = math.atan2(neighbour.getY(), neighbour.getX())
    overrun = (neighbour.getX() - reach * math.cos(outward), neighbour.getY() - reach * math.sin(outward))
    plan = dataclasses.replace(plan, landing=overrun)
    lowered_at = _pulled_through(match, plan, lambda: (match.villa.nodes[column].getPos()
                                                       - match.villa.nodes["red-thick"].getPos()).getXy().length())
    assert not refused and not match.collapsed
    assert match.state.levels[column] == top
    placed, beside = match.villa.nodes[column].getPos(), match.villa.nodes["red-thick"].getPos()
    gap = math.hypot(placed.x - beside.x, placed.y - beside.y)
    clear = column_spec(column).radius + column_spec("red-thick").radius
    assert gap >= clear
    assert lowered_at and min(lowered_at) >= clear, "cm between the centres where it was lowered"
