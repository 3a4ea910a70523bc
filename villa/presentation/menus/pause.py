"""The pause menu, over the villa: resume, rules summary, settings, who plays which seat, quit to the main menu."""

from __future__ import annotations

from typing import Callable

from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.words import stand_in_words


class PauseMenu(Screen):
    backdrop = "dim"

    def __init__(self, parent=None, *, on_resume: Callable[[], None], on_rules: Callable[[], None],
                 on_settings: Callable[[], None], on_players: Callable[[], None] | None,
                 on_quit_to_menu: Callable[[], None], waits: bool = True,
                 on_stand_in: Callable[[], None] | None = None, away: str = "", **options) -> None:
        """`on_players` None: no seats to change here (online); `waits` False: the game goes on meanwhile
        (online, at the others' screens); `on_stand_in`: online, the host lets a computer play for `away`, who left
        or stalls."""
        self.waits, self.away = waits, away
        self.actions = {"resume": on_resume, "rules": on_rules, "settings": on_settings, "players": on_players,
                        "stand_in": on_stand_in, "quit_to_menu": on_quit_to_menu}
        super().__init__(parent, **options)

    def build(self) -> None:
        root = self.root
        entries = (("resume", _("Resume"), "primary"), ("rules", _("Rules summary"), "wood"),
                   ("settings", _("Settings"), "wood"), ("players", _("Players: people or computers"), "wood"),
                   ("stand_in", stand_in_words(self.away), "wood"),
                   ("quit_to_menu", _("Quit to the main menu"), "quiet"))
        entries = tuple(entry for entry in entries if self.actions[entry[0]] is not None)   # None: not offered
        style.panel(root, (-0.56, 0.56, 0.09 - (len(entries) - 1) * 0.17 - 0.14, 0.5))     # as long as its entries
        style.title(root, _("Paused"), pos=(0, 0.33), scale=0.09)
        said = _("The villa waits for you.") if self.waits else _("The others play on meanwhile.")
        self.widgets["subtitle"] = style.text(root, said, pos=(0, 0.24), scale=0.036, fg=style.INK_SOFT, kind="serif")
        for i, (key, words, kind) in enumerate(entries):
            self.widgets[key] = style.button(root, words, self.actions[key], pos=(0, 0.09 - i * 0.17), width=0.92,
                                             height=0.115, kind=kind)
