"""Rooms strangers cannot hoard, on loopback from several addresses: an address keeps a few rooms nobody has sat
in; a room whose only person left closes after a minute; a room of computer players only plays while someone
watches it, and an address opens one; no handful of addresses takes every room, and a player who comes later
still opens one."""

from __future__ import annotations

import json

from villa.match import MatchSetup, Seat, Strength, layout_named
from villa.online import protocol
from villa.online.protocol import Online
from villa.online.server import Room, Server
from villa.online.server import server as serving
from villa.online.server.room import ALONE_S, NOBODY_S
from villa.online.server.server import LOOK_EVERY_S, ROOMS_EACH
from villa.online.wire import messages as m
from villa.online.wire.door import Limits
from tests.online.conftest import HELLO, LOOPBACK, Kept, Raw, Skipping, connected, pump, run, two_seats

PATIENT = Limits(silent_s=10 * 3600.0, hello_s=10 * 3600.0)    # the clock skips minutes: nobody is silent for that
COMPUTERS = MatchSetup((Seat("Computer 1", Strength.EASY), Seat("Computer 2", Strength.EASY)),
                       layout_named("random", 5), seed=5)


def _server(store=None) -> tuple[Server, Skipping]:
    clock = Skipping()
    return Server(0, LOOPBACK, store=store, limits=PATIENT, clock=clock), clock


def _looked_over(server: Server, clock: Skipping, seconds: float = 0.0) -> None:
    clock.skip(seconds + LOOK_EVERY_S)
    run(server, lambda: False, frames=2)


def _open(server: Server, raw: Raw, plan: MatchSetup = None, sit: bool = False) -> str | tuple[str, dict]:
    """A room asked for by a raw client: its code (entered, and sat in if asked), or the refusal's code and values."""
    answers = len([h for h in raw.heard if isinstance(h, (m.Opened, m.Refused))])
    raw.say(m.OpenRoom(protocol.pack_plan(plan or two_seats())))
    assert pump(server, [raw], lambda: len([h for h in raw.hear() if isinstance(h, (m.Opened, m.Refused))]) > answers)
    answer = [h for h in raw.heard if isinstance(h, (m.Opened, m.Refused))][-1]
    if isinstance(answer, m.Refused):
        return answer.code, json.loads(answer.values)
    if sit:
        seated = raw.kinds().count(m.Seated)
        raw.say(m.Enter(answer.code), m.Sit("Host", 0))
        assert pump(server, [raw], lambda: raw.kinds().count(m.Seated) > seated)
    return answer.code


def test_an_address_keeps_a_few_rooms_nobody_has_sat_in():
    server, clock = _server()
    try:
        hoarder, other = Raw(server.port, source="127.0.0.2"), Raw(server.port, source="127.0.0.3")
        hoarder.say(HELLO)
        other.say(HELLO)
        waiting = [_open(server, hoarder) for _ in range(3)]
        assert all(code in server.rooms for code in waiting)
        assert _open(server, hoarder) == (Online.ROOMS_WAITING.value, {"rooms": 3})
        assert _open(server, other) in server.rooms, "another address opens its own"
        hoarder.say(m.Enter(waiting[0]), m.Sit("Host", 0))
        assert pump(server, [hoarder], lambda: m.Seated in hoarder.kinds())
        assert _open(server, hoarder) in server.rooms, "once someone sits in one, another may be opened"
        _looked_over(server, clock, ALONE_S)
        assert set(server.rooms) & set(waiting) == {waiting[0]}, "the rooms nobody sat in closed after a minute"
    finally:
        server.close()


