"""The state cannot be changed behind the referee's back, its floors' supports are true, and a
villa set up higher is reached by a logged action like any other."""

import copy
import pickle
from dataclasses import FrozenInstanceError, replace

import pytest

from villa.rules import (PUBLISHER, Abort, Collapse, CollapseCause, ColumnPlaced, Decline, FamilyMode,
                         FloorLaid, FrozenMap, GameSetup, ProposeFloor, Scoring, SealRoll, SetUpHigher, TakeColumn,
                         apply, dumps, family, legal_actions, loads, new_game, replay, state_from_json,
                         state_to_json)
from villa.rules.state import Seal, Step

from .helpers import BLUE, RED, build, four_players, position, refused, three_players, turn_of

TRIANGLE = frozenset({"blue-thin-1", "red-thin-1", "yellow-thin-1"})


def test_no_mapping_of_a_state_can_be_written_into():
    state = four_players()
    with pytest.raises(TypeError):
        state.levels["green-hex"] = 3
    with pytest.raises(TypeError):
        state.floors_laid_on[2] = frozenset()
    with pytest.raises(TypeError):
        state.floor_supports[1] = frozenset()
    with pytest.raises((AttributeError, TypeError)):
        state.levels._items["green-hex"] = 3
    with pytest.raises(FrozenInstanceError):
        state.top_level = 3


def test_successive_states_share_nothing_that_can_change():
    before = four_players()
    after = build(before, "green-hex")
    assert before.levels["green-hex"] == 0 and after.levels["green-hex"] == 1
    with pytest.raises(TypeError):
        after.levels["green-hex"] = 5
    assert before.levels["green-hex"] == 0


def test_whatever_is_given_is_frozen_on_the_way_in():
    given = {c: 0 for c in four_players().levels}
    state = replace(four_players(), levels=given, out=set(), colours=[[BLUE], [RED], [], []], scores=[1])
    given["green-hex"] = 4
    assert state.levels["green-hex"] == 0
    assert type(state.levels) is FrozenMap and type(state.out) is frozenset
    assert state.colours == ((BLUE,), (RED,), (), ()) and state.scores == (1,)
    setup = GameSetup(PUBLISHER, ["A", "B"], {"red-hex"})
    assert setup.players == ("A", "B") and setup.blue_floor_supports == frozenset({"red-hex"})


def test_states_are_values_hashable_copyable_picklable():
    state = build(four_players(), "green-hex")
    assert hash(state.levels) == hash(replace(state).levels)
    assert state.levels == dict(state.levels) and dict(state.levels) == state.levels
    assert copy.deepcopy(state) == state and pickle.loads(pickle.dumps(state)) == state


def _green_floor_on_the_triangle():
    state = position(four_players(), top=1, blue_thin_1=1, red_thin_1=1, yellow_thin_1=1)
    state = apply(turn_of(state, 1), ProposeFloor())
    for _ in range(3):
        state = apply(state, Decline())
    return apply(state, FloorLaid(2, TRIANGLE))


def test_a_floor_is_carried_only_by_columns_still_under_it():
    state = _green_floor_on_the_triangle()
    assert state.floor_supports[2] == TRIANGLE == state.floors_laid_on[2]
    state = turn_of(state, 0)
    state = apply(state, TakeColumn("blue-thin-1"))  # drawn out from under the green floor
    assert state.floor_supports[2] == TRIANGLE - {"blue-thin-1"}
    assert apply(state, Abort()).floor_supports[2] == TRIANGLE  # set back: it carries again
    state = apply(state, ColumnPlaced("blue-thin-1", 2, True))
    assert state.floor_supports[2] == TRIANGLE - {"blue-thin-1"} and state.floors_laid_on[2] == TRIANGLE
    # the blue floor no longer lists the columns moved up onto it
    assert not state.floor_supports[1] & state.columns_on(1)


def test_the_document_is_version_2_and_version_1_still_reads():
    state = _green_floor_on_the_triangle()
    doc = state_to_json(state)
    assert doc["version"] == 2 and doc["state"]["floors_laid_on"]["2"] == sorted(TRIANGLE)
    old = {**doc, "version": 1, "state": dict(doc["state"])}
    old["state"]["floor_supports"] = old["state"].pop("floors_laid_on")
    assert state_from_json(old) == state


# --- a villa set up higher -------------------------------------------------------

HIGHER = {"blue-thin-1": 0, "red-thin-1": 0, "yellow-thin-1": 0, "green-thin-1": 0,
          "blue-hex": 1, "red-hex": 1, "yellow-hex": 1, "green-hex": 2, "red-thick": 2}
FLOORS = {1: ["blue-thin-1", "red-thin-1", "yellow-thin-1"], 2: ["blue-hex", "red-hex", "yellow-hex"]}


