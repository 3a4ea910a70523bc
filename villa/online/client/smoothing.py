"""The poses a client draws between the ones it hears: the server sends the moving pieces about 30 times a
second; drawn at 60 frames a second and across a network that delivers them unevenly, each piece is shown
a little in the past (`DELAY`), between the two poses heard around that moment.

The server's frame number (`tick`) in each update is the clock: an update that arrives late is still put
where it belongs, and one that arrives out of order is not drawn backwards.

The player's own held column or floor is not shown in the past: it is drawn at the pointer at once (`hold`,
`aim`), a round trip before the server has carried the aim out. Each update says how many of this player's
requests the server had carried out (`done`); the held piece's distance then from where those aims put it
(the hand's spring, a column that sticks or is blocked) is blended in over `BLEND_S`, so a piece at rest is
drawn where the server has it. A piece lowered onto the villa and still in the hand (`rests_in_hand`) is where
the server's wood says (it sits or tips): it is drawn at the newest pose heard, not in the past, so what the
pointer does to it shows a round trip and a pose later. When the hand lets go (or a refusal says it never held
it), the piece blends back into the poses heard, over `BLEND_S`.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from villa.match import FRAME
from villa.online.protocol import Pose

DELAY = 3 * 2 * FRAME       # s behind the newest pose: three pose intervals of 1/30 s, what jitter may take
KEPT = 8                    # poses kept per piece
BLEND_S = 0.15              # s over which the server's word on the held piece (or its release) is blended in


@dataclass
class Held:
    """The player's own held piece, drawn ahead of the server: where the pointer puts it in x and y."""

    piece: str
    offset: tuple[float, float]               # the piece's centre from the grabbed point (a floor: its centre)
    aims: list[tuple[int, tuple[float, float]]] = field(default_factory=list)   # (request number, x, y)
    started: int = 0                          # the request number of the take (or of laying the floor)
    error: tuple[float, float] = (0.0, 0.0)   # the server's pose less where the aims it had put the piece
    was: tuple[float, float] = (0.0, 0.0)     # the error drawn when the newest one was heard
    since: float = 0.0                        # when it was heard

    def drawn_error(self, now: float) -> tuple[float, float]:
        part = min(max((now - self.since) / BLEND_S, 0.0), 1.0)
        return tuple(w + (e - w) * part for w, e in zip(self.was, self.error))

    def aimed(self, done: int) -> tuple[float, float] | None:
        """Where the aims the server had carried out (`done` requests) put the grabbed point."""
        point = None
        for number, xy in self.aims:
            if number > done:
                break
            point = xy
        return point


class Smoothing:
    def __init__(self, delay: float = DELAY) -> None:
        self.delay = delay
        self._heard: dict[str, deque[tuple[float, Pose]]] = {}
        self._offset: float | None = None     # our clock minus the server's, at its least (the fastest update)
        self.held: Held | None = None
        self.resting: str | None = None       # our piece lowered onto the villa, still in the hand
        self._let_go: tuple[str, Pose, float] | None = None   # a piece let go: where it was drawn, and when

    def heard(self, tick: int, poses: dict[str, Pose], now: float, done: int | None = None) -> None:
        """Poses the server sent of frame `tick`; `done`: how many of this player's requests it had carried out
        (None: it is not this player's hand)."""
        at = tick * FRAME
        self._offset = now - at if self._offset is None else min(self._offset, now - at)
        for piece, pose in poses.items():
            kept = self._heard.setdefault(piece, deque(maxlen=KEPT))
            if kept and at <= kept[-1][0]:
                continue     # late and overtaken: what it says is already past
            kept.append((at, pose))
        held = self.held
        if held is not None and done is not None and done >= held.started and held.piece in poses:
            aimed = held.aimed(done)
            if aimed is not None:
                (x, y, _z), _quat = poses[held.piece]
                held.was, held.since = held.drawn_error(now), now
                held.error = (x - aimed[0] - held.offset[0], y - aimed[1] - held.offset[1])

    def anew(self) -> None:
        """The villa whole is heard (on entering, a villa built anew): the poses heard before are no piece's way to
        where it stands now, and no piece is drawn ahead of them (a piece back in hand is held again)."""
        self._heard.clear()
        self.held = self.resting = self._let_go = None

    # --- the player's own hand ---

    def hold(self, piece: str, point: tuple[float, float, float] | None, number: int, now: float) -> None:
        """This player asked (request `number`) to hold `piece` at `point` (a floor: None, held by its centre)."""
        offset = (0.0, 0.0)
        kept = self._heard.get(piece)
        if point is not None and kept:
            (x, y, _z), _quat = kept[-1][1]
            offset = (x - point[0], y - point[1])
        self.held = Held(piece, offset, started=number, since=now)
        self.resting = None
        self._let_go = None
        if point is not None:
            self.held.aims.append((number, (point[0], point[1])))

    def aim(self, point: tuple[float, float, float], number: int) -> None:
        """This player moved the held piece's grabbed point toward `point` (request `number`)."""
        if self.held is not None:
            self.held.aims.append((number, (point[0], point[1])))
            del self.held.aims[:-64]      # the server carries aims out a round trip late: a few dozen at most

    def let_go(self, now: float) -> None:
        """The hand let go (or never held): the piece blends back into the poses heard."""
        piece = self.held.piece if self.held is not None else self.resting
        if piece is None:
            return
        drawn = self.pose(piece, now)
        self.held = self.resting = None
        if drawn is not None:
            self._let_go = (piece, drawn, now)

    def rests_in_hand(self, now: float) -> None:
        """The held piece was lowered onto the villa and the hand holds it there: drawn as the server has it now."""
        if self.held is None:
            return
        piece = self.held.piece
        self.let_go(now)
        self.resting = piece

    def pose(self, piece: str, now: float) -> Pose | None:
        """Where to draw `piece` at `now` (our clock); None: never heard of."""
        held = self.held
        if held is not None and held.piece == piece and held.aims and self._heard.get(piece):
            return self._ahead(held, now)
        shown = self._heard[piece][-1][1] if piece == self.resting and self._heard.get(piece) else self._shown(piece, now)
        if self._let_go is not None and self._let_go[0] == piece and shown is not None:
            part = (now - self._let_go[2]) / BLEND_S
            if part < 1.0:
                return _between(self._let_go[1], shown, max(part, 0.0))
            self._let_go = None
        return shown

    def _ahead(self, held: Held, now: float) -> Pose:
        """The held piece where the newest aim puts it, with the server's word on it blended in."""
        (_x, _y, z), quat = self._heard[held.piece][-1][1]
        x, y = held.aims[-1][1]
        error = held.drawn_error(now)
        return (x + held.offset[0] + error[0], y + held.offset[1] + error[1], z), quat

    def _shown(self, piece: str, now: float) -> Pose | None:
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
