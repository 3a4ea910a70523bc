"""Entering a room over and over stalls nobody: sixteen connections from one address flooding a room with a game
in play with `Enter` are held to what their network may cost (they wait, they are not cut), while a player from
another address has every request answered; the room as it stands is built once per change and shared by all who
ask, and a finished game's record once for everyone who comes for it."""

from __future__ import annotations

import threading
import time

import pytest

from villa.match import requests as rq
from villa.online import protocol
from villa.online.protocol import Online
from villa.online.server import Room, Server
from villa.online.wire import messages as m
from villa.online.wire.costs import Budget
from villa.online.wire.door import Limits
from tests.online.conftest import (HELLO, LOOPBACK, Raw, Skipping, joined, one_gone, poll_players, run, to_the_fall,
                                   two_seats)

FLOOD = Budget(time_s=0.05, time_burst_s=0.2, bytes=40_000, bytes_burst=150_000)   # the flooders' network's


class Counted:
    """How often each of the protocol's packers is called (each call a build of what a room tells)."""

    def __init__(self, monkeypatch, *names: str) -> None:
        self.calls = dict.fromkeys(names, 0)
        self.threads: set[bool] = set()     # each build on the main thread (True) or another
        for name in names:
            packer = getattr(protocol, name)

            def counting(*args, _name=name, _packer=packer, **kwargs):
                self.calls[_name] += 1
                self.threads.add(threading.current_thread() is threading.main_thread())
                return _packer(*args, **kwargs)
            monkeypatch.setattr(protocol, name, counting)


def test_an_enter_flood_from_one_address_waits_its_turn_and_is_told_one_snapshot(monkeypatch):
    server = Server(0, LOOPBACK, limits=Limits(network=FLOOD))
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats()))
        anna, ben = joined(server, room.code, "Anna", "Ben")
        assert run(server, lambda: room.match.villa.still and not room.match.busy, seconds=60)
        flooders = [Raw(server.port, source="127.0.0.2") for _ in range(16)]
        for flooder in flooders:
            flooder.say(HELLO)
        built = Counted(monkeypatch, "pack_state", "pack_poses", "pack_table")
        began, asked, said = time.monotonic(), 0, 0
        while time.monotonic() - began < 3.0:
            now = time.monotonic() - began
            while said < now * 80:                      # each of them 80 a second (within the rate of 90)
                for flooder in flooders:
                    flooder.say(m.Enter(room.code))
                said += 1
            if len(anna.refusals) == asked and asked < now * 10:
                anna.request(rq.Pass(1))                # Ben's seat: refused at once, ten times a second
                asked += 1
            server.frame()
            for flooder in flooders:
                flooder.hear()
            poll_players()
        elapsed = time.monotonic() - began
        assert run(server, lambda: len(anna.refusals) == asked, seconds=10), "every one of Anna's asks answered"
        assert all(r.code is Online.NOT_YOUR_SEAT for r in anna.refusals) and not anna.lost and not ben.lost
        assert not any(flooder.closed for flooder in flooders), "they wait while they owe: nobody is cut"
        entered = sum(flooder.kinds().count(m.Entered) for flooder in flooders)
        told = sum(flooder.link.bytes_in for flooder in flooders)
        snapshot = told / max(entered, 1)
        assert 16 <= entered < 16 * said / 2, f"the flood was answered, and held back: {entered} of {16 * said}"
        assert told <= FLOOD.bytes_burst + FLOOD.bytes * elapsed + 16 * 2 * snapshot, "no more than it may cost"
        assert built.calls["pack_state"] <= 1 and built.calls["pack_table"] <= 1 and built.calls["pack_poses"] <= 1, \
            f"the room as it stands built once, for {entered} entries: {built.calls}"
    finally:
        server.close()


@pytest.mark.parametrize("aside", [False, True], ids=["here", "on a thread of its own"])
def test_a_finished_game_s_record_is_built_once_for_everyone_who_comes_for_it(monkeypatch, aside):
    server = Server(0, LOOPBACK, clock=Skipping())
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats(), aside=aside))
        players = joined(server, room.code, "Anna", "Ben")
        late, _token = one_gone(server, room, players)  # a late player: the finished room waits for them
        built = Counted(monkeypatch, "record_parts")
        to_the_fall(server, room, players)
        assert run(server, lambda: players[1 - late].finished is not None, seconds=10)
        comers = [Raw(server.port, source=f"127.0.0.{n}") for n in range(2, 12)]
        for comer in comers:
            comer.say(HELLO, m.Enter(room.code))
        assert run(server, lambda: all(comer.hear() and comer.kinds().count(m.Record) >= 1 for comer in comers),
                   seconds=20)
        assert built.calls["record_parts"] == 1, "built once, when the game ended"
        assert built.threads == {not aside}, "a server (aside) builds it off its frame loop"
        parts = {message.part for comer in comers for message in comer.heard if isinstance(message, m.Record)}
        assert parts, "every one of them was sent it"
    finally:
        server.close()
