"""The strain gauge: while a column is pulled, a bar that fills with the force the column resists
the hand with, so a column held fast by its load tells from a free one before the villa moves."""

from __future__ import annotations

from direct.gui.DirectGui import DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode, TransparencyAttrib

from villa.physics.hand import NEWTON
from villa.physics.pulling import PULL_MAX_FORCE
from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.palette import LIGHT_INK
from villa.presentation.words import STRAIN

FULL = PULL_MAX_FORCE / NEWTON   # N: the most the hand pulls with
WIDTH, HEIGHT = 0.5, 0.04
EASY = (0.45, 0.85, 0.45, 0.95)  # a free column slides out
HARD = (0.95, 0.35, 0.25, 0.95)  # held fast: the hand pulls as hard as it can


class StrainGauge:
    def __init__(self, parent) -> None:
        self.frame = DirectFrame(parent=parent, pos=(0.08, 0, 0.34), frameColor=(0.06, 0.05, 0.04, 0.6),
                                 frameSize=(-0.02, WIDTH + 0.02, -0.02, HEIGHT + 0.02))
        self.frame.setTransparency(TransparencyAttrib.M_alpha)
        self.bar = DirectFrame(parent=self.frame, frameColor=EASY, frameSize=(0, 0.001, 0, HEIGHT))
        self.label = OnscreenText(parent=self.frame, pos=(0, HEIGHT + 0.04), scale=0.038, fg=LIGHT_INK,
                                  align=TextNode.ALeft, font=font(), mayChange=True, shadow=(0, 0, 0, 0.6))
        self.share = 0.0
        self.frame.hide()

    def show(self, newtons: float) -> None:
        share = max(0.0, min(1.0, newtons / FULL))
        if self.frame.isHidden() or abs(share - self.share) > 0.01:
            self.share = share
            self.bar["frameSize"] = (0, max(0.001, WIDTH * share), 0, HEIGHT)
            self.bar["frameColor"] = tuple(e + (h - e) * share for e, h in zip(EASY, HARD))
            self.label.setText(f"{_(STRAIN)}: {newtons:.1f} N")
        self.frame.show()

    def hide(self) -> None:
        self.frame.hide()

    def close(self) -> None:
        self.label.destroy()
        self.frame.destroy()
