"""Limits at the server's door, as a player meets them: a window of another version is turned away with a
sentence on both sides (one line in the server's log); too many connections are refused, saying which limit; a
connection silent for a minute is closed and forgotten; connection numbers are used again, never growing."""

from __future__ import annotations

import logging

from villa.online.client import Player
from villa.online.protocol import Online
from villa.online.server import Server
from villa.online.wire import messages as m
from villa.online.wire.door import Limits
from tests.online.conftest import HELLO, LOOPBACK, Raw, Skipping, connected, pump, run


def test_a_window_of_another_version_is_told_so_and_the_server_says_it_once(server, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="villa.online.wire.door")
    monkeypatch.setattr(m, "GAME", "0.0.1-older")
    old = Player(LOOPBACK, server.port)
    assert run(server, lambda: old.lost, seconds=10)
    assert old.trouble.code is Online.VERSION and old.trouble.values["protocol"] == m.PROTOCOL
    assert old.trouble.values["game"] not in ("0.0.1-older", None) and not old.failed
    assert len([r for r in caplog.records if "version" in r.getMessage()]) == 1
    assert server.visitors == {} and server.door.connections == 0


def test_too_many_connections_are_refused_saying_which_limit():
    server = Server(0, LOOPBACK, limits=Limits(per_address=2, total=3))
    try:
        first = connected(server, 2)
        third = Player(LOOPBACK, server.port)
        assert run(server, lambda: third.lost, seconds=10)
        assert third.trouble.code is Online.FULL and third.trouble.values == {"per_address": 2}
        other = Raw(server.port, source="127.0.0.2")
        other.say(HELLO)
        assert pump(server, [other], lambda: m.Welcome in other.kinds())
        fourth = Raw(server.port, source="127.0.0.3", tls=False)    # refused in the clear, before any handshake
        assert pump(server, [fourth], lambda: fourth.goodbye() is not None)
        assert fourth.goodbye() == (Online.FULL.value, {"total": 3})
        assert all(player.ready for player in first)
    finally:
        server.close()


def test_a_silent_connection_is_closed_and_forgotten_and_its_number_used_again():
    clock = Skipping()
    server = Server(0, LOOPBACK, clock=clock)
    try:
        quiet = Raw(server.port)
        quiet.say(HELLO)
        assert pump(server, [quiet], lambda: m.Welcome in quiet.kinds())
        anna, ben = connected(server, 2)
        assert set(server.visitors) == {0, 1, 2}
        anna.close()
        assert pump(server, [], lambda: set(server.visitors) == {0, 2})
        cleo, = connected(server)
        assert set(server.visitors) == {0, 1, 2}, "the lowest number free is used again"
        clock.skip(61)                                    # a minute with nothing said (a player pings each 15 s)
        assert pump(server, [quiet], lambda: quiet.closed and ben.lost and cleo.lost)
        assert quiet.goodbye() == (Online.SILENT.value, {}) and ben.trouble.code is Online.SILENT
        assert server.visitors == {} and server.door.held()["next id"] == 0, "nothing kept of them"
    finally:
        server.close()
