"""The computer players' strategic calls on positions from the rulebooks, built as villas set up higher:
it leaves the three columns under a freshly laid floor alone while it has another choice, objects only
when it can prove it, takes the seal back when a column brings it more points than the holder, and
gives a failed penalty pull no column whose removal would bring the villa down; on the red floor the seal's
holder risks nothing while no rival's column would outscore it, and the others build on."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from villa import rules
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match.computer import brain, reading
from villa.match.computer.plans import Request
from villa.physics import geometry, layouts
from villa.physics.dimensions import FLOORS, ColumnSpot, FloorSpot, Layout, column_spec
from villa.physics.world import Villa
from villa.rules.pieces import TOP_FLOOR_LEVEL
from villa.rules.setup import pick_order, seeded_deal

SEED = 5
GREEN_AT = (-3.0, 0.0)
SUPPORT_ANGLES = (90, 210, 330)


def _base_ring() -> list[ColumnSpot]:
    """Eight columns on the base plate carry the blue floor (the crescent's bite left open)."""
    ids = [f"{c}-{k}" for c in ("blue", "red", "yellow", "green") for k in ("hex", "thin-3")]
    return [ColumnSpot(cid, 0, 6.0 * math.cos(math.radians(a)), 6.0 * math.sin(math.radians(a)))
            for cid, a in zip(ids, (0, 40, 135, 175, 215, 255, 295, 330))]


def _green_on(supports: list[str]) -> list[ColumnSpot]:
    """The green floor's three columns on the blue floor."""
    return [ColumnSpot(cid, 1, GREEN_AT[0] + 3.5 * math.cos(math.radians(a)), GREEN_AT[1] + 3.5 * math.sin(math.radians(a)))
            for cid, a in zip(supports, SUPPORT_ANGLES)]


FREE_ON_BLUE = ((10.0, 0.0), (9.2, 3.0), (9.2, -3.0))   # on the blue floor, clear of the green one


def _villa(extra: list[ColumnSpot]) -> Layout:
    layout = Layout("test", tuple(_base_ring() + extra), (FloorSpot(1, 0.0, 0.0), FloorSpot(2, *GREEN_AT)))
    assert layouts.problems(layout) == []
    return layout


def _dealt(players: int) -> tuple[tuple[rules.Colour, ...], ...]:
    names = tuple(f"P{i}" for i in range(players))
    deal = seeded_deal(rules.GameSetup(rules.PUBLISHER, names), SEED)
    colours: list[list[rules.Colour]] = [[] for _ in names]
    for seat, colour in zip(pick_order(rules.GameSetup(rules.PUBLISHER, names)), deal):
        colours[seat].append(colour)
    return tuple(tuple(c) for c in colours)


def _match(layout: Layout, players: int) -> Match:
    seats = tuple(Seat(f"Computer {i}", Strength.HARD) for i in range(players))
    match = Match(MatchSetup(seats, layout, seed=SEED))
    assert match.villa.collapse is None and match.state.turn.step is rules.Step.START
    return match


def _decide(match: Match, state: rules.GameState, strength: str = "hard") -> brain.Plan:
    player = rules.whose_move(state)
    return brain.think(Request(rules.state_to_json(state), match.villa.snapshot(), player, strength, 3))


def test_it_leaves_the_three_columns_under_a_fresh_floor_alone_when_it_has_another_choice():
    colours = _dealt(4)
    mover = pick_order(rules.GameSetup(rules.PUBLISHER, ("a", "b", "c", "d")))[-1]
    own = colours[mover][0].value
    others = [c.value for c in rules.Colour if c.value != own]
    supports = [f"{own}-thin-1", f"{others[0]}-thin-1", f"{others[1]}-thin-1"]
    free = [ColumnSpot(f"{own}-thin-2", 1, *FREE_ON_BLUE[0])]
    match = _match(_villa(_green_on(supports) + free), 4)
    assert match.actor == mover
    for strength in ("medium", "hard"):
        plan = _decide(match, match.state, strength)
        assert plan.column == f"{own}-thin-2", (strength, plan)


def test_it_objects_only_when_it_can_prove_it():
    colours = _dealt(4)
    proposer = pick_order(rules.GameSetup(rules.PUBLISHER, ("a", "b", "c", "d")))[-1]
    own = colours[proposer][0].value
    others = [c.value for c in rules.Colour if c.value != own]
    supports = [f"{own}-thin-1", f"{others[0]}-thin-1", f"{others[1]}-thin-1"]
    on_green = [ColumnSpot(f"{c}-thin-2", 2, GREEN_AT[0] + x, y) for c, (x, y) in
                zip(others, ((3.0, 0.0), (-2.0, 3.0), (-2.0, -3.0)))]
    # the proposer's own hexagonal and thin columns on the base plate carry the blue floor: out of them
    ring = [s for s in _base_ring() if not s.column.startswith(own)]

    def asked(extra: list[ColumnSpot]) -> tuple[Match, rules.GameState]:
        layout = Layout("test", tuple(ring + _green_on(supports) + on_green + extra),
                        (FloorSpot(1, 0.0, 0.0), FloorSpot(2, *GREEN_AT)))
        match = _match(layout, 4)
        state = rules.apply(match.state, rules.ProposeFloor())
        assert state.turn.step is rules.Step.ASK and state.turn.role is rules.Role.PROOF
        return match, state

    match, state = asked([])   # only a column under the fresh floor to prove it with: that would tip it
    for strength in ("easy", "medium", "hard"):
        assert _decide(match, state, strength).action == rules.Decline(), strength
    match, state = asked([ColumnSpot(f"{own}-thin-3", 1, *FREE_ON_BLUE[0])])   # one stands free
    asked_player = state.turn.actor
    if (proposer + 1) % 4 == asked_player:   # the next player wants the floor: it sets the first column on it
        state = rules.apply(state, rules.Decline())
    for strength in ("easy", "medium", "hard"):
        assert _decide(match, state, strength).action == rules.Object(), strength


def test_hard_takes_the_seal_back_when_a_column_brings_it_more_points_than_the_holder():
    colours = _dealt(4)
    mover = pick_order(rules.GameSetup(rules.PUBLISHER, ("a", "b", "c", "d")))[-1]
    own = colours[mover][0].value
    holder = (mover + 1) % 4
    theirs = colours[holder][0].value
    rest = [c.value for c in rules.Colour if c.value not in (own, theirs)]
    supports = [f"{rest[0]}-thin-1", f"{rest[1]}-thin-1", f"{rest[0]}-thin-2"]
    on_green = [ColumnSpot(f"{theirs}-thick", 2, GREEN_AT[0] + 3.5, 0.0),
                ColumnSpot(f"{own}-thin-1", 2, GREEN_AT[0] - 2.5, 2.5)]
    free = [ColumnSpot(f"{own}-thick", 1, *FREE_ON_BLUE[0]), ColumnSpot(f"{own}-thin-2", 1, *FREE_ON_BLUE[1])]
    match = _match(_villa(_green_on(supports) + on_green + free), 4)
    state = replace(match.state, seal=rules.Seal(holder, None, 2))
    assert state.points(mover) == 1 and state.points(holder) == 3
    plan = _decide(match, state, "hard")
    assert plan.column == f"{own}-thick", plan   # 1 + 3 > 3: the seal comes back


@pytest.mark.parametrize("strength", ["easy", "medium", "hard"])
def test_the_same_request_gives_the_same_plan(strength):
    match = _match(_villa(_green_on(["blue-thin-1", "red-thin-1", "yellow-thin-1"])
                          + [ColumnSpot("green-thin-1", 1, *FREE_ON_BLUE[0])]), 4)
    plans = {_decide(match, match.state, strength) for _ in range(2)}
    assert len(plans) == 1


def _failed_objection(on_green: list[str], more: list[ColumnSpot]) -> tuple[Match, rules.GameState, str]:
    """The proposer's objector failed to prove (its proof given up): the proposer may pull one of the
    objector's columns out of the game, or forgo it. The base ring holds none of the objector's columns;
    `on_green` are the columns standing on the green floor (their colours named), `more` stand elsewhere."""
    colours = _dealt(4)
    proposer = pick_order(rules.GameSetup(rules.PUBLISHER, ("a", "b", "c", "d")))[-1]
    objector = (proposer + 1) % 4
    own, theirs = colours[proposer][0].value, colours[objector][0].value
    rest = [c.value for c in rules.Colour if c.value not in (own, theirs)]
    names = {"own": own, "theirs": theirs, "rest0": rest[0], "rest1": rest[1]}
    ring = [s for s in _base_ring() if not s.column.startswith(theirs)]
    supports = [f"{own}-thin-1", f"{rest[0]}-thin-1", f"{rest[1]}-thin-1"]
    spots = ((3.0, 0.0), (-2.0, 3.0), (-2.0, -3.0), (0.3, 0.0))
    standing = [ColumnSpot(f"{names[who]}-thin-2", 2, GREEN_AT[0] + x, y) for who, (x, y) in zip(on_green, spots)]
    extra = [replace(s, column=s.column.format(**names)) for s in more]
    layout = Layout("test", tuple(ring + _green_on(supports) + standing + extra),
                    (FloorSpot(1, 0.0, 0.0), FloorSpot(2, *GREEN_AT)))
    assert layouts.problems(layout) == []
    match = _match(layout, 4)
    state = rules.apply(match.state, rules.ProposeFloor())
    assert state.turn.step is rules.Step.ASK and state.turn.actor == objector
    state = rules.apply(state, rules.Object())
    state = rules.apply(state, rules.TakeColumn(f"{own}-thick"))
    state = rules.apply(state, rules.Abort())
    assert state.turn.step is rules.Step.TAKE_OUT and rules.whose_move(state) == proposer
    return match, state, theirs


def test_the_penalty_pull_spares_the_columns_the_floor_needs_and_is_forgone_when_nothing_else_is_left():
    own_free = ColumnSpot("{own}-thick", 1, *FREE_ON_BLUE[0])
    match, state, theirs = _failed_objection(["theirs", "rest0", "rest1"], [own_free])
    plan = _decide(match, state)
    assert plan.action == rules.ForgoPenalty(), plan   # its only column carries the yellow floor to come
    rules.apply(state, plan.action)

    match, state, theirs = _failed_objection(["theirs", "rest0", "rest1", "own"], [own_free])
    plan = _decide(match, state)
    assert plan.column == f"{theirs}-thin-2", plan     # four on the green floor: one can go, with its points

    match, state, theirs = _failed_objection(["theirs", "rest0", "rest1"],
                                             [ColumnSpot("{own}-thick", 1, *FREE_ON_BLUE[1]),
                                              ColumnSpot("{theirs}-thick", 1, *FREE_ON_BLUE[2])])
    plan = _decide(match, state)
    assert plan.column == f"{theirs}-thick", plan      # one stands free lower down: it comes out unfelt


def test_a_floor_that_cannot_be_laid_is_claimed_by_the_seal_holder_rather_than_a_column_given_up():
    colours = _dealt(4)
    mover = pick_order(rules.GameSetup(rules.PUBLISHER, ("a", "b", "c", "d")))[-1]
    own = colours[mover][0].value
    others = [c.value for c in rules.Colour if c.value != own]
    ring = [s for s in _base_ring() if not s.column.startswith(own)]
    supports = [f"{own}-thin-1", f"{others[0]}-thin-1", f"{others[1]}-thin-1"]
    on_green = [ColumnSpot(f"{own}-thin-2", 2, GREEN_AT[0] + 2.0, 0.0),
                ColumnSpot(f"{others[0]}-thin-2", 2, GREEN_AT[0] - 2.0, 0.0)]
    layout = Layout("test", tuple(ring + _green_on(supports) + on_green),
                    (FloorSpot(1, 0.0, 0.0), FloorSpot(2, *GREEN_AT)))
    match = _match(layout, 4)
    assert rules.takeable_columns(match.state) == [f"{own}-thin-1"]   # only from under the green floor
    assert not rules.eligibility.floor_can_be_laid(match.state)       # two columns cannot carry the yellow one
    holding = replace(match.state, seal=rules.Seal(mover, None, 2))
    plan = _decide(match, holding)
    assert plan.action == rules.ProposeFloor(), plan
    waiting = replace(match.state, seal=rules.Seal((mover + 1) % 4, None, 2))
    plan = _decide(match, waiting)
    assert plan.column == f"{own}-thin-1" and plan.give_up, plan   # a column given up keeps the game going

    claimed = rules.apply(holding, rules.ProposeFloor())
    while claimed.turn.step is rules.Step.ASK:
        answer = _decide(match, claimed)
        assert answer.action in (rules.Object(), rules.Decline()), answer
        claimed = rules.apply(claimed, rules.Decline())
    assert claimed.turn.step is rules.Step.LAY_FLOOR
    assert _decide(match, claimed).action == rules.GiveUpFloor()


def test_columns_set_on_the_top_floor_leave_the_next_floor_room_to_lie_on_them():
    """A column set down on the green floor stands wholly inside the smaller yellow floor laid over the
    green one: spread to the green floor's rim, the columns would stand half under the yellow floor's
    edge wherever it went, and nobody could lay it."""
    free = ColumnSpot("red-thick", 1, *FREE_ON_BLUE[0])
    villa = Villa.from_layout(_villa(_green_on(["red-thin-1", "blue-thin-1", "green-thin-1"]) + [free]))
    frame = reading.Frame(villa)
    narrowest = min(math.hypot(x, y) for x, y in FLOORS[3].outline)
    spots = reading.landings(villa, "red-thick", 2, frame, count=5)
    assert spots
    for x, y in spots:
        assert math.hypot(x - GREEN_AT[0], y - GREEN_AT[1]) + column_spec("red-thick").radius <= narrowest


def test_the_next_floor_may_lie_on_columns_standing_half_under_its_edge():
    """Eight columns in a ring 6.2 cm round the green floor's middle and one in it: wherever the yellow
    floor lies, some stand half under its edge. It carries on them (they hold it up; the floor stands on
    the others well inside), so the floor finds a place, and no column meets it with a sliver of its top."""
    ring_ids = [f"{c}-thin-{k}" for c in ("red", "yellow", "green", "blue") for k in (1, 2)]
    ring = [ColumnSpot(c, 2, GREEN_AT[0] + 6.2 * math.cos(math.radians(a)),
                       GREEN_AT[1] + 6.2 * math.sin(math.radians(a)))
            for c, a in zip(ring_ids, range(0, 360, 45))]
    middle = ColumnSpot("red-thick", 2, *GREEN_AT)
    villa = Villa.from_layout(_villa(_green_on(["blue-thick", "green-thick", "yellow-thick"]) + ring + [middle]))
    frame = reading.Frame(villa)
    spots = reading.floor_spots(villa, frame, 3, 3)
    assert spots
    best = spots[0]
    for column in frame.on_level(2):
        piece = frame.pieces[column]
        lx, ly = geometry.to_local(piece.x, piece.y, best.x, best.y, best.yaw)
        inside = geometry.signed_distance(FLOORS[3].outline, lx, ly)
        assert inside > 0 or inside < -column_spec(column).radius, column   # under it by half, or clear of it
        assert (inside > 0) == (column in best.supports)


def test_on_the_red_floor_hard_holding_the_seal_risks_nothing_unless_a_rival_would_outscore_it():
    # Once the red floor is laid no floor is left to claim: when building stops, the seal's holder wins.
    # Holding the seal claimed there with a lead no rival's column can overcome, a fall is its only way to
    # lose: it gives a column up rather than make a pull short of the firmest margin. Level with its rival,
    # the rival's next column takes the seal, so it builds on; and behind, stopping is losing: it pulls.
    match = Match(MatchSetup((Seat("A", Strength.HARD), Seat("B", Strength.HARD)), layout_named("random", 1, 5),
                             seed=1, deal_colours=True))
    state = match.state
    assert state.top_level == TOP_FLOOR_LEVEL and state.turn.step is rules.Step.START
    me = state.turn.player
    rival = 1 - me
    level = _decide(match, replace(state, seal=rules.Seal(me, None, TOP_FLOOR_LEVEL)))
    behind = _decide(match, replace(state, seal=rules.Seal(rival, None, TOP_FLOOR_LEVEL)))
    assert level.pulls and not level.give_up, level
    assert behind.pulls and not behind.give_up, behind
    # its hexagonal column (2 points) stands on the red floor; the rival's thick columns (3) are given up
    levels = dict(state.levels)
    levels[f"{state.colours[me][0].value}-hex"] = TOP_FLOOR_LEVEL
    thick = frozenset(f"{c.value}-thick" for c in state.colours[rival])
    leading = replace(state, levels=rules.FrozenMap(levels), blocked=state.blocked | thick,
                      seal=rules.Seal(me, None, TOP_FLOOR_LEVEL))
    assert leading.points(me) == 2 and leading.points(rival) == 0
    ahead = _decide(match, leading)
    assert ahead.pulls and ahead.give_up, ahead


def test_behind_on_the_red_floor_it_gives_up_a_hopeless_column_before_it_risks_a_pull():
    # Behind on the red floor stopping loses, but so does a fall: a column whose pull fell on the copy is
    # given up first (the holder must pull again), the risky pull is kept for when nothing is left to give
    # up, and a pull that takes the seal back is made if statics leave every floor inside its supports.
    match = Match(MatchSetup((Seat("A", Strength.HARD), Seat("B", Strength.HARD)), layout_named("random", 1, 5),
                             seed=1, deal_colours=True))
    state = match.state
    me = state.turn.player
    state = replace(state, seal=rules.Seal(1 - me, None, TOP_FLOOR_LEVEL))
    hard = brain.Brain(state, Request(rules.state_to_json(state), match.villa.snapshot(), me, "hard", 3))
    risky, hopeless, untried = rules.takeable_columns(state)[:3]

    def option(column: str, firm: float, gain: float = 0.5) -> brain.Option:
        fell = firm == -math.inf
        return brain.Option(brain.Plan(column=column), brain.FELL if fell else firm, firm, 0.0, 0.0 if fell else gain)

    tried = [option(risky, 0.1), option(hopeless, -math.inf)]
    plan = hard._build_past(tried, [risky, hopeless, untried])
    assert (plan.column, plan.give_up) == (hopeless, True)
    plan = hard._build_past(tried[:1], [risky])
    assert (plan.column, plan.give_up) == (risky, False)
    plan = hard._build_past([option(risky, 0.15, brain.RETAKE)] + tried[1:], [risky, hopeless, untried])
    assert (plan.column, plan.give_up) == (risky, False)
    plan = hard._build_past([option(risky, -0.5, brain.RETAKE)] + tried[1:], [risky, hopeless, untried])
    assert plan.give_up and plan.column in (risky, hopeless)   # a floor's load outside its supports: it tips


def test_the_red_floors_contest_is_a_ladder_easy_knows_none_of_it_medium_holds_the_seal_hard_also_builds_past():
    match = Match(MatchSetup((Seat("A", Strength.HARD), Seat("B", Strength.HARD)), layout_named("random", 1, 5),
                             seed=1, deal_colours=True))
    state = match.state
    me = state.turn.player
    holding = replace(state, seal=rules.Seal(me, None, TOP_FLOOR_LEVEL))
    behind = replace(state, seal=rules.Seal(1 - me, None, TOP_FLOOR_LEVEL))

    def stakes(strength: str, at: rules.GameState):
        request = Request(rules.state_to_json(at), match.villa.snapshot(), me, strength, 3)
        return brain.Brain(at, request)._last_floor_stakes()
    assert [stakes(s, holding) for s in ("easy", "medium", "hard")] == [None, brain.Stakes.AHEAD, brain.Stakes.AHEAD]
    assert [stakes(s, behind) for s in ("easy", "medium", "hard")] == [None, None, brain.Stakes.BEHIND]
