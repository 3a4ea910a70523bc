"""A server settles a new game's villa off its frame loop: the room's game begins at the first frame after, on the
very villa the layout settles to, and nobody's seat is lost meanwhile."""

from __future__ import annotations

import threading
import time

from villa.match import building
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.online.server import Room, Server
from tests.online.conftest import LOOPBACK, Kept, two_seats


def _frames_until_started(room: Room, seconds: float = 10.0) -> int:
    frames, end = 0, time.monotonic() + seconds
    while room.match is None and time.monotonic() < end:
        room.frames()
        frames += 1
        time.sleep(0.005)
    return frames


def test_a_new_games_villa_settles_on_a_thread_of_its_own_and_the_game_begins_on_it(monkeypatch):
    plan = two_seats(seed=9301)     # a random villa no game here has begun on
    layout = plan.layout
    settled_on: list[str] = []
    built = building._built
    monkeypatch.setattr(building, "_built", lambda *a: settled_on.append(threading.current_thread().name) or built(*a))
    room = Room("ABCDE", plan, aside=True)
    room.attach(lambda client, message: None)
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    assert room.match is None                      # the sit is answered at once: the villa settles meanwhile
    assert _frames_until_started(room) >= 1
    assert settled_on and not any(name == threading.main_thread().name for name in settled_on)
    assert room.match.turns[0].villa == building.settle(layout, True)
    assert room.match.setup.players == ("Anna", "Ben")


def test_the_next_room_on_a_layout_known_here_begins_at_once(monkeypatch):
    plan = two_seats(seed=9302)
    building.remember(plan.layout, True, building.settle(plan.layout, True))
    room = Room("ABCDE", plan, aside=True)
    room.attach(lambda client, message: None)
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    assert room.match is not None


def test_the_host_cannot_change_the_game_while_its_villa_settles_and_a_seat_given_up_meanwhile_keeps_the_lobby():
    room = Room("ABCDE", two_seats(seed=9303), aside=True, waits_for_host=True)
    room.attach(lambda client, message: None)
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    room.begin(1)
    try:
        room.set_plan(1, protocol.pack_plan(two_seats(seed=9304)))
    except OnlineError as refusal:
        assert refusal.code is Online.STARTED
    else:
        raise AssertionError("the plan changed while its villa settled")
    room.leave(2, for_good=True)
    _frames_until_started(room, seconds=1.0)
    time.sleep(0.5)
    room.frames()
    assert room.match is None and 1 not in room.seating.sitters


def test_a_server_stopped_while_a_games_villa_settles_keeps_the_game_as_begun():
    kept = Kept()
    server = Server(0, LOOPBACK, store=kept, aside=True)
    room = server.open(Room(protocol.new_room_code(), two_seats(seed=9305), keep=kept, aside=True))
    room.store = kept
    room.sit(1, "Anna", 0)
    room.sit(2, "Ben", 1)
    assert room.match is None, "its villa settles"
    server.close()
    assert room.match is not None and kept.records, "kept as a game under way, to be taken up again"
    assert kept.records[-1].setup.players == ("Anna", "Ben") and kept.seats["room"] == room.code
