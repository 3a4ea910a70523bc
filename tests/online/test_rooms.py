"""A room's own rules, without the network: names cleaned as in the menu, a failed autosave that never
ends the game, and a room taken up only from seats that name it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from panda3d.core import Filename
from panda3d.direct import DCFile

from villa import rules
from villa.match import Match, Seat, Strength
from villa.match import record
from villa.match.setup import MAX_NAME
from villa.online import protocol
from villa.online.objects import REQUESTS
from villa.online.rooms import REJOIN_S, Room, Sitter
from villa.online.server import dc_file
from tests.online.conftest import three_seats


def _room(**options) -> tuple[Room, list]:
    told = []
    room = Room("ABCDE", three_seats(), **options)
    room.tell = lambda client, field, *args: told.append((client, field, args))
    return room, told


def test_a_name_is_cleaned_as_in_the_menu_before_anyone_reads_it():
    room, told = _room()
    room.request(7, "sit", ("abcde", "\x1b[31mMallory\n\u202e" + "x" * 40, 0))
    name = room.sitters[0].name
    assert name.isprintable() and len(name) <= MAX_NAME and name.startswith("[31mMallory")
    room.request(8, "sit", ("ABCDE", " \n\t ", 1))
    assert 1 not in room.sitters and told[-1][1:] == ("refused", ("online", "no name", "{}"))


def test_everyone_at_the_table_needs_a_name_of_their_own_the_computer_players_too():
    room, told = _room()
    room.request(1, "sit", ("ABCDE", "Computer", 0))       # the computer player's name
    room.request(2, "sit", ("ABCDE", "Ben", 0))
    room.request(3, "sit", ("ABCDE", "Ben ", 1))
    assert [t[2][1] for t in told if t[1] == "refused"] == ["name taken", "name taken"]
    room.request(3, "sit", ("ABCDE", "Cleo", 1))
    assert room.match is not None and room.match.setup.players == ("Ben", "Cleo", "Computer")


def test_a_seat_left_in_the_lobby_longer_than_the_wait_is_free_again():
    now = [0.0]
    room, _told = _room(clock=lambda: now[0])
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.gone(1)
    now[0] += 601
    room.frames()
    assert room.sitters == {} and room.match is None and room.table()["seats"][0]["taken"] is False


def test_the_host_gives_an_empty_seat_to_a_computer_player_and_the_game_begins():
    room, told = _room()
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.request(2, "giveToComputer", (0, "easy"))               # not the host
    room.request(1, "giveToComputer", (0, "easy"))               # someone sits there
    room.request(1, "giveToComputer", (1, "clever"))
    assert [t[2][1] for t in told if t[1] == "refused"] == ["not host", "seat taken", "unknown word"]
    room.request(1, "giveToComputer", (1, "hard"))
    assert room.match is not None
    assert [(s.name, s.computer) for s in room.match.setup.seats] == [
        ("Anna", None), ("Computer 1", Strength.HARD), ("Computer", Strength.EASY)]
    room.gone(1)
    room.request(1, "giveToComputer", (0, "easy"))               # gone: no longer the host
    assert room.host is None and not room.match.setup.seats[0].is_computer


def test_a_failed_autosave_never_ends_the_game(caplog):
    def full_disk(_room):
        raise OSError(28, "No space left on device")
    room, _told = _room(keep=full_disk)
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.request(2, "sit", ("ABCDE", "Ben", 1))
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
    assert room.sitters.keys() == {0}            # the computer's seat and a seat not at the table are not sat in
    assert isinstance(room.sitters[0], Sitter) and room.sitters[0].client is None
    assert protocol.zone_of(room.code) is not None


def _sample(field) -> tuple:
    """Arguments of a `.dc` field's types: seat 0, a column's id, a point on the table, a flag."""
    samples = {"seat": 0, "room": "ABCDE", "name": "Anna", "token": "t", "column": "red-hex", "word": "decline",
               "colour": "red", "strength": "easy", "steady": 0, "on": 1}
    args = []
    for n in range(field.getNumElements()):
        name = field.getElement(n).getName()
        args.append(samples.get(name, 1.0))
    return tuple(args)


def test_every_request_of_the_dc_file_is_heard_by_the_room_and_answered():
    """Each `clsend` field reaches a handler that takes exactly its arguments, and a request the moment does
    not allow is refused with a code, never an exception."""
    dc = DCFile()
    assert dc.read(Filename.fromOsSpecific(dc_file()))
    fields = [f.asAtomicField() for f in (dc.getClass(0).getField(n) for n in range(dc.getClass(0).getNumFields()))
              if f.hasKeyword("clsend")]
    assert {f.getName() for f in fields} == set(REQUESTS)
    room, told = _room()
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.request(2, "sit", ("ABCDE", "Ben", 1))
    assert room.match is not None
    for field in fields:
        if field.getName() not in ("sit", "rejoin", "giveToComputer"):
            room.request(1, field.getName(), _sample(field))
    refused = [args for _client, what, args in told if what == "refused"]
    assert refused and all(kind in ("rules", "wood", "online") for kind, _code, _values in refused)


def _hosted() -> tuple[Room, list]:
    told = []
    room = Room("ABCDE", three_seats(), waits_for_host=True)
    room.tell = lambda client, field, *args: told.append((client, field, args))
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    return room, told


def test_a_plans_names_are_cleaned_as_in_the_menu_and_each_its_own():
    room, told = _hosted()
    plan = json.loads(protocol.pack_plan(three_seats()))
    plan["seats"][1]["name"] = "\x1b[2JBen\u202e" + "n" * 40
    room.request(1, "setPlan", (json.dumps(plan).encode(),))
    assert room.plan.seats[1].name == "[2JBen" + "n" * 18 and not told[1:]
    plan["seats"][1]["name"] = "\n"
    room.request(1, "setPlan", (json.dumps(plan).encode(),))
    plan["seats"][1]["name"] = " Computer"                 # the computer player's (seat 2) once cleaned
    room.request(1, "setPlan", (json.dumps(plan).encode(),))
    plan["seats"][0]["name"] = "Anna"
    plan["seats"][1]["computer"] = "easy"
    plan["seats"][1]["name"] = "Anna "                     # a computer player named as someone sitting
    room.request(1, "setPlan", (json.dumps(plan).encode(),))
    assert [args[1] for _client, what, args in told if what == "refused"] == ["no name", "name taken", "name taken"]


def test_a_plan_keeps_everyone_who_sits_and_a_broken_plan_says_why():
    room, told = _hosted()
    room.request(2, "sit", ("ABCDE", "Ben", 1))
    before = room.plan
    no_seat_for_ben = replace(three_seats(), seats=(Seat("A"), Seat("B", Strength.EASY), Seat("C", Strength.HARD)))
    room.request(1, "setPlan", (protocol.pack_plan(no_seat_for_ben),))
    room.request(1, "setPlan", (b"\xff not json",))
    plan = json.loads(protocol.pack_plan(three_seats()))
    for column in plan["layout"]["columns"]:
        column["x"] = column["y"] = 0.0                               # all in one spot: a villa that cannot stand
    room.request(1, "setPlan", (json.dumps(plan).encode(),))
    refused = [args for _client, what, args in told if what == "refused"]
    assert [code for _kind, code, _values in refused] == ["seat taken", "bad plan", "bad plan"]
    assert json.loads(refused[0][2]) == {"seat": 1} and "cannot stand" in json.loads(refused[2][2])["why"]
    assert room.plan == before and room.match is None and room.table()["plan"] == record.plan_to_json(room.plan)


def test_a_room_opened_for_a_host_is_closed_when_nobody_came_back_to_it():
    now = [0.0]
    room = Room("ABCDE", three_seats(), waits_for_host=True, clock=lambda: now[0])
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.request(2, "sit", ("ABCDE", "Ben", 1))
    assert room.match is None and room.table()["host"] == 0 and not room.deserted
    room.gone(1)
    assert room.table()["host"] == 1
    room.gone(2)
    now[0] += REJOIN_S + 1
    assert room.deserted


def test_a_villa_at_rest_costs_its_room_nothing_a_frame_until_a_request_wakes_it():
    plan = three_seats()
    room = Room("ABCDE", replace(plan, seats=plan.seats[:2]))
    sent = []
    room.send = lambda field, *args: sent.append(field)
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.request(2, "sit", ("ABCDE", "Ben", 1))
    room.frames(4)
    assert room.match.villa.still and not room.match.busy
    looked = []
    poses = room.poses
    room.poses = lambda: looked.append(1) or poses()
    room.frames(60)
    assert looked == [] and "setPoses" not in sent
    seat = room.match.actor
    column = sorted(rules.grabbable_columns(room.match.state))[0]
    (x, y, z), _quat = poses()[column]
    room.request(seat + 1, "take", (seat, column, x, y, z, 0))
    room.request(seat + 1, "aim", (seat, 3 * x, 3 * y, z))
    room.frames(4)
    assert looked and "setPoses" in sent


def test_the_hand_is_told_again_after_each_request_to_it_so_a_window_back_hears_the_answer():
    room = Room("ABCDE", replace(three_seats(), seats=three_seats().seats[:2]))
    sent = []
    room.send = lambda field, *args: sent.append((field, args))
    room.request(1, "sit", ("ABCDE", "Anna", 0))
    room.request(2, "sit", ("ABCDE", "Ben", 1))
    room.frames(4)
    seat = room.match.actor
    client = seat + 1
    hands = lambda: [args for field, args in sent if field == "setHand"]   # noqa: E731
    told = len(hands())
    room.frames(4)
    assert len(hands()) == told, "nothing changed: nothing sent"
    room.request(client, "layFloor", (seat,))     # no floor to lay: refused, the hand unchanged
    room.frames(2)
    assert len(hands()) == told + 1, "the answer to a request to the hand"
    assert hands()[-1][3:] == (0, 0, 0, 0)
    room.request(client, "aim", (seat, 1.0, 1.0, 5.0))   # an aim is not asked about the hand: nothing more
    room.frames(2)
    assert len(hands()) == told + 1
