"""Save files: exact round trips, and every kind of broken file refused with a clear message, untouched."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from villa.app import saves
from villa.app.logs import PlayerError
from villa.match import Match
from villa.match import record as records

from .conftest import run_villa


@pytest.fixture(autouse=True)
def villa_home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))


def _edited(path, change):
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


def _first_take(document):
    log = document["rules"]["state"]["log"]
    return next(i for i, entry in enumerate(log) if entry.get("action") == "TakeColumn")


def _break_log(document):
    log = document["rules"]["state"]["log"]
    log[_first_take(document)]["column"] = "red-thin-1" if log[_first_take(document)]["column"] != "red-thin-1" \
        else "blue-thin-1"


def _lift_a_column(document):
    pieces = document["turns"][-1]["villa"]["pieces"]
    column = next(p for p in sorted(pieces) if not p.startswith("floor-"))
    pieces[column][2] += 30.0


def _rename_a_column(document):
    pieces = document["turns"][-1]["villa"]["pieces"]
    column = next(p for p in sorted(pieces) if not p.startswith("floor-"))
    pieces["purple-thin-9"] = pieces.pop(column)


def _drop_a_column(document):
    pieces = document["turns"][-1]["villa"]["pieces"]
    del pieces[next(p for p in sorted(pieces) if not p.startswith("floor-"))]


def _nan_pose(document):
    pieces = document["turns"][-1]["villa"]["pieces"]
    pieces[sorted(pieces)[0]][0] = float("nan")      # json.dumps writes NaN, which JSON does not know


def _unfinish(document):
    """Drop the record of the last turn (and say so), leaving the state a turn ahead of its poses."""
    document["turns"].pop()
    document["turn"] -= 1


BROKEN = {
    # name: (how the file is broken, words the message must hold)
    "empty": (lambda p: p.write_bytes(b""), "is empty"),
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]), "truncated"),
    "corrupt": (lambda p: p.write_bytes(p.read_bytes().replace(b'"turns"', b'"tu\x00r#s', 1)), "corrupt"),
    "binary": (lambda p: p.write_bytes(bytes(range(256)) * 4), "not a text file"),
    "not ours": (lambda p: p.write_text('{"hello": "world"}'), "not a Villa Paletti save"),
    "a list": (lambda p: p.write_text("[1, 2, 3]"), "not a Villa Paletti save"),
    "future version": (lambda p: _edited(p, lambda d: d.update(version=7, game_version="3.0")),
                       "save format 7"),
    "unknown column": (lambda p: _edited(p, _rename_a_column), "purple-thin-9"),
    "missing column": (lambda p: _edited(p, _drop_a_column), "in the game but not in the villa"),
    "poses contradict": (lambda p: _edited(p, _lift_a_column), "contradict the game"),
    "log does not replay": (lambda p: _edited(p, _break_log), "the log does not"),
    "state edited": (lambda p: _edited(p, lambda d: d["rules"]["state"].update(quiet_turns=3)),
                     "the saved game state is not what its log leads to: its quiet_turns is 3"),
    "turns out of order": (lambda p: _edited(p, lambda d: d["turns"].reverse()), "out of order"),
    "record missing": (lambda p: _edited(p, _unfinish), "is not the game state saved"),
    "not a number": (lambda p: _edited(p, _nan_pose), "NaN"),
    "part missing": (lambda p: _edited(p, lambda d: d.pop("rules")), "rules missing"),
}


def test_a_save_loads_back_exactly(save_file, game_in_play):
    record = saves.load(save_file)
    assert records.digest(record) == records.digest(game_in_play)
    match = Match(record.setup, record)
    assert match.villa.snapshot() == game_in_play.turns[-1].villa     # every pose, to the last bit
    assert match.state == game_in_play.state                          # scores, seal, blocked, whose turn, log
    assert record.setup == game_in_play.setup                         # seats, layout, seed, game id


def test_a_game_played_with_the_builders_eye_says_so_in_its_record_and_loads_back_with_it(game_in_play, tmp_path):
    eyed = replace(game_in_play, setup=replace(game_in_play.setup, builders_eye=True))
    path = tmp_path / "eyed.json"
    path.write_text(records.dumps(eyed, "save"), encoding="utf-8")
    assert json.loads(path.read_text())["match"]["builders_eye"] is True
    assert saves.load(path).setup.builders_eye
    assert not saves.load(_written(game_in_play, tmp_path)).setup.builders_eye


def _written(record, tmp_path):
    path = tmp_path / "plain.json"
    path.write_text(records.dumps(record, "save"), encoding="utf-8")
    assert "builders_eye" not in json.loads(path.read_text())["match"], "written as before the builder's eye"
    return path


def test_a_builders_eye_that_is_not_true_or_false_is_refused_in_words(save_file):
    _edited(save_file, lambda d: d["match"].update(builders_eye="yes"))
    with pytest.raises(PlayerError, match="builder's eye"):
        saves.load(save_file)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(PlayerError, match="there is no save file .*nowhere.json"):
        saves.load(tmp_path / "nowhere.json")


def test_a_path_with_a_newline_is_named_on_one_line(tmp_path):
    result = run_villa("--load", str(tmp_path / "two\nlines.json"), "--headless", home=tmp_path / "home")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"villa-paletti: there is no save file {tmp_path}/two\\nlines.json"]


@pytest.mark.parametrize("kind", list(BROKEN))
def test_a_broken_save_is_refused_with_a_clear_message(save_file, kind):
    breaks, words = BROKEN[kind]
    breaks(save_file)
    before = save_file.read_bytes()
    with pytest.raises(PlayerError) as refused:
        saves.load(save_file)
    assert words in str(refused.value)
    assert str(save_file) in str(refused.value)
    assert save_file.read_bytes() == before


def test_a_log_the_referee_refuses_is_named_in_words(save_file):
    """The broken move is said as the screen says it, not only by its rule's code."""
    _edited(save_file, _break_log)
    with pytest.raises(PlayerError) as refused:
        saves.load(save_file)
    said = str(refused.value)
    assert "breaks the rules (" in said and said.count(":") >= 2
    worded = said.rsplit(": ", 1)[1]
    assert worded and not worded.startswith(("regulation", "rule")) and " " in worded


