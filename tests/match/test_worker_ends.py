"""The computer players' worker ends with the game, however it ends: closed (even mid-thought), or its process
killed outright (it would otherwise wait on its queue for ever, with multiprocessing's resource tracker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from villa.match.computer.worker import Aside, close_thinking

ROOT = Path(__file__).resolve().parents[2]
WITHIN = 3.0   # seconds after the game's end

GAME = """
import os, sys, time
from villa.match.computer.worker import Aside
Aside()
print(Aside._pool.submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def _living(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


def _group(group: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2:].split()
            if fields[0] != "Z" and int(fields[2]) == group:
                found.append(int(entry.name))
    return found


def _gone_within(seconds: float, still_there) -> float:
    started = time.monotonic()
    while still_there() and time.monotonic() - started < seconds:
        time.sleep(0.05)
    return time.monotonic() - started


def test_a_killed_game_takes_its_worker_and_resource_tracker_along():
    game = subprocess.Popen([sys.executable, "-c", GAME], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.PIPE, text=True)
    try:
        worker = int(game.stdout.readline())
        assert _living(worker) and len(_group(game.pid)) == 3   # the game, its worker, the resource tracker
        game.kill()
        game.wait(timeout=30)
        took = _gone_within(WITHIN + 2, lambda: _group(game.pid))
        assert not _group(game.pid) and took < WITHIN, f"{_group(game.pid)} after {took:.1f} s"
    finally:
        try:
            os.killpg(game.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        game.stdout.close()


def test_closing_ends_the_worker_even_in_the_middle_of_a_thought():
    Aside()
    worker = Aside._pool.submit(os.getpid).result(timeout=120)
    Aside._pool.submit(time.sleep, 60)   # a long thought
    close_thinking()
    took = _gone_within(WITHIN + 2, lambda: _living(worker))
    assert not _living(worker) and took < WITHIN
