"""Refusals a screen can word: a closed set of rule codes with their values as plain data, and
malformed input refused cleanly, whatever it is."""

import math

import pytest

from villa.rules import (PUBLISHER, Abort, AssignColoursAtRandom, ChooseColour, Collapse, CollapseCause, Colour,
                         ColumnPlaced, ColumnTakenOut, FloorLaid, GameSetup, MalformedAction, NotYourMove,
                         ProposeFloor, Rule, RuleError, SealRoll, TakeColumn, VillaSurvey, apply, new_game)
from villa.rules.eligibility import why_not_takeable

from .helpers import four_players, position, refused, three_players, turn_of


def test_every_code_is_documented_and_raises_its_own_error():
    codes = [r.value for r in Rule]
    assert len(codes) == len(set(codes))
    for rule in Rule:
        assert rule.meaning and rule.meaning.endswith(".")
        assert issubclass(rule.error, RuleError)


def test_the_code_string_and_the_params_and_no_words():
    state = apply(four_players(), TakeColumn("green-thin-1"))
    error = refused(state, ColumnPlaced("green-thin-1", 1, False), "regulation-3")
    assert error.code is Rule.REGULATION_3 and error.rule == "regulation-3" and isinstance(error.rule, str)
    assert error.params == {"column": "green-thin-1"}
    assert str(error) == "regulation-3 (column=green-thin-1)"
    assert not hasattr(Rule.REGULATION_3, "words") and not hasattr(error, "message")
    error = refused(four_players(), TakeColumn("red-thin-1"), "own-column")
    assert error.params == {"column": "red-thin-1", "player": 3}


def test_a_code_with_the_wrong_params_is_a_programming_error():
    with pytest.raises(TypeError):
        Rule.REGULATION_3.refuse(columns="x")


def test_a_refusal_at_the_wrong_moment_names_the_step_the_role_and_who_acts():
    state = apply(four_players(), TakeColumn("green-thin-1"))
    error = refused(state, ProposeFloor(), "not-now")
    assert isinstance(error, NotYourMove)
    assert error.params == {"action": "ProposeFloor", "step": "in hand", "role": "build", "actor": 3}


def test_why_a_column_may_not_be_taken_is_a_code_with_its_values():
    state = turn_of(three_players(), 0)
    assert why_not_takeable(state, "red-thin-1") == ("neutral-first", {"column": "red-thin-1"})
    state = position(state, top=2, blue_hex=2)
    why = why_not_takeable(state, "blue-hex")
    assert why.rule == "regulation-7" and why.params == {"column": "blue-hex", "level": 2}
    assert why.error().code is Rule.REGULATION_7 and why.error().params == why.params
    assert why_not_takeable(state, "purple-thin-9").rule == "no-such-column"


# --- malformed input: refused with "malformed-action", the state unchanged --------------

def _colour_roll():
    return new_game(GameSetup(PUBLISHER, ("A", "B", "C", "D")))


def _colour_choice():
    return apply(_colour_roll(), SealRoll(Colour.RED))


@pytest.mark.parametrize("make, action, field", [
    (_colour_choice, ChooseColour("purple"), "colour"),
    (_colour_choice, ChooseColour("blue"), "colour"),     # text, not a Colour
    (_colour_choice, ChooseColour(None), "colour"),
    (_colour_roll, SealRoll("purple"), "colour"),
    (_colour_roll, SealRoll("red"), "colour"),
    (_colour_roll, SealRoll(3), "colour"),
    (_colour_roll, AssignColoursAtRandom(True), "seed"),
    (_colour_roll, AssignColoursAtRandom("7"), "seed"),
    (four_players, TakeColumn(5), "column"),
    (four_players, TakeColumn(["green-thin-1"]), "column"),
    (four_players, ColumnPlaced("green-thin-1", "1", True), "level"),
    (four_players, ColumnPlaced("green-thin-1", 1, 1), "footprint_inside"),
    (four_players, ColumnPlaced("green-thin-1", 1, True, 7), "on_column"),
    (four_players, FloorLaid(2, {"red-thin-1", "blue-thin-1", "yellow-thin-1"}), "resting_on"),
    (four_players, FloorLaid(2, frozenset({1, 2, 3})), "resting_on"),
    (four_players, FloorLaid(True, frozenset()), "level"),
    (four_players, FloorLaid(2, frozenset(), "yes"), "inside_base"),
    (four_players, ColumnTakenOut(None), "column"),
    (four_players, Collapse(math.nan, CollapseCause.FLOOR_TILTED, "floor-1"), "at_s"),
    (four_players, Collapse(1.0, "floor tilted", "floor-1"), "cause"),
    (four_players, Collapse(1.0, CollapseCause.FLOOR_TILTED, None), "piece"),
])
def test_malformed_fields_are_refused_cleanly(make, action, field):
    error = refused(make(), action, "malformed-action")
    assert isinstance(error, MalformedAction)
    assert error.params["action"] == type(action).__name__ and error.params["field"] == field
    assert error.params["value"] == repr(getattr(action, field))


def test_the_plain_text_colour_is_not_stored():
    state = _colour_choice()
    refused(state, ChooseColour("blue"), "malformed-action")
    after = apply(state, ChooseColour(Colour.BLUE))
    assert all(type(c) is Colour for cs in after.colours for c in cs)


@pytest.mark.parametrize("thing", [None, "TakeColumn", 42, TakeColumn, object()])
def test_anything_that_is_no_action_is_refused(thing):
    refused(four_players(), thing, "unknown-action")


def test_a_survey_is_not_applied():
    refused(four_players(), VillaSurvey({}), "survey")


def test_an_action_after_the_end_names_how_it_ended():
    over = apply(four_players(), Collapse(1.0, CollapseCause.FLOOR_TILTED, "floor-1"))
    error = refused(over, Abort(), "game-over")
    assert error.params == {"ending": "collapse"}
