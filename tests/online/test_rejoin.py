"""Nothing lost: a player whose connection drops mid-pull takes their seat back with its token and the pull goes
on; a seat left longer than the wait goes to a computer player; a server closed mid-game takes the game up again
from its autosave, and the players rejoin."""

from __future__ import annotations

import threading
from dataclasses import replace
from types import SimpleNamespace

import pytest
from direct.task.TaskManagerGlobal import taskMgr

from villa import rules
from villa.app import joining
from villa.app.logs import PlayerError
from villa.app.online import OnlinePlay
from villa.match import Record, Strength
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import OnlineMatch, Player
from villa.online.protocol import Online
from villa.online.server import REJOIN_S, Room, Server
from villa.presentation import words
from villa.presentation.preferences import Settings
from villa.rules.state import Step
from tests.online.conftest import (LOOPBACK, Kept, connected, joined, killed, players_until, refused, run, three_seats,
                                   two_seats)


def _a_person_to_move(server, room, players) -> int:
    assert run(server, lambda: not room.match.busy and room.match.state.turn.step is Step.START
               and room.match.actor in (0, 1) and players[room.match.actor].state == room.match.state, seconds=120)
    return room.match.actor


def _rejoined(server, code: str, token: str) -> Player:
    (player,) = connected(server)
    player.rejoin(token, code)
    assert run(server, lambda: player.seats and (player.poses or not player.table.get("started")), seconds=10), \
        "the seat, and the villa as it stands"
    return player


def test_a_player_dropped_mid_pull_rejoins_their_seat_and_the_pull_goes_on(server):
    room = server.open(Room(protocol.new_room_code(), two_seats()))      # two people: one of them starts
    players = joined(server, room.code, "Anna", "Ben")
    seat = _a_person_to_move(server, room, players)
    mover = players[seat]
    column = sorted(rules.grabbable_columns(mover.state))[0]
    (x, y, z), _quat = mover.poses[column]
    mover.request(rq.Take(seat, column, (x, y, z)))
    for _ in range(10):
        mover.request(rq.Aim(seat, (x * 1.1, y * 1.1, z)))
        run(server, lambda: False, frames=1)
    assert run(server, lambda: room.match.hand is not None, seconds=10)
    token = mover.seats[seat]

    killed(mover)
    assert run(server, lambda: not room.table()["seats"][seat]["here"], seconds=10)
    assert run(server, lambda: players[1 - seat].table["seats"][seat]["here"] is False, seconds=10)   # seen away
    assert room.match.hand is not None and room.match.actor == seat    # the game waits for them
    other = OnlineMatch(players[1 - seat])
    assert other.away(seat) and not other.away(1 - seat)
    assert words.waiting_for(other.state, seat, other.away(seat)) == f"Waiting for {('Anna', 'Ben')[seat]} to come back"

    back = _rejoined(server, room.code, token)
    assert back.seats.keys() == {seat} and back.seats[seat] != token, "a new token at each rejoin"
    assert run(server, lambda: not other.away(seat), seconds=10)
    back.request(rq.Aim(seat, (x * 1.2, y * 1.2, z)))
    back.request(rq.GiveUp(seat))
    assert run(server, lambda: column in room.match.state.blocked, seconds=10)
    assert not back.refusals


def test_a_wrong_token_or_room_code_sits_no_one(server, room):
    anna, ben = joined(server, room.code, "Anna", "")
    ben.rejoin("not-a-token")
    assert refused(server, ben, Online.UNKNOWN_TOKEN)
    ben.rejoin(anna.seats[0], "AAAAA")
    assert refused(server, ben, Online.WRONG_ROOM)
    ben.sit("Anna ", 0)
    assert refused(server, ben, Online.SEAT_TAKEN)
    assert not ben.seats and ben.room == room.code and room.seating.connection(0) is not None


def test_the_old_token_is_worth_nothing_once_its_player_is_back(server, room):
    (anna,) = joined(server, room.code, "Anna")
    first = anna.seats[0]
    killed(anna)
    back = _rejoined(server, room.code, first)
    second = back.seats[0]
    (mallory,) = connected(server)
    mallory.rejoin(first, room.code)                     # the token seen before, by anyone
    assert refused(server, mallory, Online.UNKNOWN_TOKEN)
    assert not mallory.seats and room.seating.sitters[0].token == second and not back.lost


def test_a_seat_left_longer_than_the_wait_goes_to_a_computer_player(server):
    now = [0.0]
    room = server.open(Room(protocol.new_room_code(), three_seats(), clock=lambda: now[0]))
    anna, ben = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: room.match is not None)
    killed(ben)
    assert run(server, lambda: room.seating.sitters[1].client is None, seconds=10)
    now[0] += REJOIN_S - 1
    run(server, lambda: False, frames=1)
    assert not room.match.setup.seats[1].is_computer
    now[0] += 2
    run(server, lambda: False, frames=1)
    assert room.match.setup.seats[1].is_computer and 1 not in room.seating.sitters
    assert room.match.setup.seats[1].name == "Ben"     # the rules' player stays who they were
    assert run(server, lambda: anna.table["seats"][1]["computer"] is not None, seconds=10)


