"""A room's news held back until what it tells is kept where another server would find it.

In a fleet, every request a room's game is given goes to Redis before its people hear what came of it (the
write-ahead journal, `villa.online.server.journal`): a server killed after telling a move then loses no move a
player saw. The room's writes are numbered (tickets, from its place in the fleet); news sent after a write was
asked for waits here, in order, until that write is known done. A server on its own writes nothing ahead and
holds nothing back.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

Send = Callable[[int, object], None]


class Gate:
    def __init__(self, send: Send) -> None:
        self._send = send
        self.asked = 0           # the newest write whose news must wait for it
        self.done = 0            # the newest write known done
        self._held: deque[tuple[int, int, object]] = deque()

    def send(self, client: int, message) -> None:
        if self.asked > self.done:
            self._held.append((self.asked, client, message))
        else:
            self._send(client, message)

    def wait_for(self, ticket: int | None) -> None:
        """News from now on waits for write `ticket` (None: nothing to wait for)."""
        if ticket is not None and ticket > self.asked:
            self.asked = ticket

    def written(self, ticket: int) -> None:
        """Write `ticket` is done (and every one before it): the news that waited for them goes out."""
        if ticket <= self.done:
            return
        self.done = ticket
        held = self._held
        while held and held[0][0] <= ticket:
            _ticket, client, message = held.popleft()
            self._send(client, message)

    @property
    def holding(self) -> int:
        return len(self._held)

    def drop(self) -> None:
        """The room is let go: what was never written is never told."""
        self._held.clear()
