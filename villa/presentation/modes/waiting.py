"""Settling and Computer: the screen waits while the villa settles or a computer player acts.
A drag meanwhile turns the view."""

from __future__ import annotations

from villa.presentation import words
from villa.presentation.modes import Mode
from villa.presentation.modes.base import ModeBase


class Settling(ModeBase):
    """Let go: the villa settles, and the referee judges what came to rest."""

    mode = Mode.SETTLING

    def press(self, mouse) -> bool:
        return False


class Computer(ModeBase):
    """A computer player acts, at the speed the player chose (C); online, also a person at another screen."""

    mode = Mode.COMPUTER
    pausable = True

    def press(self, mouse) -> bool:
        return False

    def escape(self) -> None:
        if self.screen.on_pause is not None:
            self.screen.on_pause()

    @property
    def speed(self) -> float:
        return self.screen.computer_speed

    def headline(self) -> str:
        if self.match.over:
            return super().headline()
        waited = self.screen.acting.waited_for()
        if waited is not None:
            return words.waiting_for(self.match.state, waited, self.match.away(waited))
        return words.computer_headline(self.match.state, self.screen.acting.player(), self.match.hand)
