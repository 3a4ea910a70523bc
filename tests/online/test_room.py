"""A room's own rules, without the network: names cleaned as in the menu, the host's choices, a failed autosave
that never ends the game, a room taken up only from seats that name it, and what its people are told (nothing
while the villa rests)."""

from __future__ import annotations

import gc
import json
import weakref
from dataclasses import replace

import pytest

from villa import rules
from villa.match import Match, Seat, Strength, record
from villa.match import requests as rq
from villa.match.setup import MAX_NAME
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.online.server import REJOIN_S, Room
from villa.online.server.seating import Sitter
from villa.online.wire import messages as m
from villa.physics.refusals import PlacementError
from tests.online.conftest import three_seats, two_seats


def _room(plan=None, **options) -> tuple[Room, list]:
    told: list[tuple[int, object]] = []
    room = Room("ABCDE", plan or three_seats(), **options)
    room.attach(lambda client, message: told.append((client, message)))
    return room, told


def _refused(code: Online, do) -> None:
    with pytest.raises(OnlineError) as refusal:
        do()
    assert refusal.value.code is code


def test_a_name_is_cleaned_as_in_the_menu_before_anyone_reads_it():
    room, told = _room()
    room.sit(7, "\x1b[31mMallory\n\u202e" + "x" * 40, 0)
    name = room.seating.sitters[0].name
    assert name.isprintable() and len(name) <= MAX_NAME and name.startswith("[31mMallory")
    _refused(Online.NO_NAME, lambda: room.sit(8, " \n\t ", 1))
    assert 1 not in room.seating.sitters
    seated = [message for client, message in told if isinstance(message, m.Seated)]
    assert [(s.seat, s.token == room.seating.sitters[0].token) for s in seated] == [(0, True)]


def test_everyone_at_the_table_needs_a_name_of_their_own_the_computer_players_too():
    room, _told = _room()
    _refused(Online.NAME_TAKEN, lambda: room.sit(1, "Computer", 0))     # the computer player's name
    room.sit(2, "Ben", 0)
    _refused(Online.NAME_TAKEN, lambda: room.sit(3, "Ben ", 1))
    _refused(Online.SEAT_TAKEN, lambda: room.sit(3, "Cleo", 0))
    _refused(Online.SEAT_TAKEN, lambda: room.sit(3, "Cleo", 2))          # the computer player's seat
    _refused(Online.NO_SUCH_SEAT, lambda: room.sit(3, "Cleo", 3))
    room.sit(3, "Cleo", 1)
    assert room.match is not None and room.match.setup.players == ("Ben", "Cleo", "Computer")


def test_a_seat_left_in_the_lobby_longer_than_the_wait_is_free_again():
    now = [0.0]
    room, _told = _room(clock=lambda: now[0])
    room.sit(1, "Anna", 0)
    room.leave(1)
    now[0] += REJOIN_S + 1
    room.frames()
    assert room.seating.sitters == {} and room.match is None and room.table()["seats"][0]["taken"] is False


def test_the_host_gives_an_empty_seat_to_a_computer_player_and_the_game_begins():
    room, _told = _room()
    room.sit(1, "Anna", 0)
    _refused(Online.NOT_HOST, lambda: room.give_to_computer(2, 1, Strength.EASY))
    _refused(Online.OWN_SEAT, lambda: room.give_to_computer(1, 0, Strength.EASY))
    _refused(Online.SEAT_TAKEN, lambda: room.give_to_computer(1, 2, Strength.EASY))   # a computer's already
    _refused(Online.NO_SUCH_SEAT, lambda: room.give_to_computer(1, 3, Strength.EASY))
    assert room.give_to_computer(1, 1, Strength.HARD) is None
    assert room.match is not None
    assert [(s.name, s.computer) for s in room.match.setup.seats] == [
        ("Anna", None), ("Computer 1", Strength.HARD), ("Computer", Strength.EASY)]
    room.leave(1)
    _refused(Online.NOT_HOST, lambda: room.give_to_computer(1, 0, Strength.EASY))   # gone: no longer the host
    assert room.seating.host is None and not room.match.setup.seats[0].is_computer


def test_the_host_sends_a_player_away_in_the_lobby_only():
    room, _told = _room(two_seats(), waits_for_host=True)
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    _refused(Online.NOT_HOST, lambda: room.send_away(2, 0))
    _refused(Online.OWN_SEAT, lambda: room.send_away(1, 0))
    assert room.send_away(1, 1) == 2 and 1 not in room.seating.sitters
    assert room.table()["seats"][1]["taken"] is False
    room.sit(3, "Cleo", 1)
    room.begin(1)
    _refused(Online.STARTED, lambda: room.send_away(1, 1))


