"""Proposing a new floor, objections and both their outcomes, laying the floor (section B)."""

from dataclasses import replace

from villa.rules import (PUBLISHER, Abort, Collapse, CollapseCause, ColumnTakenOut, Decline, FloorLaid,
                         ForgoPenalty, GiveUpFloor, Object, Pass, ProposeFloor, TakeColumn, apply, expected_facts,
                         legal_actions, whose_move)
from villa.rules.state import Role, Seal, Step

from .helpers import build, four_players, position, refused, turn_of

BLUE, RED, YELLOW, GREEN = 0, 1, 2, 3
CRASH = Collapse(2.5, CollapseCause.FLOOR_TILTED, "floor-2")


def green_floor_ready(ruleset=PUBLISHER):
    """Top level 2 (green) with four columns on it; Red (seat 1) starts a turn."""
    state = position(four_players(ruleset), top=2, blue_thin_1=2, red_thin_1=2, yellow_thin_1=2, green_thin_1=2,
                     seal=Seal(holder=YELLOW, shows=BLUE, level=2))
    return turn_of(state, RED)


ON_TOP = frozenset({"blue-thin-1", "red-thin-1", "yellow-thin-1", "green-thin-1"})


def test_nobody_objects_the_floor_goes_on_and_the_turn_ends():
    state = apply(green_floor_ready(), ProposeFloor())
    asked = []
    while state.turn.step is Step.ASK:
        asked.append(whose_move(state))
        state = apply(state, Decline())
    assert asked == [YELLOW, GREEN, BLUE]  # clockwise from the proposer's left
    assert state.turn.step is Step.LAY_FLOOR and whose_move(state) == RED
    state = apply(state, FloorLaid(3, ON_TOP - {"blue-thin-1"}, inside_base=False))  # may overhang
    assert state.top_level == 3 and state.floor_supports[3] == ON_TOP - {"blue-thin-1"}
    assert whose_move(state) == YELLOW and state.turn.step is Step.START  # no column for the proposer


def test_a_proposal_only_at_the_start_of_a_turn():
    state = apply(green_floor_ready(), TakeColumn("red-hex"))
    refused(state, ProposeFloor(), "not-now")


def test_floor_order_and_minimum_support():
    state = apply(green_floor_ready(), ProposeFloor())
    for _ in range(3):
        state = apply(state, Decline())
    refused(state, FloorLaid(4, ON_TOP), "regulation-4")
    refused(state, FloorLaid(3, frozenset({"red-thin-1", "blue-thin-1"})), "floor-support")
    refused(state, FloorLaid(3, frozenset({"red-thin-1", "blue-thin-1", "red-hex"})), "floor-on-top-columns")
    state = apply(state, GiveUpFloor())  # the proposal is given up and the turn ends
    assert state.top_level == 2 and whose_move(state) == YELLOW


def test_a_floor_that_cannot_be_laid_may_still_be_claimed_and_unopposed_is_given_up():
    """004: "Das aufgelegte Plateau muss in jedem Fall mindestens drei Säulen bedecken. Ist dies
    unmöglich, muss der Spieler auf das Aufsetzen des Plateaus verzichten. Sein Spielzug ist beendet."
    """
    state = position(green_floor_ready(), blue_thin_1=1, red_thin_1=1)  # two columns on top: too few
    assert ProposeFloor() in legal_actions(state)
    state = apply(state, ProposeFloor())
    assert state.turn.step is Step.ASK and whose_move(state) == YELLOW  # the others may object as usual
    for _ in range(3):
        state = apply(state, Decline())
    assert state.turn.step is Step.LAY_FLOOR and whose_move(state) == RED
    assert legal_actions(state) == [GiveUpFloor()]
    assert not [f for f in expected_facts(state) if isinstance(f, FloorLaid)]
    refused(state, FloorLaid(3, frozenset({"yellow-thin-1", "green-thin-1"})), "floor-support")
    state = apply(state, GiveUpFloor())
    assert state.top_level == 2 and whose_move(state) == YELLOW and state.turn.step is Step.START


def test_an_objection_to_a_floor_that_cannot_be_laid():
    """004: "Die Mitspieler dürfen dagegen Widerspruch einlegen." - whether or not the floor could be laid."""
    state = position(green_floor_ready(), blue_thin_1=1, red_thin_1=1)
    state = apply(apply(state, ProposeFloor()), Object())  # Yellow objects, and fails
    state = apply(apply(state, TakeColumn("red-hex")), Abort())
    state = apply(state, ColumnTakenOut("yellow-thick"))
    assert legal_actions(state) == [GiveUpFloor()]
    assert apply(state, GiveUpFloor()).top_level == 2


