"""The pieces as simple shapes for the shaders: each column a rod on its axis, the base plate and
each floor a disc of its own area. They give ambient occlusion (Medium, High) and, at Low,
the villa's shadow on the table without a shadow map.

The arrays are handed to the shaders once and then filled in place when something moves:
a new shader input every frame would make a new render state every frame.
"""

from __future__ import annotations

import math

from panda3d.core import PTA_LVecBase4f, Point3, Vec3, Vec4

from villa.physics import dimensions as dim
from villa.presentation.shading import MAX_COLUMNS, MAX_DISCS
from villa.rules.pieces import floor_id

DISC_RADIUS = {"base": dim.BASE.radius,
               **{floor_id(level): math.sqrt(spec.area / math.pi) for level, spec in dim.FLOORS.items()}}


class Occluders:
    def __init__(self) -> None:
        self.column_a = PTA_LVecBase4f.emptyArray(MAX_COLUMNS)
        self.column_b = PTA_LVecBase4f.emptyArray(MAX_COLUMNS)
        self.discs = PTA_LVecBase4f.emptyArray(MAX_DISCS)
        self.count = PTA_LVecBase4f.emptyArray(1)

    def bind(self, node) -> None:
        node.setShaderInput("column_a", self.column_a)
        node.setShaderInput("column_b", self.column_b)
        node.setShaderInput("discs", self.discs)
        node.setShaderInput("occluder_count", self.count)

    def update(self, pieces: dict, render) -> None:
        """From the pieces shown (id -> node)."""
        columns = discs = 0
        for piece, node in pieces.items():
            if node.isHidden():
                continue
            if piece in DISC_RADIUS:
                if discs < MAX_DISCS:
                    centre = node.getPos(render)
                    self.discs[discs] = Vec4(centre.x, centre.y, centre.z, DISC_RADIUS[piece])
                    discs += 1
            elif columns < MAX_COLUMNS:
                spec = dim.column_spec(piece)
                mat = node.getMat(render)
                half = mat.xformVec(Vec3(0, 0, spec.height / 2))
                centre = mat.xformPoint(Point3(0, 0, 0))
                a, b = centre - half, centre + half
                radius = spec.radius if not spec.sides else spec.across_flats / 2 * 1.05
                self.column_a[columns] = Vec4(a.x, a.y, a.z, radius)
                self.column_b[columns] = Vec4(b.x, b.y, b.z, 0.0)
                columns += 1
        self.count[0] = Vec4(columns, discs, 0, 0)
