"""Who acts now, as a game screen sees it: the player the rules ask (chance included: who rolls the seal), whether
a person at this screen acts, and online the person at another screen the game waits for."""

from __future__ import annotations

from villa import rules


class Acting:
    """`here`: the seats played at this screen (online); None: every person's seat (the hot seat)."""

    def __init__(self, match, here: frozenset[int] | None) -> None:
        self.match, self.here = match, here

    def player(self) -> int | None:
        """Who acts now, chance included (who rolls the seal); None once the game is over."""
        return rules.acting_player(self.match.state)

    def person(self) -> bool:
        """Does a person at this screen act now?"""
        player = self.player()
        if self.here is not None:
            return player in self.here
        seat = self.match.seat(player)
        return seat is not None and not seat.is_computer

    def waited_for(self) -> int | None:
        """The person at another screen the rules ask now (online), or None."""
        player = self.player()
        seat = self.match.seat(player)
        if self.here is None or player in self.here or seat is None or seat.is_computer:
            return None
        return player

    def people(self) -> int:
        """The people at this screen (more than one: the mouse is handed over)."""
        if self.here is not None:
            return len(self.here)
        return sum(not seat.is_computer for seat in self.match.setup.seats)
