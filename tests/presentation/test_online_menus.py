"""Play online from the main menu, clicked with the real pointer (xdotool under Xvfb): host here, read the
room code, set the turn clock, give the other seat to a computer player, start, roll the seal for colours and
the game takes over; join by code, every wrong step said in one sentence, a connection reached for said at once
and cancelled; rejoin, from the online menu and from the main menu's Continue; and a server that sends the
player away, breaks down, sends what cannot be read or goes silent leaves the window on the online menu saying
why."""

from __future__ import annotations

import random
import socket
import threading
import time

import pytest

from villa.match import MatchSetup, Seat, Strength, layout_named
from villa.presentation.preferences import Settings
from tests.servers import free_port

pytestmark = pytest.mark.gui

LOOPBACK = "127.0.0.1"


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


def notice(front) -> str:
    return front.menu.widgets["notice"]["text"]


def test_host_here_set_the_clock_give_a_seat_to_a_computer_roll_for_colours_and_start(front, frames, press_button,
                                                                                     snapshot):
    from villa.app.online import local_address
    from villa.online.client import OnlineMatch
    from villa.presentation import menus
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import HostScreen, OnlineMenu
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
    assert lobby.widgets["invite"]["text"] == \
        f"villa-paletti://{local_address()}:{port}/{player.code}#{front.online_play.server.fingerprint}", \
        "the invite names this computer's address until the router forwards the port"
    assert until(frames, lambda: "computer_1_easy" in lobby.widgets)
    assert lobby.widgets["start"]["state"] == "disabled", "Ben's seat is empty"
    assert front.settings.kept_seat.hosts, "a seat at a server hosted here is kept as the host's: Continue opens it"

    press_button(lobby.widgets["clock_120"])                 # two minutes a move
    assert until(frames, lambda: player.table.get("clock") == 120)
    assert until(frames, lambda: lobby.widgets["clock_120"]["frameColor"][0] != lobby.widgets["clock_60"][
        "frameColor"][0]), "the clock chosen shows chosen"
    snapshot("online-lobby-host")

    press_button(lobby.widgets["rules"])                     # the host changes the game: the family edition
    assert front.menu.widgets["start"]["text"] == "Done"
    front.menu.widgets["edition"].choose(True)
    press_button(front.menu.widgets["start"])
    assert until(frames, lambda: player.plan is not None and player.plan.ruleset.family)
    lobby = front.menu
    assert isinstance(lobby, LobbyScreen) and lobby.player is player and player.table["clock"] == 120

    press_button(lobby.widgets["computer_1_easy"])
    assert until(frames, lambda: player.table["seats"][1]["computer"] == "easy")
    assert until(frames, lambda: lobby.widgets["start"]["state"] == "normal")
    assert not player.table["started"], "the game waits for its host"
    press_button(lobby.widgets["start"])
    assert until(frames, lambda: front.screen is not None or isinstance(front.menu, menus.SealRollScreen))
    assert isinstance(front.match, OnlineMatch) and front.online is player
    if isinstance(front.menu, menus.SealRollScreen):        # colours first, as in the hot seat
        colours = front.menu

        def chosen() -> bool:                                # Anna chooses whenever it is hers to choose
            buttons = [key for key in colours.widgets if key.startswith("colour_")]
            if buttons:
                press_button(colours.widgets[buttons[0]])
            return colours.done
        assert until(frames, chosen, 30), "every colour settled, through the server"
        press_button(colours.widgets["start"])
    assert until(frames, lambda: front.screen is not None), "the game screen takes the player over"
    assert front.menu is None and player.table["started"] and front.online_play.server is not None
    frames(5)
    status = front.screen.hud.status.getText()
    if front.screen.acting.waited_for() is None and front.match.seat(front.match.actor).is_computer:
        assert " left" not in status, "a computer player's move has no clock"
    else:
        assert status.endswith(" left") and ("1:5" in status or "2:00" in status), status
    snapshot("online-game-host")
    front.main_menu()
    assert front.online_play.server is None and front.online_play.player is None, "back at the menu: the server stopped"


@pytest.fixture
def served(stage):
    """A server on a loopback port with one open room for two people, run from the window's loop."""
    from villa.online import protocol
    from villa.online.server import Room, Server
    server = Server(0, LOOPBACK)
    server.start(stage.task_mgr)
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings")))
    server.open(room)
    server.room = room
    yield server
    server.close()


