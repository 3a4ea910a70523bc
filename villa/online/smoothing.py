"""The poses a client draws between the ones it hears: the server sends the moving pieces about 30 times a
second; drawn at 60 frames a second and across a network that delivers them unevenly, each piece is shown
a little in the past (`DELAY`), between the two poses heard around that moment.

The server's frame number (`tick`) in each update is the clock: an update that arrives late is still put
where it belongs, and one that arrives out of order is not drawn backwards.
"""

from __future__ import annotations

import math
from collections import deque

from villa.match import FRAME
from villa.online.protocol import Pose

DELAY = 3 * 2 * FRAME       # s behind the newest pose: three pose intervals of 1/30 s, what jitter may take
KEPT = 8                    # poses kept per piece


class Smoothing:
    def __init__(self, delay: float = DELAY) -> None:
        self.delay = delay
        self._heard: dict[str, deque[tuple[float, Pose]]] = {}
        self._offset: float | None = None     # our clock minus the server's, at its least (the fastest update)

    def heard(self, tick: int, poses: dict[str, Pose], now: float) -> None:
        at = tick * FRAME
        self._offset = now - at if self._offset is None else min(self._offset, now - at)
        for piece, pose in poses.items():
            kept = self._heard.setdefault(piece, deque(maxlen=KEPT))
            if kept and at <= kept[-1][0]:
                continue     # late and overtaken: what it says is already past
            kept.append((at, pose))

    def pose(self, piece: str, now: float) -> Pose | None:
        """Where to draw `piece` at `now` (our clock); None: never heard of."""
        kept = self._heard.get(piece)
        if not kept:
            return None
        when = now - (self._offset or 0.0) - self.delay
        if when <= kept[0][0]:
            return kept[0][1]
        for (t0, p0), (t1, p1) in zip(kept, list(kept)[1:]):
            if t0 <= when <= t1:
                return _between(p0, p1, (when - t0) / (t1 - t0))
        return kept[-1][1]      # nothing newer yet: stay where it was last seen


def _between(a: Pose, b: Pose, f: float) -> Pose:
    (pa, qa), (pb, qb) = a, b
    if sum(x * y for x, y in zip(qa, qb)) < 0:      # the shorter way round
        qb = tuple(-v for v in qb)
    pos = tuple(x + (y - x) * f for x, y in zip(pa, pb))
    quat = tuple(x + (y - x) * f for x, y in zip(qa, qb))
    norm = math.sqrt(sum(v * v for v in quat)) or 1.0
    return pos, tuple(v / norm for v in quat)
