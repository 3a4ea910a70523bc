"""Game windows of one game online under one screen.

Two windows: Ben's, a game of its own started with the command line (`--join`), and Ann's, this process's
window joined the same way (`joining.sit_down`) with the server running from a task of its loop as a host's game
would. The real pointer pulls a column in Ann's window; Ben's game sees the pull as it happens and waits for Ann.

And this window beside a person at another (a headless player): the turn clock on the status line, the turn
passed on when it runs out, said; the host giving a seat whose player stalls to a computer player."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fleet.conftest import FleetServer, RedisServer
from tests.fleet.proxy import Proxy
from villa import rules
from villa.app.front import Front
from villa.match import MatchSetup, Seat, layout_named
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import Player
from villa.online.protocol import Online, OnlineError
from villa.online.server import Room, Server
from villa.presentation import panels
from villa.presentation.preferences import Settings
from villa.rules import RULE_SETS

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
SEED = 4      # two people, the colours dealt: the second seat moves first


def two_seats() -> MatchSetup:
    return MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings", SEED), seed=SEED, deal_colours=True)


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
    server = Server(0, LOOPBACK)
    room = server.open(Room(protocol.new_room_code(), two_seats()))
    server.start(stage.task_mgr)
    ben_home = tmp_path / "ben"
    ben = subprocess.Popen([sys.executable, "-m", "villa", "--join", f"{LOOPBACK}:{server.port}", "--room", room.code,
                            "--name", "Ben", "--size", "640x360"], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, DISPLAY=display, VILLA_HOME=str(ben_home)))
    front = Front(stage, Settings(language="en"))
    try:
        assert _until(frames, lambda: 0 in room.seating.sitters or ben.poll() is not None, 90), "Ben never sat down"
        assert ben.poll() is None, ben.stderr.read()
        ann = _sit(stage, server, "Ann", 1)
        assert room.match is not None and rules.acting_player(room.match.state) == 1
        front.online_play.seated(ann, f"{LOOPBACK}:{server.port}", "Ann")
        assert _until(frames, lambda: front.screen is not None, 20), "Ann's game never started"
        screen, match = front.screen, front.match
        frames(10)
        assert screen.mode == "Idle", (front.menu, getattr(front.menu, "notice", None), front.screen is screen)
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

        server.close()              # the server stops: each window says so, and looks for the game until it is back
        stopped = ("The game server stopped. It keeps the game from the last settled turn: you will be back in it "
                   "when the server runs again.")
        assert _until(frames, lambda: screen.mode == "CutOff" and stopped in screen.hud.message.getText(), 20)
        assert front.screen is screen and not front.online.lost
        assert _until(frames, lambda: stopped in _log(ben_home), 20), "Ben's window said so too"
    finally:
        mouse.up()
        front.close()
        server.close()
        ben.kill()                                     # its seat waits on a server that is gone
        ben.wait(10)


class Later:
    """The room's clock, put forward at will (a turn's time runs out without waiting for it)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


@pytest.fixture
def table(stage, tmp_path, monkeypatch):
    """A server run from the window's loop, a room for two with a turn clock of a minute on `table.clock`,
    and the window's `Front`; `table.seat(name, seat)` sits a headless player (another person's window)."""
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    server = Server(0, LOOPBACK)
    server.clock = Later()
    server.room = server.open(Room(protocol.new_room_code(), two_seats(), clock=server.clock, turn_seconds=60))
    server.start(stage.task_mgr)
    server.front = Front(stage, Settings(language="en"))
    server.others = []

    def seat(name: str, number: int) -> Player:
        server.others.append(_sit(stage, server, name, number))
        return server.others[-1]
    server.seat = seat
    yield server
    server.front.close()
    for other in server.others:
        other.close()
    server.close()


def _run(stage, done, others=(), seconds: float = 20.0) -> bool:
    """The window's frames (the server's with them) and the other players' polls, until `done()`."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        stage.base.taskMgr.step()
        for other in others:
            other.poll()
        time.sleep(0.003)
    return True


def _sit(stage, server, name: str, number: int) -> Player:
    """A player who entered the server's room and sat at seat `number` (the server runs in the window's frames,
    so the window's frames go on meanwhile)."""
    player = Player(LOOPBACK, server.port)
    assert _run(stage, lambda: player.ready, [player])
    player.enter(server.room.code if hasattr(server, "room") else next(iter(server.rooms)))
    assert _run(stage, lambda: player.room is not None, [player])
    player.sit(name, number)
    assert _run(stage, lambda: player.seats, [player])
    assert set(player.seats) == {number}
    return player


