"""The builder's eye, a learning aid (Settings; off by default): where each floor's load lies and
the outline of what holds it up, read off the physics' statics (`villa.physics.loads`).

Over each floor: a cross where its load lies (its weight and all that stands on it), and the
outline round the tops of the columns carrying it, green while the load lies inside, red when
it lies outside (it tips). While a floor is laid, the same for the floor in hand over the
columns it would rest on; while a column is pulled, the floors it carries are drawn as they
would stand without it, so a player sees which would lose a support and whether they would tip.
"""

from __future__ import annotations

from dataclasses import dataclass

from panda3d.core import LineSegs, NodePath

from villa.physics import geometry, loads
from villa.physics.dimensions import FLOORS
from villa.presentation.sight import Drawing, polyline, ring
from villa.rules.pieces import level_of_floor

STANDS = (0.45, 1.0, 0.5, 1.0)     # the load inside the outline of its supports
TIPS = (1.0, 0.35, 0.3, 1.0)       # outside: without more support the floor tips
LOAD = (1.0, 0.92, 0.55, 1.0)      # where the load lies
CROSS = 1.2                        # cm: half the load's cross
LIFT = 0.08                        # cm above the tops the lines are drawn (no flicker on the wood)


@dataclass(frozen=True)
class LoadOutline:
    """One floor as the eye draws it: its load at (x, y), the hull of its supports' tops, at height z."""

    floor: str
    x: float
    y: float
    z: float
    hull: tuple[tuple[float, float], ...]

    @property
    def stands(self) -> bool:
        return len(self.hull) >= 3 and geometry.hull_margin(list(self.hull), self.x, self.y) > 0

    def key(self) -> tuple:
        return (self.floor, round(self.x, 2), round(self.y, 2), round(self.z, 2),
                tuple((round(a, 2), round(b, 2)) for a, b in self.hull))


def laying_outline(villa, lay) -> LoadOutline:
    """The floor in hand (a `FloorInHand`) over the columns of `villa` it would rest on where it is now."""
    nodes = villa.nodes
    spots = [(nodes[c].getX(), nodes[c].getY()) for c in sorted(lay.columns_under())]
    return LoadOutline(lay.piece, lay.x, lay.y, lay.rest_z, tuple(geometry.convex_hull(spots)))


def villa_outlines(villa, resting: loads.Resting, pulled: str | None = None) -> list[LoadOutline]:
    """Every laid floor over its supports; with `pulled` (the column being drawn out) only the floors it
    carries, over their other supports: the floors that would lose one."""
    shown = []
    for floor, supports in resting.supports.items():
        if pulled is not None and all(s.column != pulled for s in supports):
            continue
        _, x, y = resting.loads[floor]
        z = villa.nodes[floor].getZ() - FLOORS[level_of_floor(floor)].thickness / 2
        spots = [(s.x, s.y) for s in supports if s.column != pulled]
        shown.append(LoadOutline(floor, x, y, z, tuple(geometry.convex_hull(spots))))
    return shown


class BuildersEye:
    def __init__(self, parent: NodePath) -> None:
        self.drawing = Drawing(parent, "builder's eye", sort=45)
        self._poses: object = None
        self._resting: loads.Resting | None = None

    def show_laying(self, villa, lay) -> None:
        self._draw([laying_outline(villa, lay)])

    def show_villa(self, villa, pulled: str | None = None) -> None:
        self._draw(villa_outlines(villa, self._statics(villa), pulled))

    def _statics(self, villa) -> loads.Resting:
        """The statics, worked out again only when a piece has moved."""
        poses = tuple((p, tuple(round(v, 2) for v in pos)) for p, (pos, _) in sorted(villa.poses().items()))
        if poses != self._poses or self._resting is None:
            self._poses, self._resting = poses, loads.resting(villa)
        return self._resting

    def _draw(self, outlines: list[LoadOutline]) -> None:
        def make(lines: LineSegs) -> None:
            for shown in outlines:
                z = shown.z + LIFT
                lines.setColor(*(STANDS if shown.stands else TIPS))
                polyline(lines, list(shown.hull), z, closed=len(shown.hull) > 2)
                lines.setColor(*LOAD)
                lines.moveTo(shown.x - CROSS, shown.y, z)
                lines.drawTo(shown.x + CROSS, shown.y, z)
                lines.moveTo(shown.x, shown.y - CROSS, z)
                lines.drawTo(shown.x, shown.y + CROSS, z)
                ring(lines, shown.x, shown.y, z, CROSS * 0.6)

        self.drawing.draw(tuple(shown.key() for shown in outlines), make)

    def hide(self) -> None:
        self.drawing.clear()

    def close(self) -> None:
        self.drawing.close()
