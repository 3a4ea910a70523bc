"""Play online from the main menu, clicked with the real pointer (xdotool under Xvfb): host here, read the
room code, give the other seat to a computer player, start, and the game takes over."""

from __future__ import annotations

import random
import socket
import time

import pytest

from villa.match import Seat
from villa.presentation.preferences import Settings

pytestmark = pytest.mark.gui


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), players=(Seat("Anna"), Seat("Ben")), rng=random.Random(3))
    yield app
    app.close()


def until(frames, done, seconds: float = 15.0) -> bool:
    """Frames of the window (the server inside it and the network run in them) until `done()`."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        frames(1)
        time.sleep(0.002)
    return True


def test_host_here_give_a_seat_to_a_computer_and_start(front, frames, press_button, snapshot, monkeypatch):
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import HostScreen, OnlineMenu
    started = []
    monkeypatch.setattr(front, "play_online", started.append)
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["online"])
    assert isinstance(front.menu, OnlineMenu) and "rejoin" not in front.menu.widgets, "no seat kept"
    press_button(front.menu.widgets["host"])
    assert front.menu.widgets["start"]["text"] == "Host this game", "the new-game screen, to host"
    press_button(front.menu.widgets["start"])
    host = front.menu
    assert isinstance(host, HostScreen)
    port = free_port()
    host.widgets["port"].enterText(str(port))
    press_button(host.widgets["here"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online.player.seats)
    lobby, player = front.menu, front.online.player
    assert len(player.code) == 5 and lobby.widgets["code"]["text"] == player.code
    assert lobby.widgets["address"]["text"].endswith(f":{port}")
    assert until(frames, lambda: "computer_1_easy" in lobby.widgets)
    assert lobby.widgets["start"]["state"] == "disabled", "Ben's seat is empty"
    snapshot("online-lobby-host")
    kept = front.settings.kept_seat
    assert (kept.code, kept.seat, kept.token) == (player.code, 0, player.seats[0]), "the seat is kept to rejoin"

    press_button(lobby.widgets["computer_1_easy"])
    assert until(frames, lambda: player.table["seats"][1]["computer"] == "easy")
    assert until(frames, lambda: lobby.widgets["start"]["state"] == "normal" or started)
    if not started:
        press_button(lobby.widgets["start"])
    assert until(frames, lambda: started == [player]), "the game screen takes the player over once started"
    assert player.table["started"] and front.online.server is not None, "the server runs on for the game"
    front.main_menu()
    assert front.online.server is None and front.online.player is None, "back at the menu: the server stopped"
