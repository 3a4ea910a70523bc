"""What became of a player's moves in flight when its room's server went: the room counts each seat's requests (how
many its game had, how many it refused, the last refusal: the table's `asked`), and the player counts those it sent.
Back with the game on another server, a move sent that the game never had is refused now, in words (it is not sent
again: the player makes it again, seeing the game as it is); one the game had and refused, whose refusal never came,
is told now. Each once; a move the game had is applied there, once."""

from __future__ import annotations

from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.online.wire.codec import WireError


class InFlight:
    def __init__(self) -> None:
        self.sent: dict[int, int] = {}        # seat -> its requests the room has had, counting those sent since
        self._refused_base = 0                # the room's refusals of these seats' requests, when counted
        self._refused_heard = 0               # and those heard since

    def sent_one(self, seat: int) -> None:
        self.sent[seat] = self.sent.get(seat, 0) + 1

    def refused(self, kind: str, code: str) -> None:
        """A refusal heard: one of a request of this player's, if the game (or its table's edge) refused it."""
        if kind in ("rules", "wood") or code == Online.NOT_ON_TABLE.value:
            self._refused_heard += 1

    def seated(self, table: dict, seats) -> None:
        """Sat down (or took a seat back): the room's counts taken as they are."""
        asked = {seat: _asked(table, seat) for seat in seats}
        for seat, (count, _refused, _last) in asked.items():
            self.sent[seat] = count
        self._refused_base = sum(refused for _count, refused, _last in asked.values())
        self._refused_heard = 0

    def back(self, table: dict, seats) -> Exception | None:
        """Back with the game after its server went: the refusal to tell now (None: every move sent was had, and
        every refusal heard); the counts are then taken as the room has them."""
        asked = {seat: _asked(table, seat) for seat in seats}
        lost = sum(self.sent.get(seat, count) - count for seat, (count, _refused, _last) in asked.items())
        missed = sum(refused for _count, refused, _last in asked.values()) - self._refused_base - self._refused_heard
        refusal = None
        if lost > 0:
            refusal = OnlineError(Online.MOVE_LOST)
        elif missed > 0:
            last = next((last for _count, _refused, last in asked.values() if last), None)
            try:
                refusal = protocol.refusal_from(*last) if last else None
            except WireError:
                refusal = None
        self.seated(table, seats)
        return refusal


def _asked(table: dict, seat: int) -> tuple[int, int, list | None]:
    """How the room says a seat's requests went: how many it had, how many it refused, the last refusal."""
    value = table.get("asked", {}).get(str(seat)) if isinstance(table.get("asked"), dict) else None
    if isinstance(value, list) and len(value) == 3 and all(isinstance(n, int) for n in value[:2]):
        return value[0], value[1], value[2] if isinstance(value[2], list) and len(value[2]) == 3 else None
    return 0, 0, None
