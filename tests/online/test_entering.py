"""Entering a room is a request: the client sends the code, the server answers with the room or a refusal. A
wrong code costs one of the ten tries an address has a minute; out of tries, even a right code waits (`too many
tries`, with the seconds). A room's code goes to nobody who did not type it: its opener hears it, and those who
enter with it; no other connection hears it in anything."""

from __future__ import annotations

import json
import zlib
from dataclasses import fields

from villa.online import protocol
from villa.online.protocol import Online
from villa.online.server import Room, Server
from villa.online.server.server import network_of
from villa.online.wire import messages as m
from villa.online.wire.door import Tries
from tests.online.conftest import HELLO, LOOPBACK, Raw, Skipping, connected, joined, pump, run, two_seats


def test_wrong_codes_cost_tries_and_out_of_tries_even_the_right_code_waits():
    clock = Skipping()
    server = Server(0, LOOPBACK, tries=Tries(per_minute=10, pause_s=60.0, clock=clock))
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats()))
        mallory = Raw(server.port)
        wrong = [m.Enter(code) for code in ("AAAAA", "WRONG", "ab", "BBBBB", "CCCCC", "DDDDD", "EEEEE", "FFFFF",
                                            "GGGGG")]
        mallory.say(HELLO, *wrong, m.Rejoin("HHHHH", "a-token"))      # a rejoin names a room too: the tenth try
        mallory.say(m.Enter(room.code))                   # the right code, from an address out of tries
        assert pump(server, [mallory], lambda: mallory.kinds().count(m.Refused) == 11)
        refusals = [message for message in mallory.heard if isinstance(message, m.Refused)]
        assert [r.code for r in refusals] == [Online.WRONG_ROOM.value] * 10 + [Online.TOO_MANY_TRIES.value]
        assert 55 <= json.loads(refusals[-1].values)["seconds"] <= 60 and m.Entered not in mallory.kinds()

        other = Raw(server.port, source="127.0.0.2")      # another address has its own tries
        other.say(HELLO, m.Enter(room.code))
        assert pump(server, [other], lambda: m.Entered in other.kinds())
        clock.skip(61)
        mallory.say(m.Enter(room.code))
        assert pump(server, [mallory], lambda: m.Entered in mallory.kinds()), "after the pause, it may try again"
    finally:
        server.close()


def _said(message) -> bytes:
    """Every text and byte a message carries, its zlib'd blobs inflated."""
    said = b""
    for field in fields(message):
        value = getattr(message, field.name)
        if isinstance(value, str):
            said += value.encode()
        elif isinstance(value, bytes):
            try:
                said += zlib.decompress(value)
            except zlib.error:
                said += value
    return said


def test_a_rooms_code_goes_to_no_one_who_did_not_type_it(server):
    elsewhere = server.open(Room(protocol.new_room_code(), two_seats(4)))
    lobby, watcher = Raw(server.port), Raw(server.port)
    lobby.say(HELLO)                                      # connected, in no room
    watcher.say(HELLO, m.Enter(elsewhere.code))           # in another room
    anna, = connected(server)
    anna.open_room(two_seats())
    assert run(server, lambda: anna.room is not None, seconds=10)
    code = anna.room_code
    anna.sit("Anna", 0)
    ben, = joined(server, code, "")                       # Ben typed it
    ben.sit("Ben", 1)
    assert run(server, lambda: ben.seats, seconds=10)
    ben.close()
    anna.begin()
    pump(server, [lobby, watcher], lambda: False, seconds=0.3)     # what they hear meanwhile
    assert m.Entered in watcher.kinds() and lobby.kinds() == [m.Welcome]
    for client in (lobby, watcher):
        assert all(code.encode() not in _said(message) for message in client.heard)


def test_tries_are_counted_by_address_and_an_ipv6_homes_whole_network():
    assert network_of("203.0.113.7") == "203.0.113.7"
    assert network_of("::ffff:203.0.113.7") == "203.0.113.7"
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
