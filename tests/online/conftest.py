"""A server and its players on a loopback port, run on a fixed clock: each step is one frame of
every room, then the network."""

from __future__ import annotations

import socket
import time

import pytest

from villa.match import MatchSetup, Record, Seat, Strength, layout_named
from villa.match import record as records
from villa.online import loop, protocol
from villa.online.client import Player
from villa.online.rooms import Room
from villa.online.server import Server

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def three_seats(seed: int = 3) -> MatchSetup:
    """Two people's seats and a computer player's; the colours dealt (the seat with the computer starts)."""
    return MatchSetup((Seat("Seat 1"), Seat("Seat 2"), Seat("Computer", Strength.EASY)), layout_named("random", seed),
                      seed=seed, deal_colours=True)


class Kept:
    """The autosaves a room wrote, as the documents the game's files hold (read back each time)."""

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.seats: dict = {}

    def __call__(self, room: Room) -> None:
        self.records.append(records.from_document(records.to_document(room.match.record, "autosave")))
        self.seats = room.seats_json()


def run(server: Server, done, frames: int | None = None, seconds: float = 60.0) -> bool:
    """Frames of the server until `done()` (or until `frames` of them); False if it never came within
    `seconds`. Waiting on the players, it goes by the clock, not by a count of frames: a quick machine
    runs thousands of frames before a datagram has crossed."""
    end = time.monotonic() + seconds
    count = 0
    while not done():
        if (frames is not None and count >= frames) or time.monotonic() > end:
            return done()
        server.frame()
        count += 1
        if frames is None:
            time.sleep(0.0005)   # the players' side of the loopback gets its turn
    return True


def joined(server: Server, code: str, *names: str) -> list[Player]:
    """Players who entered the room and sat down at seats 0, 1, ... (in the order named)."""
    port = server.port
    players = [Player(LOOPBACK, port) for _ in names]
    assert loop.run_until(lambda: all(p.ready for p in players))
    for player in players:
        player.enter(code)
    assert run(server, lambda: all(p.room is not None for p in players), seconds=10)
    for seat, (player, name) in enumerate(zip(players, names)):
        if name:
            player.sit(name, seat)
    assert run(server, lambda: all(p.seats or not n for p, n in zip(players, names)), seconds=10)
    return players


@pytest.fixture(autouse=True)
def players_let_go(monkeypatch):
    """Every player a test made is disconnected after it: no reader task of theirs polls on in later tests."""
    made: list[Player] = []
    original = Player.__init__

    def recorded(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)
    monkeypatch.setattr(Player, "__init__", recorded)
    yield
    for player in made:
        player.stopReaderPollTask()
        if player.isConnected():
            player.disconnect()


@pytest.fixture
def server():
    server = Server(free_port(), LOOPBACK)
    yield server
    server.close()


@pytest.fixture
def room(server):
    kept = Kept()
    room = Room(protocol.new_room_code(), three_seats(), keep=kept)
    room.kept = kept
    server.open(room)
    return room
