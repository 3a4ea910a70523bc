"""The end of the game: the Master Builder (or none), the reason in words, who brought the villa down.

Built from the finished `GameState` (state.result set); the words come from
`flow.headline` and `flow.reasons`.
"""

from __future__ import annotations

from typing import Callable

from villa.presentation.flow import headline, reasons
from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.rules.state import GameState


class EndScreen(Screen):
    backdrop = "dim"

    def __init__(self, parent=None, *, state: GameState, on_play_again: Callable[[], None],
                 on_main_menu: Callable[[], None], **options) -> None:
        self.state = state
        self.on_play_again, self.on_main_menu = on_play_again, on_main_menu
        super().__init__(parent, **options)

    def build(self) -> None:
        root, state = self.root, self.state
        style.panel(root, (-1.05, 1.05, -0.56, 0.66))
        winner = state.result.winner if state.result is not None else None
        self.widgets["headline"] = style.title(root, headline(state), pos=(0, 0.46), scale=0.1)
        if winner is not None and winner < len(state.colours):
            colours = state.colours[winner]
            for i, colour in enumerate(colours):
                style.swatch(root, colour, pos=((i - (len(colours) - 1) / 2) * 0.08, 0.36), size=0.055)
        self.widgets["reason"] = style.text(root, "\n".join(reasons(state)), pos=(0, 0.2), scale=0.044,
                                            wordwrap=40, kind="serif")
        culprit = state.result.collapsed_by if state.result is not None else None
        if culprit is not None:
            self.widgets["culprit"] = style.text(root, _("Brought the villa down: {name}").format(
                name=state.players[culprit]), pos=(0, -0.06), scale=0.042, fg=style.TERRACOTTA, kind="bold")
        self.widgets["play_again"] = style.button(root, _("Play again"), self.on_play_again, pos=(-0.36, -0.36),
                                                  width=0.62, kind="primary")
        self.widgets["main_menu"] = style.button(root, _("Main menu"), self.on_main_menu, pos=(0.36, -0.36),
                                                 width=0.62, kind="wood")
