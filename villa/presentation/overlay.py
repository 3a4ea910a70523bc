"""What the game screen draws over the villa for the piece in hand and the pointer: the glow of the columns that
may be taken (or that a floor would rest on), the tooltip, the ghost where a carried column would stand, the
floor in hand see-through over the tops it would rest on (`sight.py`), the strain gauge (`gauge.py`), and the
builder's eye (`builders_eye.py`, read off the physics' statics). The modes say what to show; this draws it."""

from __future__ import annotations

from panda3d.core import Vec3

from villa.match.face import FloorInHand, is_floor
from villa.physics import geometry
from villa.physics.dimensions import FLOORS, column_spec
from villa.presentation.builders_eye import BuildersEye
from villa.presentation.gauge import StrainGauge
from villa.presentation.ghost import Ghost
from villa.presentation.sight import FloorSight
from villa.rules.pieces import level_of_floor


class Overlay:
    """`eye`: the builder's eye, in a game played with it (else None)."""

    def __init__(self, stage, view, hud, match) -> None:
        self.view, self.hud, self.match = view, hud, match
        self.ghost = Ghost(view.scene.root)
        self.sight = FloorSight(stage.render)
        self.gauge = StrainGauge(stage.base.a2dBottomLeft)
        self.eye = BuildersEye(stage.render) if match.setup.builders_eye else None

    def close(self) -> None:
        self.ghost.hide()
        self.sight.close()
        self.gauge.close()
        if self.eye is not None:
            self.eye.close()

    def show_hints(self, glow: dict[str, Vec3], tooltip: str | None, mouse) -> None:
        """The pieces that glow, and the tooltip at the pointer."""
        self.view.scene.show_glow(glow)
        self.hud.show_tooltip(tooltip, mouse)

    def show_eye(self, pulled: str | None = None) -> None:
        """The builder's eye, in a game played with it: the floor being laid over the columns it would rest on, or
        the villa's floors over their supports (`pulled`: as they would stand without it)."""
        if self.eye is None:
            return
        hand = self.match.hand
        if is_floor(hand):
            self.eye.show_laying(self.match.villa, hand)
        else:
            self.eye.show_villa(self.match.villa, pulled)

    def hide_eye(self) -> None:
        if self.eye is not None:
            self.eye.hide()

    def show_sight(self, lay: FloorInHand, columns) -> None:
        """The floor in hand see-through, its outline at the tops' height, and the tops of `columns`."""
        villa = self.match.villa
        outline = geometry.transform(FLOORS[lay.level].outline, lay.x, lay.y, lay.yaw)
        tops = [(villa.nodes[c].getX(), villa.nodes[c].getY(), column_spec(c).radius) for c in columns]
        self.sight.show(self.view.scene.pieces[lay.piece], outline, lay.rest_z, tops)

    def show_held_floor(self, floor: str) -> None:
        """Space: the floor held steady above the column is outlined, so it shows held."""
        node, level = self.match.villa.nodes[floor], level_of_floor(floor)
        outline = geometry.transform(FLOORS[level].outline, node.getX(), node.getY(), node.getH())
        self.sight.show_held(outline, node.getZ() + FLOORS[level].thickness / 2)
