"""The Master Builder Seal (section C), with the worked example of Fig. 7a/7b."""

from villa.rules import FloorLaid, ProposeFloor, apply
from villa.rules.seal import holder_is_consistent
from villa.rules.state import Seal

from .helpers import build, four_players, position, turn_of, two_players
from villa.rules import Decline

BLUE, RED, YELLOW, GREEN = 0, 1, 2, 3  # seats in the helper's four-player game


def fig_7a():
    """Yellow leads with 3 and took the seal from Blue; Red 1, Blue 2, Green 1 on the yellow floor."""
    state = position(four_players(), top=3, seal=Seal(holder=YELLOW, shows=BLUE, level=3),
                     yellow_thick=3, blue_hex=3, red_thin_1=3, green_thin_1=3)
    return turn_of(state, RED)


def test_fig_7a_red_takes_the_seal_showing_yellow():
    state = fig_7a()
    assert [state.points(p) for p in (RED, YELLOW, BLUE, GREEN)] == [1, 3, 2, 1]
    state = build(state, "red-thick")
    assert [state.points(p) for p in (RED, YELLOW, BLUE, GREEN)] == [4, 3, 2, 1]
    assert state.seal == Seal(holder=RED, shows=YELLOW, level=3)


def test_fig_7b_a_tie_leaves_the_seal_with_red():
    state = build(fig_7a(), "red-thick")
    state = turn_of(state, GREEN)
    state = build(state, "green-thick")
    assert [state.points(p) for p in (RED, YELLOW, BLUE, GREEN)] == [4, 3, 2, 4]
    assert state.seal == Seal(holder=RED, shows=YELLOW, level=3)
    assert holder_is_consistent(state)


def test_no_seal_on_the_blue_floor():
    state = build(four_players(), "green-thick")
    assert state.seal == Seal()


def test_the_first_column_on_the_green_floor_takes_the_seal():
    state = position(four_players(), top=2)
    state = build(state, "green-thin-1")
    assert state.seal == Seal(holder=GREEN, shows=None, level=2)
    state = build(state, "blue-thin-1")  # 1 = 1: a tie
    assert state.seal.holder == GREEN
    state = build(state, "red-hex")
    assert state.seal == Seal(holder=RED, shows=GREEN, level=2)


def _lay_next_floor(state, proposer):
    state = apply(turn_of(state, proposer), ProposeFloor())
    for _ in range(3):
        state = apply(state, Decline())
    on_top = frozenset(state.columns_on(state.top_level))
    return apply(state, FloorLaid(state.top_level + 1, on_top))


def test_points_lapse_on_a_new_floor_and_its_first_column_takes_the_seal():
    state = position(four_players(), top=2, seal=Seal(holder=RED, shows=GREEN, level=2),
                     red_thick=2, blue_thin_1=2, yellow_thin_1=2)
    state = _lay_next_floor(state, BLUE)
    assert state.top_level == 3 and all(state.points(p) == 0 for p in range(4))
    assert state.seal.holder == RED  # kept until someone builds on the new floor
    state = turn_of(state, YELLOW)
    state = build(state, "yellow-thin-2")
    assert state.seal == Seal(holder=YELLOW, shows=RED, level=3)


def test_the_holder_building_first_on_a_new_floor_keeps_what_the_seal_shows():
    state = position(four_players(), top=3, seal=Seal(holder=RED, shows=GREEN, level=2))
    state = build(turn_of(state, RED), "red-thin-1")
    assert state.seal == Seal(holder=RED, shows=GREEN, level=3)


def test_two_players_score_both_colours():
    state = position(two_players(), top=2, red_thin_1=2, green_thick=2, blue_hex=2)
    assert state.points(1) == 4 and state.points(0) == 2
