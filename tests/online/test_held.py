"""The player's own held column, over the network: drawn at the pointer before the server has heard the aim,
while the other player sees it move only as the server moves it; a refused take draws nothing ahead."""

from __future__ import annotations

from villa import rules
from villa.match import requests as rq
from villa.online import protocol
from villa.online.server import Room
from villa.rules.state import Step
from tests.online.conftest import joined, run, two_seats


def test_the_own_held_column_follows_the_pointer_at_once_and_no_one_elses_does(server):
    room = server.open(Room(protocol.new_room_code(), two_seats()))
    players = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: not room.match.busy and room.match.state.turn.step is Step.START
               and all(p.state == room.match.state and p.poses for p in players), seconds=60)
    seat = room.match.actor
    mover, waiter = players[seat], players[1 - seat]
    column = sorted(rules.grabbable_columns(mover.state))[0]
    (x, y, z), _quat = mover.poses[column]

    waiter.request(rq.Take(1 - seat, column, (x, y, z)))     # not asked: refused, and nothing drawn ahead
    assert run(server, lambda: waiter.refusals, seconds=10) and waiter.smoothing.held is None
    mover.request(rq.Take(seat, column, (x, y, z)))
    mover.request(rq.Aim(seat, (x * 1.5, y * 1.5, z)))
    drawn = mover.smoothing.pose(column, 0.0)                # no server frame since
    assert drawn[0] == (x * 1.5, y * 1.5, z) and room.match.hand is None
    assert waiter.smoothing.pose(column, 0.0)[0] == (x, y, z)
    assert run(server, lambda: room.match.hand is not None and waiter.poses[column][0] != (x, y, z), seconds=10)
    assert mover.smoothing.held is not None and not mover.refusals
    mover.request(rq.GiveUp(seat))                           # the column goes back: the hand lets go
    assert mover.smoothing.held is None
