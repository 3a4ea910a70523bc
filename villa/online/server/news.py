"""What the people in a room are told: on entering, everything (the table, the rules' state, the villa,
the hand); then each change as it comes, in the order the game had it: the referee's moves (each player's
own copy of the rules applies them), the events the moves do not tell (a fact refused, a fall, a round
begun, a turn settled, a piece touching down or let go), the table when it changes, the villa's poses
30 times a second while anything moves, the hand when it changes, and the finished game's record.

Nothing is sent while the villa rests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from villa import rules
from villa.online import protocol
from villa.online.wire import messages as m

POSES_EVERY = 2           # frames between pose updates: 30 a second at the villa's 60
STILL_CM = 0.005          # a piece that moved less than this (or turned less than STILL_QUAT) has not moved
STILL_QUAT = 2e-5

Send = Callable[[int, object], None]


class News:
    """The news of one room. `send(client, message)` puts a message on one connection's way."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.audience: set[int] = set()       # the connections in the room
        self._sent: dict[str, protocol.Pose] = {}
        self._still = None                    # the villa, if it was at rest when its poses were last looked at
        self._hand: tuple | None = None       # the hand as last sent (None: send it again)

    def to(self, clients: Iterable[int], messages) -> None:
        """The same messages (the very objects: framed once for them all) to each of these connections."""
        for client in list(clients):
            for message in messages:
                self._send(client, message)

    def to_all(self, *messages) -> set[int]:
        """To everyone here; returns who it went to."""
        told = set(self.audience)
        self.to(told, messages)
        return told

    # --- whole ---

    def state(self, state: rules.GameState) -> None:
        self.to_all(m.State(protocol.pack_state(state)))

    def villa(self, match, tick: int) -> None:
        """The villa whole (the game's start, a villa built anew): every screen knows where each piece is."""
        self._sent = protocol.poses_of(match.villa)
        self._still = None
        self.to_all(m.Villa(tick, protocol.pack_poses(self._sent)))

    # --- as it happens ---

    def moves(self, at: int, moves) -> None:
        self.to_all(m.Moves(at, protocol.pack_moves(moves)))

    def event(self, event) -> None:
        packed = protocol.pack_event(event)
        if packed is not None:
            self.to_all(m.Event(packed))

    def woken(self) -> None:
        """A request may have moved something: the poses are looked at again, and the hand sent again (its sender
        hears the answer to it, counted)."""
        self._still = None
        self._hand = None

    def frame(self, match, tick: int, holder: tuple[int, int]) -> None:
        """After a frame of the match: the poses that moved and the hand, every `POSES_EVERY` frames."""
        if tick % POSES_EVERY:
            return
        villa = match.villa
        if not (villa.still and self._still is villa):
            self._still = villa if villa.still else None
            moved = {p: pose for p, pose in protocol.poses_of(villa).items() if _moved(self._sent.get(p), pose)}
            if moved:
                self._sent.update(moved)
                self.to_all(m.Poses(tick, *holder, protocol.pack_poses(moved)))
        message = self.hand_message(match, tick, holder)
        key = (message.holder, message.done, message.grip, message.strain, message.steadied, message.touching,
               message.tilt)
        if key != self._hand:
            self._hand = key
            self.to_all(message)

    @staticmethod
    def hand_message(match, tick: int, holder: tuple[int, int]) -> m.Hand:
        news = protocol.hand_news(match.hand)
        level = protocol.level_of_floor(news.steadied) if news.steadied else 0
        return m.Hand(tick, *holder, news.grip, news.strain, level or 0, protocol.pack_touching(news.touching),
                      news.tilt)

    @staticmethod
    def record_messages(record) -> list[m.Record]:
        """The finished game, as everyone here is sent it (each player keeps its replay)."""
        parts = protocol.record_parts(record)
        return [m.Record(number, len(parts), part) for number, part in enumerate(parts)]


def _moved(before: protocol.Pose | None, after: protocol.Pose) -> bool:
    """Spelled out rather than looped: every moving room asks it of every piece, 30 times a second."""
    if before is None:
        return True
    (x0, y0, z0), (w0, i0, j0, k0) = before
    (x1, y1, z1), (w1, i1, j1, k1) = after
    return (abs(x0 - x1) > STILL_CM or abs(y0 - y1) > STILL_CM or abs(z0 - z1) > STILL_CM
            or abs(w0 - w1) > STILL_QUAT or abs(i0 - i1) > STILL_QUAT or abs(j0 - j1) > STILL_QUAT
            or abs(k0 - k1) > STILL_QUAT)
