"""`villa-paletti --clip REPLAY --out FILE`: the fall recorded in a replay as an animated WebP, with no window
(an offscreen buffer; on a machine without a display the game starts Xvfb itself). A replay without a fall, or a
file that is no replay, gets one sentence and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from villa.app.storage import write_atomically
from villa.match import Match, MatchSetup, Seat, layout_named
from villa.match import record as records
from villa.match.motion import RATE
from tests.match.falls import pulled_through

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]
SIZE = "640x360"


def _clip(*args, home: Path, display: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "VILLA_HOME": str(home)}
    if display is not None:
        env["DISPLAY"] = display
    return subprocess.run([sys.executable, "-m", "villa", *map(str, args)], capture_output=True, text=True,
                          timeout=600, env=env, cwd=ROOT)


@pytest.fixture(scope="module")
def fallen(tmp_path_factory):
    match, column, player = pulled_through()
    path = tmp_path_factory.mktemp("replays") / "fallen.json"
    write_atomically(path, records.dumps(match.record, "replay"))
    return path, match, column, player


def _villa_share(frame: Image.Image) -> tuple[float, float]:
    """How much of the picture the pieces cover (not the table's brown wood, not the caption's dark band), and
    how wide they reach across it."""
    hsv = np.asarray(frame.convert("HSV")).astype(float) / 255
    hue, saturation, value = hsv[..., 0] * 360, hsv[..., 1], hsv[..., 2]
    wood = (hue >= 8) & (hue <= 42)
    pieces = (~wood & (saturation > 0.3) & (value > 0.2)) | ((value > 0.72) & (saturation < 0.45))
    columns = np.flatnonzero(pieces.mean(axis=0) > 0.02)
    return float(pieces.mean()), (columns[-1] - columns[0]) / frame.width if len(columns) else 0.0


def test_a_recorded_fall_becomes_a_clip_of_its_length_at_thirty_frames_a_second(fallen, tmp_path, display):
    path, match, _column, _player = fallen
    out = tmp_path / "fall.webp"
    done = _clip("--clip", path, "--out", out, "--size", SIZE, home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".part")], "no temporary file left"
    motion = match.motion
    with Image.open(out) as clip:
        assert clip.size == (640, 360) and clip.is_animated
        assert clip.n_frames == len(motion.frames) == round(motion.seconds * RATE)
        durations, frames = [], []
        for index in range(clip.n_frames):
            clip.seek(index)
            frame = clip.convert("RGB")    # (read: its duration is known then)
            durations.append(clip.info["duration"])
            if index in (0, clip.n_frames - 1):
                frames.append(frame)
    assert sum(durations) == pytest.approx(motion.seconds * 1000, abs=clip.n_frames)
    first, last = (np.asarray(f).astype(int) for f in frames)
    assert np.abs(first - last).mean() > 3, "the first and last frames differ"
    for frame in frames:
        pixels = np.asarray(frame)
        assert 30 < pixels.mean() < 220 and pixels.std() > 20, "not a blank or black frame"
        share, reach = _villa_share(frame)
        assert share > 0.04 and reach > 0.3, f"the villa fills a fair part of the picture ({share:.3f}, {reach:.2f})"


def test_a_replay_without_a_fall_gets_one_sentence_and_exit_code_2(tmp_path, display):
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings", 2), seed=2, deal_colours=True))
    path = tmp_path / "standing.json"
    write_atomically(path, records.dumps(match.record, "replay"))
    done = _clip("--clip", path, "--out", tmp_path / "none.webp", home=tmp_path)
    assert done.returncode == 2 and "records no fall" in done.stderr
    assert done.stderr.strip().count("\n") == 0, "one sentence"
    assert not (tmp_path / "none.webp").exists()


def test_a_file_that_is_no_replay_gets_one_sentence_and_exit_code_2(tmp_path, display):
    path = tmp_path / "shopping.json"
    path.write_text('{"milk": 2}')
    done = _clip("--clip", path, "--out", tmp_path / "none.webp", home=tmp_path)
    assert done.returncode == 2 and "not a Villa Paletti save file" in done.stderr
    assert done.stderr.strip().count("\n") == 0 and not (tmp_path / "none.webp").exists()


def test_clip_without_out_is_refused(tmp_path):
    done = _clip("--clip", tmp_path / "x.json", home=tmp_path)
    assert done.returncode == 2 and "--clip and --out go together" in done.stderr


def test_a_half_written_clip_left_by_a_kill_is_cleaned_up_later(tmp_path):
    from villa.app import clips
    left = tmp_path / ".villa-paletti-fall-2026-12-01-2143.webp.4242.part"
    fresh = tmp_path / ".villa-paletti-fall-2026-12-01-2144.webp.4243.part"
    mine = tmp_path / "holiday.webp"
    for path in (left, fresh, mine):
        path.write_bytes(b"RIFF")
    os.utime(left, (1, 1))
    os.utime(mine, (1, 1))
    clips.clean_left_parts(tmp_path)
    assert not left.exists() and fresh.exists() and mine.exists(), "only the game's own, and only old ones"
