"""A seat online kept in the settings, so that a window closed or killed can take it back (Rejoin, Continue)."""

from __future__ import annotations

import time
from dataclasses import replace

from villa.online.client import Player
from villa.online.protocol import Online, OnlineError
from villa.online.server import REJOIN_S
from villa.presentation.preferences import KeptSeat

KEEP_EVERY_S = 30.0       # the kept seat's time is brought up to date this often while connected


def kept_seat_waits(kept: KeptSeat | None, now: float) -> bool:
    """Whether a kept seat may still wait for its player (the server keeps it REJOIN_S after they dropped)."""
    return kept is not None and 0 <= now - kept.at < REJOIN_S


class SeatKept:
    """The one seat a window keeps in its settings: kept while its game is played on a server (not one hosted
    in this window, which goes with it), forgotten when the game is over, the host took it, or it waited too
    long."""

    def __init__(self, front) -> None:
        self.front = front
        self._kept_at = 0.0

    def waiting(self) -> KeptSeat | None:
        """The seat kept, while its game may still wait for it (an older one is forgotten)."""
        kept = self.front.settings.kept_seat
        if kept is not None and not kept_seat_waits(kept, time.time()):
            self.forget()
            kept = None
        return kept

    def keep(self, player: Player, address: str) -> None:
        """The player's first seat, kept with its token; brought up to date every `KEEP_EVERY_S`."""
        if not player.seats or (player.state is not None and player.state.over):
            return
        seat, token = next(iter(sorted(player.seats.items())))
        front = self.front
        kept = front.settings.kept_seat
        now = time.time()
        if kept is not None and (kept.code, kept.seat, kept.token) == (player.code, seat, token) \
                and now - self._kept_at < KEEP_EVERY_S:
            return
        self._kept_at = now
        front.apply_settings(replace(front.settings, kept_seat=KeptSeat(address, player.code, seat, token, now)))

    def forget(self) -> None:
        if self.front.settings.kept_seat is not None:
            self.front.apply_settings(replace(self.front.settings, kept_seat=None))

    def taken_away(self, trouble) -> None:
        """The host took this player's seat (sent them away, or gave it to a computer): none is kept to rejoin."""
        if isinstance(trouble, OnlineError) and trouble.code in (Online.SENT_AWAY, Online.SEAT_GIVEN):
            self.forget()