def test_a_villa_set_up_higher_is_an_action_in_the_log():
    start = four_players()
    action = SetUpHigher.of(HIGHER, FLOORS)
    assert action.levels[0] == ("blue-hex", 1) and action.floor_supports[1] == (2, ("blue-hex", "red-hex",
                                                                                      "yellow-hex"))
    state = apply(start, action)
    assert state.log[-1] == action and state.turn.step is Step.START and state.turn.player == start.turn.player
    assert state.top_level == 2 and state.levels["red-thick"] == 2 and state.levels["green-thick"] is None
    assert state.out == frozenset(state.levels) - set(HIGHER)
    assert state.floor_supports == {1: frozenset(FLOORS[1]), 2: frozenset(FLOORS[2])}
    assert state.seal == Seal()
    assert replay(state.setup, state.log) == state and loads(dumps(state)) == state
    # the first own column set on its top floor takes the seal, whatever stands there already
    state = build(state, "green-thin-1")
    assert state.seal.holder == 3


def test_setting_up_higher_only_before_the_first_move_and_only_once():
    start = new_game(GameSetup(PUBLISHER, ("A", "B", "C", "D")))
    action = SetUpHigher.of(HIGHER, FLOORS)
    refused(start, action, "not-now")  # colours first
    state = four_players()
    refused(apply(state, action), action, "set-up-too-late")
    refused(build(state, "green-thin-2"), action, "set-up-too-late")


def test_family_random_sets_up_before_the_first_roll():
    state = new_game(GameSetup(family(FamilyMode.RANDOM, Scoring.BASIC), ("A", "B")))
    action = SetUpHigher.of(HIGHER, {1: FLOORS[1], 2: ["red-hex"]})  # the family needs one support
    higher = apply(state, action)
    assert higher.turn.step is Step.FAMILY_ROLL and higher.top_level == 2
    refused(apply(state, SealRoll(None)), action, "set-up-too-late")


@pytest.mark.parametrize("levels, floors, rule", [
    ({**HIGHER, "purple-thin-9": 0}, FLOORS, "no-such-column"),
    (HIGHER, {1: FLOORS[1], 3: FLOORS[2]}, "set-up-floors"),
    (HIGHER, {2: FLOORS[2]}, "set-up-floors"),
    (HIGHER, {}, "set-up-floors"),
    ({**HIGHER, "red-thick": 3}, FLOORS, "set-up-level"),
    ({**HIGHER, "red-thick": -1}, FLOORS, "set-up-level"),
    (HIGHER, {1: FLOORS[1], 2: ["blue-hex", "red-hex", "green-hex"]}, "set-up-support"),
    (HIGHER, {1: FLOORS[1], 2: ["blue-hex", "red-hex", "green-thick"]}, "set-up-support"),
    (HIGHER, {1: FLOORS[1], 2: ["blue-hex", "red-hex"]}, "floor-support"),
    (HIGHER, {1: FLOORS[1], 2: ["blue-hex", "red-hex", "purple-hex"]}, "no-such-column"),
])
def test_a_villa_set_up_higher_is_checked(levels, floors, rule):
    refused(four_players(), SetUpHigher.of(levels, floors), rule)


def test_a_column_given_two_places_and_malformed_fields():
    twice = SetUpHigher((("red-thick", 1), ("red-thick", 0)), ((1, ("blue-thin-1", "red-thin-1", "yellow-thin-1")),))
    refused(four_players(), twice, "set-up-twice")
    refused(four_players(), SetUpHigher([("red-thick", 1)], ()), "malformed-action")
    refused(four_players(), SetUpHigher((("red-thick", "1"),), ()), "malformed-action")
    refused(four_players(), SetUpHigher((), ((1, ["blue-thin-1"]),)), "malformed-action")


def test_the_first_turn_begins_again_on_the_villa_set_up():
    # Three players, yellow neutral: two neutral columns under the blue floor, one on it.
    levels = {"blue-thin-1": 0, "yellow-thin-1": 0, "yellow-thin-2": 0, "yellow-hex": 1, "green-hex": 1, "blue-hex": 1,
              "red-hex": 0}
    state = apply(three_players(), SetUpHigher.of(levels, {1: ["blue-thin-1", "yellow-thin-1", "yellow-thin-2"]}))
    assert state.turn.step is Step.START and not state.turn.neutral_done
    assert set(legal_actions(state)) == {TakeColumn("yellow-thin-1"), TakeColumn("yellow-thin-2"), ProposeFloor()}
    refused(state, TakeColumn("green-thick"), "out-of-game")


def test_a_collapse_in_a_villa_set_up_higher():
    state = apply(four_players(), SetUpHigher.of(HIGHER, FLOORS))
    state = apply(state, Collapse(1.0, CollapseCause.FLOOR_TILTED, "floor-2"))
    assert state.over and state.result.collapsed_by == 3 and replay(state.setup, state.log) == state
