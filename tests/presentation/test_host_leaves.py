"""A host who leaves strands nobody. Anna hosts a game in her own window, in a process of its own
(`hosting_window.py`); Ben plays in this process's window. Ben holds a column when Anna's window is killed: his
screen says at once what happened and how it comes back, offers no move but Leave, and keeps trying her address.
Anna starts the game again and picks Continue (`--continue`, as the main menu's): her room opens again from her own
files, on the same port, with her seat; Ben is back in the game by himself.

And on one screen: Anna goes back to the main menu from a game she hosts (her window "closes" the room), her guest is
told so, and her main menu's Continue opens it again."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from villa import rules
from villa.app import joining
from villa.app.front import Front
from villa.match import MatchSetup, Seat, layout_named
from villa.match import requests as rq
from villa.online.client import Player
from villa.online.client.seats_now import SeatsNow
from villa.online.protocol import Online
from villa.physics.pulling import Grip
from villa.presentation.modes import Mode
from villa.presentation.preferences import Settings

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def _until(stage, done, seconds: float, others=()) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        stage.base.taskMgr.step()
        for other in others:
            other.poll()
        time.sleep(0.004)
    return True


class Window:
    """A game window in a process of its own, its printed lines read as they come."""

    def __init__(self, args: list[str], home: Path, display: str) -> None:
        self.process = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True,
                                        env=dict(os.environ, DISPLAY=display, VILLA_HOME=str(home)))
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)

    def line(self, starting: str, seconds: float = 90) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.process.poll() is None, self.process.stderr.read()[-3000:]
                continue
            if line.startswith(starting):
                return line
        pytest.fail(f"the window never said {starting!r}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def _log(home: Path) -> str:
    path = home / "data" / "villa.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_the_hosting_window_killed_mid_pull_strands_nobody_and_continue_brings_everyone_back(
        stage, tmp_path, monkeypatch, display, snapshot):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "ben"))
    anna_home, port = tmp_path / "anna", free_port()
    anna = Window(["-m", "tests.presentation.hosting_window", str(port)], anna_home, display)
    front, again = Front(stage, Settings(language="en")), None
    try:
        code = anna.line("room ").split()[1]
        player = joining.sit_down(LOOPBACK, port, code, "Ben")
        front.online_play.seated(player, joining.address(LOOPBACK, port), "Ben")
        assert _until(stage, lambda: front.screen is not None, 60), "the game begins at both windows"
        screen, match = front.screen, front.match
        assert rules.acting_player(match.state) == 1 and screen.mode == Mode.IDLE, "Ben moves first"
        assert player.table.get("hosted_at") == 0

        column = sorted(rules.grabbable_columns(match.state))[0]
        (x, y, z), _quat = player.poses[column]
        assert match.request(rq.Take(1, column, (x, y, z))).refusal is None
        for step in range(1, 6):
            match.request(rq.Aim(1, (x * (1 + step / 20), y * (1 + step / 20), z)))
            _until(stage, lambda: False, 0.05)
        assert _until(stage, lambda: player.hand_holder == 1 and match.hand is not None, 20), "Ben holds the column"

        shown = player.fingerprint                     # her window's certificate, kept in her data folder
        assert shown is not None
        anna.kill()                                    # her window dies: no goodbye, the sockets just close
        assert _until(stage, lambda: screen.mode == Mode.CUT_OFF, 20), "Ben's screen knows at once"
        told = screen.hud.message.getText()
        assert told.startswith("Anna's window, which hosted this game, has closed. The game is kept on Anna's "
                               "computer from the last settled turn: you will be back in it when Anna opens the "
                               "game and picks Continue."), told
        assert "another" not in told and "cannot read" not in told
        assert screen.hud.status.getText().startswith("Cut off from Anna's window: "), screen.hud.status.getText()
        assert list(screen.hud.commands.buttons) == ["leave"], "no move is offered, only Leave"
        assert match.hand is None and not screen.press((0.0, 0.0)), "nothing in hand, a press takes nothing"
        snapshot("host-left-guest-told")
        _until(stage, lambda: False, 6)
        assert screen.mode == Mode.CUT_OFF and not player.lost, "still looking, still saying so"
        assert screen.hud.message.getText().startswith("Anna's window, which hosted this game, has closed.")
        assert "trying again in" in screen.hud.status.getText() or "trying now" in screen.hud.status.getText()

        again = Window(["-m", "villa", "--continue", "--size", "640x360"], anna_home, display)
        assert _until(stage, lambda: player.came_back == 1 and screen.mode != Mode.CUT_OFF, 90), \
            (screen.mode, player.lost_why, player.trouble, _log(anna_home)[-2000:])
        assert _until(stage, lambda: player.table["seats"][0]["here"], 30), "Anna sits at her seat again"
        assert player.room == code and player.port == port, "the same room, on the same port"
        assert player.fingerprint == shown, "showing the same certificate: Ben's window's check of it passed again"
        assert rules.acting_player(match.state) == 1 and column not in match.state.blocked, \
            "from the last settled turn: Ben's move again, his column back in its place"
        assert screen.hud.message.getText().startswith("Back in the game.")
        assert "leave" not in screen.hud.commands.buttons
        assert SeatsNow(player).cut_off() is None
        snapshot("host-left-back-in-the-game")
    finally:
        front.close()
        anna.kill()
        if again is not None:
            again.kill()


@pytest.fixture
def window(stage, monkeypatch, tmp_path):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"))
    yield app
    app.close()


def _hosting(window, stage) -> tuple[Player, Player, int]:
    """Anna hosts a game in this window (as the menus' Host here does), Ben sits at another, and it begins."""
    plan = MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings", 4), seed=4, deal_colours=True)
    window.main_menu()
    window.online_play.where_to_host(plan)
    port = free_port()
    window.online_play.host_here(str(port))
    assert _until(stage, lambda: window.online_play.player is not None and window.online_play.player.seats, 20)
    anna = window.online_play.player
    ben = Player(LOOPBACK, port)
    assert _until(stage, lambda: ben.ready, 10, [ben])
    ben.enter(anna.code)
    assert _until(stage, lambda: ben.room is not None, 10, [ben])
    ben.sit("Ben", 1)
    assert _until(stage, lambda: ben.seats and anna.table["seats"][1]["here"], 10, [ben])
    anna.begin()
    assert _until(stage, lambda: window.screen is not None and ben.table.get("started") and ben.poses, 30, [ben])
    return anna, ben, port


def test_a_host_who_goes_back_to_the_menu_is_said_so_and_her_continue_opens_the_room_again(window, stage,
                                                                                        press_button):
    from villa.presentation.menus.main_menu import MainMenu
    anna, ben, port = _hosting(window, stage)
    try:
        kept = window.settings.kept_seat
        assert kept.hosts and kept.started and kept.code == anna.code, "her seat is kept like everyone's"

        window.main_menu()                               # she leaves: her window's server goes with it
        assert _until(stage, lambda: ben.rejoining is not None, 10, [ben])
        assert ben.lost_why.code is Online.HOST_LEFT and ben.lost_why.values["host"] == "Anna"
        menu = window.menu
        assert isinstance(menu, MainMenu) and menu.widgets["continue"]["text"] == f"Continue in room {kept.code}"
        assert menu.widgets["continue"]["state"] == "normal"
        press_button(menu.widgets["continue"])
        assert _until(stage, lambda: window.screen is not None and ben.came_back == 1, 40, [ben]), \
            "her room again, and Ben back in it by himself"
        again = window.online_play
        assert again.server.port == port and again.player.code == kept.code and again.player.seats.keys() == {0}
        assert _until(stage, lambda: ben.table["seats"][0]["here"] and ben.table["seats"][1]["here"], 10, [ben])
    finally:
        ben.close()


def test_a_host_whose_port_was_taken_meanwhile_hosts_her_room_on_another_and_is_told_to_pass_it_on(window, stage,
                                                                                                 press_button):
    anna, ben, port = _hosting(window, stage)
    code = anna.code
    ben.close()
    window.main_menu()
    squatter = socket.socket()                           # another program on her port now
    squatter.bind(("", port))
    squatter.listen(1)
    try:
        press_button(window.menu.widgets["continue"])
        assert _until(stage, lambda: window.screen is not None, 40), "her room again, on another port"
        again = window.online_play
        assert again.server.port != port and again.player.code == code and again.player.seats.keys() == {0}
        said = window.screen.hud.message.getText()
        assert said.startswith(f"Port {port} is taken by another program now, so this game is hosted on port "
                               f"{again.server.port}: your friends' windows look for it on the old port, so tell "
                               f"them to join "), said
        assert said.split("join ")[1].split(" again.")[0].endswith(f":{again.server.port}")
    finally:
        squatter.close()


def test_a_window_back_in_the_middle_of_setting_a_column_down_leaves_it_where_the_servers_hands_hold_it(
        stage, monkeypatch, tmp_path, mouse, frames, on_screen):
    """Ben's window dies with his column set down in his hands on the top floor; it comes back with his token and
    takes the column up again where it stands: the pointer, wherever it is, does not drag it across the floor
    (which brought a villa down); moved, it moves the column by as much."""
    from villa.online import protocol
    from villa.online.server import Room, Server
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    server = Server(free_port(), LOOPBACK)
    room = server.open(Room(protocol.new_room_code(), MatchSetup((Seat("Anna"), Seat("Ben")), layout_named(
        "rings", 4), seed=4, deal_colours=True)))
    server.start(stage.task_mgr)
    front = Front(stage, Settings(language="en"))
    anna, ben = Player(LOOPBACK, server.port), Player(LOOPBACK, server.port)
    try:
        for seat, (person, name) in enumerate(((anna, "Anna"), (ben, "Ben"))):
            assert _until(stage, lambda p=person: p.ready, 10, [anna, ben])
            person.enter(room.code)
            assert _until(stage, lambda p=person: p.room is not None, 10, [anna, ben])
            person.sit(name, seat)
        assert _until(stage, lambda: room.match is not None and ben.poses, 20, [anna, ben])
        column = "red-hex"
        (x, y, z), _quat = ben.poses[column]
        ben.request(rq.Take(1, column, (x, y, z)))
        top = max(pose[0][2] for piece, pose in ben.poses.items() if piece.startswith("floor"))
        for step in range(1, 21):
            f = step / 20
            ben.request(rq.Aim(1, (x * (1 + 1.5 * f), y * (1 + 1.5 * f), z)))
            _until(stage, lambda: False, 0.03, [anna, ben])
        for step in range(1, 21):
            f = step / 20
            ben.request(rq.Aim(1, (x * 2.5 * (1 - f), y * 2.5 * (1 - f), z + (top + 15 - z) * f)))
            _until(stage, lambda: False, 0.03, [anna, ben])
        ben.request(rq.SetDown(1, hold=True))
        assert _until(stage, lambda: room.match.hand is not None and room.match.hand.state == Grip.HELD, 20,
                      [anna, ben]), "set down on the top floor, held"
        token = ben.seats[1]
        ben.link.close()                                  # Ben's window dies
        ben.lost = True
        assert _until(stage, lambda: room.seating.connection(1) is None, 10, [anna])
        stood = room.match.villa.nodes[column].getPos()

        back = Player(LOOPBACK, server.port)
        assert _until(stage, lambda: back.ready, 10, [anna, back])
        back.rejoin(token, room.code)
        assert _until(stage, lambda: 1 in back.seats and back.poses and back.table.get("started"), 10, [anna, back])
        mouse.move(40, 40)                                # the pointer far from the villa, in a corner
        front.online_play.seated(back, f"{LOOPBACK}:{server.port}", "Ben")
        assert _until(stage, lambda: front.screen is not None and front.match.hand is not None, 20, [anna]), \
            "the column in the server's hands is taken up at Ben's window"
        screen = front.screen
        assert screen.mode == "Carrying" and front.match.hand.taken_up
        _until(stage, lambda: False, 1.5, [anna])
        assert (room.match.villa.nodes[column].getPos() - stood).length() < 1.0, "it stays where it stands"
        assert not room.match.villa.collapse and room.match.hand is not None

        mouse.move(600, 500)                              # the pointer moves, the button up: it stays
        _until(stage, lambda: False, 1.5, [anna])
        assert (room.match.villa.nodes[column].getPos() - stood).length() < 1.0, "it sits in the hands, unmoved"
        x, y = on_screen(stood)
        mouse.move(x, y)
        _until(stage, lambda: False, 0.5, [anna])
        mouse.down()                                      # pressed, dragged a little (it slides no further), let go
        for step in range(1, 6):
            mouse.move(x + 3 * step, y)
            _until(stage, lambda: False, 0.2, [anna])
        mouse.up()
        assert _until(stage, lambda: rules.acting_player(room.match.state) == 0, 60, [anna]), \
            "let go where it stands: set on the top floor, Anna's turn"
        assert (room.match.villa.nodes[column].getPos() - stood).length() < 10.0
        assert not room.match.villa.collapse and room.match.state.log[-1].column == column
    finally:
        front.close()
        anna.close()
        server.close()
