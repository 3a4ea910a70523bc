"""The game screen's panels: the command buttons, the hot-seat hand-over, the seal rolled for a
turn's colour, and the end.

Plain DirectGUI in the HUD's inks. A panel covering the screen swallows the mouse, so a
click on it never reaches the villa behind.
"""

from __future__ import annotations

from typing import Callable, Sequence

from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode, TransparencyAttrib

from villa.presentation.fonts import drawable, fitted_scale
from villa.presentation.i18n import _
from villa.presentation.menus.seal_roll import RollingSeal
from villa.presentation.palette import LIGHT_INK as INK
from villa.presentation.palette import SOFT_INK
from villa.rules.pieces import Colour

PAPER = (0.13, 0.105, 0.085, 0.94)
SHADE = (0, 0, 0, 0.55)
BUTTON = ((0.42, 0.30, 0.18, 1), (0.55, 0.40, 0.24, 1), (0.62, 0.46, 0.28, 1), (0.3, 0.3, 0.3, 1))
PRIMARY = ((0.22, 0.42, 0.26, 1), (0.28, 0.52, 0.32, 1), (0.34, 0.60, 0.38, 1), (0.3, 0.3, 0.3, 1))
LABEL_MARGIN = 0.6     # of the text's height, kept free at either end of a button's label

Answer = tuple[str, Callable[[], None]]


def button(parent, words: str, command: Callable[[], None], pos, width: float, font=None, primary: bool = False,
           scale: float = 0.045) -> DirectButton:
    half_w = width / 2 / scale
    fitted = fitted_scale(words, font, width / scale - 2 * LABEL_MARGIN, 1.0)
    item = DirectButton(parent=parent, text=drawable(words), text_font=font, text_fg=INK, text_scale=fitted,
                        text_pos=(0, -0.3 * fitted), scale=scale, pos=(pos[0], 0, pos[1]), relief=DGG.FLAT,
                        frameColor=PRIMARY if primary else BUTTON, frameSize=(-half_w, half_w, -0.95, 1.05),
                        command=command, pressEffect=1)
    item.setTransparency(TransparencyAttrib.M_alpha)
    return item


class CommandBar:
    """A row of buttons along the bottom: the commands the turn offers now."""

    def __init__(self, parent, font) -> None:
        self.parent, self.font = parent, font
        self.buttons: dict[str, DirectButton] = {}
        self._shown: tuple = ()

    def show(self, commands: Sequence[tuple[str, str, Callable[[], None]]]) -> None:
        wanted = tuple((name, label) for name, label, _c in commands)
        if wanted == self._shown:
            return
        self.close()
        self._shown = wanted
        width = 0.62
        for i, (name, label, command) in enumerate(commands):
            x = (i - (len(commands) - 1) / 2) * (width + 0.04)
            self.buttons[name] = button(self.parent, label, command, (x, 0.3), width, self.font)

    @property
    def shown(self) -> tuple:
        """The buttons shown now: (name, label) each."""
        return self._shown

    def boxes(self) -> list[tuple[float, float, float, float]]:
        """Each button's frame as (left, right, bottom, top) in the window's aspect2d (a tooltip keeps clear)."""
        boxes, edge = [], self.parent.getPos()      # the bar's parent: an edge of the window, in aspect2d
        for item in self.buttons.values():
            left, right, bottom, top = item["frameSize"]
            scale, at = item.getScale(), item.getPos()
            x, z = edge.x + at.x, edge.z + at.z
            boxes.append((x + left * scale.x, x + right * scale.x, z + bottom * scale.z, z + top * scale.z))
        return boxes

    def close(self) -> None:
        for item in self.buttons.values():
            item.destroy()
        self.buttons = {}
        self._shown = ()