def join_form(front, frames, press_button):
    """The join form, from the main menu; `join(address, code, name)` types and presses Join."""
    from villa.presentation.menus.online import JoinScreen
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
    return form, join


def test_join_says_what_is_wrong_keeps_what_was_typed_then_sits_and_rejoins(front, frames, press_button, served):
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import OnlineMenu
    form, join = join_form(front, frames, press_button)

    assert "is not a server's address" in join("nowhere:port", "ABCDE")
    assert form.widgets["address"].get() == "nowhere:port" and form.widgets["code"].get() == "ABCDE"
    assert "AB is not a room code" in join(f"127.0.0.1:{served.port}", "AB")
    said = join(f"127.0.0.1:{served.port}", "WRONG")
    assert "WRONG is not a room code" in said and "never uses O, I, 0, 1" in said, "the letters codes never use"
    join(f"127.0.0.1:{free_port()}", "ABCDE")
    assert until(frames, lambda: "No server answers at 127.0.0.1:" in form.widgets["notice"]["text"])
    wrong = "ABCDE" if served.room.code != "ABCDE" else "ABCDF"
    join(f"127.0.0.1:{served.port}", wrong)
    assert until(frames, lambda: "No room with the code" in form.widgets["notice"]["text"])
    assert front.menu is form and front.online_play.player is None, "nothing left open, still in the form"
    assert form.widgets["cancel"].isHidden(), "nothing to cancel"

    join(f"127.0.0.1:{served.port}", served.room.code.lower())
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
    lobby = front.menu
    assert "rules" not in lobby.widgets or lobby.widgets["rules"].isHidden(), "a guest is not the host"
    assert "clock_60" not in lobby.widgets and "No turn clock" in lobby.widgets["clock_words"]["text"]
    press_button(lobby.widgets["sit_1"])
    assert until(frames, lambda: front.online_play.player.seats and front.settings.kept_seat is not None)
    assert served.room.seating.sitters[1].name == "Ben"

    press_button(lobby.widgets["leave"])
    assert isinstance(front.menu, OnlineMenu) and front.online_play.player is None
    assert until(frames, lambda: served.room.seating.sitters[1].client is None), "the server heard the player go"
    rejoin = front.menu.widgets["rejoin"]
    assert served.room.code in rejoin["text"]
    press_button(rejoin)
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.seats == {
        1: front.settings.kept_seat.token})
    assert until(frames, lambda: served.room.seating.sitters[1].client is not None), "back at the same seat"


def test_the_main_menus_continue_takes_up_a_seat_kept_online(front, frames, press_button, served):
    from villa.presentation.menus.lobby import LobbyScreen
    form, join = join_form(front, frames, press_button)
    join(f"127.0.0.1:{served.port}", served.room.code)
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
    press_button(front.menu.widgets["sit_1"])
    assert until(frames, lambda: front.settings.kept_seat is not None)
    front.main_menu()                                       # the window left the room: its seat waits
    frames(3)
    resume = front.menu.widgets["continue"]
    assert resume["text"] == f"Continue in room {served.room.code}" and resume["state"] == "normal"
    press_button(resume)
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.seats == {
        1: front.settings.kept_seat.token}), "the same seat, taken back"


def test_a_server_that_never_answers_says_connecting_at_once_can_be_cancelled_and_gives_up(front, frames,
                                                                                        press_button, monkeypatch):
    from villa.app import online
    from villa.presentation.menus.online import JoinScreen, OnlineMenu
    mute = socket.socket()                                  # takes connections, never says a word
    mute.bind((LOOPBACK, 0))
    mute.listen(8)
    address = f"127.0.0.1:{mute.getsockname()[1]}"
    try:
        form, join = join_form(front, frames, press_button)
        assert join(address, "ABCDE") == f"Connecting to {address} …", "said at once"
        assert not form.widgets["cancel"].isHidden() and front.online_play.player is not None
        press_button(form.widgets["cancel"])
        assert front.menu is form and isinstance(form, JoinScreen) and front.online_play.player is None
        assert notice(front) == "" and form.widgets["cancel"].isHidden()
        assert form.widgets["code"].get() == "ABCDE", "what was typed is kept"
        join(address, "ABCDE")
        press_button(form.widgets["back"])                 # Back while connecting lets the server go as well
        assert isinstance(front.menu, OnlineMenu) and front.online_play.player is None
        press_button(front.menu.widgets["join"])
        form = front.menu

        monkeypatch.setattr(online, "CONNECT_S", 1.0)      # the ten seconds, shortened
        for key, text in (("address", address), ("code", "ABCDE"), ("name", "Ben")):
            form.widgets[key].enterText(text)
        press_button(form.widgets["join"])
        assert until(frames, lambda: "Nothing answered" in notice(front), 10)
        assert notice(front) == f"Nothing answered at {address} within 1 seconds: is the address right, and does " \
                                "the network let the game through?"
        assert front.online_play.player is None and form.widgets["cancel"].isHidden()
    finally:
        mute.close()


