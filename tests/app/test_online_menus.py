"""The online menus' reading of what was typed and of the room's table, without a window."""

from __future__ import annotations

import pytest

from villa.app.online import Trouble, kept_seat_waits, parse_address, parse_port
from villa.match import Strength
from villa.online.protocol import PORT
from villa.online.rooms import REJOIN_S
from villa.presentation.menus.lobby import host_seat, may_start, seat_rows
from villa.presentation.preferences import KeptSeat


def seat(name, computer=None, taken=False, here=False):
    return {"name": name, "computer": computer, "taken": taken, "here": here}


def test_an_address_is_host_and_port_or_just_a_host_on_the_games_port():
    assert parse_address(" 192.168.1.20:47171 ") == ("192.168.1.20", 47171)
    assert parse_address("villa.example.org") == ("villa.example.org", PORT)


@pytest.mark.parametrize("typed", ["", ":47170", "host:", "host:port", "host:0", "host:70000", "two words:1",
                                   "host:-5"])
def test_a_bad_address_is_one_trouble(typed):
    with pytest.raises(Trouble) as told:
        parse_address(typed)
    assert told.value.code == "bad address"


def test_a_port_to_host_on_is_a_number_from_1024_or_none_for_any_free_one():
    assert parse_port("47171") == 47171 and parse_port("  ") is None
    for typed in ("80", "65536", "abc", "4.5"):
        with pytest.raises(Trouble):
            parse_port(typed)


def test_the_seats_as_the_lobby_shows_them():
    table = {"seats": [seat("Anna", taken=True, here=True), seat("Ben", taken=True), seat("Seat 3"),
                       seat("Computer 1", "hard")], "started": False}
    rows = seat_rows(table, {0})
    assert [(r.kind, r.mine) for r in rows] == [("here", True), ("away", False), ("free", False),
                                                ("computer", False)]
    assert rows[3].strength is Strength.HARD


def test_the_host_starts_once_every_seat_is_sat_at_or_given_to_a_computer():
    waiting = {"seats": [seat("Anna", taken=True, here=True), seat("Seat 2")], "started": False}
    full = {"seats": [seat("Anna", taken=True, here=True), seat("Computer 1", "easy")], "started": False}
    assert host_seat(waiting) == 0 and not may_start(waiting, {0})
    assert may_start(full, {0}) and not may_start(full, {1}), "only the host"
    assert not may_start({**full, "started": True}, {0})
    assert host_seat({**full, "host": 1}) == 1, "as the table says"
    away = {"seats": [seat("Anna", taken=True), seat("Ben", taken=True, here=True)], "started": False}
    assert host_seat(away) == 1 and not may_start(away, {1}), "a seat away is not filled"


def test_a_kept_seat_is_offered_within_the_ten_minutes_only():
    kept = KeptSeat("127.0.0.1:47170", "ABCDE", 0, "token", 1000.0)
    assert kept_seat_waits(kept, 1000.0 + REJOIN_S - 1)
    assert not kept_seat_waits(kept, 1000.0 + REJOIN_S + 1) and not kept_seat_waits(None, 0)
    assert not kept_seat_waits(kept, 900.0), "a time ahead of the clock is not trusted"
