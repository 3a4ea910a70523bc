"""The end of the game: the Master Builder (or none), the reason in words, everyone's points.

Built from the finished `GameState` (state.result set); the words come from
`flow.headline` and `flow.reasons`.
"""

from __future__ import annotations

from typing import Callable

from villa.presentation.words import PLAYED_WITH_BUILDERS_EYE, headline, reasons, standings
from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.rules.state import GameState


class EndScreen(Screen):
    backdrop = "dim"

    def __init__(self, parent=None, *, state: GameState, on_play_again: Callable[[], None] | None,
                 on_main_menu: Callable[[], None], builders_eye: bool = False,
                 clip: Callable | None = None, **options) -> None:
        """`clip(parent, pos)`: puts the row that saves the fall as a clip there (None: no such row)."""
        self.state, self.builders_eye, self.clip = state, builders_eye, clip
        self.on_play_again, self.on_main_menu = on_play_again, on_main_menu
        super().__init__(parent, **options)

    def build(self) -> None:
        root, state = self.root, self.state
        style.panel(root, (-1.05, 1.05, -0.73 if self.clip is not None else -0.58, 0.72))
        winner = state.result.winner if state.result is not None else None
        self.widgets["headline"] = style.title(root, headline(state), pos=(0, 0.54), scale=0.1)
        if winner is not None and winner < len(state.colours):
            colours = state.colours[winner]
            for i, colour in enumerate(colours):
                style.swatch(root, colour, pos=((i - (len(colours) - 1) / 2) * 0.08, 0.44), size=0.055)
        self.widgets["reason"] = style.text(root, "\n".join(reasons(state)), pos=(0, 0.32), scale=0.044,
                                            wordwrap=40, kind="serif")
        self._standings(0.06)
        if self.builders_eye:
            self.widgets["builders_eye"] = style.text(root, _(PLAYED_WITH_BUILDERS_EYE), pos=(0, -0.32), scale=0.036,
                                                      fg=style.INK_SOFT, kind="serif")
        if self.on_play_again is not None:   # None: not offered (a game online)
            self.widgets["play_again"] = style.button(root, _("Play again"), self.on_play_again, pos=(-0.36, -0.44),
                                                      width=0.62, kind="primary")
        x = 0.36 if self.on_play_again is not None else 0.0
        self.widgets["main_menu"] = style.button(root, _("Main menu"), self.on_main_menu, pos=(x, -0.44), width=0.62,
                                                 kind="wood")
        if self.clip is not None:
            self.widgets["clip"] = self.clip(root, (0, -0.535))

    def _standings(self, top: float) -> None:
        """Every player as the game left them: colours, name, points, the seal."""
        family = self.state.ruleset.family
        style.text(self.root, _("Points (family total)") if family else _("Points on the top floor"),
                   pos=(0, top), scale=0.036, fg=style.INK_SOFT, kind="bold")
        for row, standing in enumerate(standings(self.state)):
            y = top - 0.075 - row * 0.066
            for i, colour in enumerate(standing.colours):
                style.swatch(self.root, colour, pos=(-0.40 + i * 0.05, y + 0.012), size=0.04)
            self.widgets[f"name-{row}"] = style.text(self.root, standing.name, pos=(-0.30, y), scale=0.042,
                                                     align="left", kind="serif")
            self.widgets[f"points-{row}"] = style.text(self.root, str(standing.points), pos=(0.24, y), scale=0.042,
                                                       align="right", kind="bold")
            if standing.holds_seal:
                self.widgets[f"seal-{row}"] = style.text(self.root, "\u2605 " + _("seal"), pos=(0.30, y),
                                                         scale=0.036, align="left", fg=style.TERRACOTTA, kind="bold")
