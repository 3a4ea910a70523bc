"""Friends across the internet, in the real window, clicked with the real pointer (xdotool under Xvfb).

The window hosts a game at home: it sits in a network namespace behind a real router (Debian's miniupnpd in
another, `tests/online/home_network.py`), which it asks to forward the game's port. The lobby shows the invite
with the router's public address and says so; Copy puts it on the clipboard (read back with xclip); a friend
outside joins by it, through the port the router mapped; leaving the room removes the mapping. Behind a home with
no router the lobby says how to forward the port by hand. The join form takes an invite pasted whole (its Paste
button, or Ctrl+V), and says what is wrong with one cut short.
"""

from __future__ import annotations

import random
import subprocess
import threading
import time

import pytest

from villa.match import MatchSetup, Seat, layout_named
from villa.online import protocol
from villa.presentation.preferences import Settings
from tests.online.home_network import FRIEND, HOME, WAN_ROUTER, HomeNetwork, inside, program

pytestmark = pytest.mark.gui

PORT = protocol.PORT        # each home is a fresh namespace: the game's own port is free there


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), players=(Seat("Anna"), Seat("Ben")), rng=random.Random(3))
    yield app
    app.close()


@pytest.fixture
def home(tmp_path):
    why = HomeNetwork.unavailable()
    if why is not None:
        pytest.skip(f"network namespaces cannot be made on this machine ({why}): the home's router needs them")
    for name in ("miniupnpd", "nft"):
        if program(name) is None:
            pytest.fail(f"{name} is not installed (scripts/test.sh installs miniupnpd-nftables and nftables)")
    made: list[HomeNetwork] = []

    def build(**options) -> HomeNetwork:
        made.append(HomeNetwork(tmp_path / f"router{len(made)}", **options))
        return made[-1]
    yield build
    for network in made:
        network.close()


def until(frames, done, seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        frames(1)
        time.sleep(0.002)
    return True


def clipboard_text(display, expected: str) -> str:
    """What another program pastes from the clipboard, once it is `expected` (or after 10 s: xclip, which the game
    copies with, holds the clipboard from a process it forks a moment after it returned)."""
    end = time.monotonic() + 10
    while True:
        said = subprocess.run(["xclip", "-selection", "clipboard", "-out"], capture_output=True, text=True,
                              timeout=10, env={"DISPLAY": display, "PATH": "/usr/bin:/bin"}).stdout
        if said == expected or time.monotonic() > end:
            return said
        time.sleep(0.05)


def set_clipboard(display, text: str) -> None:
    """Another program copies `text` (xclip stays to hold it until the next copy)."""
    subprocess.run(["xclip", "-selection", "clipboard", "-in"], input=text.encode(), timeout=10,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={"DISPLAY": display, "PATH": "/usr/bin:/bin"})
    assert clipboard_text(display, text) == text


def host_at_home(front, frames, press_button, network: HomeNetwork):
    """Main menu, Play online, Host a game, the new game's Host this game, and Host here on the game's port: the
    server, the router's asking and the host's own connection are made in the home's namespace. The lobby."""
    from villa.presentation.menus.lobby import LobbyScreen
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["online"])
    press_button(front.menu.widgets["host"])
    press_button(front.menu.widgets["start"])
    front.menu.widgets["port"].enterText(str(PORT))
    with inside(network.home):
        press_button(front.menu.widgets["here"])
        assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.seats)
    return front.menu


def in_namespace(namespace: str, work):
    """`work()` in a thread of its own inside `namespace` (the window's frames go on meanwhile); its result or
    what it raised, once `done`."""
    outcome: dict = {}

    def run() -> None:
        try:
            with inside(namespace):
                outcome["result"] = work()
        except BaseException as error:     # noqa: BLE001 - handed to the test
            outcome["error"] = error
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_the_router_forwards_the_port_the_lobby_gives_its_public_address_and_a_friend_joins_by_it(
        front, frames, press_button, home, display, snapshot):
    from villa.app.joining import sit_down
    from villa.online.invite import parse_invite
    network = home()
    lobby = host_at_home(front, frames, press_button, network)
    code = front.online_play.player.code
    assert until(frames, lambda: WAN_ROUTER in lobby.widgets["invite"]["text"]), lobby.widgets["router"]["text"]
    assert lobby.widgets["invite"]["text"] == \
        f"villa-paletti://{WAN_ROUTER}:{PORT}/{code}#{front.online_play.server.fingerprint}"
    assert lobby.widgets["reach"]["text"] == (f"Your home's public address: your router forwards port {PORT} to "
                                              "this computer (UPnP), so friends anywhere can join.")
    assert lobby.widgets["router"]["text"] == ""
    assert network.forwards(PORT) and HOME in network.forwarded()[0]
    snapshot("lobby-invite-public")

    press_button(lobby.widgets["copy"])
    assert lobby.widgets["notice"]["text"] == "Copied: paste it into a chat with your friends."
    pasted = clipboard_text(display, lobby.widgets["invite"]["text"])
    assert pasted == lobby.widgets["invite"]["text"]

    invite = parse_invite(pasted)
    thread, outcome = in_namespace(network.friend, lambda: sit_down(invite.host, invite.port, invite.code, "Ben"))
    assert until(frames, lambda: not thread.is_alive(), 30) and "error" not in outcome, outcome.get("error")
    friend = outcome["result"]
    try:
        assert until(frames, lambda: "away_1" in lobby.widgets), "Ben at the table, in the host's lobby"
        server = front.online_play.server
        assert server.door.address_of(server.rooms[code].seating.sitters[1].client) == FRIEND, "from outside"
        snapshot("lobby-friend-joined")
    finally:
        friend.close()
    press_button(lobby.widgets["leave"])
    assert front.online_play.opening is None
    assert until(frames, lambda: not network.forwards(PORT), 10), "the room closed: the router forwards nothing"


