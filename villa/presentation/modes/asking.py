"""Asking, HandOver, Rolling: a panel holds the screen until its button is pressed.

    Asking    a question for the player the rules ask (object? challenge? take the penalty pull?)
    HandOver  "pass the mouse to ...", after an answer or a proof decided something for another player
    Rolling   the seal tumbles for the turn's colour
"""

from __future__ import annotations

from villa import rules
from villa.presentation import palette, panels, words
from villa.presentation.fonts import font
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import ModeBase
from villa.presentation.words import Button


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
                                handed=self.screen.humans() > 1)


class Asking(PanelMode):
    mode = Mode.ASKING

    def enter(self, question: str) -> None:
        guide = words.guidance(self.match.state)
        answers = [(c.label, lambda name=c.name: self.screen.command(name)) for c in guide.commands]
        self.screen.panel = self._hand_over_panel(question, answers)

    def answer(self, objects: bool) -> None:
        """Y / N, or the panel's buttons: object (or challenge), or not."""
        guide = words.guidance(self.match.state)
        command = (guide.command(Button.OBJECT) or guide.command(Button.CHALLENGE)) if objects \
            else guide.command(Button.DECLINE)
        if command is not None:
            screen = self.screen
            screen.close_panel()
            screen.change_mode(screen.mode_now())
            screen.say(self.match.act(command.actions[0]))


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

    def enter(self, roll: rules.SealRoll) -> None:
        screen = self.screen
        guide = words.guidance(self.match.state)
        if roll.colour is None:
            said, ink = _("An end face: any colour"), panels.INK
        else:
            said, ink = _(roll.colour.value).capitalize(), palette.ink(roll.colour)

        def landed() -> None:
            screen.close_panel()
            screen.change_mode(Mode.IDLE)
            self.match.roll()
        screen.panel = panels.SealToss(screen.stage, font(), player=guide.standings[guide.player].name,
                                       rolled=roll.colour, colour_words=said, ink=ink, on_done=landed)
