"""A whole game online: the server's room plays the match, two players on loopback ask for every move of
theirs and see the villa move; a computer player has the third seat."""

from __future__ import annotations

import time

from direct.task.Task import TaskManager
from panda3d.core import Point3

from villa import rules
from villa.match import FRAME
from villa.match import requests as rq
from villa.online.protocol import Online, OnlineError
from villa.online.server.news import POSES_EVERY
from villa.rules.state import Step
from tests.online.conftest import joined, run


def _person_asked(room, players):
    """A person must act, and their client has heard the state that asks them."""
    state = room.match.state
    return not room.match.busy and room.match.actor in (0, 1) and players[room.match.actor].state == state


def _person_to_move(room, players):
    state = room.match.state
    return not room.match.busy and state.turn.step is Step.START and room.match.actor in (0, 1) \
        and players[room.match.actor].state == state


def _pull_through(server, room, player, seat):
    """The scripted hand: take a column the rules allow and shove it through the villa, unsteadied."""
    column = sorted(rules.grabbable_columns(player.state))[0]
    (x, y, z), _quat = player.poses[column]
    player.request(rq.Take(seat, column, (x, y, z)))
    assert run(server, lambda: room.match.hand is not None, seconds=10)
    for _ in range(60):
        player.request(rq.Aim(seat, (-3 * x, -3 * y, z + 40)))
        run(server, lambda: False, frames=1)
    if not room.match.collapsed:
        player.request(rq.GiveUp(seat))


def test_two_players_and_a_computer_play_a_whole_game(server, room):
    anna, ben = joined(server, room.code, "Anna", "Ben")
    assert anna.seats.keys() == {0} and ben.seats.keys() == {1}
    assert run(server, lambda: anna.table.get("started") and anna.state is not None)
    assert [s["name"] for s in anna.table["seats"]] == ["Anna", "Ben", "Computer"]

    anna.request(rq.Pass(1))                            # for another's seat
    assert run(server, lambda: anna.refusals)
    assert isinstance(anna.refusals[-1], OnlineError) and anna.refusals[-1].code is Online.NOT_YOUR_SEAT

    assert run(server, lambda: _person_to_move(room, (anna, ben)), seconds=120), "the computer player never moved"
    mover, waiter = (anna, ben) if room.match.actor == 0 else (ben, anna)
    waiter.request(rq.Propose(1 - room.match.actor))   # out of turn: the rules' own refusal
    assert run(server, lambda: waiter.refusals)
    assert isinstance(waiter.refusals[-1], rules.RuleError) and waiter.refusals[-1].rule == "not-now"

    seat = room.match.actor
    column = sorted(rules.grabbable_columns(mover.state))[0]
    (x, y, z), _quat = mover.poses[column]
    mover.request(rq.Take(seat, column, (x, y, z)))
    mover.request(rq.GiveUp(seat))                      # it goes back, blocked for the rest of the game
    assert run(server, lambda: column in room.match.state.blocked and not room.match.busy, seconds=60)

    updates = [anna.pose_updates, ben.pose_updates]
    for _turn in range(6):                               # the scripted hands, to the villa's fall
        assert run(server, lambda: room.match.over or _person_asked(room, (anna, ben)), seconds=120)
        if room.match.over:
            break
        seat = room.match.actor
        player = (anna, ben)[seat]
        if rules.is_question(rules.task(player.state)):
            player.request(rq.Answer(seat, False))
            assert run(server, lambda: room.match.actor != seat or room.match.over, seconds=10)
        else:
            _pull_through(server, room, player, seat)
            assert run(server, lambda: room.match.over or not room.match.busy, seconds=60)
    assert run(server, lambda: room.match.over and room.match.villa.settled, seconds=60)
    assert run(server, lambda: anna.state.over and ben.state.over, seconds=10)
    assert anna.state == ben.state == room.match.state
    assert anna.pose_updates > updates[0] + 5 and ben.pose_updates > updates[1] + 5   # both saw the pull

    run(server, lambda: False, frames=POSES_EVERY * 2)   # the last poses of the fall
    at_rest = [anna.pose_updates, ben.pose_updates]
    run(server, lambda: False, frames=60)
    assert [anna.pose_updates, ben.pose_updates] == at_rest      # nothing while the villa rests
    for player in (anna, ben):
        for piece, (pos, _q) in player.poses.items():
            if piece in room.match.villa.nodes:
                assert (Point3(*pos) - room.match.villa.nodes[piece].getPos()).length() < 0.05

    kept = room.store.records
    assert kept and kept[-1].state == room.match.state and kept[-1].state.over
    assert run(server, lambda: anna.finished and ben.finished, seconds=10)    # each keeps the game's replay
    for player in (anna, ben):
        assert player.finished.state == room.match.state and len(player.finished.turns) == len(kept[-1].turns)
    assert [r.turn for r in kept] == sorted({r.turn for r in kept})   # after every settled turn, once


def test_a_server_started_in_a_window_plays_its_rooms_in_real_time(server, room):
    """As a host's game window runs it: the network and the rooms' frames from a task of the window's loop, one
    frame every 1/60 s of real time (never faster)."""
    joined(server, room.code, "Anna", "Ben")
    tasks = TaskManager()
    start, began = room.tick, time.monotonic()
    server.start(tasks)
    end = began + 30
    while room.tick < start + 30 and time.monotonic() < end:
        tasks.step()
        time.sleep(0.001)
    assert room.tick >= start + 30 and time.monotonic() - began >= 30 * FRAME - 0.05
    server.close()
    assert not tasks.getTasksNamed("villa-online-server"), "a server closed leaves no task behind"
    tasks.destroy()


def test_a_dedicated_loop_serves_until_told_and_keeps_to_real_time(server, room):
    anna, ben = joined(server, room.code, "Anna", "Ben")
    start, began = room.tick, time.monotonic()
    server.serve(until=lambda: room.tick >= start + 30 or time.monotonic() > began + 30)
    assert room.tick >= start + 30 and time.monotonic() - began >= 30 * FRAME - 0.05
