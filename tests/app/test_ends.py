"""Ended from outside, the game leaves nothing running: SIGTERM (logout, `kill`) closes it as Quit does, its
autosave kept; after SIGKILL (a desktop's force quit) too, the computer players' worker and multiprocessing's
resource tracker end with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from villa.app import ends, saves
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match import record as records

from .conftest import ROOT

GONE_WITHIN = 5.0       # seconds after the game's end
TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat from its state on (field 3 is [0]), or None when the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def _group(group: int) -> dict[int, str]:
    """The living processes of a process group and their command lines (a zombie has ended)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is None or fields[0] == "Z" or int(fields[2]) != group:
            continue
        try:
            found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
    return found


def _worker(group: int) -> int | None:
    """The thinking worker, once it is ready (its priority lowered below the game's, after its imports)."""
    game = _stat(group)
    for pid, command in _group(group).items():
        fields = _stat(pid)
        if "multiprocessing.spawn" in command and fields and game and int(fields[16]) > int(game[16]):
            return pid
    return None


def _cpu(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / TICKS if fields else 0.0


def _wait_for_thinking(game: subprocess.Popen) -> int:
    """Wait until the worker thinks (uses the processor after it got ready); its process id."""
    worker, ready_at = None, 0.0
    deadline = time.monotonic() + 180   # a loaded machine starts the window slowly
    while time.monotonic() < deadline:
        assert game.poll() is None, game.stderr.read()
        if worker is None:
            worker = _worker(game.pid)
            ready_at = _cpu(worker) if worker else 0.0
        elif _cpu(worker) - ready_at >= 0.3:
            return worker
        time.sleep(0.1)
    pytest.fail("the computer players' worker never thought")


def _hearing_ctrl_c() -> None:
    """In the child before it runs: Ctrl+C as a terminal gives it. A suite started in the background
    (`cmd &` in a script) hands its children SIGINT ignored, and Python keeps it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(home: Path, display: str, *args: str) -> subprocess.Popen:
    """The game in its own process group, so that everything it starts can be found again."""
    env = dict(os.environ, DISPLAY=display, VILLA_HOME=str(home))
    return subprocess.Popen([sys.executable, "-m", "villa", *args], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_hearing_ctrl_c)


def _left_behind(group: int) -> dict[int, str]:
    deadline = time.monotonic() + GONE_WITHIN
    while (left := _group(group)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _end_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)   # whatever a failed test left running
    except ProcessLookupError:
        pass


def _computers_game(home: Path) -> Path:
    """Three computer players' game, kept as the autosave."""
    seats = tuple(Seat(f"Computer {n}", Strength.EASY) for n in (1, 2, 3))
    autosave = home / "data" / saves.AUTOSAVE
    autosave.parent.mkdir(parents=True)
    autosave.write_text(records.dumps(Match(MatchSetup(seats, layout_named("rings"), seed=4)).record, "save"),
                        encoding="utf-8")
    return autosave


@pytest.mark.gui
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL, pytest.param(signal.SIGINT, marks=pytest.mark.slow)],
                         ids=["SIGTERM", "SIGKILL", "SIGINT"])
def test_an_ended_window_game_leaves_no_process_behind(how, display, tmp_path):
    autosave = _computers_game(tmp_path)
    game = _start(tmp_path, display, "--continue")
    try:
        _wait_for_thinking(game)
        assert any("resource_tracker" in command for command in _group(game.pid).values())
        game.send_signal(how)
        code = game.wait(timeout=60)
        assert not _left_behind(game.pid)
        if how != signal.SIGKILL:   # closed as Quit does: no complaint, the autosave there and loading
            errors = game.stderr.read()
            assert code == 128 + how and "Traceback" not in errors, errors
            assert saves.load(autosave).setup.players == ("Computer 1", "Computer 2", "Computer 3")
    finally:
        _end_group(game.pid)
        game.wait(timeout=30)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_headless_game_ended_by_a_signal_keeps_its_autosave(how, tmp_path):
    env = dict(os.environ, VILLA_HOME=str(tmp_path))
    game = subprocess.Popen([sys.executable, "-m", "villa", "--autoplay", "1000", "--headless", "--seed", "2"],
                            cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_hearing_ctrl_c)
    saved = threading.Event()

    def read() -> None:
        for line in iter(game.stdout.readline, ""):
            if " saved " in line:
                saved.set()
    threading.Thread(target=read, daemon=True).start()
    try:
        assert saved.wait(timeout=120), game.stderr.read()
        game.send_signal(how)
        code = game.wait(timeout=60)
        errors = game.stderr.read()
        assert code == 128 + how and "Traceback" not in errors, errors
        assert saves.load(tmp_path / "data" / saves.AUTOSAVE).turn >= 0
    finally:
        _end_group(game.pid)
        game.wait(timeout=30)


def test_an_end_held_for_a_loop_is_kept_and_asked_again_ends_at_once():
    asked = ends.Held()
    with pytest.raises(ends.Ended):
        asked(signal.SIGTERM)            # not held yet (a server starting): at once
    asked = ends.Held()
    asked.held = True
    asked(signal.SIGTERM)                # held: kept for the loop to see between two of its turns
    assert asked and asked.number == signal.SIGTERM
    with pytest.raises(ends.Ended) as ended:
        asked(signal.SIGINT)             # asked again (Ctrl+C twice): at once
    assert ended.value.code == 128 + signal.SIGINT
