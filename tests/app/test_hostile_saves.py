"""Hostile and broken save files: every one is refused with one sentence naming the file, never a crash or a
hang, and never changed; files the game itself wrote always load back."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from villa.app import saves
from villa.match import record as records

from .conftest import run_villa


def _document(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path: Path, document: dict) -> None:
    path.write_text(json.dumps(document), encoding="utf-8")


def _refused(path: Path, words: str | None = None) -> str:
    try:
        before = path.read_bytes() if path.is_file() else None
    except OSError:   # a name too long to look up
        before = None
    with pytest.raises(saves.SaveError) as refused:
        saves.load(path)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 600
    if words is not None:
        assert words in message, message
    if before is not None:
        assert path.read_bytes() == before, "a refused file is never changed"
    return message


def _pieces(document) -> dict:
    return document["turns"][-1]["villa"]["pieces"]


def _a_column(document) -> str:
    return next(p for p in sorted(_pieces(document)) if not p.startswith("floor-"))


EDITS = {
    # name: (how the document is changed, words the refusal must hold)
    "a pose of 1e308": (lambda d: _pieces(d)[_a_column(d)].__setitem__(0, 1e308), "off the table"),
    "a pose given as text": (lambda d: _pieces(d)[_a_column(d)].__setitem__(1, "nan"), "not seven numbers"),
    "a layout with no columns": (lambda d: d["match"]["layout"].__setitem__("columns", []), "layout"),
    "a level of 1.5": (lambda d: d["match"]["layout"]["columns"][0].__setitem__("level", 1.5), "level"),
    "a level of true": (lambda d: d["match"]["layout"]["columns"][0].__setitem__("level", True), "level"),
    "a column listed twice in the layout": (lambda d: d["match"]["layout"]["columns"].append(
        d["match"]["layout"]["columns"][0]), "placed 2 times"),
    "a seed of 10^100": (lambda d: d["match"].__setitem__("seed", 10**100), "seed"),
    "a name with a lone surrogate": (lambda d: d["match"]["seats"][0].__setitem__("name", "Ann\udc80"), "name"),
    "a name of 5000 characters": (lambda d: d["match"]["seats"][0].__setitem__("name", "A" * 5000), "name"),
    "a name with a control character": (lambda d: d["match"]["seats"][0].__setitem__("name", "An\x07n"), "name"),
    "an unknown strength": (lambda d: d["match"]["seats"][0].__setitem__("computer", "godlike"), "strength"),
    "a floor 40 cm from its columns": (lambda d: _pieces(d)["floor-1"].__setitem__(0, _pieces(d)["floor-1"][0] + 40),
                                       "contradict the game"),
    "two columns in one spot": (lambda d: _pieces(d).__setitem__(
        sorted(p for p in _pieces(d) if p.endswith("-thick"))[1],
        list(_pieces(d)[sorted(p for p in _pieces(d) if p.endswith("-thick"))[0]])), "inside each other"),
    "the turns not a list": (lambda d: d.__setitem__("turns", {"0": 1}), "records no turns"),
    "the seats not a list": (lambda d: d["match"].__setitem__("seats", "Anna"), "seat"),
    "a state of the wrong kind": (lambda d: d["rules"].__setitem__("state", [1, 2]), "damaged"),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_a_file_edited_into_nonsense_is_refused(save_file, name):
    edit, words = EDITS[name]
    document = _document(save_file)
    edit(document)
    _write(save_file, document)
    _refused(save_file, words)


def test_a_piece_listed_twice_is_refused(save_file):
    text = save_file.read_text(encoding="utf-8")
    column = _a_column(_document(save_file))
    at = text.rindex(f'"{column}": [')
    end = text.index("]", at) + 1
    doubled = text[:end] + ", " + text[at:end] + text[end:]
    save_file.write_text(doubled, encoding="utf-8")
    _refused(save_file, "twice")


def test_deeply_nested_json_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    _refused(path, "nested")


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_numbers_json_does_not_know_are_refused(save_file, value):
    text = save_file.read_text(encoding="utf-8")
    column = _a_column(_document(save_file))
    at = text.index(f'"{column}": [', text.index('"turns"'))
    start = text.index("[", at) + 1
    comma = text.index(",", start)
    save_file.write_text(text[:start] + value + text[comma:], encoding="utf-8")
    _refused(save_file, value)


def test_random_byte_flips_are_refused_or_load_as_a_true_game(save_file):
    """Whatever a damaged disk does to a save, loading it either refuses it in a sentence or gives a
    game that holds together (a flipped digit in a pose may still be a pose)."""
    original = save_file.read_bytes()
    rng = random.Random(7)
    loaded = 0
    for _ in range(40):
        data = bytearray(original)
        for _flip in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        save_file.write_bytes(bytes(data))
        try:
            record = saves.load(save_file)
        except saves.SaveError:
            continue
        loaded += 1
        assert records.digest(record) and record.turns
    assert loaded < 40


def test_things_that_are_no_file_are_refused_without_reading_them(tmp_path):
    _refused(tmp_path, "folder")
    _refused(Path("/dev/zero"), "not a plain file")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    _refused(fifo, "not a plain file")        # and does not hang waiting for a writer
    _refused(tmp_path / ("x" * 305 + ".json"))
    big = tmp_path / "big.json"
    with open(big, "wb") as out:
        out.truncate(saves.MAX_BYTES + 1)
    _refused(big, "too large")


def test_the_command_line_refuses_a_hostile_file_in_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("{\"a\":" * 100_000 + "1" + "}" * 100_000, encoding="utf-8")
    result = run_villa("--load", str(path), "--headless", home=tmp_path / "home")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
