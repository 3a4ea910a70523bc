"""A server and its players on loopback, all in the test's own loop: each step of `run` is the network, one
frame of every room, the network again, then every player's poll. Players made in a test are closed after it;
`Raw` is a client that sends what it is told, bytes or messages, for the tests of what a server holds out
against."""

from __future__ import annotations

import json
import socket
import time
from dataclasses import replace
from typing import Any

import pytest

from villa.match import MatchSetup, Record, Seat, Strength, layout_named
from villa.match import record as records
from villa.online import protocol
from villa.online.client import Player
from villa.online.server import CATALOGUE, Room, Server
from villa.online.wire import messages as m
from villa.online.wire.frames import WireError, frame
from villa.online.wire.link import Link
from villa.online.wire.tls import client_session

LOOPBACK = "127.0.0.1"
HELLO = m.Hello(m.PROTOCOL, m.GAME)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def three_seats(seed: int = 3) -> MatchSetup:
    """Two people's seats and a computer player's; the colours dealt (the seat with the computer starts)."""
    return MatchSetup((Seat("Seat 1"), Seat("Seat 2"), Seat("Computer", Strength.EASY)), layout_named("random", seed),
                      seed=seed, deal_colours=True)


def two_seats(seed: int = 3) -> MatchSetup:
    """Two people's seats, the colours dealt."""
    plan = three_seats(seed)
    return replace(plan, seats=plan.seats[:2])


class Kept:
    """A room store in memory (`RoomStore`): the autosaves a room wrote, read back as the game's files hold them,
    and the room taken up from the last of them."""

    def __init__(self) -> None:
        self.records: list[Record] = []
        self.seats: dict = {}

    def __call__(self, room: Room) -> None:
        record, seats = room.kept()
        self.records.append(records.from_document(records.to_document(record, "autosave")))
        self.seats = json.loads(json.dumps(seats))

    def take_up(self, code: str, **options) -> Room | None:
        if not self.records or self.seats.get("room") != code or self.records[-1].state.over:
            return None
        return Room.taken_up(self.records[-1], self.seats, keep=self, **options)


class Skipping:
    """A clock that follows the real one, and jumps ahead when told (a room left for ten minutes, in no time)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped

    def skip(self, seconds: float) -> None:
        self.skipped += seconds


def made() -> list[Player]:
    """Every player made in the test now running (kept on the class: pytest loads this file under two names)."""
    return getattr(Player, "made_in_test", [])


def poll_players() -> None:
    for player in made():
        player.poll()


def run(server: Server, done, frames: int | None = None, seconds: float = 60.0) -> bool:
    """Frames of the server, the players polled after each, until `done()` (or until `frames` of them); False if
    it never came within `seconds`. Waiting on the players, it goes by the clock, not by a count of frames: a
    quick machine runs thousands of frames before a message has crossed."""
    end = time.monotonic() + seconds
    count = 0
    while not done():
        if (frames is not None and count >= frames) or time.monotonic() > end:
            return done()
        server.frame()
        poll_players()
        count += 1
        if frames is None:
            time.sleep(0.0005)   # the players' side of the loopback gets its turn
    return True


def players_until(done, seconds: float = 10.0) -> bool:
    """The players polled (no server here: a closed one, or one in another thread or process) until `done()`."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        poll_players()
        time.sleep(0.002)
    return True


def connected(server: Server, count: int = 1) -> list[Player]:
    """Players connected to the server (over TLS, or in the clear to a server started insecure)."""
    players = [Player(LOOPBACK, server.port, insecure=server.fingerprint is None) for _ in range(count)]
    assert run(server, lambda: all(p.ready for p in players), seconds=10), [p.trouble for p in players]
    return players


def joined(server: Server, code: str, *names: str) -> list[Player]:
    """Players who entered the room and sat down at seats 0, 1, ... (in the order named; "" sits nowhere)."""
    players = connected(server, len(names))
    for player in players:
        player.enter(code)
    assert run(server, lambda: all(p.room is not None for p in players), seconds=10), [p.refusals for p in players]
    for seat, (player, name) in enumerate(zip(players, names)):
        if name:
            player.sit(name, seat)
    assert run(server, lambda: all(p.seats or not n for p, n in zip(players, names)), seconds=10), \
        [p.refusals for p in players]
    return players


def killed(player: Player) -> None:
    """The player's window killed: no goodbye, the socket just closes, and nothing of the window runs any more
    (a window still running would look for its game again by itself)."""
    player.link.close()
    player.lost = True


def refused(server: Server, player: Player, code: protocol.Online, seconds: float = 10.0) -> bool:
    """The next refusal the player hears is the server's `code`."""
    before = len(player.refusals)
    assert run(server, lambda: len(player.refusals) > before, seconds=seconds), f"no refusal came ({code})"
    last = player.refusals[-1]
    return isinstance(last, protocol.OnlineError) and last.code is code


class Raw:
    """A client that says whatever it is told (messages, or any bytes), from `source` (any 127.x.y.z is this
    machine), and keeps what it heard; over TLS unless told (`tls=False`, to a server started insecure), its
    messages waiting for the handshake (which the server's polls and `hear` carry on), its server unchecked."""

    def __init__(self, port: int, source: str = LOOPBACK, tls: bool = True) -> None:
        sock = socket.socket()
        sock.settimeout(5)
        sock.bind((source, 0))
        sock.connect((LOOPBACK, port))
        self.link = Link(sock, CATALOGUE, tls=client_session(LOOPBACK, None) if tls else None)
        self.link.flush()
        self.heard: list[Any] = []
        self.error: str | None = None

    @property
    def closed(self) -> bool:
        return self.link.closed

    def say(self, *said: Any) -> None:
        for message in said:
            self.link.send(message)
        self.link.flush()

    def send_payload(self, payload: bytes) -> None:
        """One frame of any payload (a kind's number and a body that may be anything): in the clear only."""
        assert self.link.tls is None, "a payload of any bytes goes to a server started insecure"
        self.link.sock.sendall(frame(payload))

    def hear(self) -> list[Any]:
        if not self.link.closed:
            try:
                self.heard += self.link.receive()
                self.link.flush()           # what waited for the handshake
            except WireError as error:
                self.error = error.why
                self.link.close()
        return self.heard

    def kinds(self) -> list[type]:
        return [type(message) for message in self.heard if not isinstance(message, m.Ping)]

    def goodbye(self) -> tuple[str, dict] | None:
        """The code and values of the goodbye heard, if one was."""
        for message in self.heard:
            if isinstance(message, m.Goodbye):
                return message.code, json.loads(message.values)
        return None

    def close(self) -> None:
        self.link.close()


def pump(server: Server, clients, until, seconds: float = 10.0) -> bool:
    """The server's network (no frames of its rooms) and the raw clients' reading, until `until()` holds."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        server.poll(0.001)
        for client in clients:
            client.hear()
        poll_players()
        if until():
            return True
    return False


@pytest.fixture(autouse=True)
def players_let_go(monkeypatch):
    """Every player a test made is polled by `run`, and closed after the test."""
    original, players = Player.__init__, []

    def recorded(self, *args, **kwargs):
        original(self, *args, **kwargs)
        players.append(self)
    monkeypatch.setattr(Player, "__init__", recorded)
    monkeypatch.setattr(Player, "made_in_test", players, raising=False)
    yield
    for player in players:
        player.close()


@pytest.fixture
def server():
    server = Server(0, LOOPBACK)
    yield server
    server.close()


@pytest.fixture
def room(server):
    kept = Kept()
    room = Room(protocol.new_room_code(), three_seats(), keep=kept)
    room.store = kept
    server.open(room)
    return room
