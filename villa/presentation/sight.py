"""What a builder sees while laying a floor: the carried floor see-through, its outline drawn
again at the height of the column tops, and a ring round each top it would touch.

The outline and the rings are drawn over everything (no depth test, unlit, after every piece),
so the tops beneath the floor show from any angle, at Low on a software renderer as at High;
the floor itself stays in the picture, faint, so its edge still reads against the villa.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from panda3d.core import LineSegs, NodePath, TransparencyAttrib, Vec4

from villa.match.face import is_floor
from villa.physics import laying
from villa.presentation.shadows import casts_shadow
from villa.rules.pieces import level_of_floor

SEE_THROUGH = Vec4(1, 1, 1, 0.4)     # the carried floor's tint: its wood shows, the tops through it
OUTLINE = (1.0, 0.95, 0.8, 0.9)      # the floor's outline at the tops' height
TOP_RING = (0.45, 0.8, 1.0, 1.0)     # a top the floor would rest on
LINE_WIDTH = 2.5                     # pixels
RING_SEGMENTS = 20
OVERLAY_BIN = "fixed"                # drawn after the opaque pieces and the see-through ones


def overlay(parent: NodePath, name: str, sort: int = 40) -> NodePath:
    """A node for lines drawn over the villa: unlit, no shader, no depth test, no shadow."""
    node = parent.attachNewNode(name)
    node.setShaderOff(1)
    node.setLightOff(1)
    node.setTextureOff(1)
    node.setDepthTest(False)
    node.setDepthWrite(False)
    node.setBin(OVERLAY_BIN, sort)
    node.setTransparency(TransparencyAttrib.M_alpha)
    node.setCollideMask(0)
    casts_shadow(node, False)
    return node


def polyline(lines: LineSegs, points: Sequence[tuple[float, float]], z: float, closed: bool = True) -> None:
    if not points:
        return
    lines.moveTo(points[0][0], points[0][1], z)
    for x, y in points[1:]:
        lines.drawTo(x, y, z)
    if closed:
        lines.drawTo(points[0][0], points[0][1], z)


def ring(lines: LineSegs, x: float, y: float, z: float, radius: float) -> None:
    polyline(lines, [(x + radius * math.cos(a), y + radius * math.sin(a))
                     for a in (2 * math.pi * i / RING_SEGMENTS for i in range(RING_SEGMENTS))], z)


class Drawing:
    """One overlay's lines, made anew only when what they show changes."""

    def __init__(self, parent: NodePath, name: str, sort: int = 40) -> None:
        self.root = overlay(parent, name, sort)
        self._drawn: NodePath | None = None
        self._key: object = None

    def draw(self, key: object, make) -> None:
        """`make(lines)` draws into a fresh LineSegs, unless `key` is what was drawn last."""
        if key == self._key and self._drawn is not None:
            self.root.show()
            return
        self.clear()
        lines = LineSegs("lines")
        lines.setThickness(LINE_WIDTH)
        make(lines)
        self._drawn = self.root.attachNewNode(lines.create())
        self._key = key
        self.root.show()

    def clear(self) -> None:
        if self._drawn is not None:
            self._drawn.removeNode()
        self._drawn, self._key = None, None
        self.root.hide()

    def close(self) -> None:
        self.root.removeNode()


class FloorSight:
    """The carried floor made see-through, its outline at the tops' height and rings round the tops
    it would rest on (`show` each frame while it is carried, `hide` after)."""

    def __init__(self, parent: NodePath) -> None:
        self.drawing = Drawing(parent, "floor sight")
        self.floor: NodePath | None = None

    def show(self, floor: NodePath, outline: Iterable[tuple[float, float]], tops_z: float,
             tops: Iterable[tuple[float, float, float]]) -> None:
        """`floor`: the carried floor's node; `outline`: its outline in the world (x, y); `tops`: the
        (x, y, radius) of each top it would touch, all at the height `tops_z`."""
        self._see_through(floor)
        outline = [(round(x, 2), round(y, 2)) for x, y in outline]
        tops = sorted((round(x, 2), round(y, 2), r) for x, y, r in tops)

        def make(lines: LineSegs) -> None:
            lines.setColor(*OUTLINE)
            polyline(lines, outline, tops_z + 0.05)
            lines.setColor(*TOP_RING)
            for x, y, r in tops:
                ring(lines, x, y, tops_z + 0.05, r)
                ring(lines, x, y, tops_z + 0.05, r * 0.55)

        self.drawing.draw((tuple(outline), round(tops_z, 2), tuple(tops)), make)

    def show_held(self, outline: Iterable[tuple[float, float]], z: float) -> None:
        """The outline of a floor held steady over the column drawn out from under it (Space)."""
        self._solid()
        outline = [(round(x, 2), round(y, 2)) for x, y in outline]

        def make(lines: LineSegs) -> None:
            lines.setColor(*TOP_RING)
            polyline(lines, outline, z)

        self.drawing.draw(("held", tuple(outline), round(z, 2)), make)

    def _see_through(self, floor: NodePath) -> None:
        if self.floor is not None and self.floor != floor:
            self._solid()
        if self.floor is None:
            floor.setTransparency(TransparencyAttrib.M_alpha)
            floor.setShaderInput("tint", SEE_THROUGH)
            floor.setDepthWrite(False)
            floor.setBin("transparent", 5)
            self.floor = floor

    def _solid(self) -> None:
        floor, self.floor = self.floor, None
        if floor is not None and not floor.isEmpty():
            floor.clearTransparency()
            floor.clearShaderInput("tint")
            floor.clearDepthWrite()
            floor.clearBin()

    def hide(self) -> None:
        self._solid()
        self.drawing.clear()

    def close(self) -> None:
        self.hide()
        self.drawing.close()


class SeenFloor:
    """A floor in another's hands (online, another person's, which this window's hand is not), read off the villa
    as this screen draws it: the face of a floor in hand (`villa.match.face.FloorInHand`) a screen draws it by, as
    the hot seat draws the floor in its hand. Neither what it touches nor its lean are known here."""

    state = laying.Laying.CARRYING

    def __init__(self, villa, piece: str) -> None:
        node = villa.nodes[piece]
        self.piece, self.level = piece, level_of_floor(piece)
        self.x, self.y, self.yaw = node.getX(), node.getY(), node.getH()
        self.rest_z = laying.rest_height(villa, self.level)
        self._under = laying.columns_under(villa, self.level, self.x, self.y, self.yaw)

    def columns_under(self) -> frozenset[str]:
        return self._under

    def touching(self) -> frozenset[str]:
        return frozenset()

    def tilt_deg(self) -> float:
        return 0.0


def floor_in_hands(match):
    """The floor in anyone's hands as this screen draws it (None: no floor is in hand): the match's hand (at the hot
    seat whoever holds it), or online another person's, seen in the villa's hands."""
    if is_floor(match.hand):
        return match.hand
    villa = match.villa
    floor = next((piece for piece in sorted(villa.in_hand) if level_of_floor(piece) is not None), None)
    return None if floor is None or floor not in villa.nodes else SeenFloor(villa, floor)
