"""The ghost: a see-through copy of the held piece where it would land, green if the spot is allowed, red if not."""

from __future__ import annotations

from panda3d.core import NodePath, TransparencyAttrib, Vec4

from villa.presentation.shadows import casts_shadow

ALLOWED = Vec4(0.55, 1.0, 0.55, 0.45)
REFUSED = Vec4(1.0, 0.35, 0.3, 0.45)


class Ghost:
    def __init__(self, parent: NodePath) -> None:
        self.parent = parent
        self.node: NodePath | None = None
        self.piece: str | None = None

    def show(self, piece: str, model: NodePath, x: float, y: float, z: float, h: float, allowed: bool) -> None:
        if self.piece != piece:
            self.hide()
            self.node = model.copyTo(self.parent)
            self.node.setName(f"ghost of {piece}")
            self.node.clearTag("piece")
            self.node.setCollideMask(0)
            self.node.setTransparency(TransparencyAttrib.M_alpha)
            self.node.setDepthWrite(False)
            self.node.setBin("transparent", 10)
            self.node.setShaderInput("glow", (0.12, 0.12, 0.12))
            casts_shadow(self.node, False)
            self.piece = piece
        self.node.show()
        self.node.setPos(x, y, z)
        self.node.setHpr(h, 0, 0)
        self.node.setShaderInput("tint", ALLOWED if allowed else REFUSED)

    def hide(self) -> None:
        if self.node is not None:
            self.node.removeNode()
        self.node = None
        self.piece = None