class Liar:
    """A server (over TLS, with a certificate of its own) that welcomes the game and lets it into room ABCDE, then
    misbehaves: `how` is "garbled" (it sends bytes that are no message), "silent" (it says nothing more) or
    "failed" (its room broke down); or it plays another version ("version") and says goodbye at once."""

    def __init__(self, how: str) -> None:
        self.how = how
        self.listener = socket.socket()
        self.listener.bind((LOOPBACK, 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.lobby_shown = threading.Event()    # set by the test: a slow window would never show a lobby that
        self.thread = threading.Thread(target=self._serve, daemon=True)   # had closed before its next frame
        self.thread.start()

    def _serve(self) -> None:
        from villa.online import protocol
        from villa.online.wire import messages as m
        from villa.online.wire.frames import frame
        from villa.online.wire.certificates import make_identity
        from villa.online.wire.link import Link
        from villa.online.wire.tls import ServerTls
        from villa.online.server import CATALOGUE
        self.listener.settimeout(0.1)    # the window connects once the menus are clicked through, however long
        while True:                      # that takes on a busy machine
            try:
                conn, _ = self.listener.accept()
                break
            except TimeoutError:
                if self.stop.is_set():
                    return
        link = Link(conn, CATALOGUE, tls=ServerTls(make_identity()).session())
        table = {"seats": [{"name": "Seat 1", "computer": None, "taken": False, "here": False}], "started": False}
        while not self.stop.is_set() and not link.closed:
            for message in link.receive():
                if isinstance(message, m.Hello) and self.how == "version":
                    link.send(m.Goodbye("version", '{"game": "0.0.1", "protocol": 1}'))
                elif isinstance(message, m.Hello):
                    link.send(m.Welcome(m.PROTOCOL, m.GAME))
                elif isinstance(message, m.Enter):
                    link.send(m.Entered(message.code))
                    link.send(m.Table(protocol.pack_table(table)))
                    link.flush()
                    while not self.lobby_shown.wait(0.2) and not self.stop.is_set():
                        link.send(m.Ping())          # a server still there, until the window shows the lobby
                        link.flush()
                    if self.how == "garbled":        # then it misbehaves
                        link.tls.put_out(frame(b"\xff"))
                        conn.sendall(link.tls.sealed())
                    elif self.how == "failed":
                        link.send(m.Goodbye("room failed", "{}"))
            link.flush()
            time.sleep(0.01)
        link.close()

    def close(self) -> None:
        self.stop.set()
        self.lobby_shown.set()
        self.thread.join(5)
        self.listener.close()


@pytest.mark.parametrize("how, said", [
    ("garbled", "The server sent something this game cannot read, and the connection closed."),
    ("silent", "The server has stopped answering."),
    ("failed", "The room broke down on the server. Its game is kept: rejoin it later."),
    ("version", "The server plays another version of the game (0.0.1): both must have the same version."),
])
def test_a_server_that_misbehaves_leaves_the_window_on_the_menu_saying_why(front, frames, press_button, monkeypatch,
                                                                            how, said):
    from villa.online.client import player as players
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import OnlineMenu
    monkeypatch.setattr(players, "SILENT_S", 1.0)         # the five seconds of silence, shortened
    liar = Liar(how)
    try:
        form, join = join_form(front, frames, press_button)
        join(f"127.0.0.1:{liar.port}", "ABCDE")
        if how == "version":                            # told on the form, what was typed kept
            assert until(frames, lambda: notice(front) == said, 10) and front.menu is form
        else:
            assert until(frames, lambda: isinstance(front.menu, LobbyScreen), 10)
            liar.lobby_shown.set()
            assert until(frames, lambda: isinstance(front.menu, OnlineMenu), 10)
        assert notice(front) == said and front.online_play.player is None
    finally:
        liar.close()


def test_the_host_sends_a_player_away_and_their_window_says_so(front, frames, press_button, served):
    from villa.online.client import Player
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import OnlineMenu
    anna = Player(LOOPBACK, served.port)                   # the host, at another window
    try:
        assert until(frames, lambda: anna.poll() or anna.ready)
        anna.enter(served.room.code)
        assert until(frames, lambda: anna.poll() or anna.room is not None)
        anna.sit("Anna", 0)
        assert until(frames, lambda: anna.poll() or anna.seats)
        served.room.waits_for_host = True                  # the game waits for Anna's Start
        form, join = join_form(front, frames, press_button)
        join(f"127.0.0.1:{served.port}", served.room.code)
        assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
        press_button(front.menu.widgets["sit_1"])
        assert until(frames, lambda: front.online_play.player.seats)
        anna.send_away(1)
        assert until(frames, lambda: anna.poll() or isinstance(front.menu, OnlineMenu))
        assert notice(front) == "The host took you out of the room."
        assert 1 not in served.room.seating.sitters
        assert front.settings.kept_seat is None and "rejoin" not in front.menu.widgets, "no seat left to rejoin"
    finally:
        anna.close()


def test_a_roll_of_the_seal_at_another_window_tumbles_here_too(front, frames, press_button, served, snapshot):
    from villa import rules
    from villa.match import requests as rq
    from villa.online.client import Player
    from villa.presentation import menus
    from villa.presentation.menus.lobby import LobbyScreen
    anna = Player(LOOPBACK, served.port)                   # the first seat rolls for colours, at another window
    try:
        assert until(frames, lambda: anna.poll() or anna.ready)
        anna.enter(served.room.code)
        assert until(frames, lambda: anna.poll() or anna.room is not None)
        anna.sit("Anna", 0)
        form, join = join_form(front, frames, press_button)
        join(f"127.0.0.1:{served.port}", served.room.code)
        assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
        press_button(front.menu.widgets["sit_1"])
        assert until(frames, lambda: isinstance(front.menu, menus.SealRollScreen)), "colours first, as in the hot seat"
        colours = front.menu
        frames(3)
        assert not colours.rolling and colours.widgets["prompt"]["text"] == "Waiting for Anna to roll the seal …"
        anna.request(rq.Roll(0))
        assert until(frames, lambda: anna.poll() or colours.rolling), "Anna's roll tumbles at Ben's window"
        assert colours.state.turn.step is rules.Step.COLOUR_ROLL, "the colours as they were, while it tumbles"
        rolled = served.room.match.state.log[-1]
        assert colours.in_the_air == rolled and colours.widgets["prompt"]["text"] == "Anna rolls the seal …"
        frames(40)
        snapshot("online-colours-heard")
        assert until(frames, lambda: not colours.rolling)
        assert colours.seal.colour is rolled.colour and colours.state.log[-1] == rolled

        def settled() -> bool:                             # each chooses at their own window, in turn
            anna.poll()
            state = anna.state
            if state.turn.step is rules.Step.COLOUR_CHOICE and state.turn.actor == 0 and not anna.news_sent:
                choice = next(a for a in rules.legal_actions(state) if isinstance(a, rules.ChooseColour))
                anna.request(rq.ChooseColour(0, choice.colour))
                anna.news_sent = True
            elif state.turn.actor != 0:
                anna.news_sent = False
            buttons = [key for key in colours.widgets if key.startswith("colour_")]
            if buttons:
                press_button(colours.widgets[buttons[0]])
            return colours.done
        anna.news_sent = False
        assert until(frames, settled, 30), "every colour settled, through the server"
        assert colours.state == served.room.match.state
        press_button(colours.widgets["start"])
        assert until(frames, lambda: front.screen is not None), "the game screen takes the player over"
    finally:
        anna.close()


def test_a_kept_seat_too_old_is_forgotten_and_not_offered(front, frames):
    import time as clock
    from dataclasses import replace

    from villa.online.server import REJOIN_S
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
    ben = {"name": "Ben", "computer": None, "taken": True, "here": True}
    player = SimpleNamespace(code="K7QXM", seats={0: "t"}, table={"seats": [
        {"name": "Anna", "computer": None, "taken": True, "here": True}, free], "started": False, "host": 0,
        "clock": 0})
    sent_away, clocks = [], []
    lobby = LobbyScreen(player=player, sharing=lambda: None, on_sit=None, on_computer=None, on_start=None,
                        on_rules=None, on_leave=None, on_clock=clocks.append, on_send_away=sent_away.append)
    lobby.show()
    frames(2)
    widgets = len(DirectGuiWidget.guiDict)
    assert "computer_1_hard" in lobby.widgets and lobby.widgets["start"]["state"] == "disabled"
    assert {"clock_0", "clock_60", "clock_120", "clock_300"} <= set(lobby.widgets)
    for strength in ("easy", "medium", "hard", "easy"):
        player.table = {**player.table, "seats": [player.table["seats"][0],
                                                  {**free, "name": "Computer 1", "computer": strength}]}
        frames(1)
        player.table = {**player.table, "seats": [player.table["seats"][0], free], "clock": 60}
        frames(1)
    assert len(DirectGuiWidget.guiDict) == widgets, "every row's widgets go when it is drawn anew"
    player.table = {**player.table, "seats": [player.table["seats"][0], ben]}
    frames(1)
    assert "away_0" not in lobby.widgets, "the host sends nobody but the others away"
    lobby.widgets["away_1"]["command"]()
    lobby.widgets["clock_300"]["command"]()
    assert sent_away == [1] and clocks == [300]
    player.table = {**player.table, "seats": [player.table["seats"][0], {**free, "computer": "easy"}]}
    frames(1)
    assert "computer_1_hard" not in lobby.widgets and "away_1" not in lobby.widgets
    assert lobby.widgets["start"]["state"] == "normal"
    player.table = {**player.table, "started": True}
    frames(1)
    assert "clock_60" not in lobby.widgets and "1 min a move" in lobby.widgets["clock_words"]["text"]
    lobby.destroy()


def test_a_server_showing_another_certificate_than_before_is_refused_on_the_join_form_in_words(front, frames,
                                                                                             press_button, served,
                                                                                             snapshot):
    """The window remembers the certificate each address showed (trust on first use): another one there is
    refused before the window says a word to it, and the form says why with both fingerprints."""
    from villa.online.wire.certificates import make_identity, short
    address = f"{LOOPBACK}:{served.port}"
    before = make_identity().fingerprint
    front.online_play.trust.known.remember(address, before)     # as a first visit left it
    form, join = join_form(front, frames, press_button)
    join(address, served.room.code)
    assert until(frames, lambda: "shows another certificate than before" in form.widgets["notice"]["text"])
    said = form.widgets["notice"]["text"]
    assert short(before) in said and short(served.fingerprint) in said and "nothing was sent" in said
    assert served.visitors == {} and front.online_play.player is None
    assert form.widgets["address"].get() == address, "what was typed is kept"
    snapshot("online-certificate-changed")


def test_a_window_started_insecure_says_so_and_a_server_that_speaks_tls_says_why_it_refused(stage, frames,
                                                                                            press_button, served,
                                                                                            monkeypatch, tmp_path,
                                                                                            snapshot):
    from villa.app.front import Front
    from villa.presentation.menus.online import OnlineMenu
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    front = Front(stage, Settings(language="en"), players=(Seat("Anna"), Seat("Ben")), rng=random.Random(3),
                  insecure=True)
    try:
        front.main_menu()
        frames(3)
        press_button(front.menu.widgets["online"])
        assert isinstance(front.menu, OnlineMenu) and "Without encryption (--insecure)" in \
            front.menu.widgets["insecure"]["text"]
        snapshot("online-menu-insecure")
        form, join = join_form(front, frames, press_button)
        join(f"{LOOPBACK}:{served.port}", served.room.code)
        assert until(frames, lambda: "speaks only with encryption" in form.widgets["notice"]["text"])
        assert "--insecure" in form.widgets["notice"]["text"] and served.visitors == {}
    finally:
        front.close()
