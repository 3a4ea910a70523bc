"""The online menus' reading of what was typed and of the room's table, without a window."""

from __future__ import annotations

import pytest

from villa.app.kept_seat import kept_seat_waits
from villa.app.addresses import host_port
from villa.app.online import Trouble, parse_address, parse_port
from villa.match import Strength
from villa.online.protocol import PORT
from villa.online.server import REJOIN_S
from villa.presentation.menus.lobby import clock_seconds, clock_words, host_seat, may_start, seat_rows
from villa.presentation.preferences import KeptSeat


def seat(name, computer=None, taken=False, here=False):
    return {"name": name, "computer": computer, "taken": taken, "here": here}


def test_an_address_is_host_and_port_or_just_a_host_on_the_games_port():
    assert parse_address(" 192.168.1.20:47171 ") == ("192.168.1.20", 47171)
    assert parse_address("villa.example.org") == ("villa.example.org", PORT)


@pytest.mark.parametrize("pasted, read", [
    ("http://192.168.1.20:8080", ("192.168.1.20", 8080)),
    ("http://games.example.org:47171/", ("games.example.org", 47171)),
    ("villa-paletti://10.0.0.5:47170/JF2HA#9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
     ("10.0.0.5", 47170)),
    ("villa-paletti://10.0.0.5/JF2HA", ("10.0.0.5", PORT)), ("[::1]:47171", ("::1", 47171)), ("::1", ("::1", PORT)),
])
def test_an_address_pasted_as_a_link_or_an_invite_gives_its_host_and_port(pasted, read):
    assert parse_address(pasted) == read
    assert parse_address(host_port(*read)) == read, "as the window keeps it, it reads back"


def test_a_room_code_typed_with_spaces_or_dashes_is_the_code():
    from villa.online import protocol
    assert protocol.room_code(" jf-2ha ") == protocol.room_code("JF2 HA") == protocol.room_code("JF2HA") == "JF2HA"
    assert protocol.room_code("") is None and protocol.typed_code(" - ") == ""
    assert protocol.room_code("JF2H0") is None, "a letter no code uses"


def test_a_kept_seat_keeps_its_flags_and_older_settings_without_them_still_load():
    old = {"address": "127.0.0.1:47170", "code": "ABCDE", "seat": 1, "token": "t", "at": 1000.0}
    assert KeptSeat.from_json(old) == KeptSeat("127.0.0.1:47170", "ABCDE", 1, "t", 1000.0, False, False)
    new = {**old, "started": True, "hosts": True}
    assert KeptSeat.from_json(new) == KeptSeat("127.0.0.1:47170", "ABCDE", 1, "t", 1000.0, True, True)
    for broken in ({**old, "hosts": "yes"}, {**old, "other": 1}, {k: v for k, v in old.items() if k != "token"}):
        with pytest.raises(ValueError):
            KeptSeat.from_json(broken)


def test_a_seat_this_window_hosted_waits_as_long_as_its_room_is_kept_on_this_computer(tmp_path, monkeypatch):
    from villa.app.dedicated import rooms_dir
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    hosted = KeptSeat("192.168.1.20:47170", "ABCDE", 0, "t", 1000.0, True, True)
    assert not kept_seat_waits(hosted, 1001.0), "no room file: nothing to open again"
    rooms_dir().mkdir(parents=True)
    (rooms_dir() / "ABCDE.room.json").write_text("{}", encoding="utf-8")
    assert kept_seat_waits(hosted, 1000.0 + 30 * 86400), "her own files keep it, for days"


@pytest.mark.parametrize("typed", ["", ":47170", "host:", "host:port", "host:0", "host:70000", "two words:1",
                                   "host:-5", "http://", "[::1]x", "villa-paletti://:47170/JF2HA"])
def test_a_bad_address_is_one_trouble(typed):
    with pytest.raises(Trouble) as told:
        parse_address(typed)
    assert told.value.code == "bad address"


def test_a_port_to_host_on_is_a_number_from_1024_or_none_for_any_free_one():
    assert parse_port("47171") == 47171 and parse_port("  ") is None
    for typed in ("80", "65536", "abc", "4.5"):
        with pytest.raises(Trouble):
            parse_port(typed)


def test_the_seats_as_the_lobby_shows_them():
    table = {"seats": [seat("Anna", taken=True, here=True), seat("Ben", taken=True), seat("Seat 3"),
                       seat("Computer 1", "hard")], "started": False}
    rows = seat_rows(table, {0})
    assert [(r.kind, r.mine) for r in rows] == [("here", True), ("away", False), ("free", False),
                                                ("computer", False)]
    assert rows[3].strength is Strength.HARD


