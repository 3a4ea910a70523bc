"""The main menu: new game, play online, continue, learn to play, rules, settings, how to play, quit."""

from __future__ import annotations

from typing import Callable

from villa.presentation.i18n import _
from villa.presentation.fonts import drawable
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen


class MainMenu(Screen):
    """`can_continue`: whether a saved game exists (the caller knows); Continue is greyed out otherwise.
    `notice`: a word for the player (a settings file that was broken, a game that would not load);
    `continue_words`: Continue's own words when it does not take up the hot-seat game (a seat online)."""

    def __init__(self, parent=None, *, can_continue: bool, on_new_game: Callable[[], None],
                 on_online: Callable[[], None], on_continue: Callable[[], None], on_learn: Callable[[], None],
                 on_rules: Callable[[], None], on_settings: Callable[[], None], on_how_to_play: Callable[[], None],
                 on_quit: Callable[[], None],
                 notice: str = "", continue_words: str | None = None, **options) -> None:
        self.can_continue, self.notice, self.continue_words = can_continue, notice, continue_words
        self.actions = {"new_game": on_new_game, "online": on_online, "continue": on_continue, "learn": on_learn,
                        "rules": on_rules, "settings": on_settings, "how_to_play": on_how_to_play, "quit": on_quit}
        super().__init__(parent, **options)

    def set_can_continue(self, can_continue: bool) -> None:
        self.can_continue = can_continue
        style.set_enabled(self.widgets["continue"], can_continue)

    def tell(self, notice: str) -> None:
        """Say something to the player below the menu."""
        self.notice = notice
        self.widgets["notice"]["text"] = drawable(notice, "serif")

    def build(self) -> None:
        root = self.root
        style.title(root, "Villa Paletti", pos=(0, 0.66), scale=0.16, fg=style.CREAM)
        style.text(root, _("Pull the columns out from below, set them on top, and do not bring the villa down."),
                   pos=(0, 0.535), scale=0.045, fg=(1.0, 0.92, 0.78, 1), kind="serif", wordwrap=36)
        style.panel(root, (-0.48, 0.48, -0.86, 0.42))
        entries = (("new_game", _("New game"), "primary"), ("online", _("Play online"), "wood"),
                   ("continue", self.continue_words or _("Continue"), "wood"),
                   ("learn", _("Learn to play"), "wood"), ("rules", _("Rules"), "wood"),
                   ("settings", _("Settings"), "wood"), ("how_to_play", _("How to play"), "wood"),
                   ("quit", _("Quit"), "quiet"))
        for i, (key, words, kind) in enumerate(entries):
            self.widgets[key] = style.button(root, words, self.actions[key], pos=(0, 0.315 - i * 0.153), width=0.74,
                                             height=0.11, kind=kind,
                                             enabled=self.can_continue if key == "continue" else True)
        self.widgets["notice"] = style.text(root, self.notice, pos=(0, -0.93), scale=0.034, fg=style.CREAM,
                                            kind="serif", wordwrap=60)
