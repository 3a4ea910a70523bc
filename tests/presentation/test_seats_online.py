"""Seats online, at the real window with the real pointer and keyboard: joining by code a room where this window keeps
a seat takes it back; a stranger joining a game under way is told they watch; opening or joining another room while
keeping a seat in a game under way asks first, and a seat given up is told to its room, whose host is offered a
computer player for it (then marked so); the loser of a race for a seat is told; "Waiting for Ben to come back"
says how long the seat is kept and who may give it away. And the join form's fields: a code with spaces and dashes,
an empty code, a pasted link, a name that stops at its length, a notice that goes once its field is filled."""

from __future__ import annotations

import random
import socket
import time

import pytest

from villa.match import MatchSetup, Seat, layout_named
from villa.online import protocol
from villa.online.client import Player
from villa.online.client.seats_now import SeatsNow
from villa.presentation.modes import Mode
from villa.presentation.preferences import Settings

pytestmark = pytest.mark.gui

LOOPBACK = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def two_seats(seed: int = 4) -> MatchSetup:
    return MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings", seed), seed=seed, deal_colours=True)


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), players=(Seat("Anna"), Seat("Ben")), rng=random.Random(3))
    yield app
    app.close()


@pytest.fixture
def served(stage):
    """A server on a loopback port, run from the window's loop, with rooms for two people (`room`, `other`); the
    headless players made with `server.player(...)` are polled with it and closed after."""
    from villa.online.server import Room, Server
    server = Server(free_port(), LOOPBACK)
    server.start(stage.task_mgr)
    server.room = server.open(Room(protocol.new_room_code(), two_seats()))
    server.other = server.open(Room(protocol.new_room_code(), two_seats(5)))
    server.people = []
    yield server
    for person in server.people:
        person.close()
    server.close()


def until(frames, done, seconds: float = 20.0, people=()) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        frames(1)
        for person in people:
            person.poll()
        time.sleep(0.002)
    return True


def seated(served, frames, code: str, name: str, seat: int) -> Player:
    person = Player(LOOPBACK, served.port)
    served.people.append(person)
    assert until(frames, lambda: person.ready, people=[person])
    person.enter(code)
    assert until(frames, lambda: person.room is not None, people=[person])
    person.sit(name, seat)
    assert until(frames, lambda: seat in person.seats, people=[person]), person.refusals
    return person


def join_form(front, frames, press_button):
    from villa.presentation.menus.online import JoinScreen
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["online"])
    press_button(front.menu.widgets["join"])
    assert isinstance(front.menu, JoinScreen)
    return front.menu


def fill(form, address: str, code: str, name: str) -> None:
    for key, text in (("address", address), ("code", code), ("name", name)):
        form.widgets[key].enterText(text)


def notice(front) -> str:
    return front.menu.widgets["notice"]["text"]


def test_the_join_forms_fields_take_a_code_with_spaces_and_dashes_a_pasted_link_and_a_name_no_longer_than_kept(
        front, frames, press_button, mouse, served):
    from villa.presentation.menus.lobby import LobbyScreen
    form = join_form(front, frames, press_button)
    fill(form, f"{LOOPBACK}:{served.port}", "", "Ben")
    press_button(form.widgets["join"])
    assert notice(front) == "Type the room's code.", "an empty code is asked for"
    press_button(form.widgets["code"])                       # the field, clicked, and typed in
    mouse.type("k")
    frames(3)
    assert notice(front) == "", "the notice goes once the code is typed"
    form.widgets["code"].enterText("")
    form.widgets["name"].enterText("")
    fill(form, f"{LOOPBACK}:{served.port}", "ABCDE", "")
    press_button(form.widgets["join"])
    assert notice(front) == "Type a name first."
    press_button(form.widgets["name"])
    mouse.type("Bartholomew-Maximilian von Habsburg")        # 35 characters: the field stops at 24
    frames(3)
    assert form.widgets["name"].get() == "Bartholomew-Maximilian v" and notice(front) == "", \
        "the field stops where a name is cut, and the notice went once a name was typed"

    code = served.room.code
    spaced = f"{code[:2].lower()}-{code[2:]} "              # as read out, or pasted: spaces and dashes left out
    fill(form, f"http://{LOOPBACK}:{served.port}/", spaced, "Ben")     # a link pasted: its host and port
    press_button(form.widgets["join"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen)), notice(front)
    assert front.online_play.player.code == code and front.online_play.address == f"{LOOPBACK}:{served.port}"