@pytest.mark.parametrize("kind", ["missing", "truncated", "corrupt", "future version", "poses contradict",
                                  "log does not replay", "unknown column"])
def test_the_command_line_refuses_a_broken_save(save_file, tmp_path, kind):
    if kind == "missing":
        save_file.unlink()
        words, before = "there is no save file", None
    else:
        breaks, words = BROKEN[kind]
        breaks(save_file)
        before = save_file.read_bytes()
    result = run_villa("--load", str(save_file), "--headless", home=tmp_path / "home")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    message = result.stderr.strip().splitlines()
    assert len(message) == 1 and message[0].startswith("villa-paletti: ") and words in message[0]
    if before is not None:
        assert save_file.read_bytes() == before
    assert not (tmp_path / "home" / "data" / "autosave.json").exists()


def test_continue_refuses_a_broken_autosave_and_keeps_it(save_file, tmp_path):
    home = tmp_path / "home"
    autosave = home / "data" / "autosave.json"
    autosave.parent.mkdir(parents=True)
    autosave.write_bytes(save_file.read_bytes()[:1000])
    before = autosave.read_bytes()
    result = run_villa("--continue", "--headless", home=home)
    assert result.returncode == 2 and "truncated" in result.stderr and "Traceback" not in result.stderr
    assert autosave.read_bytes() == before


def test_continue_without_an_autosave_says_so(tmp_path):
    result = run_villa("--continue", "--headless", home=tmp_path / "home")
    assert result.returncode == 2 and "no saved game to continue" in result.stderr


def test_a_new_game_keeps_a_broken_autosave_aside(save_file, recorded_game):
    autosave = saves.autosave_path()
    autosave.parent.mkdir(parents=True)
    autosave.write_bytes(b'{"format": "villa-paletti/save", "vers')
    saves.Autosaver().save(recorded_game)
    kept = list(autosave.parent.glob("autosave.broken-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == b'{"format": "villa-paletti/save", "vers'
    assert records.digest(saves.load(autosave)) == records.digest(recorded_game)


def test_a_new_game_keeps_another_games_autosave(save_file, recorded_game):
    other = saves.load(save_file)
    other = replace(other, setup=replace(other.setup, game="another"))
    autosave = saves.autosave_path()
    saves.Autosaver().save(other)
    before = autosave.read_bytes()
    saves.Autosaver().save(recorded_game)
    assert (autosave.parent / saves.PREVIOUS).read_bytes() == before


def test_going_on_with_the_same_game_replaces_its_autosave(save_file, recorded_game):
    saves.Autosaver().save(saves.load(save_file))
    saves.Autosaver().save(recorded_game)
    assert not (saves.autosave_path().parent / saves.PREVIOUS).exists()


def test_a_save_cut_anywhere_is_called_truncated(save_file):
    """Wherever the file ends early (mid-number, mid-word, mid-string, between items), it is cut short."""
    text = save_file.read_text(encoding="utf-8")
    for cut in range(1, len(text) - 1, max(1, len(text) // 257)):
        with pytest.raises(saves.SaveError, match="truncated"):
            saves.from_text(text[:cut])
