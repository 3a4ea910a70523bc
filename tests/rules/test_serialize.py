"""The log replays any game; the whole state round-trips through versioned JSON."""

import json

import pytest

from villa.rules import (Abort, ColumnPlaced, DocumentError, FloorLaid, ProposeFloor, Decline, TakeColumn, apply,
                         dumps, loads, replay, state_from_json, state_to_json)
from villa.rules.serialize import VERSION

from .helpers import build, four_players, position, three_players, turn_of


def a_played_game():
    state = three_players()
    state = build(state, "yellow-hex")
    state = apply(state, TakeColumn("green-thick"))  # in hand, mid-build
    return state


def test_replaying_the_log_gives_the_same_state():
    state = a_played_game()
    assert replay(state.setup, state.log) == state


def test_json_round_trip_is_exact_mid_build_and_after_a_floor():
    state = a_played_game()
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    floor = position(four_players(), top=1, blue_thin_1=1, red_thin_1=1, yellow_thin_1=1)
    floor = apply(turn_of(floor, 1), ProposeFloor())
    for _ in range(3):
        floor = apply(floor, Decline())
    floor = apply(floor, FloorLaid(2, frozenset({"blue-thin-1", "red-thin-1", "yellow-thin-1"}), inside_base=False))
    assert loads(dumps(floor)) == floor
    assert isinstance(loads(dumps(floor)).log[-1], FloorLaid)


def test_the_document_is_plain_and_versioned():
    doc = state_to_json(a_played_game())
    assert doc["format"] == "villa-paletti/game" and doc["version"] == VERSION
    assert {"action": "TakeColumn", "column": "green-thick"} in doc["state"]["log"]
    assert any(entry.get("fact") == "ColumnPlaced" for entry in doc["state"]["log"])


def test_a_newer_version_is_refused_clearly():
    doc = state_to_json(a_played_game())
    doc["version"] = VERSION + 1
    with pytest.raises(DocumentError, match="newer version"):
        state_from_json(doc)


@pytest.mark.parametrize("damage", [
    lambda d: d.update(format="something else"),
    lambda d: d.pop("version"),
    lambda d: d.update(version="1"),
    lambda d: d.pop("state"),
    lambda d: d["state"].update(top_level="three"),
    lambda d: d["state"]["levels"].update({"blue-thin-1": "low"}),
    lambda d: d["state"]["turn"].update(step="dancing"),
    lambda d: d["state"].update(surprise=1),
    lambda d: d["state"]["log"].append({"action": "Teleport"}),
    lambda d: d["state"]["log"].append({"fact": "ColumnPlaced"}),
    lambda d: d["state"]["setup"].update(players=["solo"]),
    lambda d: d["state"]["levels"].update({"bLue-thin-3": d["state"]["levels"].pop("blue-thin-3")}),
    lambda d: d["state"]["levels"].pop("red-hex"),
    lambda d: d["state"]["levels"].update({"red-hex": 9}),
    lambda d: d["state"].update(blocked=["purple-thin-1"]),
])
def test_a_bad_document_is_refused(damage):
    doc = json.loads(json.dumps(state_to_json(a_played_game())))
    damage(doc)
    with pytest.raises(DocumentError):
        state_from_json(doc)


def _a_fact(document: dict) -> dict:
    return next(entry for entry in document["state"]["log"] if entry.get("fact") == "ColumnPlaced")


@pytest.mark.parametrize("damage, words", [
    (lambda fact: fact.pop("on_column"), "on_column"),
    (lambda fact: fact.pop("footprint_inside"), "footprint_inside"),
    (lambda fact: fact.update(footprint_inside="no"), "true or false"),
    (lambda fact: fact.update(level="1"), "whole number"),
    (lambda fact: fact.update(action="TakeColumn"), "unknown fields"),
    (lambda fact: fact.update(fact="ColumnMoved"), "unknown fact"),
    (lambda fact: fact.update(fact=""), "a fact with no name"),
    (lambda fact: fact.pop("fact"), "neither an action nor a fact"),
    (lambda fact: fact.update(column="castle"), "names 'castle', no piece of this game"),
], ids=["no on_column", "no footprint_inside", "a word for true", "a level as text", "an action too",
        "an unknown fact", "no name", "no kind", "no piece of the game"])
def test_a_fact_is_read_with_every_field_it_was_written_with(damage, words):
    """What the physics saw, exactly: a fact that lost a field or changed its kind is no fact of this game."""
    doc = json.loads(json.dumps(state_to_json(a_played_game())))
    damage(_a_fact(doc))
    with pytest.raises(DocumentError, match=words):
        state_from_json(doc)


def test_not_json_at_all():
    with pytest.raises(DocumentError):
        loads("{not json")


def test_an_aborted_and_blocked_column_survives_the_round_trip():
    state = apply(apply(four_players(), TakeColumn("green-thick")), Abort())
    again = loads(dumps(state))
    assert again.blocked == frozenset({"green-thick"}) and again == state
    assert isinstance(again.log[-2], TakeColumn) and not isinstance(again.log[-1], ColumnPlaced)
