"""Killed at any moment, the game continues from exactly its last settled turn; replays reproduce the game."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from villa.app import saves
from villa.match import record as records
from villa.match import replay

from .conftest import ROOT, run_villa

ROUNDS = 6
MAX_ROUNDS = 30   # a loaded machine plays slowly: more kills until enough turns were crossed


def _start(args, home):
    env = {**os.environ, "VILLA_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "villa", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _kill_after(process, seconds):
    """Kill the game `seconds` after it first said something (a loaded machine starts it slowly)."""
    lines: list[str] = []
    spoke = threading.Event()

    def read() -> None:
        for line in iter(process.stdout.readline, ""):
            lines.append(line)
            spoke.set()
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    spoke.wait(timeout=120)
    time.sleep(seconds)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    reader.join(timeout=10)
    process.stderr.close()
    return [line.strip() for line in lines]


def _seconds_per_turn(home) -> float:
    """How long a turn of computer play takes on this machine now (it may be loaded)."""
    started = time.monotonic()
    done = run_villa("--autoplay", "2", "--headless", "--seed", "99", home=home)
    assert done.returncode == 0, done.stderr
    return (time.monotonic() - started) / 2


def test_a_killed_game_continues_from_its_last_settled_turn(tmp_path):
    home = tmp_path / "home"
    autosave = home / "data" / "autosave.json"
    rng = random.Random(20010)
    turn_time = _seconds_per_turn(tmp_path / "calibration")
    on_disk = None           # (turn, digest) of the autosave file after the previous round
    settled_turns = 0
    for round_ in range(MAX_ROUNDS):
        if round_ >= ROUNDS and settled_turns >= 6:
            break
        over = on_disk is not None and saves.load(autosave).state.over
        if on_disk is None or over:
            args = ["--autoplay", "1000", "--headless", "--seed", str(round_ + 1)]
        else:
            args = ["--continue", "--autoplay", "1000", "--headless"]
        lines = _kill_after(_start(args, home), rng.uniform(0.0, 2.5 * turn_time))
        announced = [line.split() for line in lines if line.startswith("turn ")]
        continued = [line for line in lines if line.startswith("continued at turn")]
        if continued and on_disk is not None:
            # the restored game, pieces rebuilt from the file, is exactly what the file held
            assert continued[0].startswith(f"continued at turn {on_disk[0]} ")
            assert continued[0].endswith(f"({on_disk[1]})")
        if not autosave.exists():
            assert not announced            # killed before the very first save
            continue
        game = saves.load(autosave)         # never a half-written file
        now = (game.turn, records.digest(game))
        if announced:
            turn, digest = int(announced[-1][1]), announced[-1][3]
            # the last announced save, or the next one, written just before the kill hit
            assert now == (turn, digest) or now[0] == turn + 1
            settled_turns += len(announced)
        elif on_disk is not None and not over:
            assert now[0] >= on_disk[0]
        on_disk = now
    assert settled_turns >= 6, "the kills should fall across many turns"
    final = run_villa("--continue", "--headless", home=home)
    assert final.returncode == 0, final.stderr
    assert final.stdout.startswith(f"continued at turn {on_disk[0]} ") and f"({on_disk[1]})" in final.stdout


def test_continue_goes_on_playing(save_file, tmp_path):
    home = tmp_path / "home"
    result = run_villa("--load", str(save_file), "--headless", "--autoplay", "1", home=home)
    assert result.returncode == 0, result.stderr
    game = saves.load(save_file)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"continued at turn {game.turn} ")
    assert lines[1].startswith(f"turn {game.turn + 1} saved ")
    going_on = saves.load(home / "data" / "autosave.json")
    assert going_on.state.log[:len(game.state.log)] == game.state.log   # the same game, one turn on


def test_a_replay_reproduces_the_final_state(recorded_game, tmp_path):
    assert recorded_game.state.over
    steps = list(replay.turns(recorded_game))
    assert [s.turn for s in steps] == list(range(1, recorded_game.turn + 1))
    assert steps[-1].state == recorded_game.state
    assert steps[-1].villa.snapshot() == recorded_game.turns[-1].villa
    path = tmp_path / "replay.json"
    path.write_text(records.dumps(recorded_game, "replay"), encoding="utf-8")
    result = run_villa("--replay", str(path), "--headless", home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[-1] == f"the replay reproduces the saved final state ({records.digest(recorded_game)})"
    assert out[-2].startswith("final: game over: ")
    assert sum(line.startswith("turn ") for line in out) == recorded_game.turn


def test_a_tampered_replay_is_caught(recorded_game, tmp_path):
    import json
    document = json.loads(records.dumps(recorded_game, "replay"))
    middle = document["turns"][len(document["turns"]) // 2]["villa"]["pieces"]
    column = next(p for p in sorted(middle) if not p.startswith("floor-"))
    middle[column][2] += 30.0   # a column floating above where the rules have it
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = path.read_bytes()
    result = run_villa("--replay", str(path), "--headless", home=tmp_path / "home")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    # every turn's villa is checked as the file is read, so it is refused before the first turn is shown
    assert "cannot load" in result.stderr and "contradict the game" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout
    assert path.read_bytes() == before


@pytest.mark.parametrize("args, words", [
    (["--continue", "--load", "x.json"], "--continue and --load contradict each other"),
    (["--replay", "r.json", "--continue"], "--replay and --continue contradict each other"),
    (["--replay", "r.json", "--load", "x.json"], "--replay and --load contradict each other"),
    (["--replay", "r.json", "--autoplay", "3", "--headless"], "--replay and --autoplay contradict"),
    (["--load", "x.json", "--players", "3"], "drop --players"),
    (["--continue", "--seed=4"], "drop --seed"),
    (["--headless"], "--headless has no window to play in"),
    (["--autoplay", "3"], "add --headless"),
    (["--autoplay", "many", "--headless"], "argument --autoplay: give the number of turns as a whole number"),
    (["--autoplay", "-1", "--headless"], "between 0 and 100000"),
    (["--screenshot", "a.png", "--continue"], "--screenshot renders a new game"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
])
def test_command_line_mistakes_get_one_clear_line_and_exit_code_2(args, words, tmp_path):
    result = run_villa(*args, home=tmp_path / "home")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("villa-paletti: ") and words in last


def test_help_lists_every_option(tmp_path):
    result = run_villa("--help", home=tmp_path / "home")
    assert result.returncode == 0
    for option in ("--version", "--players", "--layout", "--seed", "--floors", "--size", "--screenshot",
                   "--continue", "--load", "--replay", "--autoplay", "--headless"):
        assert option in result.stdout
