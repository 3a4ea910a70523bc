"""The lobby: a client opens a room on a server and hears its code; its host (who sits first) sets the game's
plan, the turn clock, sends a player away, gives seats to computers and begins it; anyone else, or any of it
after the start, is refused with a code; the table shows it all."""

from __future__ import annotations

import json
from dataclasses import replace

from villa import rules
from villa.match import Seat, Strength
from villa.online import protocol
from villa.online.protocol import Online
from villa.online.server.server import OPENED_EACH, PLANS_EACH_MINUTE
from villa.online.wire import messages as m
from tests.online.conftest import HELLO, Raw, connected, joined, pump, refused, run, three_seats, two_seats


def test_a_host_opens_a_room_sets_its_plan_and_begins_and_no_one_else_may(server):
    plan = two_seats()
    (anna,) = connected(server)
    anna.open_room(plan)
    assert run(server, lambda: anna.room is not None, seconds=10)
    code = anna.room_code
    assert server.rooms[code].plan == plan
    anna.sit("Anna", 0)
    (ben,) = joined(server, code, "")
    ben.sit("Ben", 1)
    assert run(server, lambda: ben.table.get("host") == 0 and len(ben.seats) == 1, seconds=10)
    assert ben.table["started"] is False and ben.plan == plan and ben.host_seat == 0

    ben.set_plan(three_seats())
    assert refused(server, ben, Online.NOT_HOST)
    ben.begin()
    assert refused(server, ben, Online.NOT_HOST)
    ben.set_clock(60)
    assert refused(server, ben, Online.NOT_HOST)

    family = replace(three_seats(), seats=(Seat("Seat 1"), Seat("Seat 2"), Seat("Cleo", Strength.EASY), Seat("Seat 4")),
                     ruleset=rules.RULE_SETS["family-assigned-tournament"])
    anna.set_plan(family)
    assert run(server, lambda: ben.plan == family, seconds=10)
    assert ben.state.ruleset == family.ruleset and ben.state.players == family.players
    anna.set_clock(100)
    assert run(server, lambda: ben.table.get("clock") == 120, seconds=10), "the nearest of the clock's choices"
    anna.begin()                                          # seat 4 is nobody's yet
    assert refused(server, anna, Online.EMPTY_SEATS) and anna.refusals[-1].values == {"seats": [3]}
    anna.give_to_computer(3, Strength.HARD)
    assert run(server, lambda: len(ben.table["seats"]) == 4 and ben.table["seats"][3]["computer"] == "hard",
               seconds=10)
    assert not ben.table["started"]                       # the host's room waits for the host
    anna.begin()
    assert run(server, lambda: anna.table.get("started") and ben.state is not None and ben.poses, seconds=10)
    match = server.rooms[code].match
    assert match.setup.players == ("Anna", "Ben", "Cleo", "Computer 1") and match.setup.ruleset == family.ruleset

    anna.set_plan(two_seats())
    assert refused(server, anna, Online.STARTED)
    anna.begin()
    assert refused(server, anna, Online.STARTED)
    anna.send_away(1)
    assert refused(server, anna, Online.STARTED)
    assert server.rooms[code].match is match and not ben.lost


def test_the_host_takes_a_player_out_of_the_lobby_and_they_are_told(server):
    (anna,) = connected(server)
    anna.open_room(two_seats())
    assert run(server, lambda: anna.room is not None, seconds=10)
    anna.sit("Anna", 0)
    (ben,) = joined(server, anna.room_code, "")
    ben.sit("Ben", 1)
    assert run(server, lambda: anna.table.get("seats", [{}, {}])[1].get("here"), seconds=10)
    anna.send_away(1)
    assert run(server, lambda: ben.lost and not anna.table["seats"][1]["taken"], seconds=10)
    assert ben.trouble.code is Online.SENT_AWAY and not anna.lost
    (cleo,) = joined(server, anna.room_code, "")
    cleo.sit("Cleo", 1)                                   # the seat is free again
    assert run(server, lambda: cleo.seats, seconds=10)


def test_a_plan_that_is_no_game_is_refused_and_a_connection_opens_a_few_rooms_at_most(server, room):
    mallory = Raw(server.port)
    mallory.say(HELLO, m.OpenRoom(b'{"seats": "everyone"}'), m.OpenRoom(b"[1, 2"))
    assert pump(server, [mallory], lambda: mallory.kinds().count(m.Refused) == 2)
    assert {message.code for message in mallory.heard if isinstance(message, m.Refused)} == {Online.BAD_PLAN.value}
    for number in range(OPENED_EACH + 1):      # each sat in (an address keeps but a few nobody sat in)
        mallory.say(m.OpenRoom(protocol.pack_plan(three_seats())))
        assert pump(server, [mallory], lambda: mallory.kinds().count(m.Opened) + mallory.kinds().count(m.Refused)
                    == 3 + number)
        answer = [h for h in mallory.heard if isinstance(h, (m.Opened, m.Refused))][-1]
        if isinstance(answer, m.Opened):
            mallory.say(m.Enter(answer.code), m.Sit("Mallory", 0))
            assert pump(server, [mallory], lambda: mallory.kinds().count(m.Seated) == number + 1)
    assert mallory.kinds().count(m.Opened) == OPENED_EACH and answer.code == Online.SERVER_FULL.value
    assert len(server.rooms) == 1 + OPENED_EACH and not mallory.closed
    opened = next(message.code for message in mallory.heard if isinstance(message, m.Opened))
    (_nobody, anna) = joined(server, opened, "", "Anna")   # a room opened is a room like any other
    assert anna.table["seats"][1]["name"] == "Anna"


def test_plans_cost_the_server_a_check_each_so_an_address_has_a_few_a_minute(server):
    mallory = Raw(server.port)
    broken = m.OpenRoom(b'{"seats": "everyone"}')
    mallory.say(HELLO, *[broken] * PLANS_EACH_MINUTE, m.OpenRoom(protocol.pack_plan(two_seats())))
    assert pump(server, [mallory], lambda: mallory.kinds().count(m.Refused) == PLANS_EACH_MINUTE + 1)
    codes = [message.code for message in mallory.heard if isinstance(message, m.Refused)]
    assert codes == [Online.BAD_PLAN.value] * PLANS_EACH_MINUTE + [Online.TOO_MANY_PLANS.value]
    assert 55 <= json.loads(mallory.heard[-1].values)["seconds"] <= 60 and len(server.rooms) == 0
