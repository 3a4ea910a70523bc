"""A question asked before something that cannot be taken back: the words, the way on and the way back.

    Confirm(question="Ben is at the table …", yes="A computer plays for Ben", on_yes=give, on_no=back)

Shown over what asked it (the paused game, a form): "dim" lets it show through. Either button closes the question
first, then does what it says.
"""

from __future__ import annotations

from typing import Callable

from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen


class Confirm(Screen):
    backdrop = "dim"

    def __init__(self, parent=None, *, question: str, yes: str, on_yes: Callable[[], None],
                 on_no: Callable[[], None], no: str | None = None, **options) -> None:
        self.question, self.yes, self.no = question, yes, no
        self.on_yes, self.on_no = on_yes, on_no
        super().__init__(parent, **options)

    def build(self) -> None:
        root, w = self.root, self.widgets
        style.panel(root, (-0.82, 0.82, -0.42, 0.42))
        w["question"] = style.text(root, self.question, pos=(0, 0.26), scale=0.045, kind="serif", wordwrap=33)
        w["yes"] = style.button(root, self.yes, lambda: self._answer(self.on_yes), pos=(0.35, -0.28), width=0.8,
                                kind="primary", text_scale=0.04)
        w["no"] = style.button(root, self.no or _("Back"), lambda: self._answer(self.on_no), pos=(-0.45, -0.28),
                               width=0.6, kind="quiet", text_scale=0.04)

    def _answer(self, then: Callable[[], None]) -> None:
        self.destroy()
        then()
