"""The turn clock as a window counts it: from when it heard the move asked, or, come back in the middle of a
move, from the time left the server's table told it."""

from __future__ import annotations

from villa import rules
from villa.match import Match, MatchSetup, Seat, layout_named
from villa.presentation.move_clock import MoveClock


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _match() -> Match:
    return Match(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings"), seed=3, deal_colours=True))


def test_a_move_is_counted_from_when_the_window_heard_it_asked():
    match, clock = _match(), Clock()
    counting = MoveClock(clock)
    assert counting.left(match, 60) == 60
    clock.now += 20
    assert counting.left(match, 60) == 40
    clock.now += 50
    assert counting.left(match, 60) == 0, "never below nothing"
    assert counting.left(match, 0) is None, "no clock"


def test_a_window_come_back_in_the_middle_of_a_move_counts_what_the_server_said_was_left():
    match, clock = _match(), Clock()
    mark = [len(match.state.log), rules.acting_player(match.state)]
    assert MoveClock(clock).left(match, 60, [*mark, 15.0]) == 15.0
    assert MoveClock(clock).left(match, 60, [mark[0] - 1, mark[1], 15.0]) == 60, "another move's time is not this one's"
    assert MoveClock(clock).left(match, 60, ["rubbish"]) == 60
