"""A save whose parts disagree is damaged: the log is the truth, and the start, the stored state and
every turn's villa must agree with what it replays to. Each is refused in one sentence, the file
untouched, as other damaged saves are."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from panda3d.core import Point3, Quat, Vec3

from villa.app import saves
from villa.match import record as records
from villa.physics.dimensions import COLUMN_HEIGHT, FLOORS

from .conftest import run_villa


def _stands_on_the_floor_at_an_earlier_turn(document: dict) -> None:
    """A column the referee has on the base plate all game posed standing on the blue floor at the
    turn before the last, on the floor's emptiest spot."""
    log = document["rules"]["state"]["log"]
    taken = {entry.get("column") for entry in log}
    turn = document["turns"][-2]
    pieces = turn["villa"]["pieces"]
    state = records.state_at(saves.from_text(json.dumps(document)), records.TurnRecord(**turn))
    below = sorted(c for c, lv in state.levels.items() if lv == 0 and c not in taken)
    upper = [pieces[c] for c, lv in state.levels.items() if lv == 1]
    assert below and upper, "the game has a column never moved and columns on the blue floor"
    floor = pieces["floor-1"]
    spots = [(floor[0] + 9 * math.cos(a / 8 * math.pi), floor[1] + 9 * math.sin(a / 8 * math.pi)) for a in range(16)]
    x, y = max(spots, key=lambda s: min(math.hypot(s[0] - p[0], s[1] - p[1]) for p in upper))
    pieces[below[0]] = [x, y, upper[0][2]] + pieces[below[0]][3:]


def _a_fact_loses_a_field(document: dict) -> None:
    """A column's placing with no word of what it stands on (the reader used to fill it in)."""
    entry = next(e for e in document["rules"]["state"]["log"] if e.get("fact") == "ColumnPlaced")
    del entry["on_column"]


def _never_in_the_game(document: dict) -> None:
    """One column left out from the start: the start and the stored state say so, and no turn's villa
    holds it, but a new game has all twenty columns on the base plate."""
    column = next(c for c, lv in sorted(document["start"]["state"]["levels"].items()) if lv == 0
                  and c not in {e.get("column") for e in document["rules"]["state"]["log"]})
    for part in ("start", "rules"):
        document[part]["state"]["levels"][column] = None
    for turn in document["turns"]:
        del turn["villa"]["pieces"][column]


def _stands_on_the_fallen_top_floor(document: dict) -> None:
    """In the heap of a fallen villa, a column the referee has on the base plate all game posed standing
    upright on the top floor: a fall brings pieces down, never up."""
    state = document["rules"]["state"]
    taken = {entry.get("column") for entry in state["log"]}
    column = min(c for c, lv in state["levels"].items() if lv == 0 and c not in taken)
    pieces = document["turns"][-1]["villa"]["pieces"]
    top = state["top_level"]
    x, y, z, *turn = pieces[f"floor-{top}"]
    up = Quat(*turn).xform(Vec3(0, 0, 1))
    centre = Point3(x, y, z) + up * (FLOORS[top].thickness / 2 + COLUMN_HEIGHT / 2 + 0.01)
    pieces[column] = [*centre, *turn]


def _a_fact_without_its_name(document: dict) -> None:
    """A column's placing that no longer says it is a ColumnPlaced."""
    entry = next(e for e in document["rules"]["state"]["log"] if e.get("fact") == "ColumnPlaced")
    entry["fact"] = ""


def _a_collapse_of_no_piece(document: dict) -> None:
    """The fall's fact names no piece that gave way."""
    entry = next(e for e in document["rules"]["state"]["log"] if e.get("fact") == "Collapse")
    entry["piece"] = ""


def _a_column_a_level_off(document: dict) -> None:
    """The stored state has a column on the base plate that its log moved up to the blue floor."""
    levels = document["rules"]["state"]["levels"]
    levels[min(c for c, lv in levels.items() if lv == 1)] = 0


DISAGREEING = {
    # name: (the file: a game in play or a replay of one that fell, how its parts are made to disagree,
    #        words the refusal must hold)
    "a base-plate column posed on the top floor at an earlier turn": (
        "save_file", _stands_on_the_floor_at_an_earlier_turn, "contradict the game"),
    "a base-plate column posed on the top floor of the fallen villa": (
        "replay_file", _stands_on_the_fallen_top_floor, "the fallen villa at turn"),
    "a fact of the log without one of its fields": ("save_file", _a_fact_loses_a_field, "on_column"),
    "a fact of the log without its name": ("save_file", _a_fact_without_its_name, "a fact with no name"),
    "a collapse that names no piece": ("replay_file", _a_collapse_of_no_piece, "(Collapse) names no piece"),
    "a stored state with a column a level off": (
        "save_file", _a_column_a_level_off, "the saved game state is not what its log leads to: it has "),
    "a start that is no new game": (
        "save_file", _never_in_the_game, "the start of the game is not what its log makes"),
}


@pytest.fixture
def replay_file(recorded_game, tmp_path) -> Path:
    """The recorded game, which ended when the villa fell, written as a replay."""
    path = tmp_path / "replay.json"
    path.write_text(records.dumps(recorded_game, "replay"), encoding="utf-8")
    return path


def _edit(path: Path, change) -> bytes:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path.read_bytes()


@pytest.mark.parametrize("name", list(DISAGREEING))
def test_a_save_whose_parts_disagree_is_refused(request, name):
    file, change, words = DISAGREEING[name]
    path = request.getfixturevalue(file)
    before = _edit(path, change)
    with pytest.raises(saves.SaveError) as refused:
        saves.load(path)
    message = str(refused.value)
    assert "\n" not in message and words in message and str(path) in message, message
    assert path.read_bytes() == before


@pytest.mark.parametrize("name", ["a start that is no new game", "a base-plate column posed on the top floor of "
                                  "the fallen villa", "a fact of the log without its name",
                                  "a stored state with a column a level off"])
def test_the_command_line_refuses_a_save_whose_parts_disagree(request, tmp_path, name):
    file, change, words = DISAGREEING[name]
    path = request.getfixturevalue(file)
    before = _edit(path, change)
    result = run_villa("--load", str(path), "--headless", home=tmp_path / "home")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], lines
    assert path.read_bytes() == before
