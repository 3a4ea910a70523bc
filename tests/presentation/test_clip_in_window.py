"""Saving the fall as a clip from the end screen, clicked with the real pointer (xdotool under Xvfb): a helper
process draws it off screen while the window goes on; the clip lands in the pictures folder, or one sentence says
why it could not, and a cancelled clip leaves no file behind."""

from __future__ import annotations

import os
import random
import time

import pytest
from PIL import Image

from villa import rules
from villa.app import clips
from villa.match import requests as rq
from villa.presentation.preferences import Settings
from tests.match.falls import pulled_through
from tests.presentation.conftest import new_match

pytestmark = pytest.mark.gui

SMALL = (426, 240)     # the clips of these tests: as the game makes them, only smaller
WAIT_S = 240.0


@pytest.fixture(scope="module")
def fallen():
    match, column, player = pulled_through()
    return match.record


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), rng=random.Random(3))
    yield app
    app.close()


def _end_screen(front, fallen, frames):
    front.take_up(fallen)
    frames(5)
    assert front.clipping is not None and front.clipping.row is not None, "the end screen offers the clip"
    front.clipping.size = SMALL
    return front.clipping


def _until(frames, done, seconds: float = WAIT_S) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the clip took too long"
        frames(1)


def _left_in(folder) -> list[str]:
    return sorted(os.listdir(folder)) if folder.exists() else []


def test_the_fall_is_saved_as_a_clip_and_the_end_screen_says_where(front, fallen, frames, press_button, tmp_path,
                                                                  monkeypatch, snapshot):
    opened = []
    monkeypatch.setattr("villa.app.clipping.open_folder", opened.append)
    clipping = _end_screen(front, fallen, frames)
    row = clipping.row
    assert row.widgets["make"]["text"] == "Save the fall as a clip"
    press_button(row.widgets["make"])
    assert clipping.job is not None and clipping.job.state == "making"
    _until(frames, lambda: clipping.job.done > 0 or clipping.job.state != "making")
    assert "bar" in row.widgets and "Making the clip" in row.said, "a progress bar while it is made"
    snapshot("clip-1-making")
    _until(frames, lambda: clipping.job.state != "making")
    assert clipping.job.state == "saved", clipping.job.error
    path = clipping.job.path
    assert path.parent == tmp_path / "clips" and path.name.startswith("villa-paletti-fall-") and path.suffix == ".webp"
    assert _left_in(path.parent) == [path.name], "only the clip: no temporary file left"
    assert str(path) in row.said and "open" in row.widgets
    snapshot("clip-2-saved")
    press_button(row.widgets["open"])
    assert opened == [path.parent]
    with Image.open(path) as clip:
        assert clip.size == SMALL and clip.n_frames == len(fallen.motion.frames)


def test_cancelling_leaves_no_file_behind(front, fallen, frames, press_button, tmp_path):
    clipping = _end_screen(front, fallen, frames)
    press_button(clipping.row.widgets["make"])
    _until(frames, lambda: clipping.job.done > 0 or clipping.job.state != "making")
    assert clipping.job.state == "making"
    press_button(clipping.row.widgets["cancel"])
    assert clipping.job.state == "cancelled" and not clipping.job.process.is_alive()
    assert _left_in(tmp_path / "clips") == []
    assert "cancelled" in clipping.row.said and "make" in clipping.row.widgets, "it may be made again"


def test_an_unwritable_folder_is_one_sentence_and_nothing_is_lost(front, fallen, frames, press_button, tmp_path):
    (tmp_path / "clips").write_text("a file where the folder should be")
    clipping = _end_screen(front, fallen, frames)
    press_button(clipping.row.widgets["make"])
    assert clipping.job.state == "failed" and clipping.job.process is None, "told before any frame is drawn"
    said = clipping.row.said
    assert said.startswith("The clip could not be saved in ") and said.count(".") <= 2 and "nothing else is lost" in said
    assert (tmp_path / "clips").read_text() == "a file where the folder should be"
    assert front.menu is not None and front.menu.widgets["main_menu"], "the end screen goes on"


def test_a_full_disk_is_one_sentence_and_leaves_no_file(front, fallen, frames, press_button, tmp_path):
    folder = tmp_path / "clips"
    folder.mkdir()
    clipping = _end_screen(front, fallen, frames)
    temporary = clips.temporary_beside(clips.free_path(folder, clips.clip_name(fallen.motion)))
    temporary.symlink_to("/dev/full")     # whatever is written there: "No space left on device"
    press_button(clipping.row.widgets["make"])
    assert clipping.job.state == "failed"
    assert "No space left on device" in clipping.row.said and "nothing else is lost" in clipping.row.said
    assert _left_in(folder) == [] and os.path.exists("/dev/full")


def test_the_replay_viewer_saves_the_last_move_of_a_game_that_stands(stage, frames, press_button, tmp_path,
                                                                    monkeypatch, snapshot):
    from villa.app.front import watch_replay
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    match = new_match(players=("Anna", "Ben"), layout="rings", seed=4)
    column = rules.grabbable_columns(match.state)[0]
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    x, y, z = match.villa.nodes[column].getPos()
    for frame in range(40):                            # drawn out a little
        rq.ask(match, lambda s: rq.Aim(s, (x * (1 + frame / 200), y * (1 + frame / 200), z)))
        match.frame()
    assert rq.ask(match, rq.GiveUp).accepted           # and given up: it goes back, the villa stands
    while match.turns[-1].actions != len(match.state.log) or len(match.turns) < 2:
        match.frame()
    record = match.record
    assert record.motion is not None and not record.motion.fell
    viewer, clipping = watch_replay(stage, record)
    try:
        clipping.size = SMALL
        frames(5)
        assert clipping.row.widgets["make"]["text"] == "Save the last move as a clip"
        snapshot("clip-3-replay")
        press_button(clipping.row.widgets["make"])
        _until(frames, lambda: clipping.job.state != "making")
        assert clipping.job.state == "saved" and clipping.job.path.name.startswith("villa-paletti-move-")
        with Image.open(clipping.job.path) as clip:
            assert clip.n_frames == len(record.motion.frames)
    finally:
        clipping.close()
        viewer.close()
