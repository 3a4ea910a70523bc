"""Three players: the neutral colour, its last column on a level, and the neutral challenge."""

from dataclasses import replace

from villa.rules import (Abort, Challenge, Collapse, CollapseCause, Decline, Object, ProposeFloor, TakeColumn,
                         apply, legal_actions, takeable_columns, whose_move)
from villa.rules.state import Role, Seal, Step

from .helpers import build, position, refused, three_players, turn_of

BLUE, RED, GREEN = 0, 1, 2  # yellow is neutral
NEUTRAL = {"yellow-thin-1", "yellow-thin-2", "yellow-thin-3", "yellow-hex", "yellow-thick"}


def test_a_neutral_column_first_then_an_own_one():
    state = turn_of(three_players(), BLUE)
    assert set(takeable_columns(state)) == NEUTRAL
    refused(state, TakeColumn("blue-thick"), "neutral-first")
    state = build(state, "yellow-hex")
    assert state.turn.step is Step.TAKE and state.turn.role is Role.OWN and whose_move(state) == BLUE
    refused(state, TakeColumn("yellow-thin-1"), "own-column")
    refused(state, ProposeFloor(), "not-now")
    state = build(state, "blue-thick")
    assert whose_move(state) == RED and state.turn.step is Step.START


def test_the_last_neutral_column_on_a_level_stays():
    state = position(turn_of(three_players(), BLUE), top=3, yellow_thin_1=1, yellow_thin_2=2, yellow_thin_3=2,
                     yellow_hex=3, yellow_thick=0)
    assert set(takeable_columns(state)) == {"yellow-thin-2", "yellow-thin-3"}
    refused(state, TakeColumn("yellow-thin-1"), "last-neutral")
    refused(state, TakeColumn("yellow-thick"), "last-neutral")


def test_no_movable_neutral_column_skips_the_neutral_step():
    state = position(turn_of(three_players(), BLUE), top=3, yellow_thin_1=1, yellow_thin_2=2, yellow_thin_3=3,
                     yellow_hex=3, yellow_thick=0)
    assert not set(takeable_columns(state)) & NEUTRAL
    state = build(state, "blue-thin-1")
    assert whose_move(state) == RED  # the own column was the whole turn


def test_the_player_may_propose_instead_of_the_neutral_move():
    state = position(turn_of(three_players(), BLUE), top=2, red_thin_1=2, blue_thin_1=2, green_thin_1=2)
    assert ProposeFloor() in legal_actions(state)
    state = apply(state, ProposeFloor())
    assert state.turn.step is Step.ASK and whose_move(state) == RED


def _aborted_neutral():
    """Red tries yellow-thin-1 (Fig. 8b, column A) and puts it back."""
    state = turn_of(three_players(), RED)
    state = apply(apply(state, TakeColumn("yellow-thin-1")), Abort())
    assert "yellow-thin-1" in state.blocked
    return state


def test_neutral_abort_nobody_challenges_then_the_own_column():
    state = _aborted_neutral()
    assert state.turn.step is Step.ASK and state.turn.role is Role.CHALLENGE
    assert legal_actions(state) == [Challenge(), Decline()]
    refused(state, Object(), "not-now")
    assert whose_move(state) == GREEN
    state = apply(state, Decline())
    assert whose_move(state) == BLUE
    state = apply(state, Decline())
    assert state.turn.role is Role.OWN and whose_move(state) == RED
    state = build(state, "red-thick")  # column B
    assert whose_move(state) == GREEN


def test_fig_8b_the_challenge_succeeds_and_red_loses_the_own_move():
    state = apply(_aborted_neutral(), Challenge())  # Green proves it
    assert state.turn.step is Step.TAKE and state.turn.role is Role.CHALLENGE and whose_move(state) == GREEN
    refused(state, TakeColumn("yellow-thin-1"), "aborted-column")  # a different neutral column
    refused(state, TakeColumn("green-thick"), "neutral-challenge")
    state = build(state, "yellow-thin-2")  # column C goes up
    assert state.levels["yellow-thin-2"] == 1 and state.levels["red-thick"] == 0
    assert whose_move(state) == GREEN and state.turn.step is Step.START  # Red's turn is over


def test_the_challenge_fails_and_red_moves_an_own_column_as_normal():
    state = apply(apply(_aborted_neutral(), Challenge()), TakeColumn("yellow-thin-2"))
    state = apply(state, Abort())
    assert "yellow-thin-2" in state.blocked
    assert state.turn.role is Role.OWN and whose_move(state) == RED
    state = build(state, "red-thick")
    assert whose_move(state) == GREEN


def test_a_collapse_during_the_challenge_is_the_challengers():
    state = apply(apply(_aborted_neutral(), Challenge()), TakeColumn("yellow-thin-2"))
    state = apply(state, Collapse(1.0, CollapseCause.COLUMN_TOPPLED, "yellow-thin-2"))
    assert state.result.collapsed_by == GREEN


def test_no_challenge_when_no_other_neutral_column_could_go_up():
    state = position(turn_of(three_players(), RED), top=2, yellow_thin_1=1, yellow_thin_2=1, yellow_thin_3=2,
                     yellow_hex=2, yellow_thick=0)
    state = replace(state, blocked=frozenset({"yellow-thin-2"}))  # aborted earlier
    state = apply(apply(state, TakeColumn("yellow-thin-1")), Abort())
    assert state.turn.step is Step.TAKE and state.turn.role is Role.OWN


def test_neutral_columns_score_for_nobody_and_the_seal_waits_for_an_own_column():
    state = position(turn_of(three_players(), BLUE), top=2, seal=Seal(holder=GREEN, shows=None, level=1))
    state = build(state, "yellow-thick")
    assert [state.points(p) for p in range(3)] == [0, 0, 0]
    assert state.seal.holder == GREEN and state.seal.level == 1
    state = build(state, "blue-thin-1")
    assert state.seal == Seal(holder=BLUE, shows=GREEN, level=2)


def test_the_objector_moves_the_proposers_own_colour_not_the_neutral():
    state = position(turn_of(three_players(), BLUE), top=2, red_thin_1=2, blue_thin_1=2, green_thin_1=2)
    state = apply(apply(state, ProposeFloor()), Object())
    refused(state, TakeColumn("yellow-thin-1"), "objection-proof")
    assert set(takeable_columns(state)) == {"blue-thin-2", "blue-thin-3", "blue-hex", "blue-thick"}


def test_refusals_name_the_rule_that_applies():
    state = turn_of(three_players(), BLUE)
    refused(state, TakeColumn("red-thin-1"), "neutral-first")
    skipped = position(state, top=3, yellow_thin_1=1, yellow_thin_2=2, yellow_thin_3=3, yellow_hex=3,
                       yellow_thick=0)
    refused(skipped, TakeColumn("red-thin-1"), "own-column")
    refused(skipped, TakeColumn("yellow-thin-1"), "last-neutral")
