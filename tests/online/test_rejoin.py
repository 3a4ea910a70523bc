"""Nothing lost: a player whose connection drops mid-pull takes their seat back with its token and the
pull goes on; a seat left longer than the wait goes to a computer player; a server closed mid-game takes
the game up again from its autosave, and the players rejoin."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from direct.task.TaskManagerGlobal import taskMgr

from villa import rules
from villa.app import joining
from villa.app.logs import PlayerError
from villa.app.online import OnlinePlay
from villa.match import Record
from villa.online import loop, protocol
from villa.online.client import Player
from villa.online.remote import RemoteMatch
from villa.online.rooms import REJOIN_S, Room
from villa.online.server import Server
from villa.presentation.preferences import Settings
from villa.presentation import words
from villa.rules.state import Step
from tests.online.conftest import LOOPBACK, Kept, free_port, joined, run, three_seats


def _a_person_to_move(server, room, players) -> int:
    assert run(server, lambda: not room.match.busy and room.match.state.turn.step is Step.START
               and room.match.actor in (0, 1) and players[room.match.actor].state == room.match.state, seconds=120)
    return room.match.actor


def _rejoined(server, code: str, token: str) -> Player:
    player = Player(LOOPBACK, server.port)
    assert run(server, lambda: player.ready, seconds=10)
    player.enter(code)
    assert run(server, lambda: player.room is not None, seconds=10)
    player.rejoin(token)
    assert run(server, lambda: player.seats and player.poses, seconds=10)   # and the villa as it stands
    return player


def test_a_player_dropped_mid_pull_rejoins_their_seat_and_the_pull_goes_on(server):
    plan = three_seats()
    room = Room(protocol.new_room_code(), replace(plan, seats=plan.seats[:2]))   # two people: one of them starts
    server.open(room)
    players = joined(server, room.code, "Anna", "Ben")
    seat = _a_person_to_move(server, room, players)
    mover = players[seat]
    column = sorted(rules.grabbable_columns(mover.state))[0]
    (x, y, z), _quat = mover.poses[column]
    mover.ask("take", seat, column, x, y, z, False)
    for _ in range(10):
        mover.ask("aim", seat, x * 1.1, y * 1.1, z)
        server.frame()
    assert room.match.hand is not None
    token = mover.seats[seat]

    mover.disconnect()                                   # killed: no goodbye, the socket just closes
    assert run(server, lambda: not room.table()["seats"][seat]["here"], seconds=10)
    assert run(server, lambda: players[1 - seat].table["seats"][seat]["here"] is False, seconds=10)   # seen away
    assert room.match.hand is not None and room.match.actor == seat    # the game waits for them
    other = RemoteMatch(players[1 - seat])
    assert other.away(seat) and not other.away(1 - seat)
    assert words.waiting_for(other.state, seat, other.away(seat)) == f"Waiting for {('Anna', 'Ben')[seat]} to come back"

    back = _rejoined(server, room.code, token)
    assert back.seats == {seat: token}
    assert run(server, lambda: not other.away(seat), seconds=10)
    back.ask("aim", seat, x * 1.2, y * 1.2, z)
    back.ask("giveUp", seat)
    assert run(server, lambda: column in room.match.state.blocked, seconds=10)
    assert not back.refusals


def test_a_wrong_token_or_room_code_sits_no_one(server, room):
    anna, ben = joined(server, room.code, "Anna", "")
    ben.rejoin("not-a-token")
    ben.ask("rejoin", "AAAAA", anna.seats[0])
    ben.ask("sit", "AAAAA", "Ben", 1)
    ben.sit("Anna ", 0)
    assert run(server, lambda: len(ben.refusals) == 4, seconds=10)
    assert [r.code for r in ben.refusals] == [protocol.Online.UNKNOWN_TOKEN, protocol.Online.WRONG_ROOM,
                                              protocol.Online.WRONG_ROOM, protocol.Online.SEAT_TAKEN]
    assert not ben.seats and room.sitters[0].client == anna.doIdBase


def test_a_seat_left_longer_than_the_wait_goes_to_a_computer_player(server):
    now = [0.0]
    room = Room(protocol.new_room_code(), three_seats(), clock=lambda: now[0])
    server.open(room)
    anna, ben = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: room.match is not None)
    ben.disconnect()
    assert run(server, lambda: room.sitters[1].client is None, seconds=10)
    now[0] += REJOIN_S - 1
    server.frame()
    assert not room.match.setup.seats[1].is_computer
    now[0] += 2
    server.frame()
    assert room.match.setup.seats[1].is_computer and 1 not in room.sitters
    assert room.match.setup.seats[1].name == "Ben"     # the rules' player stays who they were
    assert run(server, lambda: anna.table["seats"][1]["computer"] is not None, seconds=10)


def test_a_server_closed_mid_game_takes_it_up_from_its_autosave(server, room):
    players = joined(server, room.code, "Anna", "Ben")
    seat = _a_person_to_move(server, room, players)      # the computer player's turn was kept
    kept: Kept = room.kept
    assert kept.records and kept.records[-1].state == room.match.state
    record: Record = kept.records[-1]
    tokens = {n: p.seats[n] for n, p in enumerate(players)}
    server.close()

    again = Server(free_port(), LOOPBACK)
    try:
        room = Room.taken_up(record, kept.seats, keep=Kept())
        again.open(room)
        assert room.match.state == record.state and room.code == kept.seats["room"]
        mover = _rejoined(again, room.code, tokens[seat])
        assert run(again, lambda: mover.state == record.state, seconds=10)
        column = sorted(rules.grabbable_columns(mover.state))[0]
        (x, y, z), _quat = mover.poses[column]
        mover.ask("take", seat, column, x, y, z, False)
        mover.ask("giveUp", seat)
        assert run(again, lambda: column in room.match.state.blocked, seconds=10)
        assert not mover.refusals
    finally:
        again.close()



class _Window:
    """What `OnlinePlay` asks of the window's `Front` to keep a seat: the settings, and the loop's tasks."""

    def __init__(self) -> None:
        self.settings = Settings()
        self.stage = SimpleNamespace(task_mgr=taskMgr)

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings


def test_a_join_from_the_command_line_keeps_its_seat_and_takes_it_back_after_a_lost_connection(server):
    plan = three_seats()
    room = Room(protocol.new_room_code(), replace(plan, seats=plan.seats[:2]))
    server.open(room)
    server.start()
    window = _Window()
    ann = joining.sit_down(LOOPBACK, server.port, room.code, "Ann")
    ben = joining.sit_down(LOOPBACK, server.port, room.code, "Ben")
    online = OnlinePlay(window)
    online.adopt(ben, joining.address(LOOPBACK, server.port))   # as `villa-paletti --join` does
    assert loop.run_until(lambda: window.settings.kept_seat is not None, 10)
    kept = window.settings.kept_seat
    assert (kept.address, kept.code, kept.seat, kept.token) == (f"{LOOPBACK}:{server.port}", room.code, 1, ben.seats[1])

    ben.disconnect()                                      # the connection lost: the seat waits for its token
    assert loop.run_until(lambda: room.sitters[1].client is None, 10)
    with pytest.raises(PlayerError, match="no free seat"):
        joining.sit_down(LOOPBACK, server.port, room.code, "Ben")                # without the kept seat
    back = joining.sit_down(LOOPBACK, server.port, room.code, "Ben", kept=kept)
    assert back.seats == {1: kept.token} and room.sitters[1].client == back.doIdBase
    assert loop.run_until(lambda: back.poses and back.state is not None, 10), "and sees the game as it stands"
    gone = replace(kept, token="not-a-token")             # a token the server no longer knows: no seat taken back
    with pytest.raises(PlayerError, match="no free seat"):
        joining.sit_down(LOOPBACK, server.port, room.code, "Ben", kept=gone)
    assert set(ann.seats) == {0}
    online.close()


def test_the_host_gives_a_left_seat_to_a_computer_player_and_the_screens_wait_no_more(server):
    room = Room(protocol.new_room_code(), three_seats())
    server.open(room)
    anna, ben = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: room.match is not None and anna.state is not None and anna.poses)
    annas = RemoteMatch(anna)
    ben.disconnect()
    assert run(server, lambda: annas.away(1), seconds=10)
    assert anna.host_seat == 0 and not annas.seat(1).is_computer
    anna.ask("giveToComputer", 1, "medium")                 # the pause menu's "A computer plays for Ben"
    assert run(server, lambda: room.match.setup.seats[1].is_computer and annas.seat(1).is_computer, seconds=10)
    assert not annas.away(1) and annas.seat(1).name == "Ben" and not anna.refusals