def test_joining_by_code_a_room_where_this_window_keeps_a_seat_takes_that_seat_back(front, frames, press_button,
                                                                                    served):
    from villa.presentation.menus.lobby import LobbyScreen
    anna = seated(served, frames, served.room.code, "Anna", 0)
    form = join_form(front, frames, press_button)
    fill(form, f"{LOOPBACK}:{served.port}", served.room.code, "Ben")
    press_button(form.widgets["join"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets, people=[anna])
    press_button(front.menu.widgets["sit_1"])
    assert until(frames, lambda: front.screen is not None, 30, people=[anna]), "the game begins: every seat is sat"
    token = front.settings.kept_seat.token
    front.main_menu()                                    # Ben's window leaves: his seat waits for him
    assert until(frames, lambda: served.room.seating.connection(1) is None, people=[anna])
    form = join_form(front, frames, press_button)
    fill(form, f"{LOOPBACK}:{served.port}", served.room.code.lower(), "Ben")
    press_button(form.widgets["join"])                   # by code, not Rejoin: the seat is given back all the same
    assert until(frames, lambda: front.screen is not None and front.online_play.player is not None
                 and front.online_play.player.seats.keys() == {1}, 30, people=[anna]), notice(front)
    assert front.online_play.player.seats[1] != token and served.room.seating.connection(1) is not None
    assert until(frames, lambda: anna.table["seats"][1]["here"], people=[anna]), "Anna sees Ben back, not waiting"
    assert front.screen.here == frozenset({1}), "his own seat, played here, not watched"


def test_a_stranger_who_joins_a_game_under_way_by_its_code_is_told_that_they_watch(front, frames, press_button,
                                                                                  served, snapshot):
    anna = seated(served, frames, served.room.code, "Anna", 0)
    ben = seated(served, frames, served.room.code, "Ben", 1)
    assert until(frames, lambda: served.room.match is not None, people=[anna, ben])
    form = join_form(front, frames, press_button)
    fill(form, f"{LOOPBACK}:{served.port}", served.room.code, "Cleo")
    press_button(form.widgets["join"])
    assert until(frames, lambda: front.screen is not None, 30, people=[anna, ben])
    assert front.screen.here == frozenset() and not front.online_play.player.seats
    assert front.screen.hud.message.getText().startswith("The game is under way and its seats are taken: you watch")
    snapshot("stranger-watches")


def test_the_loser_of_a_race_for_a_seat_is_told_who_took_it(front, frames, press_button, served):
    from villa.presentation.menus.lobby import LobbyScreen
    form = join_form(front, frames, press_button)
    fill(form, f"{LOOPBACK}:{served.port}", served.room.code, "Ben")
    press_button(form.widgets["join"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets)
    lobby = front.menu
    cleo = Player(LOOPBACK, served.port)
    served.people.append(cleo)
    assert until(frames, lambda: cleo.ready, people=[cleo])
    cleo.enter(served.room.code)
    assert until(frames, lambda: cleo.room is not None, people=[cleo])
    cleo.sit("Cleo", 1)                                  # on its way to the server as Ben clicks the same seat
    lobby.widgets["sit_1"]["command"]()
    assert until(frames, lambda: lobby.widgets["notice"]["text"], people=[cleo])
    assert lobby.widgets["notice"]["text"] == "Cleo sat down at that seat a moment before you: choose another."
    assert not front.online_play.player.seats and cleo.seats.keys() == {1}


def test_another_room_while_holding_a_seat_in_a_game_under_way_asks_first_and_the_room_is_told(
        front, frames, press_button, served, snapshot):
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import JoinScreen
    anna = seated(served, frames, served.room.code, "Anna", 0)
    form = join_form(front, frames, press_button)
    fill(form, f"{LOOPBACK}:{served.port}", served.room.code, "Ben")
    press_button(form.widgets["join"])
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and "sit_1" in front.menu.widgets, people=[anna])
    press_button(front.menu.widgets["sit_1"])
    assert until(frames, lambda: front.screen is not None and front.settings.kept_seat.started, 30, people=[anna])
    code = served.room.code

    form = join_form(front, frames, press_button)         # Ben goes to join another room
    fill(form, f"{LOOPBACK}:{served.port}", served.other.code, "Ben")
    press_button(form.widgets["join"])
    question = front.online_play.kept.question
    assert question is not None and question.root is not None, "a question, before anything is left"
    assert front.online_play.player is None and front.settings.kept_seat.code == code
    assert question.widgets["question"]["text"] == (
        f"You still have a seat in {code}, a game under way: leave it for good? The others are told, and the host "
        "may give your seat to a computer player.")
    assert question.widgets["yes"]["text"] == "Leave it for good" and question.widgets["no"]["text"] == "Keep my seat"
    frames(2)
    snapshot("leave-seat-question")
    press_button(question.widgets["no"])                 # Keep my seat: nothing happens
    assert question.root is None and isinstance(front.menu, JoinScreen) and front.online_play.player is None
    assert front.settings.kept_seat.code == code and anna.table["seats"][1].get("left") is not True
    press_button(form.widgets["join"])
    press_button(front.online_play.kept.question.widgets["yes"])        # Leave it for good
    assert until(frames, lambda: anna.table["seats"][1].get("left") is True, 15, people=[anna]), "the room is told"
    assert until(frames, lambda: isinstance(front.menu, LobbyScreen) and front.online_play.player.code ==
                 served.other.code, 20, people=[anna]), "then the other room"
    assert front.settings.kept_seat is None or front.settings.kept_seat.code == served.other.code
    assert SeatsNow(anna).away(1).for_good and served.room.seating.sitters[1].for_good


def test_the_host_is_offered_a_computer_for_a_seat_given_up_and_the_seat_is_marked_so_in_the_score_and_status(
        front, frames, served, snapshot):
    ben = None
    anna = seated(served, frames, served.room.code, "Anna", 0)
    front.online_play.seated(anna, f"{LOOPBACK}:{served.port}", "Anna")    # the window is Anna's: the host
    served.people.remove(anna)
    ben = seated(served, frames, served.room.code, "Ben", 1)
    assert until(frames, lambda: front.screen is not None, 30, people=[ben])
    screen = front.screen
    assert screen.acting.waited_for() == 1, "Ben moves first"
    ben.close(for_good=True)                             # he opened another game, and gave this seat up
    assert until(frames, lambda: "stand_in 1" in screen.hud.commands.buttons, 15), "the host is offered a computer"
    assert screen.hud.message.getText().startswith(
        "Ben has left the game for good: a computer player may take the seat, with the button below")
    assert screen.hud.status.getText().startswith("Ben has left the game for good")
    snapshot("host-offered-a-computer")
    button = screen.hud.commands.buttons["stand_in 1"]
    assert button["text"] == "A computer plays for Ben"
    button["command"]()                                  # he is gone: nothing to confirm
    assert until(frames, lambda: front.match.seat(1).is_computer and SeatsNow(anna).stand_in(1), 15)
    assert "Ben (computer): " in screen.hud.players.getText(), "marked so in the score list"
    assert screen.hud.message.getText().startswith("A computer plays for Ben from now on.")
    assert until(frames, lambda: screen.hud.status.getText().startswith("Ben (computer) "), 30), \
        screen.hud.status.getText()
    assert "stand_in 1" not in screen.hud.commands.buttons
    snapshot("computer-plays-for-ben")


def test_waiting_for_a_player_who_dropped_says_how_long_the_seat_is_kept_and_who_may_give_it(front, frames, served):
    anna = seated(served, frames, served.room.code, "Anna", 0)
    ben = seated(served, frames, served.room.code, "Ben", 1)
    served.people.remove(ben)
    guest = Player(LOOPBACK, served.port)
    served.people.append(guest)
    assert until(frames, lambda: guest.ready, people=[guest, anna, ben])
    guest.enter(served.room.code)
    assert until(frames, lambda: guest.room is not None and guest.table.get("started") and guest.poses,
                 people=[guest, anna, ben])
    front.online_play.seated(guest, f"{LOOPBACK}:{served.port}", "Cleo")   # a window that watches
    assert until(frames, lambda: front.screen is not None, 30, people=[anna, ben])
    ben.link.close()                                     # Ben's window killed, his move
    ben.lost = True
    screen = front.screen
    assert until(frames, lambda: "to come back" in screen.hud.status.getText(), 15, people=[anna])
    assert screen.hud.status.getText() == ("Waiting for Ben to come back: the room keeps the seat 10 min more, or "
                                           "until the host gives it to a computer player")
    assert screen.mode == Mode.COMPUTER