def _window_sits(table, name: str, number: int) -> None:
    """This window's person sits, as `--join` seats them, and takes the lobby and the game from there."""
    player = _sit(table.front.stage, table, name, number)
    table.front.online_play.seated(player, f"{LOOPBACK}:{table.port}", name)


def test_the_status_line_counts_the_move_down_and_a_move_out_of_time_passes_on(stage, table, snapshot):
    ben = table.seat("Ben", 0)
    _window_sits(table, "Ann", 1)              # the second seat moves first
    front = table.front
    assert _run(stage, lambda: front.screen is not None, [ben]), "the game screen takes Ann over"
    screen = front.screen
    assert _run(stage, lambda: screen.hud.status.getText().endswith(" left"), [ben])
    said = screen.hud.status.getText()
    assert said.startswith("Ann: ") and (said.endswith("1:00 left") or said.endswith("0:59 left")), said
    snapshot("online-clock")
    table.clock.ahead = 61.0                   # the minute is up
    assert _run(stage, lambda: "Ann's time for the move ran out" in screen.hud.message.getText(), [ben])
    assert _run(stage, lambda: rules.acting_player(front.match.state) == 0, [ben]), "the turn passed on to Ben"
    assert screen.hud.message.getText().startswith("Ann's time for the move ran out: the turn passes on.")
    snapshot("online-time-up")
    assert _run(stage, lambda: screen.hud.status.getText().startswith("Waiting for Ben") or "Ben" in
                screen.hud.status.getText(), [ben])


def test_the_host_gives_the_seat_of_a_player_who_stalls_to_a_computer_from_the_pause_menu(stage, table,
                                                                                       press_button):
    _window_sits(table, "Ann", 0)              # the host: the first seat
    ben = table.seat("Ben", 1)                 # who moves first, and stalls
    front = table.front
    assert _run(stage, lambda: front.screen is not None, [ben])
    assert _run(stage, lambda: front.screen.acting.waited_for() == 1, [ben])
    front.pause()
    stand_in = front.pause_menu.widgets["stand_in"]
    assert stand_in["text"] == "A computer plays for Ben", "Ben is here, but the game waits for him"
    press_button(stand_in)
    asked = front.menu                          # Ben is at the table: the host is asked first
    assert asked.widgets["question"]["text"].startswith("Ben is still at the table, and may only be thinking.")
    assert not ben.lost and not front.match.seat(1).is_computer, "nothing given before the host says so"
    press_button(asked.widgets["yes"])
    assert _run(stage, lambda: ben.lost, [ben])
    assert isinstance(ben.trouble, OnlineError) and ben.trouble.code is Online.SEAT_GIVEN
    assert _run(stage, lambda: front.match.seat(1).is_computer, [ben]), "a computer plays Ben's seat"
    assert front.pause_menu is None and front.screen is not None, "the game goes on"
    assert _run(stage, lambda: rules.acting_player(front.match.state) == 0, [], 60), "the computer moved for Ben"


def test_a_floor_granted_that_cannot_be_laid_is_given_up_with_its_button(stage, table, press_button):
    ben = table.seat("Ben", 0)
    _window_sits(table, "Ann", 1)              # the second seat moves first
    front = table.front
    assert _run(stage, lambda: front.screen is not None and front.screen.mode == "Idle", [ben])
    front.screen.current.propose_floor()       # P: no column of Ann's on the top floor yet
    assert _run(stage, lambda: rules.acting_player(ben.state) == 0 and rules.is_question(rules.task(ben.state)),
                [ben])
    assert _run(stage, lambda: front.screen.hud.status.getText().startswith("Ben decides whether to object"),
                [ben]), front.screen.hud.status.getText()     # then the turn clock
    ben.request(rq.Answer(0, False))           # no objection: Ann gets a floor too few columns can carry
    assert _run(stage, lambda: "give-up" in front.screen.hud.commands.buttons, [ben])
    assert not rules.floor_to_lay(front.match.state)
    press_button(front.screen.hud.commands.buttons["give-up"])
    assert _run(stage, lambda: rules.acting_player(front.match.state) == 0, [ben]), "given up: Ben's turn"
    assert not front.match.player.refusals, "the server took it"


