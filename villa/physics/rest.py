"""Watching for rest: when the villa may be put to sleep.

Judged by displacement, not speed: a resting piece's speed flickers (a step without contact
force is 2 cm/s of gravity), while a floor pivoting slowly on its edge has a slow centre but a
rim that travels.
"""

from __future__ import annotations

import math
import weakref

from panda3d.core import NodePath, Point3, Quat

from villa.physics.dimensions import COLUMN_HEIGHT, FLOOR_THICKNESS, FLOORS, column_spec
from villa.physics.pieces import FLOOR_LEVELS, STEP
from villa.rules.pieces import COLUMNS_BY_ID

QUIET_S = 0.5               # the villa is put to sleep once no piece has moved for this long ...
REST_MOVE = 0.01            # cm: ... further than this at any point of it (its rim: the turn
                            # times its reach, and the shift). A resting piece jumps by up to a
                            # step of gravity (g·step², 0.04 mm) when a step's contact force
                            # flickers to nothing; a floor tipping from 0.03 mm past its edge
                            # moves its rim seven times as far in half a second
JITTER_S = 2.0              # ... or once no point of any piece strays further than
REST_JITTER = 0.05          # cm from where it stood this long ago: a piece trembling about a fixed
                            # pose (a column stood on a column on the red floor rocks by a few
                            # hundredths of a millimetre for ever) is at rest, where one that tips
                            # or creeps keeps going one way and leaves this far behind
REST_MOVE_FALLEN = 0.5      # cm: ... or than this once the villa has collapsed: the heap has
                            # nothing anchored, and its pieces crawl over each other and the table
FALLEN_REST_S = 4.0         # and a collapsed villa is put to rest this long after it fell, whatever
                            # still rolls (Bullet 2.84 in Panda3D has no rolling friction)

# the farthest any point of each piece lies from its centre of mass (cm)
_REACH = {**{piece: math.hypot(FLOORS[level].radius, FLOOR_THICKNESS / 2) for piece, level in FLOOR_LEVELS.items()},
          **{column: math.hypot(COLUMN_HEIGHT / 2, column_spec(column).radius) for column in COLUMNS_BY_ID}}


class RestWatch:
    """Watches the villa come to rest: no point of any piece moving `REST_MOVE` in `QUIET_S`, every piece
    only trembling in place, or a fallen villa lain `FALLEN_REST_S`."""

    def __init__(self, villa) -> None:
        self.villa = weakref.proxy(villa)   # the villa holds its watch (see `CollapseWatch`)
        self.forget()

    def forget(self) -> None:
        """Watch afresh from the next check (the villa fell asleep, or a hand is on it)."""
        self._still_since: dict[str, tuple[Point3, Quat]] = {}
        self._still_ticks = 0
        self._jitter_since: dict[str, tuple[Point3, Quat]] = {}
        self._jitter_ticks = 0

    def at_rest(self) -> bool:
        """Has the villa come to rest? Asked at every check while some body is awake and no hand is on it."""
        villa = self.villa
        moved = not self._still_since
        limit = REST_MOVE if villa.collapse is None else REST_MOVE_FALLEN
        for piece, np in villa.nodes.items():
            if piece not in _REACH:
                continue  # the base plate, the table
            start = self._still_since.get(piece)
            if start is None or _moved(np, start, _REACH[piece]) > limit:
                moved = True
                break
        fallen = villa.collapse is not None and villa.time - villa.collapse.at_s >= FALLEN_REST_S
        if moved and not fallen:
            self._still_since = _poses(villa.nodes)
            self._still_ticks = villa.ticks
        elif fallen or (villa.ticks - self._still_ticks) * STEP >= QUIET_S - 1e-9:
            return True
        return villa.collapse is None and self._trembles_in_place()

    def _trembles_in_place(self) -> bool:
        """Has every piece stayed within `REST_JITTER` of where it stood `JITTER_S` ago? (Judged
        once per `JITTER_S`; the reference poses are then taken anew.)"""
        nodes = self.villa.nodes
        if not self._jitter_since:
            self._jitter_since = _poses(nodes)
            self._jitter_ticks = self.villa.ticks
            return False
        if (self.villa.ticks - self._jitter_ticks) * STEP < JITTER_S - 1e-9:
            return False
        still = all(_moved(nodes[p], start, _REACH[p]) <= REST_JITTER
                    for p, start in self._jitter_since.items() if p in nodes)
        self._jitter_since = {}
        return still


def _poses(nodes: dict[str, NodePath]) -> dict[str, tuple[Point3, Quat]]:
    """Where each movable piece stands now."""
    return {p: (np.getPos(), np.getQuat()) for p, np in nodes.items() if p in _REACH}


def _moved(np, start: tuple[Point3, Quat], reach: float) -> float:
    """How far any point of a piece within `reach` of its centre has moved since `start` (at most).

    The turn is read off the vector part of the quaternion between the two poses (twice its
    length, the angle): an arccosine of their dot product would drown a small turn in the
    rounding of single precision."""
    pos, quat = start
    turn = quat.conjugate() * np.getQuat()
    return (np.getPos() - pos).length() + 2 * math.sqrt(turn[1] ** 2 + turn[2] ** 2 + turn[3] ** 2) * reach
