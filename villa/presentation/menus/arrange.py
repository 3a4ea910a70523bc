"""The paper card beside the base plate while the columns are set up by hand: where to start
from, the set-up checks ticked off live, why the first failing one fails, and the way on.

Parented at the window's right edge (the plate in 3D fills the rest; see
`villa.presentation.arrange`). `show_checks(arrangement)` after every change; "Lay the blue
floor" is enabled only while every check passes.
"""

from __future__ import annotations

from typing import Callable

from panda3d.core import TextNode

from villa.physics.layouts import PRESETS
from villa.presentation.arrangement import CHECKS, Arrangement, check_line, reason
from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.menus.new_game import preset_name

WIDTH = 1.14              # the card's width, in aspect2d units
EDGE = 0.05               # between the card and the window's right edge
PASS_MARK, FAIL_MARK = "✓", "✗"
CHECK_SCALE = 0.03
CHECK_ROOM = WIDTH - 0.2   # across a check's line, from its mark to the card's edge


class ArrangePanel(Screen):
    backdrop = None   # the table and the plate show all round it

    def __init__(self, parent=None, *, on_preset: Callable[[str], None], on_shuffle: Callable[[], None],
                 on_back: Callable[[], None], on_lay: Callable[[], None], **options) -> None:
        self.actions = {"shuffle": on_shuffle, "back": on_back, "lay": on_lay}
        self.on_preset = on_preset
        self.arrangement: Arrangement | None = None
        self.problems: list = []
        super().__init__(parent, **options)

    @property
    def left(self) -> float:
        return -EDGE - WIDTH

    def build(self) -> None:
        root, left, right = self.root, self.left, -EDGE
        middle = (left + right) / 2
        style.panel(root, (left, right, -0.94, 0.94))
        style.title(root, _("Set up the columns"), pos=(middle, 0.79), scale=0.07)
        style.text(root, _("Drag each column to where it should stand on the building site. "
                           "The blue floor will rest on the columns inside the blue outline; "
                           "drag inside it to move the floor."),
                   pos=(middle, 0.69), scale=0.031, fg=style.INK_SOFT, kind="serif", wordwrap=33)

        style.text(root, _("Start from"), pos=(left + 0.07, 0.47), scale=0.038, align="left", kind="bold")
        starts = [(f"preset_{name}", preset_name(name), lambda name=name: self.on_preset(name)) for name in PRESETS]
        starts.append(("shuffle", _("Shuffle"), self.actions["shuffle"]))
        for i, (key, words, command) in enumerate(starts):
            x = middle + (-0.27 if i % 2 == 0 else 0.27)
            self.widgets[key] = style.button(root, words, command, pos=(x, 0.375 - (i // 2) * 0.105), width=0.52,
                                             height=0.085, kind="wood", text_scale=0.034)

        style.text(root, _("Checks"), pos=(left + 0.07, 0.115), scale=0.038, align="left", kind="bold")
        for i, check in enumerate(CHECKS):
            y = 0.035 - i * 0.07
            self.widgets[f"mark_{check}"] = style.text(root, PASS_MARK, pos=(left + 0.1, y), scale=0.036,
                                                       kind="bold", fg=style.SELECTED)
            self.widgets[f"check_{check}"] = style.text(root, "", pos=(left + 0.15, y), scale=CHECK_SCALE,
                                                        align="left")
        self.widgets["reason"] = style.text(root, "", pos=(middle, -0.475), scale=0.031, kind="serif",
                                            wordwrap=34)
        self.widgets["back"] = style.button(root, _("Back"), self.actions["back"], pos=(left + 0.25, -0.8),
                                            width=0.36, kind="quiet")
        self.widgets["lay"] = style.button(root, _("Lay the blue floor"), self.actions["lay"],
                                           pos=(right - 0.38, -0.8), width=0.64, kind="primary", text_scale=0.04,
                                           enabled=False)
        if self.arrangement is not None:
            self.show_checks(self.arrangement, self.problems)

    def show_checks(self, arrangement: Arrangement, problems: list) -> None:
        """Tick or cross every check, say why the first failing one fails, enable the way on when all pass."""
        self.arrangement, self.problems = arrangement, problems
        failing = {p.check for p in problems}
        w = self.widgets
        for check in CHECKS:
            bad = check in failing
            w[f"mark_{check}"]["text"] = FAIL_MARK if bad else PASS_MARK
            w[f"mark_{check}"]["text_fg"] = style.TERRACOTTA if bad else style.SELECTED
            _fit(w[f"check_{check}"], check_line(check, arrangement), CHECK_SCALE, CHECK_ROOM)
            w[f"check_{check}"]["text_fg"] = style.INK if bad else style.INK_SOFT
        if problems:
            words = reason(problems[0], arrangement.need)
            if len(problems) > 1:
                words += "\n" + _("(and {count} more to put right)").format(count=len(problems) - 1)
            w["reason"]["text"], w["reason"]["text_fg"] = words, style.TERRACOTTA_PRESS
        else:
            w["reason"]["text"] = _("Every check passes: the blue floor can go on.")
            w["reason"]["text_fg"] = style.SELECTED
        style.set_enabled(w["lay"], not problems)

    @property
    def can_lay(self) -> bool:
        return self.widgets["lay"]["state"] == "normal"


def _fit(label, words: str, scale: float, room: float) -> None:
    """Show `words` on one line, smaller when a language's words would run past `room` units."""
    measure = TextNode("measure")
    if font("body") is not None:
        measure.setFont(font("body"))
    width = measure.calcWidth(words) * scale
    label["text"] = words
    label.setScale(scale if width <= room else scale * room / width)
