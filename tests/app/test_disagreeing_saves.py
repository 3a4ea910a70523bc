"""A save whose parts disagree is damaged: the log is the truth, and the start, the stored state and
every turn's villa must agree with what it replays to. Each is refused in one sentence, the file
untouched, as other damaged saves are."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from villa.app import saves
from villa.match import record as records

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


DISAGREEING = {
    # name: (how the parts are made to disagree, words the refusal must hold)
    "a base-plate column posed on the top floor at an earlier turn": (
        _stands_on_the_floor_at_an_earlier_turn, "contradict the game"),
    "a fact of the log without one of its fields": (_a_fact_loses_a_field, "on_column"),
    "a start that is no new game": (_never_in_the_game, "the start of the game is not what its log makes"),
}


def _edit(path: Path, change) -> bytes:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path.read_bytes()


@pytest.mark.parametrize("name", list(DISAGREEING))
def test_a_save_whose_parts_disagree_is_refused(save_file, name):
    change, words = DISAGREEING[name]
    before = _edit(save_file, change)
    with pytest.raises(saves.SaveError) as refused:
        saves.load(save_file)
    message = str(refused.value)
    assert "\n" not in message and words in message and str(save_file) in message, message
    assert save_file.read_bytes() == before


def test_the_command_line_refuses_a_save_whose_parts_disagree(save_file, tmp_path):
    before = _edit(save_file, _never_in_the_game)
    result = run_villa("--load", str(save_file), "--headless", home=tmp_path / "home")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "the start of the game" in lines[0]
    assert save_file.read_bytes() == before
