"""Nothing grows without end: a finished room closes once every player has its record (or after ten minutes for
a late one, who gets it on coming back); a room nobody is in for ten minutes is kept and closed, and taken up
again when a player comes back with a token; whatever a connection held is freed when it goes."""

from __future__ import annotations

import gc
import weakref

from villa import rules
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import Player
from villa.online.server import Room, Server
from villa.online.server.room import NOBODY_S, RECORD_KEPT_S
from villa.online.server.server import LOOK_EVERY_S
from villa.online.wire.door import Limits
from tests.online.conftest import LOOPBACK, Kept, Skipping, connected, joined, killed, pump, run, two_seats
from tests.online.conftest import one_gone as _one_gone
from tests.online.conftest import to_the_fall as _to_the_fall

PATIENT = Limits(silent_s=10 * 3600.0, hello_s=10 * 3600.0)    # the clock skips minutes: nobody is silent for that


def _server(store=None) -> tuple[Server, Skipping]:
    clock = Skipping()
    return Server(0, LOOPBACK, store=store, limits=PATIENT, clock=clock), clock


def _looked_over(server: Server, clock: Skipping, seconds: float = 0.0) -> None:
    """The clock on by `seconds`, and the server's look over its rooms' lives."""
    clock.skip(seconds + LOOK_EVERY_S)
    run(server, lambda: False, frames=2)


def test_a_finished_room_closes_once_every_player_has_its_record():
    server, clock = _server()
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), clock=clock))
        players = joined(server, room.code, "Anna", "Ben")
        _to_the_fall(server, room, players)
        assert run(server, lambda: all(p.finished for p in players), seconds=10)
        _looked_over(server, clock)
        assert room.code not in server.rooms and all(v.room is None for v in server.visitors.values())
        assert all(p.ready for p in players), "the players stay, to leave when they like"
    finally:
        server.close()


def test_a_finished_room_waits_ten_minutes_for_a_late_player_who_gets_the_record_on_coming_back():
    server, clock = _server()
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), clock=clock))
        players = joined(server, room.code, "Anna", "Ben")
        late, token = _one_gone(server, room, players)
        _to_the_fall(server, room, players)
        _looked_over(server, clock, RECORD_KEPT_S - 60)
        assert room.code in server.rooms, "a player has not had the record yet"
        back, = connected(server)
        back.rejoin(token, room.code)
        assert run(server, lambda: back.finished is not None, seconds=10)
        assert back.finished.state == room.match.state and back.seats.keys() == {late}
        _looked_over(server, clock)
        assert room.code not in server.rooms, "now everyone has it"
    finally:
        server.close()


def test_a_finished_room_closes_after_ten_minutes_whoever_never_came_back():
    server, clock = _server()
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), clock=clock))
        players = joined(server, room.code, "Anna", "Ben")
        _one_gone(server, room, players)
        _to_the_fall(server, room, players)
        _looked_over(server, clock, RECORD_KEPT_S - 60)
        assert room.code in server.rooms
        _looked_over(server, clock, 61)
        assert room.code not in server.rooms
    finally:
        server.close()


def test_a_room_nobody_is_in_for_ten_minutes_is_kept_closed_and_taken_up_when_a_player_comes_back():
    store = Kept()
    server, clock = _server(store)
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), keep=store, clock=clock))
        players = joined(server, room.code, "Anna", "Ben")
        assert run(server, lambda: not room.match.busy and room.match.actor in (0, 1), seconds=30)
        seat = room.match.actor
        settled = room.match.state
        column = sorted(rules.grabbable_columns(settled))[0]
        players[seat].request(rq.Take(seat, column))          # a turn under way when everyone goes
        assert run(server, lambda: room.match.state.turn.column == column, seconds=10)
        tokens = [p.seats[n] for n, p in enumerate(players)]
        for player in players:
            player.close()
        assert run(server, lambda: not room.seating.anyone_here, seconds=10)
        _looked_over(server, clock, NOBODY_S - 60)
        assert room.code in server.rooms
        kept = len(store.records)
        _looked_over(server, clock, 61)
        assert room.code not in server.rooms and len(store.records) == kept + 1, "kept, and closed"
        assert store.records[-1].state == settled, "as of its last settled turn"

        back, = connected(server)
        back.rejoin(tokens[seat], room.code)
        assert run(server, lambda: back.seats and back.poses and back.state is not None, seconds=10)
        again = server.rooms[room.code]
        assert again is not room and back.state == settled and again.match.state == settled
        assert back.seats.keys() == {seat} and back.seats[seat] != tokens[seat]
        back.request(rq.Take(seat, column))                  # and the turn is played again from its start
        assert run(server, lambda: again.match.state.turn.column == column, seconds=10)
    finally:
        server.close()