def test_the_host_starts_once_every_seat_is_sat_at_or_given_to_a_computer():
    waiting = {"seats": [seat("Anna", taken=True, here=True), seat("Seat 2")], "started": False}
    full = {"seats": [seat("Anna", taken=True, here=True), seat("Computer 1", "easy")], "started": False}
    assert host_seat(waiting) == 0 and not may_start(waiting, {0})
    assert may_start(full, {0}) and not may_start(full, {1}), "only the host"
    assert not may_start({**full, "started": True}, {0})
    assert host_seat({**full, "host": 1}) == 1, "as the table says"
    away = {"seats": [seat("Anna", taken=True), seat("Ben", taken=True, here=True)], "started": False}
    assert host_seat(away) == 1 and not may_start(away, {1}), "a seat away is not filled"


def test_the_turn_clock_as_the_table_says_it():
    assert clock_seconds({}) == 0 and clock_seconds({"clock": 120}) == 120
    assert clock_seconds({"clock": True}) == 0 and clock_seconds({"clock": "60"}) == 0, "only a number of seconds"
    assert clock_words(0).startswith("No turn clock") and "2 min a move" in clock_words(120)


def test_a_kept_seat_is_offered_within_the_ten_minutes_only():
    kept = KeptSeat("127.0.0.1:47170", "ABCDE", 0, "token", 1000.0)
    assert kept_seat_waits(kept, 1000.0 + REJOIN_S - 1)
    assert not kept_seat_waits(kept, 1000.0 + REJOIN_S + 1) and not kept_seat_waits(None, 0)
    assert not kept_seat_waits(kept, 900.0), "a time ahead of the clock is not trusted"


class FakeFront:
    def __init__(self) -> None:
        from villa.presentation.preferences import Settings
        self.settings = Settings()
        self.played: list = []
        self.menu = None
        self.insecure = False

    def apply_settings(self, settings) -> None:
        self.settings = settings

    def play_online(self, player) -> None:
        self.played.append(player)


class FakeLobby:
    def __init__(self) -> None:
        self.told: list[str] = []

    def tell(self, words: str) -> None:
        self.told.append(words)


def watching(player):
    """An `OnlinePlay` in its lobby over `player`, as the window's task would run it each frame."""
    from types import SimpleNamespace

    from villa.app.online import OnlinePlay
    play = OnlinePlay(FakeFront())
    play.player, play.lobby, play.address = player, FakeLobby(), "127.0.0.1:47170"
    task = SimpleNamespace(cont="cont", done="done")
    return play, lambda: play._watch(task)


def test_the_lobby_keeps_the_seat_words_refusals_starts_the_game_and_forgets_the_seat_at_the_end():
    from types import SimpleNamespace

    from villa.online.protocol import Online, OnlineError
    player = SimpleNamespace(seats={}, state=None, table={"seats": [], "started": False}, refusals=[], lost=False,
                             code="ABCDE", poses={}, poll=lambda: None)
    play, frame = watching(player)
    assert frame() == "cont" and play.front.settings.kept_seat is None, "not seated yet: nothing kept"
    player.seats[1] = "token"
    frame()
    kept = play.front.settings.kept_seat
    assert (kept.address, kept.code, kept.seat, kept.token) == ("127.0.0.1:47170", "ABCDE", 1, "token")
    player.refusals.append(OnlineError(Online.NAME_TAKEN, name="Ben"))
    frame()
    assert play.lobby.told == ["Ben sits at this table already: choose another name."]
    player.table = {"seats": [], "started": True}
    frame()
    assert play.front.played == [], "started, but the state and the villa have not come yet"
    player.state, player.poses = SimpleNamespace(over=False), {"floor-1": ((0, 0, 0), (1, 0, 0, 0))}
    frame()
    frame()
    assert play.front.played == [player], "the game screen takes the player over, once"
    player.state = SimpleNamespace(over=True)
    frame()
    assert play.front.settings.kept_seat is None, "a game over has no seat to rejoin"


def test_a_seat_at_a_server_hosted_here_is_kept_as_the_hosts_and_marked_so():
    """The host's seat is kept like everyone's: Continue opens her room again from her own files."""
    from types import SimpleNamespace
    player = SimpleNamespace(seats={0: "token"}, state=None, table={"started": True}, refusals=[], lost=False,
                             code="ABCDE", poses={}, poll=lambda: None)
    play, frame = watching(player)
    play.server = object()
    frame()
    kept = play.front.settings.kept_seat
    assert (kept.code, kept.seat, kept.token, kept.hosts, kept.started) == ("ABCDE", 0, "token", True, True)


