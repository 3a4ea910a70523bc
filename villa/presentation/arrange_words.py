"""The words over the plate while the columns are set up by hand: the controls along the bottom, and a
slip beside the pointer naming what is under it."""

from __future__ import annotations

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectLabel
from panda3d.core import TextNode, TransparencyAttrib

from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.palette import LIGHT_INK


class ArrangeWords:
    """The controls' line and the pointer's slip; neither ever catches the pointer (both DISABLED)."""

    def __init__(self, stage) -> None:
        self.stage = stage
        self.hint = DirectLabel(parent=stage.base.a2dBottomLeft, relief=None, pos=(0.06, 0, 0.1), scale=0.032,
                                state=DGG.DISABLED,
                                text=_("Drag: move a column or the blue floor   ·   wheel or Q/E over the floor: "
                                       "turn it\nRight drag: turn the view   ·   wheel: zoom   ·   "
                                       "F: look from above   ·   Esc: back"),
                                text_font=font("body"), text_fg=LIGHT_INK, text_align=TextNode.ALeft,
                                text_shadow=(0, 0, 0, 0.7))
        self.tip = DirectLabel(parent=stage.aspect2d, relief=DGG.FLAT, frameColor=(0.08, 0.06, 0.05, 0.8),
                               state=DGG.DISABLED,
                               pad=(0.35, 0.3), scale=0.034, text="", text_font=font("bold"), text_fg=LIGHT_INK,
                               text_align=TextNode.ALeft, text_shadow=(0, 0, 0, 0.8))
        self.tip.setTransparency(TransparencyAttrib.M_alpha)
        self.tip.hide()

    def show_tip(self, words: str | None, mouse=None) -> None:
        """`words` on the slip beside the pointer at `mouse`; None hides the slip."""
        if words is None or mouse is None:
            self.tip.hide()
            return
        if self.tip["text"] != words:
            self.tip["text"] = words
            self.tip.resetFrameSize()
        aspect = self.stage.base.getAspectRatio()
        self.tip.setPos(mouse[0] * aspect + 0.07, 0, mouse[1] - 0.09)
        self.tip.show()

    def hide(self) -> None:
        self.tip.hide()
        self.hint.hide()

    def destroy(self) -> None:
        self.hint.destroy()
        self.tip.destroy()
