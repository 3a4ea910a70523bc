"""Nothing lost when writing goes wrong: a full disk or a folder that cannot be written never ends the game,
and a game killed at any single step of a write leaves a game that loads (the last one, or the one before)."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest

from villa.app import cli, headless, saves
from villa.match import record as records

from .conftest import ROOT


@pytest.fixture(autouse=True)
def villa_home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _failing_writes(monkeypatch, failures: int):
    """The next `failures` writes of a save fail as on a full disk; later ones work."""
    real = saves.write_atomically
    left = {"failures": failures}

    def write(path, text):
        if left["failures"] > 0:
            left["failures"] -= 1
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)
    monkeypatch.setattr(saves, "write_atomically", write)
    return left


def test_headless_play_goes_on_through_a_full_disk_and_saves_once_it_can(monkeypatch, villa_home):
    left = _failing_writes(monkeypatch, 2)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    args = cli.parse(["--autoplay", "2", "--headless", "--seed", "3", "--players", "2"])
    assert headless.run(args, out) == 0
    assert left["failures"] == 0
    complaints = [line for line in err.getvalue().splitlines() if "could not write the autosave" in line]
    assert len(complaints) == 2 and all("No space left on device" in line for line in complaints)
    assert "the game goes on" in complaints[0]
    said = out.getvalue().splitlines()
    assert said[-1].startswith("turn 2 saved ") or said[-1].startswith("replay saved")
    kept = saves.load(villa_home / "data" / "autosave.json")
    assert kept.turn >= 2, "the first write that worked kept the game as it stood then"


def test_a_data_folder_that_is_a_file_is_told_and_the_game_plays_on(villa_home):
    villa_home.mkdir(parents=True)
    (villa_home / "data").write_text("not a folder")
    env = {**os.environ, "VILLA_HOME": str(villa_home)}
    done = subprocess.run([sys.executable, "-m", "villa", "--autoplay", "1", "--headless", "--seed", "2"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "could not write the autosave" in done.stderr and "Traceback" not in done.stderr
    assert (villa_home / "data").read_text() == "not a folder"


KILLER = textwrap.dedent("""
    import os, signal, sys
    calls = {"n": 0}
    kill_at = int(os.environ["KILL_AT"])
    def counted(real):
        def step(*args, **kwargs):
            calls["n"] += 1
            if calls["n"] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)
        return step
    os.fsync, os.replace = counted(os.fsync), counted(os.replace)
    from villa.app.main import main
    sys.exit(main(sys.argv[1:]))
""")


def test_killed_at_every_step_of_its_writes_a_game_always_loads_again(tmp_path, recorded_game):
    """Another game's autosave lies there; a new game sets it aside and saves its own turns. Killed at the
    first, second ... step of those writes (each fsync and each rename), `--continue` still finds a game
    that loads, and no game is lost."""
    other = records.dumps(recorded_game, "autosave")

    def killed_at(kill_at: int):
        """The game killed at that step of its writes, then continued; what each left on disk."""
        home = tmp_path / f"home-{kill_at}"
        data = home / "data"
        data.mkdir(parents=True)
        (data / "autosave.json").write_text(other, encoding="utf-8")
        env = {**os.environ, "VILLA_HOME": str(home), "KILL_AT": str(kill_at)}
        killed = subprocess.run([sys.executable, "-c", KILLER, "--autoplay", "2", "--headless", "--seed", "5",
                                 "--players", "2"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        kept = sorted(p.name for p in data.glob("autosave*.json"))
        games = {saves.load(data / name).setup.game for name in kept}   # every file there loads
        going_on = subprocess.run([sys.executable, "-m", "villa", "--continue", "--headless"], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=300)
        return killed, games, going_on

    with ThreadPoolExecutor(max_workers=2) as pool:   # each step in a home of its own: two at a time
        runs = list(pool.map(killed_at, range(1, 12)))
    for kill_at, (killed, games, going_on) in enumerate(runs, start=1):
        assert recorded_game.setup.game in games, f"killed at step {kill_at}: the other game was lost"
        assert going_on.returncode == 0, (kill_at, killed.returncode, going_on.stderr)
        assert going_on.stdout.startswith("continued at turn ")
        if killed.returncode == 0:
            break   # the whole run went through without reaching the step: every step was tried
    assert kill_at > 4
