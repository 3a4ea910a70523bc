"""The end of the game and the winner (section D), including the cases decided by the project."""

from dataclasses import replace

from villa.rules import (Abort, Collapse, CollapseCause, Decline, GiveUpFloor, ProposeFloor, TakeColumn,
                         apply, legal_actions)
from villa.rules.errors import GameOver
from villa.rules.state import Seal, Step

import pytest

from .helpers import build, four_players, position, turn_of

BLUE, RED, YELLOW, GREEN = 0, 1, 2, 3
CRASH = Collapse(3.0, CollapseCause.PIECE_ON_TABLE, "blue-thin-2")


def midgame(seal):
    return turn_of(position(four_players(), top=3, seal=seal, red_thick=3, yellow_hex=3), BLUE)


def test_collapse_the_seal_holder_wins():
    state = apply(apply(midgame(Seal(RED, YELLOW, 3)), TakeColumn("blue-thin-1")), CRASH)
    assert state.over and state.turn.step is Step.OVER
    assert state.result.winner == RED and state.result.collapsed_by == BLUE
    assert state.result.ending == "collapse" and "Blanca" in state.result.reason


def test_collapse_by_the_holder_the_colour_on_the_seal_wins():
    state = turn_of(midgame(Seal(RED, YELLOW, 3)), RED)
    state = apply(apply(state, TakeColumn("red-thin-1")), CRASH)
    assert state.result.winner == YELLOW and state.result.collapsed_by == RED


def test_decided_holder_collapses_and_the_seal_shows_nobody_no_winner():
    state = turn_of(midgame(Seal(RED, None, 3)), RED)
    state = apply(apply(state, TakeColumn("red-thin-1")), CRASH)
    assert state.result.winner is None and state.result.collapsed_by == RED
    assert "no Master Builder" in state.result.reason


def test_decided_nobody_holds_the_seal_no_winner_but_the_culprit_is_named():
    state = apply(apply(four_players(), TakeColumn("green-thick")), CRASH)
    assert state.result.winner is None and state.result.collapsed_by == GREEN
    assert "Giovanna" in state.result.reason


def test_decided_a_collapse_between_actions_is_the_player_to_moves():
    state = apply(midgame(Seal(RED, YELLOW, 3)), CRASH)
    assert state.result.collapsed_by == BLUE


def test_a_collapse_as_a_column_is_set_down_is_the_builders():
    state = apply(midgame(Seal(RED, YELLOW, 3)), TakeColumn("blue-thin-1"))
    state = apply(state, Collapse(0.4, CollapseCause.FLOOR_DROPPED, "floor-3"))
    assert state.result.collapsed_by == BLUE


def test_nothing_happens_after_the_end():
    state = apply(midgame(Seal(RED, YELLOW, 3)), CRASH)
    assert legal_actions(state) == []
    with pytest.raises(GameOver):
        apply(state, TakeColumn("blue-thin-1"))


def test_the_game_ends_when_nobody_can_build_any_further():
    # The red floor is on and every column stands on it, except one green column on the orange floor.
    levels = {c: 5 for c in four_players().levels}
    state = replace(turn_of(four_players(), GREEN), levels=levels, top_level=5, seal=Seal(YELLOW, BLUE, 5))
    state = position(state, green_thin_3=4)
    state = build(state, "green-thin-3")
    assert state.over and state.result.ending == "no more building"
    assert state.result.winner == YELLOW and state.result.collapsed_by is None


def test_aborted_columns_count_as_unbuildable():
    levels = {c: 5 for c in four_players().levels}
    state = replace(turn_of(four_players(), GREEN), levels=levels, top_level=5, seal=Seal())
    state = position(state, green_thin_3=4)
    state = apply(apply(state, TakeColumn("green-thin-3")), Abort())
    assert state.over and state.result.winner is None


def test_decided_a_full_round_of_given_up_floors_ends_the_game():
    state = position(four_players(), top=2, seal=Seal(BLUE, None, 2), blue_thin_1=2, red_thin_1=2,
                     yellow_thin_1=2, green_thin_1=2)
    for _ in range(4):
        assert not state.over
        state = apply(state, ProposeFloor())
        for _ in range(3):
            state = apply(state, Decline())
        state = apply(state, GiveUpFloor())
    assert state.over and state.result.ending == "no more building" and state.result.winner == BLUE


def test_an_in_hand_column_is_accounted_for_after_a_collapse():
    state = apply(apply(four_players(), TakeColumn("green-thick")), CRASH)
    assert state.turn.column == "green-thick" and state.levels["green-thick"] is None


def test_the_game_ends_when_no_column_can_go_up_and_no_floor_can_be_carried():
    """004: "Das Spiel endet, wenn ... kein Spieler eine (weitere) Säule oder ein weiteres Plateau auf
    die oberste Ebene bauen kann." Two columns on the yellow floor cannot carry the orange one."""
    levels = {c: 2 for c in four_players().levels}
    blocked = frozenset(levels) - {"green-thin-3"}  # every other column below was given up in an abort
    state = replace(turn_of(four_players(), GREEN), levels=levels, top_level=3, seal=Seal(RED, None, 3),
                    blocked=blocked)
    state = position(state, green_thin_3=1, red_thick=3)
    state = build(state, "green-thin-3")
    assert state.over and state.result.ending == "no more building" and state.result.winner == RED
