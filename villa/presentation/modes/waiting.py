"""Settling and Computer: the screen waits while the villa settles or a computer player acts.
A drag meanwhile turns the view."""

from __future__ import annotations

from villa.physics.laying import Laying
from villa.presentation import words
from villa.presentation.modes import Mode
from villa.presentation.modes.base import SUPPORT_GLOW, Glow, ModeBase
from villa.presentation.sight import floor_in_hands


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

    def exit(self) -> None:
        self.screen.sight.hide()

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """A floor in the others' hands is drawn as the hot seat draws the floor in its hand: see-through, its outline
        at the height of the tops it would rest on (held: the tops it touches), which glow."""
        screen = self.screen
        screen.ghost.hide()
        floor = floor_in_hands(self.match)
        if floor is None or floor.state not in (Laying.CARRYING, Laying.HELD):
            screen.sight.hide()
            return {}, None
        tops = floor.touching() if floor.state == Laying.HELD else floor.columns_under()
        screen.overlay.show_sight(floor, tops)
        return {column: SUPPORT_GLOW for column in tops}, None

    def headline(self) -> str:
        if self.match.over:
            return super().headline()
        waited = self.screen.acting.waited_for()
        if waited is not None:
            return words.waiting_for(self.match.state, waited, self.match.away(waited))
        return words.computer_headline(self.match.state, self.screen.acting.player(), self.match.hand)
