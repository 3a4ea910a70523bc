"""The table as a window's game screen reads it online: who is away and for how long the room keeps their seat, who
gave it up for good, whose seat a computer plays, whether this window's person hosts, and whether the window is
cut off from its game (why, who hosted it, when it tries again).

    seats = SeatsNow(player)
    seats.away(1)           # Away(kept_s=540.0, for_good=False): Ben dropped, his seat waits nine minutes more
    seats.stand_in(1)       # a computer plays Ben's seat (the host's choice, or the wait ran out)
    seats.cut_off()         # CutOff(why, host, fleet, next_try_s) while the window looks for its game again

Codes and data only: the presentation words them (`villa.presentation.words`).
"""

from __future__ import annotations

from dataclasses import dataclass

from villa.online.client.player import Player


@dataclass(frozen=True)
class CutOff:
    why: Exception | None
    host: str             # whose window hosted the game ("": the game is played on a server of its own)
    fleet: bool           # the game's server plays in a fleet: its other servers are looked at too
    next_try_s: float     # seconds until the next try (0: trying now)


@dataclass(frozen=True)
class Away:
    kept_s: float         # seconds the room still keeps the seat for its player (then a computer plays it)
    for_good: bool        # they gave it up: it waits for the host's choice only


class SeatsNow:
    def __init__(self, player: Player) -> None:
        self.player = player

    def _row(self, seat: int | None) -> dict:
        rows = self.player.table.get("seats", ())
        if isinstance(seat, int) and 0 <= seat < len(rows) and isinstance(rows[seat], dict):
            return rows[seat]
        return {}

    def away(self, seat: int | None) -> Away | None:
        """A person whose connection dropped, or who gave the seat up (None: here, a computer's, or nobody's)."""
        row = self._row(seat)
        if not row.get("taken") or row.get("here") or row.get("computer"):
            return None
        kept = row.get("kept_s")
        left = float(kept) if isinstance(kept, (int, float)) and not isinstance(kept, bool) else 0.0
        since = max(0.0, self.player._clock() - self.player.table_at)
        return Away(max(0.0, left - since), row.get("left") is True)

    def stand_in(self, seat: int | None) -> bool:
        """A computer plays this person's seat (the host gave it, or its player stayed away too long)."""
        return self._row(seat).get("stand_in") is True

    @property
    def hosting(self) -> bool:
        """This window's person hosts the table: the seats of people who left are theirs to give."""
        return self.player.host_seat in self.player.seats

    def cut_off(self) -> CutOff | None:
        """The window is cut off from its game, looking for it again (None: it is not)."""
        player = self.player
        if player.rejoining is None:
            return None
        why = player.lost_why
        host = str(getattr(why, "values", {}).get("host", "")) or hosted_by(player.table)   # its goodbye, or table
        return CutOff(why, host, len(player.addresses) > 1, player.next_try_in or 0.0)


def hosted_by(table: dict) -> str:
    """The name of the person whose window hosts the room, as its table says ("": a server of its own)."""
    seat, rows = table.get("hosted_at"), table.get("seats", ())
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(rows) \
            or not isinstance(rows[seat], dict):
        return ""
    return str(rows[seat].get("name", ""))
