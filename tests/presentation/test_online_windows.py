"""Two game windows of one game online under one screen: Ben's, a game of its own started with the command
line (`--join`), and Ann's, this process's window joined the same way (`joining.sit_down`) with the server
running from a task of its loop as a host's game would. The real pointer pulls a column in Ann's window;
Ben's game sees the pull as it happens and waits for Ann."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from villa import rules
from villa.app import joining
from villa.app.front import Front
from villa.match import MatchSetup, Seat, layout_named
from villa.online import protocol
from villa.online.rooms import Room
from villa.online.server import Server
from villa.presentation import menus
from villa.presentation.preferences import Settings
from tests.online.conftest import LOOPBACK, free_port

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
SEED = 4      # two people, the colours dealt: the second seat (Ann's) moves first


def _until(frames, done, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        frames()
        time.sleep(0.005)
    return True


def _log(home: Path) -> str:
    path = home / "data" / "villa.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_a_pull_in_one_window_is_seen_in_the_other(stage, frames, mouse, on_screen, tmp_path, monkeypatch, display):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "ann"))
    server = Server(free_port(), LOOPBACK)
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings", SEED),
                                                     seed=SEED, deal_colours=True))
    server.open(room)
    server.start()
    ben_home = tmp_path / "ben"
    ben = subprocess.Popen([sys.executable, "-m", "villa", "--join", f"{LOOPBACK}:{server.port}", "--room", room.code,
                            "--name", "Ben", "--size", "640x360"], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, DISPLAY=display, VILLA_HOME=str(ben_home)))
    front = Front(stage, Settings(language="en"))
    try:
        assert _until(frames, lambda: 0 in room.sitters or ben.poll() is not None, 90), "Ben never sat down"
        assert ben.poll() is None, ben.stderr.read()
        ann = joining.sit_down(LOOPBACK, server.port, room.code, "Ann")
        assert set(ann.seats) == {1} and room.match is not None and room.match.actor == 1
        front.wait_online(ann)
        assert _until(frames, lambda: front.screen is not None, 20), "Ann's game never started"
        screen, match = front.screen, front.match
        frames(10)
        assert screen.mode == "Idle"
        assert _until(frames, lambda: "waiting for Ann" in _log(ben_home), 60), "Ben's game does not wait for Ann"

        subprocess.run(["xdotool", "windowraise", mouse.window], check=True, timeout=10)   # over Ben's window
        width, height = stage.win.getXSize(), stage.win.getYSize()

        def seen(column):
            x, y = on_screen(match.villa.nodes[column].getPos())
            hit = screen.pick((x / width * 2 - 1, 1 - y / height * 2))
            return hit is not None and hit[0] == column
        columns = [c for c in rules.grabbable_columns(match.state) if seen(c)]
        column = max(columns, key=lambda c: match.villa.nodes[c].getPos().getXy().length())
        start = match.villa.nodes[column].getPos()
        x, y = on_screen(start)
        out = on_screen(start + (start - start.__class__(0, 0, start.z)).normalized() * 6)
        mouse.move(x, y)
        frames(3)
        mouse.down()
        for step in range(1, 31):                      # dragged out slowly, a few pixels a frame
            mouse.move(x + (out[0] - x) * step / 30, y + (out[1] - y) * step / 30)
            frames(4)
        assert screen.mode in ("Pulling", "Carrying") and room.match.hand is not None, ann.refusals
        assert room.match.state.turn.column == column
        assert _until(frames, lambda: f"Ann's column {column} is drawn" in _log(ben_home), 30), \
            "Ben's game never drew the pull"
        assert (room.match.villa.nodes[column].getPos() - start).length() > 2.0

        server.close()                                 # the server gone: back to the main menu, saying so
        assert _until(frames, lambda: isinstance(front.menu, menus.MainMenu), 20)
        assert front.menu.notice == "The connection to the game server was lost." and front.screen is None
    finally:
        mouse.up()
        front.close()
        server.close()
        ben.kill()                                     # its seat waits on a server that is gone
        ben.wait(10)