class Panel:
    """A panel in the middle of a dimmed screen: a title, words, and buttons."""

    def __init__(self, stage, font, *, over: str = "", title: str, title_ink=INK, words: str = "",
                 answers: Sequence[Answer] = (), height: float = 0.9) -> None:
        self.shade = DirectFrame(parent=stage.aspect2d, frameColor=SHADE, frameSize=(-4, 4, -2, 2),
                                 state=DGG.NORMAL, suppressMouse=1)  # swallows clicks meant for the villa
        self.shade.setTransparency(TransparencyAttrib.M_alpha)
        half = height / 2
        self.frame = DirectFrame(parent=self.shade, frameColor=PAPER, frameSize=(-0.95, 0.95, -half, half))
        self.frame.setTransparency(TransparencyAttrib.M_alpha)
        common = dict(parent=self.frame, font=font, align=TextNode.ACenter, mayChange=True)
        top = half - 0.1
        self.over = OnscreenText(text=drawable(over), pos=(0, top), scale=0.045, fg=SOFT_INK, **common)
        self.title = OnscreenText(text=drawable(title), pos=(0, top - 0.13), scale=0.09, fg=title_ink, **common)
        self.words = OnscreenText(text=drawable(words), pos=(0, top - 0.24), scale=0.042, fg=INK, wordwrap=40,
                                  **common)
        self.buttons: list[DirectButton] = []
        width = min(0.7, 1.6 / max(1, len(answers)) - 0.06)
        for i, (label, command) in enumerate(answers):
            x = (i - (len(answers) - 1) / 2) * (width + 0.06)
            self.buttons.append(button(self.frame, label, command, (x, -half + 0.12), width, font,
                                       primary=i == 0, scale=0.05))

    def destroy(self) -> None:
        self.shade.destroy()


def hand_over(stage, font, *, player: str, ink, words: str, answers: Sequence[Answer], handed: bool = True) -> Panel:
    """Hot-seat: the next person takes the mouse (`handed`; with one person at the table, the question is
    theirs and no mouse changes hands); their name in their colour, the question, the answers."""
    return Panel(stage, font, over=_("Pass the mouse to") if handed else _("A question for"), title=player,
                 title_ink=ink, words=words, answers=answers, height=0.72)


def end_panel(stage, font, *, title: str, reason: str, play_again: Callable[[], None] | None,
              close: Callable[[], None]) -> Panel:
    """The end: who won and why; "Play again" (when the caller can start a game), or just a look at the villa."""
    answer = (_("Play again"), play_again) if play_again is not None else (_("Look at the villa"), close)
    return Panel(stage, font, over=_("The game is over"), title=title, words=reason, answers=[answer], height=0.8)


TOSS_SECONDS = 1.4      # the seal tumbling
SHOWN_SECONDS = 1.0     # the colour it shows, before the turn goes on


class SealToss(Panel):
    """The family edition's random colour: the seal rolled for this turn, tumbling onto the colour
    (`rolled`; None is an end face, free choice), named in words; `on_done` a moment later.
    A click lands it at once."""

    def __init__(self, stage, font, *, player: str, rolled: Colour | None, colour_words: str, ink,
                 on_done: Callable[[], None]) -> None:
        super().__init__(stage, font, over=_("{name} rolls the Master Builder Seal").format(name=player),
                         title=" ", height=0.78)
        self.stage, self.on_done, self.result, self.result_ink = stage, on_done, colour_words, ink
        self.title.setY(-0.29)
        self.seal = RollingSeal(self.frame, pos=(0, 0.0), scale=0.62, seconds=TOSS_SECONDS)
        self.seal.roll(rolled, self._landed)
        for surface in (self.shade, self.frame):
            surface.bind(DGG.B1PRESS, lambda _event: self.seal.land())
        self._later = None

    @property
    def rolling(self) -> bool:
        return self.seal.rolling

    def _landed(self) -> None:
        self.title.setText(self.result)
        self.title.setFg(self.result_ink)
        self._later = self.stage.task_mgr.doMethodLater(SHOWN_SECONDS, lambda task: self.on_done(),
                                                        f"villa-seal-toss-{id(self)}")

    def destroy(self) -> None:
        if self._later is not None:
            self._later.remove()
        self.seal.destroy()
        super().destroy()
