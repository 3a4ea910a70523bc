"""Ended: the game is over; its end panel names the Master Builder (unless the caller shows its own end)."""

from __future__ import annotations

from villa.presentation import panels, words
from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import ModeBase


class Ended(ModeBase):
    mode = Mode.ENDED
    ends_itself = True

    def enter(self) -> None:
        screen = self.screen
        screen.close_panel()
        screen.ghost.hide()
        screen.hud.show_commands([])
        if screen.end_panel:
            title, reasons = words.result_words(self.match.state)
            if self.match.setup.builders_eye:
                reasons += "\n" + _(words.PLAYED_WITH_BUILDERS_EYE)
            screen.panel = panels.end_panel(screen.stage, font(), title=title, reason=reasons,
                                            play_again=screen.play_again, close=screen.close_panel)
        if screen.on_end is not None:
            screen.on_end(self.match.state.result)
