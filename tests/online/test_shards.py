"""A server whose rooms are played by an authority in a process of its own (a shard), on the same router:
the players neither know nor care; they open a room in the lobby, sit, and see the game in play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from villa.match import Seat
from villa.online.client import Player
from villa.online.server import Server
from tests.online.conftest import LOOPBACK, free_port, joined, run, three_seats


@pytest.fixture
def sharded():
    server = Server(free_port(), LOOPBACK, shards=1)
    yield server
    server.close()


def test_a_room_opened_in_the_lobby_is_played_by_another_process_and_its_players_see_it(sharded):
    anna = Player(LOOPBACK, sharded.port)
    assert run(sharded, lambda: anna.ready, seconds=10)
    anna.open_room(replace(three_seats(), seats=(Seat("Seat 1"), Seat("Seat 2"))))
    assert run(sharded, lambda: anna.room is not None, seconds=30)
    assert sharded.rooms == {} and sharded.shards[0].rooms == {anna.room_code}
    anna.sit("Anna", 0)
    (ben,) = joined(sharded, anna.room_code, "")
    ben.sit("Ben", 1)
    assert run(sharded, lambda: ben.table.get("host") == 0 and ben.seats, seconds=10)
    anna.begin()
    assert run(sharded, lambda: ben.table.get("started") and ben.state is not None and ben.poses, seconds=30)
    ticks = ben.state, len(sharded.shards[0].frame_times())
    assert ticks[1] > 0                      # it plays in real time over there
    ben.leave()
    assert run(sharded, lambda: anna.table["seats"][1]["here"] is False, seconds=10)   # it heard Ben go