def test_a_failed_autosave_never_ends_the_game(caplog):
    def full_disk(_room):
        raise OSError(28, "No space left on device")
    room, _told = _room(keep=full_disk)
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    assert room.match is not None
    room.keep()
    assert "could not write its autosave" in caplog.text and room.match is not None


def test_a_room_is_taken_up_only_from_seats_that_name_a_room():
    match = Match(three_seats())
    with pytest.raises(ValueError):
        Room.taken_up(match.record, {"room": "not a code", "seats": {}})
    room = Room.taken_up(match.record, {"room": "ABCDE", "seats": {"0": {"name": "Anna", "token": "t"},
                                                                  "2": {"name": "Computer", "token": "u"},
                                                                  "9": {"name": "Nobody", "token": "v"}}})
    assert room.seating.sitters.keys() == {0}    # the computer's seat and a seat not at the table are not sat in
    assert isinstance(room.seating.sitters[0], Sitter) and room.seating.sitters[0].client is None
    match.close()


def test_a_room_kept_in_the_middle_of_a_turn_is_kept_as_of_its_last_settled_turn():
    room, _told = _room(two_seats())
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    seat = room.match.actor
    column = sorted(rules.grabbable_columns(room.match.state))[0]
    assert room.request(seat + 1, rq.Take(seat, column)) is None
    assert room.match.state.turn.column == column
    kept, seats = room.kept()
    again = record.from_document(json.loads(record.dumps(kept, "autosave")))    # a file that loads back
    assert again.state.turn.column is None and len(again.state.log) == again.turns[-1].actions
    assert seats["room"] == "ABCDE" and seats["seats"]["0"]["name"] == "Anna"


def _sample(kind: type, seat: int) -> object:
    """A request of this kind for `seat`, with plain values (a column, a point on the table)."""
    values = {"column": "red-hex", "point": (1.0, 2.0, 3.0), "grip": None, "on": True, "degrees": 15.0,
              "hold": False, "objects": True, "colour": rules.Colour.RED, "steady": True}
    fields = [name for name in kind.__dataclass_fields__ if name != "seat"]
    return kind(seat, **{name: values[name] for name in fields})


def test_every_request_reaches_the_match_and_is_answered_never_raised():
    """Each kind of request a seat makes is carried out or refused with a code; none raises, out of turn or not."""
    room, _told = _room(two_seats())
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    answers = []
    for kind in rq.REQUESTS:
        for seat in (0, 1):
            answers.append(room.request(seat + 1, _sample(kind, seat)))
    refusals = [answer for answer in answers if answer is not None]
    assert refusals and all(isinstance(r, (rules.RuleError, PlacementError)) for r in refusals)
    _refused(Online.NOT_YOUR_SEAT, lambda: room.request(1, rq.Pass(1)))
    _refused(Online.NOT_SEATED, lambda: room.request(9, rq.Pass(1)))
    off = room.request(room.match.actor + 1, rq.Aim(room.match.actor, (1e6, 0.0, 0.0)))   # answered as the game's
    assert isinstance(off, OnlineError) and off.code is Online.NOT_ON_TABLE             # refusals are: counted too


def _hosted() -> tuple[Room, list]:
    room, told = _room(waits_for_host=True)
    room.sit(1, "Anna", 0)
    return room, told


def test_a_plans_names_are_cleaned_as_in_the_menu_and_each_its_own():
    room, _told = _hosted()
    plan = json.loads(protocol.pack_plan(three_seats()))
    plan["seats"][1]["name"] = "\x1b[2JBen\u202e" + "n" * 40
    room.set_plan(1, json.dumps(plan).encode())
    assert room.plan.seats[1].name == "[2JBen" + "n" * 18
    plan["seats"][1]["name"] = "\n"
    _refused(Online.NO_NAME, lambda: room.set_plan(1, json.dumps(plan).encode()))
    plan["seats"][1]["name"] = " Computer"                 # the computer player's (seat 2) once cleaned
    _refused(Online.NAME_TAKEN, lambda: room.set_plan(1, json.dumps(plan).encode()))
    plan["seats"][0]["name"] = "Anna"
    plan["seats"][1]["computer"] = "easy"
    plan["seats"][1]["name"] = "Anna "                     # a computer player named as someone sitting
    _refused(Online.NAME_TAKEN, lambda: room.set_plan(1, json.dumps(plan).encode()))


