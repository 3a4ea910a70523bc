"""The turn clock a host may set in the lobby: how long a person has for each move (off, 1, 2 or 5 minutes).

A move's time starts when the rules ask a person something new (another entry in the log, or another person
asked) and runs out once, after which the room makes the turn pass (`Room._watch_the_clock`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from villa import rules

CHOICES = (0, 60, 120, 300)     # seconds a move: off, 1, 2 or 5 minutes


class TurnClock:
    def __init__(self, seconds: int = 0, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = self.nearest(seconds)
        self._clock = clock
        self._mark: tuple[int, int | None] | None = None
        self._since = clock()
        self._rang = False

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
