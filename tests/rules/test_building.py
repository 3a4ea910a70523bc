"""Building, aborting and the building regulations 3, 6, 7 and 8 (section B)."""

from villa.rules import (Abort, ColumnPlaced, ProposeFloor, TakeColumn, apply, legal_actions, takeable_columns,
                         whose_move)
from villa.rules.state import Step

from .helpers import build, four_players, position, refused, turn_of, two_players


def test_a_column_from_any_level_below_the_top_goes_onto_the_top_floor():
    state = position(four_players(), top=3, green_thin_1=2)  # green: seat 3 starts
    state = build(state, "green-thin-1")
    assert state.levels["green-thin-1"] == 3
    assert whose_move(state) == 0  # clockwise
    state = build(state, "blue-thick")  # from the base plate
    assert state.levels["blue-thick"] == 3 and whose_move(state) == 1


def test_only_own_columns():
    state = four_players()
    refused(state, TakeColumn("red-thin-1"), "own-column")
    assert set(takeable_columns(state)) == {"green-thin-1", "green-thin-2", "green-thin-3", "green-hex",
                                            "green-thick"}


def test_regulation_7_columns_on_the_top_level_may_not_build():
    state = position(four_players(), top=2, green_hex=2)
    refused(state, TakeColumn("green-hex"), "regulation-7")
    assert TakeColumn("green-hex") not in legal_actions(state)


def test_regulation_6_only_the_chosen_column():
    state = apply(four_players(), TakeColumn("green-thin-1"))
    assert state.turn.step is Step.IN_HAND and state.levels["green-thin-1"] is None
    refused(state, TakeColumn("green-thin-2"), "not-now")
    refused(state, ColumnPlaced("green-thin-2", 1, True), "regulation-6")
    refused(state, ProposeFloor(), "not-now")  # and no proposal once a column is touched


def test_regulation_3_no_overhang_and_the_player_may_set_it_again():
    state = apply(four_players(), TakeColumn("green-thin-1"))
    refused(state, ColumnPlaced("green-thin-1", 1, False), "regulation-3")
    state = apply(state, ColumnPlaced("green-thin-1", 1, True))
    assert state.levels["green-thin-1"] == 1


def test_a_build_goes_onto_the_top_floor_only():
    state = apply(position(four_players(), top=2), TakeColumn("green-thin-1"))
    refused(state, ColumnPlaced("green-thin-1", 1, True), "onto-top-floor")


def test_regulation_8_stacking_only_on_the_red_floor():
    state = position(four_players(), top=4, red_thin_1=4)
    state = apply(state, TakeColumn("green-thin-1"))
    refused(state, ColumnPlaced("green-thin-1", 4, True, on_column="red-thin-1"), "regulation-8")
    red = position(four_players(), top=5, red_thin_1=5)
    red = build(red, "green-thin-1", on_column="red-thin-1")
    assert red.levels["green-thin-1"] == 5
    red = apply(red, TakeColumn("blue-thin-1"))
    refused(red, ColumnPlaced("blue-thin-1", 5, True, on_column="yellow-thin-1"), "regulation-8")


def test_abort_puts_the_column_back_blocks_it_and_ends_the_turn():
    state = position(four_players(), top=2, green_thick=1)
    state = apply(state, TakeColumn("green-thick"))
    state = apply(state, Abort())
    assert state.levels["green-thick"] == 1 and "green-thick" in state.blocked
    assert whose_move(state) == 0 and state.turn.step is Step.START
    state = turn_of(state, 3)
    refused(state, TakeColumn("green-thick"), "aborted-column")


def test_abort_only_during_a_build():
    refused(four_players(), Abort(), "not-now")


def test_two_players_build_with_either_colour():
    state = two_players()  # seat 1: red and green
    assert apply(state, TakeColumn("red-hex")).turn.column == "red-hex"
    assert apply(state, TakeColumn("green-hex")).turn.column == "green-hex"
    refused(state, TakeColumn("blue-hex"), "own-column")


def test_an_action_for_nobody_is_refused_and_the_log_grows_only_on_success():
    state = four_players()
    n = len(state.log)
    state = build(state, "green-thin-1")
    assert len(state.log) == n + 2
    assert isinstance(state.log[-1], ColumnPlaced)