def test_behind_a_home_with_no_router_the_lobby_says_how_to_forward_the_port_by_hand(
        front, frames, press_button, home, snapshot):
    network = home(router=False)
    lobby = host_at_home(front, frames, press_button, network)
    assert "Asking your router" in lobby.widgets["router"]["text"] or "No router" in lobby.widgets["router"]["text"]
    assert until(frames, lambda: "No router answered" in lobby.widgets["router"]["text"], 30)
    code = front.online_play.player.code
    assert lobby.widgets["invite"]["text"] == \
        f"villa-paletti://{HOME}:{PORT}/{code}#{front.online_play.server.fingerprint}", "the LAN address"
    assert lobby.widgets["reach"]["text"] == ("This computer's address on your network: friends on the same network "
                                              "can join.")
    assert lobby.widgets["router"]["text"] == (
        f"No router answered (UPnP, PCP, NAT-PMP). For friends elsewhere, forward TCP port {PORT} to this computer "
        f"({HOME}) in your router's settings, or host the game on a server: villa-paletti-server, which comes with "
        "the game, on a machine with a public address.")
    snapshot("lobby-invite-by-hand")
    press_button(lobby.widgets["leave"])


@pytest.fixture
def served(stage):
    """A server on loopback with a room for two people, run from the window's loop."""
    from villa.online.server import Room, Server
    server = Server(0, "127.0.0.1")
    server.start(stage.task_mgr)
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings")))
    server.open(room)
    server.room = room
    yield server
    server.close()


def join_form(front, frames, press_button):
    from villa.presentation.menus.online import JoinScreen
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["online"])
    press_button(front.menu.widgets["join"])
    assert isinstance(front.menu, JoinScreen)
    return front.menu


def test_join_takes_an_invite_pasted_whole_and_says_what_is_wrong_with_one_cut_short(
        front, frames, press_button, served, display, mouse, snapshot):
    from villa.presentation.menus.lobby import LobbyScreen
    form = join_form(front, frames, press_button)
    invite = f"villa-paletti://127.0.0.1:{served.port}/{served.room.code}#{served.fingerprint}"
    set_clipboard(display, invite[:-2])
    press_button(form.widgets["paste"])
    assert form.widgets["address"].get() == invite[:-2]
    form.widgets["name"].enterText("Ben")
    press_button(form.widgets["join"])
    assert form.widgets["notice"]["text"] == ("The server's fingerprint at the end of this invite is cut short or "
                                              "changed: copy the whole line your friend sent again.")

    set_clipboard(display, f"  {invite}\n")
    form.widgets["address"].enterText("")
    press_button(form.widgets["address"])                  # the field has the keyboard: Ctrl+V pastes into it
    mouse.key("ctrl+v")
    frames(3)
    assert form.widgets["address"].get() == invite and form.widgets["code"].get() == served.room.code
    snapshot("join-invite-pasted")
    press_button(form.widgets["join"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
    lobby = front.menu
    assert lobby.widgets["invite"]["text"] == invite, "the guest may pass the same invite on"
    assert lobby.widgets["reach"]["text"] == "The server's address: friends who can reach the server join with " \
                                             "this line."
    press_button(lobby.widgets["leave"])


def test_a_link_the_desktop_opened_goes_into_the_room_under_the_last_name(front, frames, served, monkeypatch):
    from dataclasses import replace

    from villa.online.invite import Invite
    from villa.presentation.menus.lobby import LobbyScreen
    front.settings = replace(front.settings, last_seats=(("Mira", None), ("Computer", "easy")))
    front.main_menu()
    front.online_play.invited(Invite("127.0.0.1", served.port, served.room.code))
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_0" in front.menu.widgets)
    assert front.online_play.name == "Mira"
    front.online_play.leave_lobby()

    front.settings = replace(front.settings, last_seats=())
    monkeypatch.setattr("villa.app.online.login_name", lambda: "")
    front.online_play.invited(Invite("127.0.0.1", served.port, served.room.code))
    frames(3)
    assert front.menu.widgets["address"].get() == f"villa-paletti://127.0.0.1:{served.port}/{served.room.code}"
    assert front.menu.widgets["code"].get() == served.room.code, "the invite's room code, in its field"
    assert front.menu.widgets["notice"]["text"] and front.online_play.player is None, "a name first"
