"""The lesson's card beside the villa: the lesson and part, the aim in one sentence, and Hint, Skip and
Leave; the hint, once asked for, below the aim."""

from __future__ import annotations

from typing import Callable

from direct.gui.DirectGui import DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode, TransparencyAttrib

from villa.presentation import panels
from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.palette import LIGHT_INK, SOFT_INK

WIDTH = 0.86
HEIGHT = 1.0           # from below the standings to above the command bar
CARD = (0.06, 0.05, 0.04, 0.72)
AIM_SCALE, HINT_SCALE = 0.042, 0.036
WRAP = 18.5            # the aim's width in its own letters' size


class LessonCard:
    """On the left, between the standings and the command bar; `on_skip` and `on_leave` for its buttons."""

    def __init__(self, stage, *, heading: str, aim: str, hint: str, on_skip: Callable[[], None],
                 on_leave: Callable[[], None]) -> None:
        self.hint_words = hint
        self.frame = DirectFrame(parent=stage.base.a2dLeftCenter, frameColor=CARD,
                                 frameSize=(0.0, WIDTH, -HEIGHT, 0.0), pos=(0.05, 0, 0.45))
        self.frame.setTransparency(TransparencyAttrib.M_alpha)
        common = dict(parent=self.frame, font=font(), align=TextNode.ALeft, mayChange=True)
        self.heading = OnscreenText(text=heading, pos=(0.04, -0.07), scale=0.04, fg=SOFT_INK, **common)
        self.aim = OnscreenText(text=aim, pos=(0.04, -0.15), scale=AIM_SCALE, fg=LIGHT_INK, wordwrap=WRAP, **common)
        below = -0.15 - self.aim.textNode.getNumRows() * AIM_SCALE * 1.2 - 0.04   # the hint starts under the aim
        self.hint = OnscreenText(text="", pos=(0.04, below), scale=HINT_SCALE, fg=SOFT_INK,
                                 wordwrap=WRAP * AIM_SCALE / HINT_SCALE, **common)
        y = 0.08 - HEIGHT
        self.buttons = {
            "hint": panels.button(self.frame, _("Hint"), self.show_hint, (0.16, y), 0.25, font()),
            "skip": panels.button(self.frame, _("Skip"), on_skip, (0.43, y), 0.25, font()),
            "leave": panels.button(self.frame, _("Leave"), on_leave, (0.70, y), 0.25, font()),
        }

    def show_hint(self) -> None:
        self.hint.setText(self.hint_words)

    def destroy(self) -> None:
        self.frame.destroy()
