"""The builder's eye, a learning aid (Settings; off by default): where each floor's load lies and
the outline of what holds it up, read off the physics' statics (`villa.physics.loads`).

Over each floor: a cross where its load lies (its weight and all that stands on it), and the
outline round the tops of the columns carrying it, green while the load lies inside, red when
it lies outside (it tips). While a floor is laid, the same for the floor in hand over the
columns it would rest on; while a column is pulled, the floors it carries are drawn as they
would stand without it, so a player sees which would lose a support and whether they would tip.
"""

from __future__ import annotations

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


class BuildersEye:
    def __init__(self, parent: NodePath) -> None:
        self.drawing = Drawing(parent, "builder's eye", sort=45)
        self._poses: object = None
        self._resting: loads.Resting | None = None

    def show_laying(self, lay) -> None:
        """The floor in hand (a `FloorLay`) over the columns it would rest on now."""
        villa = lay.villa
        spots = [(villa.nodes[c].getX(), villa.nodes[c].getY()) for c in sorted(lay.columns_under())]
        self._draw([(lay.x, lay.y, lay.rest_z, spots)])

    def show_villa(self, villa, pulled: str | None = None) -> None:
        """Every laid floor over its supports; `pulled`: the column being drawn out, left out of the
        supports of the floors it carries (drawn alone: which floors would lose a support)."""
        resting = self._statics(villa)
        shown = []
        for floor, supports in resting.supports.items():
            carried = any(s.column == pulled for s in supports)
            if pulled is not None and not carried:
                continue
            _, x, y = resting.loads[floor]
            node = villa.nodes[floor]
            z = node.getZ() - FLOORS[level_of_floor(floor)].thickness / 2
            shown.append((x, y, z, [(s.x, s.y) for s in supports if s.column != pulled]))
        self._draw(shown)

    def _statics(self, villa) -> loads.Resting:
        """The statics, worked out again only when a piece has moved."""
        poses = tuple((p, tuple(round(v, 2) for v in pos)) for p, (pos, _) in sorted(villa.poses().items()))
        if poses != self._poses or self._resting is None:
            self._poses, self._resting = poses, loads.resting(villa)
        return self._resting

    def _draw(self, floors: list[tuple[float, float, float, list[tuple[float, float]]]]) -> None:
        """For each floor: its load at (x, y), drawn at height z over the hull of its support spots."""
        key = tuple((round(x, 2), round(y, 2), round(z, 2), tuple((round(a, 2), round(b, 2)) for a, b in spots))
                    for x, y, z, spots in floors)

        def make(lines: LineSegs) -> None:
            for x, y, z, spots in floors:
                hull = geometry.convex_hull(spots)
                inside = len(hull) >= 3 and geometry.hull_margin(hull, x, y) > 0
                lines.setColor(*(STANDS if inside else TIPS))
                polyline(lines, hull, z + LIFT, closed=len(hull) > 2)
                lines.setColor(*LOAD)
                lines.moveTo(x - CROSS, y, z + LIFT)
                lines.drawTo(x + CROSS, y, z + LIFT)
                lines.moveTo(x, y - CROSS, z + LIFT)
                lines.drawTo(x, y + CROSS, z + LIFT)
                ring(lines, x, y, z + LIFT, CROSS * 0.6)

        self.drawing.draw(key, make)

    def hide(self) -> None:
        self.drawing.clear()

    def close(self) -> None:
        self.drawing.close()