def test_a_room_whose_only_person_left_closes_after_a_minute_and_one_of_two_waits_ten():
    store = Kept()
    server, clock = _server(store)
    try:
        lone, pair, game = (Raw(server.port, source=f"127.0.0.{n}") for n in (2, 3, 4))
        for raw in (lone, pair, game):
            raw.say(HELLO)
        alone = _open(server, lone, sit=True)
        together = _open(server, pair, sit=True)
        ben = Raw(server.port, source="127.0.0.5")
        ben.say(HELLO, m.Enter(together), m.Sit("Ben", 1))
        assert pump(server, [ben], lambda: m.Seated in ben.kinds())
        versus = MatchSetup((Seat("Host"), Seat("Computer", Strength.EASY)), layout_named("random", 6), seed=6)
        played = _open(server, game, plan=versus, sit=True)
        game.say(m.Begin())
        assert run(server, lambda: server.rooms[played].match is not None, seconds=30)
        for raw in (lone, pair, ben, game):
            raw.close()
        assert pump(server, [], lambda: not server.visitors)
        _looked_over(server, clock, ALONE_S - 10)
        assert {alone, together, played} <= set(server.rooms)
        kept = len(store.records)
        _looked_over(server, clock, 11)
        assert alone not in server.rooms and played not in server.rooms, "their only person left a minute ago"
        assert len(store.records) > kept and store.seats["room"] == played, "the game under way kept, to come back to"
        assert together in server.rooms, "two sat here: it waits for them as before"
        _looked_over(server, clock, NOBODY_S)
        assert together not in server.rooms
    finally:
        server.close()


def test_a_room_of_computer_players_plays_only_while_watched_and_an_address_opens_one():
    server, clock = _server()
    try:
        watcher = Raw(server.port, source="127.0.0.2")
        watcher.say(HELLO)
        code = _open(server, watcher, plan=COMPUTERS)
        watcher.say(m.Enter(code))
        room = server.rooms[code]
        assert run(server, lambda: room.tick > 30, seconds=30), "watched, it plays"
        assert _open(server, watcher, plan=COMPUTERS) == (Online.ONE_WATCHED.value, {"rooms": 1})
        elsewhere = Raw(server.port, source="127.0.0.3")
        elsewhere.say(HELLO)
        assert _open(server, elsewhere, plan=COMPUTERS) in server.rooms, "another address has its own"
        watcher.say(m.Leave())
        assert run(server, lambda: not room.audience, seconds=10)
        tick = room.tick
        run(server, lambda: False, frames=60)
        assert room.tick == tick, "nobody watches: nothing is played"
        watcher.say(m.Enter(code))
        assert run(server, lambda: room.tick > tick + 30, seconds=30), "watched again, it plays on"
        watcher.say(m.Leave())
        assert run(server, lambda: not room.audience, seconds=10)
        _looked_over(server, clock, ALONE_S)
        assert code not in server.rooms, "unwatched for a minute, it closed"
        assert _open(server, watcher, plan=COMPUTERS) in server.rooms, "and the address may open one again"
    finally:
        server.close()


def test_a_handful_of_addresses_cannot_take_every_room_and_a_later_player_still_opens_one():
    server, _clock = _server()
    try:
        refusals = []
        for address in range(2, 10):                     # eight addresses, three connections each, four rooms each
            for _ in range(3):
                hoarder = Raw(server.port, source=f"127.0.0.{address}")
                hoarder.say(HELLO)
                for _ in range(4):
                    opened = _open(server, hoarder, sit=True)
                    if isinstance(opened, tuple):
                        refusals.append(opened)
        assert len(server.rooms) == 8 * ROOMS_EACH and refusals[0] == (Online.ROOMS_HERE.value, {"rooms": ROOMS_EACH})
        later, = connected(server)
        later.open_room(two_seats())
        assert run(server, lambda: later.room is not None, seconds=10), later.refusals
    finally:
        server.close()


def test_the_last_rooms_go_only_to_addresses_that_hold_none(monkeypatch):
    monkeypatch.setattr(serving, "MAX_ROOMS", 24)
    monkeypatch.setattr(serving, "RESERVED", 4)
    server, _clock = _server()
    try:
        opened = {}
        for address in (2, 3, 4, 5):
            raws = [Raw(server.port, source=f"127.0.0.{address}") for _ in range(3)]
            opened[address] = 0
            for raw in raws:
                raw.say(HELLO)
                for _ in range(4):
                    if isinstance(_open(server, raw, sit=True), str):
                        opened[address] += 1
        assert opened == {2: 10, 3: 10, 4: 1, 5: 1} and len(server.rooms) == 22
        late = Raw(server.port, source="127.0.0.6")
        late.say(HELLO)
        assert isinstance(_open(server, late), str) and len(server.rooms) == 23
    finally:
        server.close()
