"""TLS across a fleet: the directory names each room's server with its certificate's fingerprint, and a window
sent on from one server to another holds the other to it, as it holds the first to an invite's pin."""

from __future__ import annotations

import redis

from tests.fleet.conftest import LOOPBACK, poll_until
from villa.online.client import Player
from villa.online.fleet import redis_keys as keys
from villa.online.protocol import Online
from villa.online.wire.certificates import short


def test_a_window_sent_on_through_the_fleet_checks_the_certificate_the_directory_names(fleet, redis_server):
    a = fleet("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
    b = fleet()
    code = a.codes[0]
    assert a.fingerprint and b.fingerprint and a.fingerprint != b.fingerprint, "each server its own certificate"
    kept = redis.Redis.from_url(redis_server.url, decode_responses=True)
    assert kept.hget(keys.room(code), "address") == f"{a.address}#{a.fingerprint}"

    invited = Player(LOOPBACK, b.port, pin=b.fingerprint)        # the invite names b
    invited.enter(code)
    assert poll_until([invited], lambda: invited.room == code and invited.poses), invited.trouble
    assert invited.port == a.port and invited.fingerprint == a.fingerprint, "sent on to a, and a checked"
    assert invited.pins[(LOOPBACK, a.port)] == a.fingerprint
    assert {(LOOPBACK, b.port): b.fingerprint}.items() <= invited.pins.items()

    forged = "0" * 64                                            # the directory says another certificate for a
    kept.hset(keys.room(code), "address", f"{a.address}#{forged}")
    misled = Player(LOOPBACK, b.port, pin=b.fingerprint)
    misled.enter(code)
    assert poll_until([misled], lambda: misled.lost), "refused at a"
    assert misled.trouble.code is Online.NOT_INVITED and misled.port == a.port
    assert misled.trouble.values["pin"] == short(forged) and misled.trouble.values["shown"] == short(a.fingerprint)
    assert not invited.lost, "the one who got in plays on"