def test_a_plan_keeps_everyone_who_sits_and_a_broken_plan_says_why():
    room, _told = _hosted()
    room.sit(2, "Ben", 1)
    before = room.plan
    no_seat_for_ben = replace(three_seats(), seats=(Seat("A"), Seat("B", Strength.EASY), Seat("C", Strength.HARD)))
    with pytest.raises(OnlineError) as taken:
        room.set_plan(1, protocol.pack_plan(no_seat_for_ben))
    assert taken.value.code is Online.SEAT_TAKEN and taken.value.values == {"seat": 1}
    _refused(Online.BAD_PLAN, lambda: room.set_plan(1, b"\xff not json"))
    plan = json.loads(protocol.pack_plan(three_seats()))
    for column in plan["layout"]["columns"]:
        column["x"] = column["y"] = 0.0                               # all in one spot: a villa that cannot stand
    with pytest.raises(OnlineError) as broken:
        room.set_plan(1, json.dumps(plan).encode())
    assert broken.value.code is Online.BAD_PLAN and "cannot stand" in broken.value.values["why"]
    _refused(Online.NOT_HOST, lambda: room.set_plan(2, protocol.pack_plan(three_seats())))
    assert room.plan == before and room.match is None and room.table()["plan"] == record.plan_to_json(room.plan)


def test_the_host_sets_the_turn_clock_to_the_nearest_choice_before_the_game_only():
    room, _told = _hosted()
    room.set_clock(1, 100)
    assert room.table()["clock"] == 120
    room.set_clock(1, 0)
    assert room.table()["clock"] == 0
    _refused(Online.NOT_HOST, lambda: room.set_clock(2, 60))
    room.sit(2, "Ben", 1)
    room.begin(1)
    _refused(Online.STARTED, lambda: room.set_clock(1, 60))


def test_a_room_opened_for_a_host_is_closed_when_nobody_came_back_to_it():
    now = [0.0]
    room, _told = _room(waits_for_host=True, clock=lambda: now[0])
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    assert room.match is None and room.table()["host"] == 0 and not room.closable
    room.leave(1)
    assert room.table()["host"] == 1
    room.leave(2)
    now[0] += REJOIN_S + 1
    assert room.closable


def test_a_villa_at_rest_costs_its_room_nothing_a_frame_until_a_request_wakes_it(monkeypatch):
    room, told = _room(two_seats())
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    room.audience.update({1, 2})
    room.frames(4)
    assert room.match.villa.still and not room.match.busy
    looked = []
    poses_of = protocol.poses_of
    monkeypatch.setattr(protocol, "poses_of", lambda villa: looked.append(1) or poses_of(villa))
    told.clear()
    room.frames(60)
    assert looked == [] and told == []
    seat = room.match.actor
    column = sorted(rules.grabbable_columns(room.match.state))[0]
    (x, y, z), _quat = poses_of(room.match.villa)[column]
    room.request(seat + 1, rq.Take(seat, column, (x, y, z)))
    room.request(seat + 1, rq.Aim(seat, (3 * x, 3 * y, z)))
    room.frames(4)
    assert looked and any(isinstance(message, m.Poses) for _client, message in told)


def test_the_hand_is_told_again_after_each_request_to_it_so_a_window_back_hears_the_answer():
    room, told = _room(two_seats())
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    room.audience.update({1, 2})
    room.frames(4)
    seat = room.match.actor
    client = seat + 1
    hands = lambda: [message for _client, message in told if isinstance(message, m.Hand)]   # noqa: E731
    before = len(hands())
    room.frames(4)
    assert len(hands()) == before, "nothing changed: nothing sent"
    room.request(client, rq.LayFloor(seat))     # no floor to lay: refused, the hand unchanged
    room.frames(2)
    assert len(hands()) == before + 2, "the answer to a request to the hand, to both players"
    last = hands()[-1]
    assert (last.holder, last.grip, last.strain, last.steadied) == (-1, "", 0.0, 0)
    room.request(client, rq.Pass(seat))           # not a request to the hand: nothing more
    room.frames(2)
    assert len(hands()) == before + 2


def test_a_closed_room_its_match_and_its_villa_go_at_once_not_at_the_next_full_collection():
    """A villa is a Bullet world of megabytes outside Python: a server that waited for the cyclic collector to free
    each finished game's grew by hundreds of megabytes over a few hundred games. With the collector off, a room
    closed after a pull is freed by its count alone, match and villa with it."""
    gc.collect()
    gc.disable()
    try:
        room, _told = _room(two_seats())
        room.sit(1, "Anna", 0)
        room.sit(2, "Ben", 1)
        seat = rules.acting_player(room.match.state)
        column = rules.passing_moves(room.match.state)[0].column
        assert room.request(seat + 1, rq.Take(seat, column)) is None
        room.request(seat + 1, rq.Aim(seat, (2.0, 1.0, 6.0)))
        room.frames(30)
        kept = [weakref.ref(room), weakref.ref(room.match), weakref.ref(room.match.villa)]
        room.close()
        del room
        assert [ref() is None for ref in kept] == [True, True, True]
    finally:
        gc.enable()
