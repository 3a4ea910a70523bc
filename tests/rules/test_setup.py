"""Colours and the starting player (rulebook section A; 2- and 3-player pages)."""

import pytest

from villa.rules import (PUBLISHER, RULE_SETS, AssignColoursAtRandom, ChooseColour, FamilyMode, GameSetup, Scoring,
                         SealRoll, apply, dumps, family, legal_actions, loads, new_game, replay, whose_move)
from villa.rules.engine import is_chance_node
from villa.rules.state import Step

from .helpers import BLUE, GREEN, RED, YELLOW, four_players, refused, three_players, two_players


def test_youngest_rolls_then_others_choose_and_the_last_colour_starts():
    state = new_game(GameSetup(PUBLISHER, ("A", "B", "C", "D")))
    assert is_chance_node(state) and state.turn.step is Step.COLOUR_ROLL
    assert len(legal_actions(state)) == 4
    state = four_players()
    assert state.colours == ((BLUE,), (RED,), (YELLOW,), (GREEN,))
    assert state.turn.step is Step.START and whose_move(state) == 3  # left with green, so starts
    assert state.neutral is None


def test_a_taken_colour_cannot_be_chosen():
    state = new_game(GameSetup(PUBLISHER, ("A", "B", "C", "D")))
    state = apply(state, SealRoll(RED))
    refused(state, ChooseColour(RED), "colour-taken")
    assert ChooseColour(RED) not in legal_actions(state)


def test_a_colour_roll_must_show_a_colour():
    state = new_game(GameSetup(PUBLISHER, ("A", "B")))
    refused(state, SealRoll(None), "colour-roll")


def test_two_players_take_two_colours_each():
    state = two_players()
    assert state.colours == ((BLUE, YELLOW), (RED, GREEN))
    assert whose_move(state) == 1  # seat 1 was left with the last colour


def test_three_players_leave_a_neutral_colour_and_the_last_chooser_starts():
    state = three_players()
    assert state.colours == ((BLUE,), (RED,), (GREEN,))
    assert state.neutral is YELLOW
    assert whose_move(state) == 2


def test_a_seeded_random_deal_is_repeatable():
    setup = GameSetup(PUBLISHER, ("A", "B", "C", "D"))
    one = apply(new_game(setup), AssignColoursAtRandom(7))
    two = apply(new_game(setup), AssignColoursAtRandom(7))
    assert one == two
    assert sorted(c for cs in one.colours for c in cs) == sorted(BLUE.__class__)
    assert whose_move(one) == 3
    # Not once the first colour is out.
    rolled = apply(new_game(setup), SealRoll(RED))
    refused(rolled, AssignColoursAtRandom(7), "colour-deal")


def test_family_assigned_colours_are_chosen_in_seat_order_and_seat_0_starts():
    state = new_game(GameSetup(family(FamilyMode.ASSIGNED, Scoring.BASIC), ("A", "B", "C")))
    assert state.turn.step is Step.COLOUR_CHOICE and whose_move(state) == 0
    for colour in (GREEN, BLUE, RED):
        state = apply(state, ChooseColour(colour))
    assert state.colours == ((GREEN,), (BLUE,), (RED,)) and state.neutral is None
    assert state.turn.step is Step.START and whose_move(state) == 0


def test_family_free_modes_need_no_colours():
    state = new_game(GameSetup(family(FamilyMode.FREESTYLE, Scoring.BASIC), ("A", "B")))
    assert state.turn.step is Step.START and whose_move(state) == 0
    state = new_game(GameSetup(family(FamilyMode.RANDOM, Scoring.BASIC), ("A", "B")))
    assert state.turn.step is Step.FAMILY_ROLL and is_chance_node(state)


EVERYONE_ROLLS = PUBLISHER.with_variants(everyone_rolls=True)


def test_house_variant_everyone_rolls_and_a_taken_colour_is_rolled_again():
    """001: "If a player rolls a color already assigned, the seal is rolled again. The last player
    to roll the die becomes the first Builder."
    """
    assert RULE_SETS["publisher+everyone-rolls"] == EVERYONE_ROLLS
    state = new_game(GameSetup(EVERYONE_ROLLS, ("A", "B", "C", "D")))
    state = apply(state, SealRoll(BLUE))
    assert state.turn.step is Step.COLOUR_ROLL and state.turn.actor == 1 and is_chance_node(state)
    assert legal_actions(state) == [SealRoll(c) for c in BLUE.__class__]  # the seal's four faces
    refused(state, ChooseColour(RED), "not-now")
    refused(state, SealRoll(None), "colour-roll")
    again = apply(state, SealRoll(BLUE))  # taken: B rolls again, and the roll is in the log
    assert again.colours == state.colours and again.turn == state.turn and again.log[-1] == SealRoll(BLUE)
    assert replay(again.setup, again.log) == again and loads(dumps(again)) == again
    state = apply(apply(again, SealRoll(RED)), SealRoll(GREEN))
    assert state.colours == ((BLUE,), (RED,), (GREEN,), (YELLOW,))  # D is left the last colour
    assert state.turn.step is Step.START and whose_move(state) == 3


def test_everyone_rolls_with_two_and_three_players():
    state = new_game(GameSetup(EVERYONE_ROLLS, ("A", "B")))
    for colour in (RED, RED, GREEN, RED, BLUE):
        state = apply(state, SealRoll(colour))
    assert state.colours == ((RED, BLUE), (GREEN, YELLOW)) and whose_move(state) == 1
    state = new_game(GameSetup(EVERYONE_ROLLS, ("A", "B", "C")))
    for colour in (YELLOW, GREEN, YELLOW, BLUE):
        state = apply(state, SealRoll(colour))
    assert state.colours == ((YELLOW,), (GREEN,), (BLUE,)) and state.neutral is RED and whose_move(state) == 2


def test_everyone_rolls_is_a_house_variant_of_the_publishers_rules_only():
    assert "everyone rolls" in EVERYONE_ROLLS.summary
    with pytest.raises(ValueError):
        family(FamilyMode.ASSIGNED, Scoring.BASIC).with_variants(everyone_rolls=True)
    state = apply(new_game(GameSetup(EVERYONE_ROLLS, ("A", "B", "C", "D"))), AssignColoursAtRandom(7))
    assert whose_move(state) == 3 and all(state.colours)
