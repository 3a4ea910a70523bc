"""Players who stall: with the lobby's turn clock, a person whose move runs out of time passes as the rules allow
(the column in hand given up, a question declined, a granted floor given up, a turn started with nothing in hand
passed with a column taken and given up at once), and everyone hears that the time was up; where the rules allow
no such way (the family edition), a computer player makes that one move for them, and hands the seat back. The
host may give an idle seat, not only a left one, to a computer player; its person is told so."""

from __future__ import annotations

from dataclasses import replace

from villa import rules
from villa.match import Strength, TimeUp
from villa.match import requests as rq
from villa.online import protocol
from villa.online.protocol import Online
from villa.online.server import Room
from villa.online.wire import messages as m
from villa.rules.state import Step
from tests.match.test_held_hand import square_on_blue
from tests.online.conftest import Skipping, joined, run, three_seats

MINUTE = 60


def _timed(plan=None) -> tuple[Room, Skipping, list]:
    """Anna and Ben at a room whose clock gives a minute a move (their connections 1 and 2)."""
    clock, told = Skipping(), []
    room = Room("ABCDE", plan or square_on_blue(), clock=clock, turn_seconds=MINUTE, waits_for_host=True)
    room.attach(lambda client, message: told.append(message) if client == 1 else None)   # what Anna hears
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    room.begin(1)
    room.audience.update({1, 2})
    room.frames(2)
    return room, clock, told


def _time_ups(told: list) -> list[int]:
    return [e.player for e in (protocol.unpack_event(t.event) for t in told if isinstance(t, m.Event))
            if isinstance(e, TimeUp)]


def _out_of_time(room: Room, clock: Skipping, told: list) -> None:
    """A frame (the clock sees the move asked now), a minute less a second (not yet), then the time is up."""
    room.frames(1)
    clock.skip(MINUTE - 1)
    before = len(_time_ups(told))
    room.frames(1)
    assert len(_time_ups(told)) == before, "not yet"
    clock.skip(2)
    room.frames(2)


def test_a_column_held_past_the_time_is_given_up():
    room, clock, told = _timed()
    seat = room.match.actor
    column = sorted(rules.grabbable_columns(room.match.state))[0]
    assert room.request(seat + 1, rq.Take(seat, column)) is None
    _out_of_time(room, clock, told)
    assert _time_ups(told) == [seat]
    for _ in range(600):
        if not room.match.busy:
            break
        room.frames(1)
    assert column in room.match.state.blocked and room.match.hand is None


def test_a_turn_begun_with_nothing_in_hand_passes_with_a_column_taken_and_given_up_at_once():
    room, clock, told = _timed()
    seat = room.match.actor
    first = rules.grabbable_columns(room.match.state)[0]
    _out_of_time(room, clock, told)
    assert _time_ups(told) == [seat]
    for _ in range(600):
        if not room.match.busy and room.match.actor != seat:
            break
        room.frames(1)
    assert first in room.match.state.blocked and room.match.actor == 1 - seat


def test_a_question_left_unanswered_is_declined_and_a_granted_floor_left_is_given_up():
    room, clock, told = _timed()
    proposer = room.match.actor
    assert room.request(proposer + 1, rq.Propose(proposer)) is None
    asked = room.match.actor
    assert asked == 1 - proposer and rules.is_question(rules.task(room.match.state))
    _out_of_time(room, clock, told)
    assert _time_ups(told) == [asked]
    assert room.match.state.turn.step is Step.LAY_FLOOR and room.match.actor == proposer, "declined: lay it"

    assert room.request(proposer + 1, rq.LayFloor(proposer)) is None     # the floor in hand, and then nothing
    _out_of_time(room, clock, told)
    assert _time_ups(told) == [asked, proposer]
    for _ in range(600):
        if not room.match.busy and room.match.actor != proposer:
            break
        room.frames(1)
    assert room.match.state.top_level == 1 and room.match.actor == asked, "given up: the turn passes"


def test_the_family_edition_gives_nothing_up_so_a_computer_player_makes_that_one_move():
    plan = replace(three_seats(), seats=three_seats().seats[:2], ruleset=rules.RULE_SETS["family-assigned-basic"])
    room, clock, told = _timed(plan)
    seat = room.match.actor
    assert rules.passing_moves(room.match.state) == ()
    turn = room.match.turn
    _out_of_time(room, clock, told)
    assert _time_ups(told) == [seat]
    for _ in range(60 * 60):                       # the stand-in's hand moves as a person's does
        if room.match.turn > turn and not room.match.busy:
            break
        room.frames(1)
    assert room.match.turn > turn and room.match.actor == 1 - seat, "one move made for them"
    assert not room.match.seat(seat).is_computer, "the seat is still its person's"
    clock.skip(MINUTE - 1)
    room.frames(1)
    assert _time_ups(told) == [seat], "the other's time is their own"


def test_the_host_gives_an_idle_seat_to_a_computer_and_its_person_is_told(server):
    room = server.open(Room(protocol.new_room_code(), square_on_blue()))
    anna, ben = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: room.match is not None and anna.state is not None and ben.state is not None)
    anna.give_to_computer(0, Strength.EASY)
    assert run(server, lambda: anna.refusals, seconds=10) and anna.refusals[-1].code is Online.OWN_SEAT
    anna.give_to_computer(1, Strength.EASY)          # Ben is here, and idle
    assert run(server, lambda: ben.lost, seconds=10) and ben.trouble.code is Online.SEAT_GIVEN
    assert room.match.setup.seats[1].is_computer and room.match.setup.seats[1].name == "Ben"
    assert run(server, lambda: anna.table["seats"][1]["computer"] == "easy", seconds=10) and not anna.lost


def test_the_table_tells_a_window_come_back_how_long_the_move_asked_now_has_left():
    room, clock, _told = _timed()
    room.frames(1)
    clock.skip(40)
    room.frames(1)
    log_length, player, left = room.table()["move_left"]
    assert (log_length, player) == (len(room.match.state.log), rules.acting_player(room.match.state))
    assert 19 <= left <= 20