def test_a_roll_for_the_turns_colour_at_another_window_tumbles_here_too(stage, tmp_path, monkeypatch):
    """Family edition, a random colour each turn: Ben rolls at his window, and Ann's shows the seal tumbling onto
    what he rolled, as the hot seat shows everyone at its one screen; nothing is sent from Ann's window."""
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    server = Server(0, LOOPBACK)
    plan = MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings", SEED), RULE_SETS["family-random-basic"],
                      seed=SEED)
    server.room = server.open(Room(protocol.new_room_code(), plan))
    server.start(stage.task_mgr)
    front = Front(stage, Settings(language="en"))
    ben = None
    try:
        ben = _sit(stage, server, "Ben", 0)                 # the first seat rolls first
        player = _sit(stage, server, "Ann", 1)
        front.online_play.seated(player, f"{LOOPBACK}:{server.port}", "Ann")
        assert _run(stage, lambda: front.screen is not None and front.screen.acting.waited_for() == 0, [ben])
        asked = player.asked
        ben.request(rq.Roll(0))
        assert _run(stage, lambda: isinstance(front.screen.panel, panels.SealToss), [ben]), "it tumbles at Ann's"
        toss = front.screen.panel
        assert toss.rolling and front.screen.mode == "Rolling"
        assert toss.over.getText() == "Ben rolls the Master Builder Seal"
        rolled = server.room.match.state.log[-1]
        assert _run(stage, lambda: front.screen.panel is None, [ben], 60), "it lands, and the game goes on"
        assert toss.seal.colour is rolled.colour or rolled.colour is None
        assert front.screen.mode != "Rolling" and player.asked == asked, "Ann's window sent nothing"
    finally:
        front.close()
        if ben is not None:
            ben.close()
        server.close()


def test_a_window_says_the_game_pauses_while_its_server_has_lost_touch_with_the_fleet(stage, tmp_path, monkeypatch,
                                                                                        snapshot):
    """A server of a fleet whose link to Redis is cut: the window's status says the game pauses, with the seconds
    counting up, and once the link is back the game goes on in the same window, the words gone."""
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "ann"))
    redis_server = RedisServer(tmp_path)
    proxy = Proxy(redis_server.port)
    server = FleetServer(proxy.url, tmp_path / "server", "--lease", "4")    # (paused after 4 s, let go after 20)
    front = Front(stage, Settings(language="en"))
    ben = Player(LOOPBACK, server.port)
    try:
        ben.open_room(two_seats())                       # Ben hosts a room of the fleet on that server
        assert _run(stage, lambda: ben.room is not None, [ben], 20), ben.refusals
        ben.sit("Ben", 0)
        assert _run(stage, lambda: ben.seats, [ben])
        ann = Player(LOOPBACK, server.port)
        ann.enter(ben.room)
        ann.sit("Ann", 1)
        assert _run(stage, lambda: ann.seats, [ann, ben])
        front.online_play.seated(ann, f"{LOOPBACK}:{server.port}", "Ann")
        ben.begin()
        assert _run(stage, lambda: front.screen is not None, [ben], 30), "the game screen takes Ann over"
        screen = front.screen
        proxy.cut()
        assert _run(stage, lambda: "The game pauses: this server lost touch with the others" in
                    screen.hud.message.getText(), [ben], 20)
        first = screen.hud.message.getText()
        assert _run(stage, lambda: screen.hud.message.getText() not in ("", first), [ben], 5), "the seconds count up"
        snapshot("online-paused")
        assert front.screen is screen and ann.paused_for is not None
        proxy.restore()                                  # (within four leases: the server still holds the room)
        assert _run(stage, lambda: ann.paused_for is None, [ben], 20), "the game goes on"
        assert _run(stage, lambda: "The game pauses" not in screen.hud.message.getText(), [ben], 5)
        assert front.screen is screen and not ann.lost and ann.rejoining is None and ann.came_back == 0, \
            (ann.lost_why, [p.read_text()[-1500:] for p in tmp_path.rglob("villa.log")])
        snapshot("online-goes-on")
    finally:
        front.close()
        ben.close()
        server.stop()
        proxy.close()
        redis_server.stop()