def test_a_player_who_can_neither_build_nor_lay_a_floor_passes_or_claims_it_in_vain():
    # Red's one column on the top level and Green's leave two there; Red's others were given up in aborts.
    state = position(green_floor_ready(), blue_thin_1=1, yellow_thin_1=1)
    state = replace(state, blocked=frozenset({"red-thin-2", "red-thin-3", "red-hex", "red-thick"}))
    assert legal_actions(state) == [ProposeFloor(), Pass()]
    passed = apply(state, Pass())
    state = apply(state, ProposeFloor())
    assert state.turn.step is Step.LAY_FLOOR  # nothing of Red's could be moved: nobody can object
    given_up = apply(state, GiveUpFloor())
    assert whose_move(given_up) == whose_move(passed) == YELLOW
    assert given_up.quiet_turns == passed.quiet_turns == 1 and given_up.levels == passed.levels
    # enough columns on top to carry a floor: no pass
    refused(position(green_floor_ready(), red_thin_2=2, red_thin_3=2, red_hex=2, red_thick=2), Pass(), "must-build")


def test_no_proposal_after_the_red_floor():
    refused(position(green_floor_ready(), top=5), ProposeFloor(), "no-floor-left")


def test_objection_succeeds_the_column_leaves_the_game_and_no_floor():
    state = apply(green_floor_ready(), ProposeFloor())
    state = apply(state, Decline())  # Yellow
    state = apply(state, Object())   # Green is the first to object
    assert state.turn.step is Step.TAKE and state.turn.role is Role.PROOF and whose_move(state) == GREEN
    refused(state, TakeColumn("green-thick"), "objection-proof")  # must move one of the proposer's
    state = build(state, "red-thick")
    assert "red-thick" in state.out and state.levels["red-thick"] is None
    assert state.top_level == 2 and state.seal.holder == YELLOW  # the proof scores nothing
    assert whose_move(state) == YELLOW and state.turn.step is Step.START  # Red's turn is over


def test_objection_fails_the_proposer_takes_one_out_and_lays_the_floor():
    state = apply(green_floor_ready(), ProposeFloor())
    state = apply(state, Object())  # Yellow objects
    state = apply(state, TakeColumn("red-hex"))
    state = apply(state, Abort())
    assert "red-hex" in state.blocked and state.levels["red-hex"] == 0
    assert state.turn.step is Step.TAKE_OUT and whose_move(state) == RED
    refused(state, ColumnTakenOut("green-thick"), "objection-penalty")
    state = apply(state, ColumnTakenOut("yellow-thick"))
    assert "yellow-thick" in state.out
    assert state.turn.step is Step.LAY_FLOOR
    state = apply(state, FloorLaid(3, ON_TOP))
    assert state.top_level == 3 and whose_move(state) == YELLOW


def test_the_penalty_pull_is_the_proposers_right_not_a_duty():
    """004: "Schlägt sein Versuch jedoch fehl, darf der Antragsteller eine beliebige Säule des
    Widersprechenden aus der Villa entfernen und aus dem Spiel nehmen." (darf: may)"""
    refused(green_floor_ready(), ForgoPenalty(), "not-now")
    state = apply(green_floor_ready(), ProposeFloor())
    state = apply(state, Object())  # Yellow objects, and fails
    state = apply(apply(state, TakeColumn("red-hex")), Abort())
    assert state.turn.step is Step.TAKE_OUT and whose_move(state) == RED
    assert legal_actions(state) == [ForgoPenalty()]
    assert {f.column for f in expected_facts(state) if isinstance(f, ColumnTakenOut)} == {
        "yellow-thin-1", "yellow-thin-2", "yellow-thin-3", "yellow-hex", "yellow-thick"}
    forgone = apply(state, ForgoPenalty())
    assert forgone.turn.step is Step.LAY_FLOOR and whose_move(forgone) == RED
    assert forgone.out == state.out and forgone.levels == state.levels and forgone.log[-1] == ForgoPenalty()
    refused(forgone, ForgoPenalty(), "not-now")
    forgone = apply(forgone, FloorLaid(3, ON_TOP))
    assert forgone.top_level == 3 and whose_move(forgone) == YELLOW