def test_a_server_closed_mid_game_takes_it_up_from_its_autosave_and_its_players_come_back_by_themselves(server, room):
    players = joined(server, room.code, "Anna", "Ben")
    seat = _a_person_to_move(server, room, players)      # the computer player's turn was kept
    kept: Kept = room.store
    assert kept.records and kept.records[-1].state == room.match.state
    record: Record = kept.records[-1]
    port = server.port
    server.close()
    assert players_until(lambda: all(p.rejoining is not None for p in players))
    assert all(p.lost_why.code is Online.CLOSING and not p.lost for p in players), "they look for the game again"
    assert players_until(lambda: all(p.next_try_in and p.next_try_in > 0.4 for p in players), 5), \
        "nobody answers there now: tried again in a while"

    again = Server(port, LOOPBACK, identity=server.tls.identity)    # started again, on its port, with its certificate
    try:
        room = again.open(Room.taken_up(record, kept.seats, keep=Kept()))
        assert room.match.state == record.state and room.code == kept.seats["room"]
        assert run(again, lambda: all(p.came_back == 1 and p.ready and p.seats for p in players), seconds=30)
        mover = players[seat]
        assert run(again, lambda: mover.state == record.state, seconds=10)
        column = sorted(rules.grabbable_columns(mover.state))[0]
        (x, y, z), _quat = mover.poses[column]
        mover.request(rq.Take(seat, column, (x, y, z)))
        mover.request(rq.GiveUp(seat))
        assert run(again, lambda: column in room.match.state.blocked, seconds=10)
        assert not mover.refusals
    finally:
        again.close()


def test_the_host_gives_a_left_seat_to_a_computer_player_and_the_screens_wait_no_more(server):
    room = server.open(Room(protocol.new_room_code(), three_seats()))
    anna, ben = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: room.match is not None and anna.state is not None and anna.poses)
    annas = OnlineMatch(anna)
    killed(ben)
    assert run(server, lambda: annas.away(1), seconds=10)
    assert anna.host_seat == 0 and not annas.seat(1).is_computer
    anna.give_to_computer(1, Strength.MEDIUM)               # the pause menu's "A computer plays for Ben"
    assert run(server, lambda: room.match.setup.seats[1].is_computer and annas.seat(1).is_computer, seconds=10)
    assert not annas.away(1) and annas.seat(1).name == "Ben" and not anna.refusals


# --- a seat taken from the command line ---------------------------------------------------------------

class _Window:
    """What `OnlinePlay` asks of the window's `Front` to keep a seat: the settings, the loop's tasks, and whether
    it speaks TLS."""

    def __init__(self) -> None:
        self.settings = Settings()
        self.stage = SimpleNamespace(task_mgr=taskMgr)
        self.insecure = False

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings


@pytest.fixture
def served(server):
    """The server in a thread of its own, as a dedicated one serves (the command line's loops poll only their
    player)."""
    stop = threading.Event()
    thread = threading.Thread(target=server.serve, kwargs={"until": stop.is_set}, daemon=True)
    thread.start()
    yield server
    stop.set()
    thread.join(10)


def _until(done, seconds: float = 10.0) -> bool:
    return joining._until(SimpleNamespace(poll=taskMgr.step), done, seconds)


def test_a_join_from_the_command_line_keeps_its_seat_and_takes_it_back_after_a_lost_connection(served, monkeypatch,
                                                                                              tmp_path):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))       # where the window keeps the servers' certificates
    room = Room(protocol.new_room_code(), two_seats())
    served.open(room)
    window = _Window()
    ann = joining.sit_down(LOOPBACK, served.port, room.code, "Ann")
    ben = joining.sit_down(LOOPBACK, served.port, room.code, "Ben")
    online = OnlinePlay(window)
    online.adopt(ben, joining.address(LOOPBACK, served.port))   # as `villa-paletti --join` does
    try:
        assert _until(lambda: window.settings.kept_seat is not None)
        kept = window.settings.kept_seat
        assert (kept.address, kept.code, kept.seat, kept.token) == (f"{LOOPBACK}:{served.port}", room.code, 1,
                                                                    ben.seats[1])
        killed(ben)                                       # the connection lost: the seat waits for its token
        assert _until(lambda: room.seating.connection(1) is None)
        with pytest.raises(PlayerError, match="no free seat"):
            joining.sit_down(LOOPBACK, served.port, room.code, "Ben")               # without the kept seat
        back = joining.sit_down(LOOPBACK, served.port, room.code, "Ben", kept=kept)
        assert back.seats.keys() == {1} and room.seating.connection(1) is not None
        assert _until(lambda: back.poll() or back.poses and back.state is not None), "it sees the game as it stands"
        gone = replace(kept, token="not-a-token")         # a token the server no longer knows: no seat taken back
        with pytest.raises(PlayerError, match="no free seat"):
            joining.sit_down(LOOPBACK, served.port, room.code, "Ben", kept=gone)
        assert set(ann.seats) == {0}
    finally:
        online.close()
        for player in (ann, ben):
            player.close()
