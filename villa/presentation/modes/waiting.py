"""Settling, Computer and CutOff: the screen waits while the villa settles, a computer player acts, or (online)
the window looks for the game's server it lost. A drag meanwhile turns the view."""

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
            return self.screen.waiting_words(waited)
        player = self.screen.acting.player()
        stand_in = self.screen.seats is not None and self.screen.seats.stand_in(player)
        return words.computer_headline(self.match.state, player, self.match.hand, stand_in)


class CutOff(ModeBase):
    """Online, the game's server lost (its host's window closed, the server stopped or went quiet): no move is
    offered, only Leave; the words say what happened and that the window comes back by itself, which it does
    while this mode lasts (the match looks for the game; the screen follows it back)."""

    mode = Mode.CUT_OFF
    pausable = True

    def __init__(self, screen) -> None:
        super().__init__(screen)
        self._said = ""

    def enter(self) -> None:
        screen = self.screen
        screen.ghost.hide()
        screen.telling.show_state()         # the turn's buttons give way to Leave
        self._tell()

    def exit(self) -> None:
        screen = self.screen
        screen.hud.announce("", screen.now, 0.0)
        screen.telling.show_state()
        cut = screen.last_cut_off
        screen.hud.flash(words.back_in_game(cut is not None and cut.fleet and not cut.host), screen.now)

    def press(self, mouse) -> bool:
        return False

    def escape(self) -> None:
        if self.screen.on_pause is not None:
            self.screen.on_pause()

    def show(self, mouse) -> None:
        self._tell()
        super().show(mouse)

    def _tell(self) -> None:
        """What happened, said until the window is back in the game (words as they change: the host named once
        the table is read, a fleet's other servers)."""
        cut = self.screen.cut_off_now()
        said = words.cut_off(cut) if cut is not None else ""
        if said and said != self._said:
            self._said = said
            self.screen.hud.announce(said, self.screen.now, seconds=STAYS_S)

    def headline(self) -> str:
        cut = self.screen.cut_off_now()
        return words.cut_off_headline(cut) if cut is not None else super().headline()


STAYS_S = 10.0 ** 9      # the words stay as long as the window is cut off
