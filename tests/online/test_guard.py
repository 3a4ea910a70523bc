"""No way in where one does not belong: every datagram a client sends is read against the `.dc` types
and what a player may do; a hostile one closes that connection only, and the server goes on."""

from __future__ import annotations

import random

import pytest
from direct.distributed.MsgTypesCMU import (CLIENT_OBJECT_GENERATE_CMU, CLIENT_OBJECT_UPDATE_FIELD,
                                            OBJECT_DELETE_CMU)
from direct.distributed.PyDatagram import PyDatagram

from villa.online import loop
from villa.online.client import Player
from villa.online.protocol import Online, OnlineError
from villa.online.server import MAX_DATAGRAM, RATE
from tests.online.conftest import LOOPBACK, joined, run


def _update(player: Player, field: str | int, body: bytes, do_id: int | None = None) -> PyDatagram:
    room = player.room
    number = field if isinstance(field, int) else room.dclass.getFieldByName(field).getNumber()
    datagram = PyDatagram()
    datagram.addUint16(CLIENT_OBJECT_UPDATE_FIELD)
    datagram.addUint32(room.doId if do_id is None else do_id)
    datagram.addUint16(number)
    datagram.appendData(body)
    return datagram


def _aim_body(player: Player, seat: int = 0) -> bytes:
    return player.room.dclass.clientFormatUpdate("aim", player.room.doId, [seat, 1.0, 2.0, 3.0]).getMessage()[8:]


def _raw(kind: int, body: bytes) -> PyDatagram:
    datagram = PyDatagram()
    datagram.addUint16(kind)
    datagram.appendData(body)
    return datagram


HOSTILE = {
    "truncated": lambda p: _update(p, "aim", _aim_body(p)[:-5]),
    "malformed": lambda p: _update(p, "sit", b"\xff\xff" + b"ABCDE"),
    "too long": lambda p: _update(p, "sit", b"\x05\x00ABCDE" + b"\x00" * MAX_DATAGRAM),
    "trailing bytes": lambda p: _update(p, "aim", _aim_body(p) + b"\x00"),
    "out of range": lambda p: _update(p, "aim", b"\x07" + _aim_body(p)[1:]),
    "a hold out of range": lambda p: _update(p, "setDown", b"\x00\x02"),
    "unknown field": lambda p: _update(p, 999, b""),
    "not a request": lambda p: _update(p, "setState", b"\x00\x00"),
    "another object": lambda p: _update(p, "aim", _aim_body(p), do_id=p.room.doId + 7),
    "making an object": lambda p: _raw(CLIENT_OBJECT_GENERATE_CMU, b"\x00" * 10),
    "deleting the room": lambda p: _raw(OBJECT_DELETE_CMU, p.room.doId.to_bytes(4, "little")),
    "cut short": lambda p: _raw(CLIENT_OBJECT_UPDATE_FIELD, b"\x01"),
}


@pytest.fixture
def anna(server, room):
    (anna,) = joined(server, room.code, "Anna")
    return anna


def _still_served(server, room, anna) -> None:
    """The player who behaved is still answered (a refusal is an answer)."""
    before = len(anna.refusals)
    anna.ask("answer", 1, "pass")
    assert run(server, lambda: len(anna.refusals) > before, seconds=10), "the server stopped serving"
    assert anna.refusals[-1].code is Online.NOT_YOUR_SEAT
    assert not anna.lost


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_a_hostile_datagram_closes_only_its_connection(server, room, anna, what):
    (mallory,) = joined(server, room.code, "")
    before = len(server.router.closed)
    mallory.send(HOSTILE[what](mallory))
    assert run(server, lambda: len(server.router.closed) > before, seconds=10)
    assert server.router.closed[-1][0] == mallory.doIdBase
    assert mallory.doIdBase not in server.router.clientsByDoIdBase
    _still_served(server, room, anna)


def test_a_request_before_entering_the_room_closes_the_connection(server, room, anna):
    mallory = Player(LOOPBACK, server.port)
    assert loop.run_until(lambda: mallory.ready)
    # the room's object, heard of elsewhere (the room code too), but the room was never entered
    mallory.send(anna.room.dclass.clientFormatUpdate("sit", anna.room.doId, [room.code, "Mallory", 1]))
    assert run(server, lambda: server.router.closed, seconds=10)
    assert server.router.closed[-1] == (mallory.doIdBase, "out of turn: the room was not entered")
    assert 1 not in room.sitters
    _still_served(server, room, anna)


def test_a_flood_is_capped_per_connection(server, room, anna):
    (mallory,) = joined(server, room.code, "")
    for _ in range(int(RATE * 3)):
        mallory.send(_update(mallory, "aim", _aim_body(mallory)))
    assert run(server, lambda: server.router.closed, seconds=10)
    assert server.router.closed[-1] == (mallory.doIdBase, "over the rate cap")
    _still_served(server, room, anna)


def test_a_point_off_the_table_is_refused_not_carried_out(server, room, anna):
    anna.ask("take", 0, "red-hex", float("nan"), 0.0, 0.0, False)
    assert run(server, lambda: anna.refusals, seconds=10)
    assert isinstance(anna.refusals[-1], OnlineError) and anna.refusals[-1].code in (Online.NOT_ON_TABLE,
                                                                                      Online.NOT_STARTED)


def test_random_bytes_leave_the_server_serving(server, room, anna):
    """A seeded fuzz: datagrams of random bytes, each from a connection of its own."""
    dice = random.Random(28)
    for _ in range(12):
        (mallory,) = joined(server, room.code, "")
        size = dice.choice((1, 3, 9, 40, 300, 2000))
        kind = dice.choice((CLIENT_OBJECT_UPDATE_FIELD, dice.randrange(65536)))
        body = bytes(dice.randrange(256) for _ in range(size))
        if kind == CLIENT_OBJECT_UPDATE_FIELD and size > 6:   # aimed at the room's object, so the fields are tried
            body = mallory.room.doId.to_bytes(4, "little") + body[4:]
        mallory.send(_raw(kind, body))
        server.frame()
    run(server, lambda: False, frames=30)
    _still_served(server, room, anna)
    assert room.sitters.keys() == {0}