def test_whatever_a_connection_held_is_freed_when_it_goes():
    server, clock = _server(Kept())
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), keep=Kept(), clock=clock))
        players = joined(server, room.code, "Anna", "Ben")
        watchers = joined(server, room.code, "", "")
        host, = connected(server)
        host.open_room(two_seats(4))                         # a room of its own, never begun
        assert run(server, lambda: host.room is not None, seconds=10)
        host.sit("Host", 0)
        players[room.match.actor].request(rq.Take(room.match.actor, "not-a-column"))   # counted for its echo
        assert run(server, lambda: host.seats and players[room.match.actor].refusals, seconds=10)
        assert len(server.visitors) == 5 and room.audience

        killed(players[0])
        for player in (players[1], *watchers, host):
            player.close()
        assert pump(server, [], lambda: server.visitors == {} and server.door.connections == 0)
        assert room.audience == set() and room._done == {} and not room.seating.anyone_here
        assert pump(server, [], lambda: all(count == 0 for count in server.door.held().values()))
        _looked_over(server, clock, NOBODY_S + 1)
        assert server.rooms == {}, "every room left alone closed (the game under way kept)"
        assert len(server.tries) == 0
    finally:
        server.close()


def test_a_room_the_server_was_started_with_waits_for_its_players_as_long_as_it_runs():
    server, clock = _server()
    try:
        standing = server.open(Room(protocol.new_room_code(), two_seats(), clock=clock))    # no host to wait for
        hosted = server.open(Room(protocol.new_room_code(), two_seats(4), clock=clock, waits_for_host=True))
        _looked_over(server, clock, NOBODY_S + 1)
        assert standing.code in server.rooms and hosted.code not in server.rooms
        players = joined(server, standing.code, "Anna", "Ben")
        assert run(server, lambda: standing.match is not None and all(p.state for p in players), seconds=10)
    finally:
        server.close()


def test_a_room_closed_is_freed_at_once_with_its_game_and_villa():
    """Nothing a closed room held holds it: it goes as soon as the server lets go of it, its villa's world with
    it, without waiting for Python's collection of cycles (a server closing room after room would grow by worlds
    until that came round)."""
    server, clock = _server(Kept())
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), keep=Kept(), clock=clock))
        players = joined(server, room.code, "Anna", "Ben")
        assert run(server, lambda: room.match is not None and not room.match.busy, seconds=30)
        watcher = Player(LOOPBACK, server.port)          # one more who enters: the room as it stands, built and kept
        assert run(server, lambda: watcher.ready, seconds=10)
        watcher.enter(room.code)
        assert run(server, lambda: watcher.villas > 0, seconds=10)
        players.append(watcher)
        for player in players:
            player.close()
        assert pump(server, [], lambda: not server.visitors)
        gone = [weakref.ref(room), weakref.ref(room.match), weakref.ref(room.match.villa)]
        del room
        gc.disable()
        try:
            _looked_over(server, clock, NOBODY_S + 1)
            assert server.rooms == {} and [ref() for ref in gone] == [None, None, None]
        finally:
            gc.enable()
    finally:
        server.close()
