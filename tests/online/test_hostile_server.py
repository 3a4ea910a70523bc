"""A hostile or broken server cannot crash or hang a window: whatever it sends (garbage, a frame too long, a state
that inflates past its cap, moves that do not follow, a message only a client sends), the player's connection ends
with one sentence's worth of trouble and nothing escapes `poll`; a server that never answers is given up after the
player's timeout, and a player closed while still connecting stops at once."""

from __future__ import annotations

import socket
import time
import zlib

import pytest

from villa import rules
from villa.online import protocol
from villa.online.client import Player
from villa.online.protocol import Online, OnlineError
from villa.online.server import CATALOGUE
from villa.online.wire import messages as m
from villa.online.wire.frames import WireError, frame
from villa.presentation import words
from tests.online.conftest import LOOPBACK, three_seats

BOMB = zlib.compress(b"\0" * 50_000_000, 9)     # 50 MB of nothing in under 60 kB


class FakeServer:
    """A listening socket whose one connection says whatever the test tells it to, in the clear (its players are
    insecure ones: what a server's messages may hold is the point here, not their TLS)."""

    def __init__(self) -> None:
        self.listener = socket.create_server((LOOPBACK, 0))
        self.port = self.listener.getsockname()[1]
        self.sock: socket.socket | None = None

    def accept(self) -> None:
        self.listener.settimeout(5)
        self.sock, _peer = self.listener.accept()

    def say(self, *messages) -> None:
        for message in messages:
            self.raw(frame(CATALOGUE.encode(message)))

    def raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        for sock in (self.sock, self.listener):
            if sock is not None:
                sock.close()


@pytest.fixture
def fake():
    server = FakeServer()
    yield server
    server.close()


def _poll_until(player: Player, done, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        player.poll()                  # whatever came, it must not raise
        if done():
            return True
        time.sleep(0.002)
    return False


def _welcomed(fake: FakeServer) -> Player:
    player = Player(LOOPBACK, fake.port, insecure=True)
    assert _poll_until(player, lambda: player.link is not None)
    fake.accept()
    state = rules.new_game(three_seats().rules_setup())
    fake.say(m.Welcome(m.PROTOCOL, m.GAME), m.Entered("ABCDE"), m.State(protocol.pack_state(state)))
    assert _poll_until(player, lambda: player.room == "ABCDE" and player.state is not None)
    return player


HOSTILE = {
    "garbage": lambda fake: fake.raw(b"\x00\x00\x00\x05hello"),
    "a frame too long": lambda fake: fake.raw(b"\x7f\xff\xff\xff" + b"x" * 100),
    "a zip bomb for a state": lambda fake: fake.say(m.State(BOMB)),
    "a zip bomb for moves": lambda fake: fake.say(m.Moves(0, BOMB)),
    "moves that do not follow": lambda fake: fake.say(m.Moves(99, protocol.pack_moves([]))),
    "a message only a client sends": lambda fake: fake.say(m.Sit("Mallory", 0)),
    "a refusal of no kind": lambda fake: fake.say(m.Refused("bogus", "x", "{}")),
    "an event of no kind": lambda fake: fake.say(m.Event(b'{"event": "fireworks"}')),
    "a table that is none": lambda fake: fake.say(m.Table(b"[1, 2, 3]")),
    "a state that is none": lambda fake: fake.say(m.State(zlib.compress(b'{"players": 7}'))),
}


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_whatever_a_server_sends_the_player_ends_with_one_sentence(fake, what):
    player = _welcomed(fake)
    HOSTILE[what](fake)
    assert _poll_until(player, lambda: player.lost)
    assert isinstance(player.trouble, (WireError, OnlineError)) and not player.failed
    sentence = words.refusal(player.trouble)
    assert sentence and "\n" not in sentence
    player.poll()
    player.close()                       # and it closes quietly after


def test_a_goodbye_of_no_known_code_is_the_server_closing_and_a_broken_record_is_only_logged(fake, caplog):
    player = _welcomed(fake)
    fake.say(m.Record(0, 1, BOMB))
    assert _poll_until(player, lambda: "does not read" in caplog.text)
    assert not player.lost and player.finished is None
    fake.say(m.Goodbye("fireworks", "{}"))
    assert _poll_until(player, lambda: player.lost) and player.trouble.code is Online.CLOSING


def test_a_server_that_never_answers_is_given_up_after_the_timeout(fake):
    player = Player(LOOPBACK, fake.port, timeout=0.5)
    began = time.monotonic()
    assert _poll_until(player, lambda: player.link is not None)
    fake.accept()                        # connected, and then nothing: no welcome ever comes
    assert player.connecting
    assert _poll_until(player, lambda: player.lost, seconds=5)
    assert player.failed and player.trouble.code is Online.UNREACHABLE and player.trouble.values["why"] == "timed out"
    assert 0.5 <= time.monotonic() - began < 3


def test_a_player_closed_while_connecting_stops_at_once(fake):
    player = Player(LOOPBACK, fake.port, insecure=True)
    assert player.connecting
    player.close()
    assert player.lost and not player.connecting and not player.ready
    player.poll()
    assert player.lost
