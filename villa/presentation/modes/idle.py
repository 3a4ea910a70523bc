"""Idle: the person to act may take a column, propose a floor, pass, forgo a penalty pull or roll the seal."""

from __future__ import annotations

from villa import rules
from villa.match import requests as rq
from villa.presentation import words
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import HOVER_GLOW, TAKEABLE_GLOW, Glow, ModeBase
from villa.presentation.words import Button


class Idle(ModeBase):
    mode = Mode.IDLE
    pausable = True

    def press(self, mouse) -> bool:
        """A press on a column takes hold of it, if the rules let this player choose it."""
        screen, match = self.screen, self.match
        hit = screen.pick(mouse)
        if hit is None or hit[0] not in match.villa.columns:
            return False
        column, point = hit
        if column not in rules.grabbable_columns(match.state):
            screen.hud.flash(words.why_not(match.state, column) or "", screen.now)
            return True
        steady = screen.controls.steadying
        screen.ask(lambda seat: rq.Take(seat, column, (point.x, point.y, point.z), steady))
        screen.follow()
        return True

    def escape(self) -> None:
        """Esc gives up what the rules hold in hand with nothing in the hand (a floor granted that cannot be laid, a
        build taken up again from a save or back online), as its button says; else the pause menu."""
        if rules.giving_up(self.match.state) is not None and self.screen.acting.person():
            self.give_up()
        elif self.screen.on_pause is not None:
            self.screen.on_pause()

    def give_up(self) -> None:
        """The command bar's give-up: a floor granted that cannot be laid goes back in the box, a build whose column
        no hand holds is given up."""
        if rules.giving_up(self.match.state) is not None:
            self.screen.ask(rq.GiveUp)

    def propose_floor(self) -> None:
        self.screen.ask(rq.Propose)

    def answer(self, objects: bool) -> None:
        """N forgoes a failed objection's penalty pull."""
        forgo = words.guidance(self.match.state).command(Button.FORGO)
        if forgo is not None and not objects:
            self.screen.ask(rq.Forgo)

    def pass_turn(self) -> None:
        self.screen.ask(rq.Pass)

    def roll(self) -> None:
        """R or the button: the seal tumbles for this turn's colour (family edition, random colour)."""
        roll = self.match.next_roll()
        if roll is not None:
            self.screen.open_panel(Mode.ROLLING, roll)

    def exit(self) -> None:
        self.screen.overlay.hide_eye()

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """The columns that may be taken glow; the one under the pointer says why it may or may not."""
        screen, match = self.screen, self.match
        screen.ghost.hide()
        screen.overlay.show_eye()
        takeable = set(rules.grabbable_columns(match.state)) & set(match.villa.columns)
        glow = {c: TAKEABLE_GLOW for c in takeable}
        hit = screen.pick(mouse) if mouse else None
        if not hit or hit[0] not in match.villa.columns:
            return glow, None
        screen.hover = column = hit[0]
        if column in takeable:
            glow[column] = HOVER_GLOW
            return glow, words.column_label(column) + "\n" + _("drag to pull it out")
        return glow, words.column_label(column) + "\n" + (words.why_not(match.state, column) or "")
