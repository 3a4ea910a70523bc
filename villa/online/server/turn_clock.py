"""The turn clock a host may set in the lobby: how long a person has for each move (off, 1, 2 or 5 minutes).

A move's time starts when the rules ask a person something new (another entry in the log, or another person
asked) and runs out once. Then the turn passes as the rules allow: what is in hand given up, a question
declined, a granted floor given up, the turn passed (`rules.passing_moves`); where the rules allow no such way
(the family edition gives nothing up), an Easy computer player makes that one move for the person, and is gone
once it is made.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from villa import rules
from villa.match import Match, Strength
from villa.match import events as ev
from villa.match import requests as rq
from villa.match.computer import ComputerSeat

CHOICES = (0, 60, 120, 300)     # seconds a move: off, 1, 2 or 5 minutes


class TurnClock:
    def __init__(self, seconds: int = 0, clock: Callable[[], float] = time.monotonic, aside: bool = False) -> None:
        """`aside`: a stand-in computer player thinks in a worker process."""
        self.seconds = self.nearest(seconds)
        self._clock, self._aside = clock, aside
        self._mark: tuple[int, int | None] | None = None
        self._since = clock()
        self._rang = False
        self._stand_in: ComputerSeat | None = None     # a computer player making one move for a person out of time

    @staticmethod
    def nearest(seconds: int) -> int:
        """The clock's choice nearest to `seconds` (0 stays off)."""
        if seconds <= 0:
            return 0
        return min(CHOICES[1:], key=lambda choice: abs(choice - seconds))

    def watch(self, state: rules.GameState) -> None:
        """A new move asked of someone starts its time."""
        mark = (len(state.log), rules.acting_player(state))
        if mark != self._mark:
            self._mark, self._since, self._rang = mark, self._clock(), False

    def ran_out(self, state: rules.GameState, person: bool) -> bool:
        """True once, when the time of the move asked now (of a person) has run out."""
        self.watch(state)
        if not self.seconds or not person or self._rang or self._clock() - self._since < self.seconds:
            return False
        self._rang = True
        return True

    def left(self) -> float | None:
        """Seconds left for the move asked now (None: no clock)."""
        if not self.seconds:
            return None
        return max(0.0, self.seconds - (self._clock() - self._since))

    def keep(self, match: Match) -> None:
        """Each frame: a person whose move ran out of time passes as the rules allow, or a stand-in makes the move."""
        seat = rules.acting_player(match.state)
        if self._stand_in is not None and (seat != self._stand_in.player or match.over):
            match.remove_driver(self._stand_in)      # the move it made is done
            self._stand_in = None
        person = seat is not None and not match.seat(seat).is_computer
        if not self.ran_out(match.state, person and not match.over and self._stand_in is None):
            return
        match.events.emit(ev.TimeUp(seat))
        moves = rules.passing_moves(match.state, in_hand=match.hand is not None)
        for move in moves:
            if not match.request(rq.request_for(seat, move)).accepted:
                break
        else:
            if moves:
                return
        self._stand_in = ComputerSeat(match, seat, Strength.EASY, self._aside)
        match.add_driver(self._stand_in)
