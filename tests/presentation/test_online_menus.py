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


def test_host_here_give_a_seat_to_a_computer_and_start(front, frames, press_button, snapshot):
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import HostScreen, OnlineMenu
    from villa.online.remote import RemoteMatch
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
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.seats)
    lobby, player = front.menu, front.online_play.player
    assert len(player.code) == 5 and lobby.widgets["code"]["text"] == player.code
    assert lobby.widgets["address"]["text"].endswith(f":{port}")
    assert until(frames, lambda: "computer_1_easy" in lobby.widgets)
    assert lobby.widgets["start"]["state"] == "disabled", "Ben's seat is empty"
    snapshot("online-lobby-host")
    assert front.settings.kept_seat is None, "a server hosted here ends with the window: nothing to rejoin"

    press_button(lobby.widgets["rules"])                     # the host changes the game: the family edition
    assert front.menu.widgets["start"]["text"] == "Done"
    front.menu.widgets["edition"].choose(True)
    press_button(front.menu.widgets["start"])
    assert until(frames, lambda: player.plan is not None and player.plan.ruleset.family)
    lobby = front.menu
    assert isinstance(lobby, LobbyScreen) and lobby.player is player

    press_button(lobby.widgets["computer_1_easy"])
    assert until(frames, lambda: player.table["seats"][1]["computer"] == "easy")
    assert until(frames, lambda: lobby.widgets["start"]["state"] == "normal")
    assert not player.table["started"], "the game waits for its host"
    press_button(lobby.widgets["start"])
    assert until(frames, lambda: front.screen is not None), "the game screen takes the player over once started"
    assert isinstance(front.match, RemoteMatch) and front.online is player and front.menu is None
    assert player.table["started"] and front.online_play.server is not None, "the server runs on for the game"
    frames(5)
    snapshot("online-game-host")
    front.main_menu()
    assert front.online_play.server is None and front.online_play.player is None, "back at the menu: the server stopped"


@pytest.fixture
def served():
    """A server on a loopback port with one open room for two people, run from the window's loop."""
    from villa.match import MatchSetup, layout_named
    from villa.online import protocol
    from villa.online.rooms import Room
    from villa.online.server import Server
    server = Server(free_port(), "127.0.0.1")
    server.start()
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings")))
    server.open(room)
    server.room = room
    yield server
    server.close()


def test_join_says_what_is_wrong_keeps_what_was_typed_then_sits_and_rejoins(front, frames, press_button, served):
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import JoinScreen, OnlineMenu
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["online"])
    press_button(front.menu.widgets["join"])
    form = front.menu
    assert isinstance(form, JoinScreen)

    def join(address: str, code: str, name: str = "Ben") -> str:
        for key, text in (("address", address), ("code", code), ("name", name)):
            form.widgets[key].enterText(text)
        press_button(form.widgets["join"])
        return form.widgets["notice"]["text"]

    assert "is not a server's address" in join("nowhere:port", "ABCDE")
    assert form.widgets["address"].get() == "nowhere:port" and form.widgets["code"].get() == "ABCDE"
    assert "five letters and digits" in join(f"127.0.0.1:{served.port}", "AB")
    assert "No server answers at 127.0.0.1:" in join(f"127.0.0.1:{free_port()}", "ABCDE")
    wrong = "ABCDE" if served.room.code != "ABCDE" else "ABCDF"
    join(f"127.0.0.1:{served.port}", wrong)
    assert until(frames, lambda: "No room with the code" in form.widgets["notice"]["text"])
    assert front.menu is form and front.online_play.player is None, "nothing left open, still in the form"

    join(f"127.0.0.1:{served.port}", served.room.code.lower())
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
    lobby = front.menu
    assert "rules" not in lobby.widgets or lobby.widgets["rules"].isHidden(), "a guest is not the host"
    press_button(lobby.widgets["sit_1"])
    assert until(frames, lambda: front.online_play.player.seats and front.settings.kept_seat is not None)
    assert served.room.sitters[1].name == "Ben"

    press_button(lobby.widgets["leave"])
    assert isinstance(front.menu, OnlineMenu) and front.online_play.player is None
    assert until(frames, lambda: served.room.sitters[1].client is None), "the server heard the player go"
    rejoin = front.menu.widgets["rejoin"]
    assert served.room.code in rejoin["text"]
    press_button(rejoin)
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.seats == {
        1: front.settings.kept_seat.token})
    assert until(frames, lambda: served.room.sitters[1].client is not None), "back at the same seat"