def test_a_seat_taken_from_the_command_line_is_kept_to_rejoin(monkeypatch):
    """`--join`: the lobby and the game as from the menus, and a window killed mid-game can take its seat back."""
    from types import SimpleNamespace

    from villa.app import online
    player = SimpleNamespace(seats={1: "token"}, state=None, table={"seats": [], "started": False}, refusals=[],
                             lost=False, code="ABCDE", poses={}, poll=lambda: None, **{
                                 ask: lambda *_: None for ask in ("give_to_computer", "begin", "set_clock", "send_away")})
    tasks, lobbies = [], []
    monkeypatch.setattr(online, "LobbyScreen", lambda **kwargs: lobbies.append(kwargs) or FakeLobby())
    front = FakeFront()
    front.stage = SimpleNamespace(task_mgr=SimpleNamespace(add=lambda watch, name: tasks.append(watch) or watch))
    front._open = lambda screen: setattr(front, "menu", screen)
    play = online.OnlinePlay(front)
    play.seated(player, "127.0.0.1:47391", "Ben")
    assert lobbies and lobbies[0]["player"] is player and front.menu is play.lobby
    assert tasks[0](SimpleNamespace(cont="cont", done="done")) == "cont"
    kept = front.settings.kept_seat
    assert (kept.address, kept.code, kept.seat, kept.token) == ("127.0.0.1:47391", "ABCDE", 1, "token")


def test_the_invite_names_the_routers_public_address_once_it_forwards_the_port_else_this_computers():
    """What the lobby shows of a game hosted here as the router's answer comes, and for a room on a server."""
    from types import SimpleNamespace

    from villa.app.online import OnlinePlay, sharing
    from villa.online.invite import Reach
    from villa.online.router import Forwarding, Step
    from villa.presentation.invite_words import reach_words, router_words
    play = OnlinePlay(FakeFront())
    play.player, play.address = SimpleNamespace(code="K7QXM", fingerprint="ab" * 32), "192.168.1.20:47170"
    assert sharing(play).reach is Reach.SERVER and str(sharing(play).invite) == \
        f"villa-paletti://192.168.1.20:47170/K7QXM#{'ab' * 32}"
    play.server = SimpleNamespace(port=47170, fingerprint="ab" * 32)
    said = {}
    for forwarding in (Forwarding(Step.ASKING, 47170), Forwarding(Step.NO_ROUTER, 47170),
                       Forwarding(Step.REFUSED, 47170, via="UPnP", why="UPnP error 606 Action not authorized"),
                       Forwarding(Step.OPEN, 47170, "203.0.113.45", 47171, "PCP", lease=600),
                       Forwarding(Step.OPEN, 47170, "100.64.3.7", 47170, "UPnP", lease=600)):
        play.opening = SimpleNamespace(forwarding=forwarding)
        shared = sharing(play)
        said[forwarding.step, forwarding.public_address] = (str(shared.invite), reach_words(shared),
                                                            router_words(shared))
    by_hand = ("For friends elsewhere, forward TCP port 47170 to this computer (192.168.1.20) in your router's "
               "settings, or host the game on a server: villa-paletti-server, which comes with the game, on a "
               "machine with a public address.")
    lan = "This computer's address on your network: friends on the same network can join."
    invite = f"villa-paletti://192.168.1.20:47170/K7QXM#{'ab' * 32}"
    assert said[Step.ASKING, None] == (invite, lan, "Asking your router to let friends from elsewhere in …")
    assert said[Step.NO_ROUTER, None] == (invite, lan, "No router answered (UPnP, PCP, NAT-PMP). " + by_hand)
    assert said[Step.REFUSED, None] == (invite, lan, "Your router would not forward the game's port (UPnP may be off "
                                                     "in its settings). " + by_hand)
    assert said[Step.OPEN, "203.0.113.45"] == (
        f"villa-paletti://203.0.113.45:47171/K7QXM#{'ab' * 32}",
        "Your home's public address: your router forwards port 47171 to this computer (PCP), so friends anywhere "
        "can join.", "")
    assert said[Step.OPEN, "100.64.3.7"][1] == (
        "Your router forwards port 47170 to this computer, but its own outside address is private: another router "
        "beyond it (your provider's) may keep friends out.")


def test_the_join_forms_first_line_is_an_invite_or_an_address():
    from villa.app.online import login_name, parse_invite_or_address
    assert parse_invite_or_address("192.168.1.20:47171") == ("192.168.1.20", 47171, None, None)
    assert parse_invite_or_address(f"villa-paletti://[2001:db8::7]:47171/k7qxm#{'AB' * 32}") == (
        "2001:db8::7", 47171, "K7QXM", "ab" * 32)
    with pytest.raises(Trouble) as told:
        parse_invite_or_address("villa-paletti://192.168.1.20:47171/K7QXM#abc")
    assert told.value.code == "bad invite" and told.value.values == {"why": "bad fingerprint"}
    from villa.presentation.menus.online import trouble_words
    assert trouble_words(told.value.code, **told.value.values).startswith("The server's fingerprint at the end")
    assert login_name() == "" or login_name()[0].isupper()


def test_the_login_name_is_the_name_a_clicked_invite_sits_down_with(monkeypatch):
    from villa.app.online import login_name
    for variable in ("USER", "USERNAME", "LOGNAME"):
        monkeypatch.delenv(variable, raising=False)
    assert login_name() == ""
    monkeypatch.setenv("USERNAME", "mira")
    assert login_name() == "Mira"
    monkeypatch.setenv("USER", "root")
    assert login_name() == "Mira", "not root: nobody is called that at a table"
