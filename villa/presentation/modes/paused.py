"""Paused: the pause menu is over the game, and the game stands still until it is resumed."""

from __future__ import annotations

from villa.presentation.modes import Mode
from villa.presentation.modes.base import ModeBase


class Paused(ModeBase):
    mode = Mode.PAUSED
    ends_itself = True

    def enter(self, resume_to: Mode) -> None:
        self.resume_to = resume_to   # the mode paused in (Idle or Computer)
        self.screen.hud.show_tooltip(None)

    def frame(self, dt: float) -> None:
        pass
