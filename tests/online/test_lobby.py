"""The lobby: a client opens a room on a server and hears its code; its host (who sits first) sets the game's
plan and begins it; anyone else, or either after the start, is refused with a code; the table shows it all."""

from __future__ import annotations

from dataclasses import replace

from villa import rules
from villa.match import Seat, Strength
from villa.online import protocol
from villa.online.client import Player
from villa.online.protocol import Online, OnlineError
from tests.online.conftest import LOOPBACK, joined, run, three_seats


def _refused(server, player, code: Online) -> bool:
    before = len(player.refusals)
    assert run(server, lambda: len(player.refusals) > before, seconds=10)
    return isinstance(player.refusals[-1], OnlineError) and player.refusals[-1].code is code


def test_a_host_opens_a_room_sets_its_plan_and_begins_and_no_one_else_may(server):
    two_people = replace(three_seats(), seats=(Seat("Seat 1"), Seat("Seat 2")))
    anna = Player(LOOPBACK, server.port)
    assert run(server, lambda: anna.ready, seconds=10)
    anna.open_room(two_people)
    assert run(server, lambda: anna.room is not None, seconds=10)
    code = anna.room_code
    assert protocol.zone_of(code) is not None and server.rooms[code].plan == two_people
    anna.sit("Anna", 0)
    (ben,) = joined(server, code, "")
    ben.sit("Ben", 1)
    assert run(server, lambda: ben.table.get("host") == 0 and len(ben.seats) == 1, seconds=10)
    assert ben.table["started"] is False and ben.plan == two_people and ben.host_seat == 0

    ben.set_plan(three_seats())
    assert _refused(server, ben, Online.NOT_HOST)
    ben.begin()
    assert _refused(server, ben, Online.NOT_HOST)

    family = replace(three_seats(), seats=(Seat("Seat 1"), Seat("Seat 2"), Seat("Cleo", Strength.EASY), Seat("Seat 4")),
                     ruleset=rules.RULE_SETS["family-assigned-tournament"])
    anna.set_plan(family)
    assert run(server, lambda: ben.plan == family, seconds=10)
    assert ben.state.ruleset == family.ruleset and ben.state.players == family.players
    anna.begin()                                          # seat 4 is nobody's yet
    assert _refused(server, anna, Online.EMPTY_SEATS) and anna.refusals[-1].values == {"seats": [3]}
    anna.ask("giveToComputer", 3, "hard")
    assert run(server, lambda: len(ben.table["seats"]) == 4 and ben.table["seats"][3]["computer"] == "hard",
               seconds=10)
    assert not ben.table["started"]                       # the host's room waits for the host
    anna.begin()
    assert run(server, lambda: anna.table.get("started") and ben.state is not None and ben.poses, seconds=10)
    match = server.rooms[code].match
    assert match.setup.players == ("Anna", "Ben", "Cleo", "Computer 1") and match.setup.ruleset == family.ruleset

    anna.set_plan(two_people)
    assert _refused(server, anna, Online.STARTED)
    anna.begin()
    assert _refused(server, anna, Online.STARTED)
    assert server.rooms[code].match is match


def test_a_plan_that_is_no_game_is_refused_in_the_lobby_and_the_room(server, room):
    mallory = Player(LOOPBACK, server.port)
    assert run(server, lambda: mallory.ready, seconds=10)
    mallory.open_room(three_seats())
    assert run(server, lambda: mallory.room is not None, seconds=10)
    mallory.setInterestZones([protocol.LOBBY_ZONE])
    assert run(server, lambda: mallory.lobby is not None, seconds=10)
    mallory.lobby.ask("openRoom", b'{"seats": "everyone"}')
    assert _refused(server, mallory, Online.BAD_PLAN)
    for _ in range(4):
        mallory.lobby.ask("openRoom", protocol.pack_plan(three_seats()))
    assert _refused(server, mallory, Online.SERVER_FULL)       # four rooms from one connection at most
    assert len(server.rooms) == 1 + 4 and not mallory.lost
