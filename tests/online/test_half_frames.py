"""No read blocks the server's loop: with a hundred connections each holding half a frame (welcomed or not), a
player in a room is still answered request after request, the rooms play on, and a frame finished later is read
whole. (What it costs a player in time is measured by `scripts/bench_online.py --holders`.)"""

from __future__ import annotations

import socket

import pytest

from villa.match import requests as rq
from villa.online.protocol import Online
from villa.online.server import CATALOGUE, Server
from villa.online.wire import messages as m
from villa.online.wire.frames import frame
from tests.online.conftest import HELLO, LOOPBACK, joined, pump, run

HOLDERS = 100


@pytest.fixture
def server():
    """In the clear: the frames' halves are the point (a handshake left half done: tests/online/test_tls.py)."""
    server = Server(0, LOOPBACK, insecure=True)
    yield server
    server.close()


def _holders(port: int) -> list[tuple[socket.socket, bytes]]:
    """A hundred connections, from seven addresses of this machine (16 at most from one), each having sent half
    a frame: half of them after their hello, the others half of the hello itself. Returns each with its rest."""
    held = []
    hello, enter = frame(CATALOGUE.encode(HELLO)), frame(CATALOGUE.encode(m.Enter("ABCDE")))
    for n in range(HOLDERS):
        sock = socket.socket()
        sock.bind((f"127.0.1.{n // 15 + 1}", 0))
        sock.connect((LOOPBACK, port))
        whole = hello + enter if n % 2 else hello
        cut = len(hello) + len(enter) // 2 if n % 2 else len(hello) // 2
        sock.sendall(whole[:cut])
        held.append((sock, whole[cut:]))
    return held


def test_a_hundred_connections_holding_half_a_frame_hold_up_no_one(server, room):
    anna, _ben = joined(server, room.code, "Anna", "Ben")
    held = _holders(server.port)
    try:
        assert run(server, lambda: server.door.connections == 2 + HOLDERS, seconds=10)
        tick = room.tick
        for number in range(60):                          # a second of a player's requests, each answered
            anna.request(rq.Pass(1))
            assert run(server, lambda: len(anna.refusals) == number + 1, seconds=5), f"request {number} unanswered"
            assert anna.refusals[-1].code is Online.NOT_YOUR_SEAT
        assert room.tick >= tick + 60 and not anna.lost, "the rooms played on meanwhile"
        assert server.door.connections == 2 + HOLDERS and len(server.visitors) == 2 + HOLDERS // 2

        for sock, rest in held:                           # the rest of each frame: read whole, and answered
            sock.sendall(rest)
        assert pump(server, [], lambda: len(server.visitors) == 2 + HOLDERS, seconds=10)
    finally:
        for sock, _rest in held:
            sock.close()
    assert pump(server, [], lambda: server.door.connections == 2 and len(server.visitors) == 2, seconds=10)