def test_a_kept_seat_too_old_is_forgotten_and_not_offered(front, frames):
    import time as clock
    from dataclasses import replace

    from villa.online.rooms import REJOIN_S
    from villa.presentation.preferences import KeptSeat
    front.apply_settings(replace(front.settings, kept_seat=KeptSeat("127.0.0.1:47170", "ABCDE", 0, "t",
                                                                    clock.time() - REJOIN_S - 5)))
    front.online_play.menu()
    frames(2)
    assert "rejoin" not in front.menu.widgets and front.settings.kept_seat is None


def test_host_on_a_server_opens_a_room_there(front, frames, press_button, served):
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import HostScreen
    front.main_menu()
    frames(3)
    front.online_play.choose_game()
    front.menu.widgets["edition"].choose(True)
    press_button(front.menu.widgets["start"])
    press_button(front.menu.widgets["back"])
    assert front.menu.choices().rules.family, "back on the new-game screen, the game as it was chosen"
    press_button(front.menu.widgets["start"])
    host = front.menu
    assert isinstance(host, HostScreen)
    host.widgets["address"].enterText("no where")
    press_button(host.widgets["server"])
    assert "is not a server's address" in host.widgets["notice"]["text"]
    host.widgets["address"].enterText(f"127.0.0.1:{served.port}")
    press_button(host.widgets["server"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.seats)
    player = front.online_play.player
    assert player.code in served.rooms and player.code != served.room.code, "a room of its own, opened there"
    assert front.menu.widgets["code"]["text"] == player.code and player.seats.keys() == {0}
    assert front.online_play.server is None and front.settings.kept_seat.code == player.code


def test_the_lobby_draws_the_seats_anew_as_the_table_changes_and_leaves_no_widget_behind(stage, frames):
    from types import SimpleNamespace

    from direct.gui.DirectGuiBase import DirectGuiWidget
    from villa.presentation.menus.lobby import LobbyScreen
    free = {"name": "Seat 2", "computer": None, "taken": False, "here": False}
    player = SimpleNamespace(code="K7QXM", seats={0: "t"}, table={"seats": [
        {"name": "Anna", "computer": None, "taken": True, "here": True}, free], "started": False, "host": 0})
    lobby = LobbyScreen(player=player, address="127.0.0.1:47170", on_sit=None, on_computer=None, on_start=None,
                        on_rules=None, on_leave=None)
    lobby.show()
    frames(2)
    widgets = len(DirectGuiWidget.guiDict)
    assert "computer_1_hard" in lobby.widgets and lobby.widgets["start"]["state"] == "disabled"
    for strength in ("easy", "medium", "hard", "easy"):
        player.table = {**player.table, "seats": [player.table["seats"][0],
                                                  {**free, "name": "Computer 1", "computer": strength}]}
        frames(1)
        player.table = {**player.table, "seats": [player.table["seats"][0], free]}
        frames(1)
    assert len(DirectGuiWidget.guiDict) == widgets, "every row's widgets go when it is drawn anew"
    player.table = {**player.table, "seats": [player.table["seats"][0], {**free, "computer": "easy"}]}
    frames(1)
    assert "computer_1_hard" not in lobby.widgets and lobby.widgets["start"]["state"] == "normal"
    lobby.destroy()
