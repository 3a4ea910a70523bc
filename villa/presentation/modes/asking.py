"""Asking, HandOver, Rolling: a panel holds the screen until its button is pressed.

    Asking    a question for the player the rules ask (object? challenge? take the penalty pull?)
    HandOver  "pass the mouse to ...", after an answer or a proof decided something for another player
    Rolling   the seal tumbles for the turn's colour
"""

from __future__ import annotations

from villa import rules
from villa.match import requests as rq
from villa.presentation import palette, panels, words
from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import ModeBase


class PanelMode(ModeBase):
    ends_itself = True
    moving = False

    def exit(self) -> None:
        self.screen.close_panel()

    def _hand_over_panel(self, text: str, answers) -> panels.Panel:
        guide = words.guidance(self.match.state)
        actor = guide.standings[guide.actor]
        ink = palette.ink(actor.colours[0]) if actor.colours else panels.INK
        return panels.hand_over(self.screen.stage, font(), player=actor.name, ink=ink, words=text, answers=answers,
                                handed=self.screen.acting.people() > 1)


class Asking(PanelMode):
    """The question the rules put to a person at this screen. The panel stays until the rules ask no more of
    them (the screen follows the state out of it): a refused answer, or one still on its way to the server,
    leaves the question standing."""

    mode = Mode.ASKING
    ends_itself = False

    def enter(self, question: str | None = None) -> None:
        """`question`: the words of what just happened and the question (None: a screen built on this state, or back
        online, says what the last move did above the question, as a screen that saw it)."""
        guide = words.guidance(self.match.state)
        if question is None:
            said = words.last_said(self.match.state)
            question = f"{said}\n\n{guide.question}" if said else guide.question
        answers = [(c.label, lambda name=c.name: self.screen.command(name)) for c in guide.commands]
        self.screen.panel = self._hand_over_panel(question, answers)
        self._answered = False

    def answer(self, objects: bool) -> None:
        """Y / N, or the panel's buttons: object (or challenge), or not."""
        if not self._answered and rules.answer_for(self.match.state, objects) is not None:
            self._answered = self.screen.ask(lambda seat: rq.Answer(seat, objects)).accepted


class HandOver(PanelMode):
    mode = Mode.HAND_OVER

    def enter(self, sentence: str) -> None:
        self.screen.panel = self._hand_over_panel(sentence, [(_("I have the mouse"), self._handed_over)])

    def _handed_over(self) -> None:
        screen = self.screen
        screen.close_panel()
        screen.change_mode(screen.mode_now())


class Rolling(PanelMode):
    mode = Mode.ROLLING
    moving = True

    def enter(self, roll: rules.SealRoll, send: bool = True) -> None:
        """`send` False: online, a roll another window (or a computer player) made, shown as it tumbles here."""
        screen = self.screen
        guide = words.guidance(self.match.state)
        if roll.colour is None:
            said, ink = _("An end face: any colour"), panels.INK
        else:
            said, ink = _(roll.colour.value).capitalize(), palette.ink(roll.colour)

        def landed() -> None:
            screen.close_panel()
            if not send:
                screen.change_mode(screen.mode_now())
                return
            screen.change_mode(Mode.IDLE)
            screen.ask(rq.Roll)
        screen.panel = panels.SealToss(screen.stage, font(), player=guide.standings[guide.player].name,
                                       rolled=roll.colour, colour_words=said, ink=ink, on_done=landed)