def test_the_penalty_can_take_the_seal_from_the_objector():
    state = position(green_floor_ready(), yellow_thin_1=2, yellow_hex=2, red_thin_2=2,
                     seal=Seal(holder=YELLOW, shows=BLUE, level=2))  # yellow 3, red 2
    state = apply(state, ProposeFloor())
    state = apply(state, Object())
    state = apply(apply(state, TakeColumn("red-thick")), Abort())
    state = apply(state, ColumnTakenOut("yellow-hex"))  # yellow 1, red 2
    assert state.seal == Seal(holder=RED, shows=YELLOW, level=2)


def test_a_collapse_during_the_objection_is_the_objectors():
    state = apply(green_floor_ready(), ProposeFloor())
    state = apply(state, Object())  # Yellow, who holds the seal
    state = apply(state, TakeColumn("red-hex"))
    state = apply(state, CRASH)
    assert state.over and state.result.collapsed_by == YELLOW
    assert state.result.winner == BLUE  # the holder brought it down: the seal shows blue


def test_a_collapse_while_taking_out_or_laying_is_the_proposers():
    state = apply(green_floor_ready(), ProposeFloor())
    state = apply(state, Object())
    state = apply(apply(state, TakeColumn("red-hex")), Abort())
    assert apply(state, CRASH).result.collapsed_by == RED
    state = apply(state, ColumnTakenOut("yellow-thin-2"))
    assert apply(state, CRASH).result.collapsed_by == RED


def test_no_objection_is_possible_when_the_proposer_has_no_column_to_move():
    state = green_floor_ready()
    state = position(state, red_thin_2=2, red_thin_3=2, red_hex=2, red_thick=2)
    state = apply(state, ProposeFloor())
    assert state.turn.step is Step.LAY_FLOOR


def test_a_player_who_cannot_build_must_propose_and_else_passes():
    state = position(green_floor_ready(), red_thin_2=2, red_thin_3=2, red_hex=2, red_thick=2)
    assert legal_actions(state) == [ProposeFloor()]
    refused(state, Pass(), "must-build")
    state = position(state, top=5, blue_thin_1=5, red_thin_1=5, yellow_thin_1=5, green_thin_1=5,
                     red_thin_2=5, red_thin_3=5, red_hex=5, red_thick=5)
    assert legal_actions(state) == [Pass()]
    state = apply(state, Pass())
    assert whose_move(state) == YELLOW


def test_variant_floors_may_not_overhang_the_base_plate():
    rs = PUBLISHER.with_variants(floors_inside_base=True)
    state = apply(green_floor_ready(rs), ProposeFloor())
    for _ in range(3):
        state = apply(state, Decline())
    refused(state, FloorLaid(3, ON_TOP, inside_base=False), "floor-inside-base")
    assert apply(state, FloorLaid(3, ON_TOP, inside_base=True)).top_level == 3


def test_variant_two_columns_suffice_from_the_orange_floor_on():
    rs = PUBLISHER.with_variants(two_supports_from_orange=True)
    assert [rs.min_support(level) for level in (2, 3, 4, 5)] == [3, 3, 2, 2]
    state = position(green_floor_ready(rs), top=3, blue_thin_1=3, red_thin_1=3, yellow_thin_1=1,
                     green_thin_1=1)
    state = apply(state, ProposeFloor())  # two columns on top are enough for orange
    for _ in range(3):
        state = apply(state, Decline())
    refused(state, FloorLaid(4, frozenset({"red-thin-1"})), "floor-support")
    assert apply(state, FloorLaid(4, frozenset({"red-thin-1", "blue-thin-1"}))).top_level == 4
    plain = position(green_floor_ready(), top=3, blue_thin_1=3, red_thin_1=3, yellow_thin_1=1, green_thin_1=1)
    plain = apply(plain, ProposeFloor())
    for _ in range(3):
        plain = apply(plain, Decline())
    assert legal_actions(plain) == [GiveUpFloor()]  # three columns are needed under the publisher's rules


def test_variant_the_proposer_also_moves_a_column():
    rs = PUBLISHER.with_variants(proposer_moves_column=True)
    state = apply(green_floor_ready(rs), ProposeFloor())
    for _ in range(3):
        state = apply(state, Decline())
    state = apply(state, FloorLaid(3, ON_TOP))
    assert state.turn.step is Step.TAKE and state.turn.role is Role.OWN and whose_move(state) == RED
    state = build(state, "red-thick")
    assert state.levels["red-thick"] == 3 and state.seal.holder == RED
    assert whose_move(state) == YELLOW
