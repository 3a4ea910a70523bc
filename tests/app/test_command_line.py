"""The command line refuses what it cannot use in one short line (exit code 2), and reads seats for people
and computer players."""

from __future__ import annotations

import pytest

from villa.app import cli, front
from villa.match import MatchSetup, Seat, Strength, layout_named
from villa.online import protocol
from villa.online.server import Room, Server
from villa.presentation.stage import NoDisplay

from .conftest import run_villa

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("args, words", [
    (["--players", "²"], "name 2, 3 or 4 players"),
    (["--players", "A,A"], "'A' is given twice"),
    (["--players", "Anna," + "B" * 5000], "at most 24 characters"),
    (["--players", "Anna,Be\x07n"], "printable"),
    (["--players", "Anna,cpu:godlike"], "easy, medium or hard"),
    (["--players", "5"], "2, 3 or 4 players"),
    (["--players", "9" * 5000], "2, 3 or 4 players"),
    (["--seed", "9" * 5000], "the seed as a whole number"),
    (["--seed", "-3"], "between 0 and"),
    (["--floors", "七"], "the number of floors"),
    (["--size", "1e9x2"], "WIDTHxHEIGHT"),
    (["--layout", "\x1b[31mred"], "no layout is called"),
    (["--strength", "hard"], "add --autoplay"),
])
def test_a_bad_option_gets_one_short_line_and_exit_code_2(args, words, tmp_path):
    result = run_villa(*args, "--autoplay", "0", "--headless", home=tmp_path) if "--strength" not in args \
        else run_villa(*args, home=tmp_path)
    assert result.returncode == 2, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("villa-paletti: ") and words in last, last
    assert len(last) < 300 and "\x1b" not in last and "\x07" not in last


def test_seats_for_people_and_computer_players():
    assert cli.seats("3") == (Seat("Anna"), Seat("Ben"), Seat("Cleo"))
    assert cli.seats("Mira, cpu:hard ,cpu,CPU:Easy") == (
        Seat("Mira"), Seat("Computer (hard)", Strength.HARD), Seat("Computer (medium)", Strength.MEDIUM),
        Seat("Computer (easy)", Strength.EASY))
    assert cli.seats("cpu:hard,cpu:hard") == (Seat("Computer (hard)", Strength.HARD),
                                              Seat("Computer (hard) 2", Strength.HARD))


def test_the_no_display_message_is_one_line(tmp_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    result = run_villa("--screenshot", str(tmp_path / "x.png"), home=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, words", [
    (("--join", "nowhere", "--room", "ABCDE", "--name", "Ann"), "give the server as HOST:PORT"),
    (("--join", "127.0.0.1:47170", "--room", "A0", "--name", "Ann"), "a room code is 5 letters"),
    (("--join", "127.0.0.1:47170", "--room", "ABCDE"), "--join needs the room and your name"),
    (("--room", "ABCDE", "--name", "Ann"), "add --join HOST:PORT"),
    (("villa-paletti://127.0.0.1:47170/ABCD0",), "the invite's room code cannot be one"),
    (("--join", "villa-paletti://127.0.0.1:70000/ABCDE"), "the invite's port is not a number"),
    (("villa-paletti://127.0.0.1:47170/ABCDE#12ab",), "the invite's fingerprint (after #) is not 64 hex digits"),
    (("villa-paletti://127.0.0.1:47170/ABCDE", "--room", "ABCDE"), "the invite names its room already"),
    (("villa-paletti://127.0.0.1:47170/ABCDE", "--join", "127.0.0.1:47170"), "give one"),
    (("villa-paletti://127.0.0.1:47170/ABCDE", "--autoplay", "3", "--headless"), "--join plays a game online"),
])
def test_a_bad_way_online_gets_one_line_and_exit_code_2(args, words, capsys):
    with pytest.raises(SystemExit) as ended:
        cli.parse(list(args))
    assert ended.value.code == 2 and words in capsys.readouterr().err


def test_an_invite_is_taken_whole_as_the_desktop_gives_it_or_by_join():
    """A link clicked in a chat starts `villa-paletti INVITE`; `--join INVITE` is the same, and needs no --room."""
    fingerprint = "0f" * 32
    for argv in (["villa-paletti://203.0.113.45:47171/k7qxm#" + fingerprint.upper()],
                 ["--join", f"villa-paletti://203.0.113.45:47171/K7QXM#{fingerprint}", "--name", "Ann"]):
        args = cli.parse(argv)
        assert (args.join.host, args.join.port, args.join.code, args.join.fingerprint) == (
            "203.0.113.45", 47171, "K7QXM", fingerprint)
    assert cli.parse(["--join", "127.0.0.1:47170", "--room", "ABCDE", "--name", "Ann"]).join == ("127.0.0.1", 47170)


def test_no_server_at_the_address_is_one_sentence_before_any_window(tmp_path, monkeypatch):
    monkeypatch.setenv("DISPLAY", ":1999")     # a display is there to ask; no window is opened on it
    port = free_port()
    result = run_villa("--join", f"127.0.0.1:{port}", "--room", "ABCDE", "--name", "Ann", home=tmp_path)
    assert result.returncode == 2
    assert f"villa-paletti: no game server answers at 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr
    result = run_villa("--join", f"villa-paletti://127.0.0.1:{port}/ABCDE", "--name", "Ann", home=tmp_path)
    assert result.returncode == 2 and f"no game server answers at 127.0.0.1:{port}" in result.stderr, "by invite"


def test_a_join_with_no_display_says_so_before_it_takes_a_seat(monkeypatch):
    """Else the seat would wait ten minutes for a window that never opened, and the next friend finds it taken."""
    from villa.presentation.stage import stage
    if stage.is_open:
        pytest.skip("this test session's window is open already: there is a display")
    monkeypatch.delenv("DISPLAY", raising=False)
    server = Server(free_port(), LOOPBACK)
    room = Room(protocol.new_room_code(), MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings")))
    server.open(room)                          # not even run: no connection is made without a display
    try:
        with pytest.raises(NoDisplay):
            front.play(cli.parse(["--join", f"{LOOPBACK}:{server.port}", "--room", room.code, "--name", "Ann"]))
        assert room.seating.sitters == {}
    finally:
        server.close()
