"""The marks on the base plate while the columns are set up by hand: the blue floor's place (its outline
and a faint blue where it will lie), a red ring round each column at fault, and a ring round the column
under the pointer."""

from __future__ import annotations

import math

from panda3d.core import (Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat, GeomVertexWriter,
                          TransparencyAttrib)

from villa.physics.dimensions import BASE, FLOORS, FloorSpot, column_spec
from villa.presentation.shadows import casts_shadow

MARK_Z = BASE.top_z + 0.04  # marks lie just on the plate
OUTLINE_COLOUR = (0.20, 0.38, 0.95, 0.95)
OUTLINE_LIT = (1.35, 1.35, 1.2, 1.6)    # colour scale of the outline under the pointer or in hand
FILL_COLOUR = (0.25, 0.45, 1.0, 0.18)
RING_COLOUR = (1.0, 0.88, 0.55, 0.9)
FAULT_COLOUR = (0.90, 0.16, 0.08, 0.95)


class PlateMarks:
    """The flat marks drawn on the base plate while arranging: the floor's place, the faults, the pointer's ring."""

    def __init__(self, render) -> None:
        self.root = render.attachNewNode("arranging marks")
        self.root.setLightOff(1)
        self.root.setShaderOff(1)
        self.root.setTransparency(TransparencyAttrib.M_alpha)
        self.root.setDepthWrite(False)
        self.root.setBin("transparent", 20)
        self.root.setTwoSided(True)
        casts_shadow(self.root, False)
        outline = FLOORS[1].outline   # drawn in the floor's own frame, then placed
        self.outline = self.root.attachNewNode("blue floor's place")
        fill = [((0.0, 0.0), a, b) for a, b in zip(outline, outline[1:] + outline[:1])]
        self.outline.attachNewNode(_flat("floor fill", fill, FILL_COLOUR))
        self.outline.attachNewNode(_flat("floor outline", _ribbon(outline, 0.28), OUTLINE_COLOUR))
        self.faults: dict[str, object] = {}     # red rings round the columns at fault
        self._rings: dict[float, object] = {}   # the pointer's rings, one for each size of column
        self.ring = None                        # the pointer's ring last shown

    def place_floor(self, floor: FloorSpot) -> None:
        """The blue floor's place where `floor` says."""
        self.outline.setPosHpr(floor.x, floor.y, MARK_Z, floor.yaw, 0, 0)

    def light_floor(self, lit: bool) -> None:
        """Light the floor's place up (under the pointer, or in hand), or not."""
        if lit != self.outline.hasColorScale():
            if lit:
                self.outline.setColorScale(*OUTLINE_LIT)
            else:
                self.outline.clearColorScale()

    def show_faults(self, faulty: set[str], shown: dict[str, tuple[float, float, float]]) -> None:
        """A red ring round each column in `faulty`, where it is drawn (`shown`: x, y, lift); none round the others."""
        for column in set(self.faults) | faulty:
            ring = self.faults.get(column)
            if ring is None:
                spec = column_spec(column)
                ring = self.faults[column] = self.root.attachNewNode(_flat(
                    "fault ring", _annulus(spec.radius + 0.2, spec.radius + 0.55), FAULT_COLOUR))
                ring.setBin("transparent", 21)
            if column in faulty:
                x, y, _lift = shown[column]
                ring.setPos(x, y, MARK_Z)
                ring.show()
            else:
                ring.hide()

    def show_ring(self, column: str | None, x: float = 0.0, y: float = 0.0) -> None:
        """The pointer's ring round `column` at (x, y); None hides it."""
        if column is None:
            if self.ring is not None:
                self.ring.hide()
            return
        radius = column_spec(column).radius
        if radius not in self._rings:
            node = self.root.attachNewNode(_flat("pointer ring", _annulus(radius + 0.25, radius + 0.6), RING_COLOUR))
            node.setBin("transparent", 22)
            self._rings[radius] = node
        ring = self._rings[radius]
        if ring is not self.ring and self.ring is not None:
            self.ring.hide()
        self.ring = ring
        ring.setPos(x, y, MARK_Z + 0.01)
        ring.show()

    def destroy(self) -> None:
        self.root.removeNode()


def _annulus(inner: float, outer: float, segments: int = 48):
    triangles = []
    for i in range(segments):
        a0, a1 = 2 * math.pi * i / segments, 2 * math.pi * (i + 1) / segments
        p = [(r * math.cos(a), r * math.sin(a)) for r, a in ((inner, a0), (outer, a0), (outer, a1), (inner, a1))]
        triangles += [(p[0], p[1], p[2]), (p[0], p[2], p[3])]
    return triangles


def _ribbon(outline, width: float):
    """Triangles along a closed outline, `width` wide, centred on it."""
    n = len(outline)
    sides = []
    for i in range(n):
        (x0, y0), (x1, y1), (x2, y2) = outline[i - 1], outline[i], outline[(i + 1) % n]
        nx, ny = (y1 - y0) + (y2 - y1), -(x1 - x0) - (x2 - x1)
        length = math.hypot(nx, ny) or 1.0
        nx, ny = nx / length * width / 2, ny / length * width / 2
        sides.append(((x1 - nx, y1 - ny), (x1 + nx, y1 + ny)))
    triangles = []
    for i in range(n):
        (a_in, a_out), (b_in, b_out) = sides[i], sides[(i + 1) % n]
        triangles += [(a_in, a_out, b_out), (a_in, b_out, b_in)]
    return triangles


def _flat(name: str, triangles, rgba) -> GeomNode:
    data = GeomVertexData(name, GeomVertexFormat.getV3c4(), Geom.UH_static)
    vertex, colour = GeomVertexWriter(data, "vertex"), GeomVertexWriter(data, "color")
    prim = GeomTriangles(Geom.UH_static)
    for i, triangle in enumerate(triangles):
        for x, y in triangle:
            vertex.addData3(x, y, 0.0)
            colour.addData4(*rgba)
        prim.addVertices(3 * i, 3 * i + 1, 3 * i + 2)
    geom = Geom(data)
    geom.addPrimitive(prim)
    node = GeomNode(name)
    node.addGeom(geom)
    return node
