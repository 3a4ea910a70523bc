"""Online with a turn clock: how long the person asked now has left for their move, as this window counts it.

The server keeps the clock that counts (`villa.online.server.turn_clock`); a window counts from when it heard
the move asked (another entry in the log, or another person asked), which is a round trip later at most, or,
come back in the middle of a move, from the time left the server's table told it, and says the time left on
the status line. When the server's clock runs out, the window hears `TimeUp`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from villa import rules


class MoveClock:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._mark: tuple[int, int | None] | None = None
        self._since = clock()

    def left(self, match, seconds: int, told: list | None = None) -> float | None:
        """Seconds left for the move the rules ask now of a person (`match` a game in play); None: no clock
        (`seconds` 0), a computer player's move, or the game is over. `told`: the server's [log length, player,
        seconds left] of a move, as its table last said."""
        state = match.state
        player = rules.acting_player(state)
        mark = (len(state.log), player)
        if mark != self._mark:
            self._mark, self._since = mark, self._clock()
            if told and len(told) == 3 and (told[0], told[1]) == mark and isinstance(told[2], (int, float)):
                self._since -= max(0.0, seconds - told[2])     # the part of the move gone before this window heard it
        seat = match.seat(player)
        if not seconds or seat is None or seat.is_computer:
            return None
        return max(0.0, seconds - (self._clock() - self._since))
