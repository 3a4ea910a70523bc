"""What the game screen tells of the match's events and its state: the HUD for the state now (standings, seal,
floors left, the commands, blocked columns), the sentence of what happened, the question put to a person at this
screen, the hot seat's "pass the mouse", who the game waits for online, a refusal in words, the fall."""

from __future__ import annotations

import logging

from villa import rules
from villa.match import Accepted, Collapsed, Refused, RoundStarted
from villa.match import requests as rq
from villa.presentation import words
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.words import Button

log = logging.getLogger(__name__)

BLOCKED_SHADE = (0.55, 0.55, 0.55, 1.0)


class Telling:
    """Subscribed to the match's events for the screen (`stop()` lets go of them)."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.last_human: int | None = None                          # who had the mouse last (hot seat: hand it over)
        self.last_waited: tuple[int | None, bool] = (None, False)   # online: the person last waited for, and away
        events = screen.match.events
        self._stops = [events.subscribe(Accepted, self.accepted), events.subscribe(Refused, self.refused),
                       events.subscribe(Collapsed, self.collapsed), events.subscribe(RoundStarted, self.round)]

    def stop(self) -> None:
        for stop in self._stops:
            stop()

    def accepted(self, event: Accepted) -> None:
        screen = self.screen
        self.show_state()
        sentence = words.narrate(event.before, event.action, event.after)
        if event.after.over:
            return
        player = screen.acting.player()
        guide = words.guidance(event.after)
        if guide.asks and screen.acting.person():
            question = f"{sentence}\n\n{guide.question}" if sentence else guide.question
            screen.open_panel(Mode.ASKING, question)
        elif (sentence and rules.mouse_changes_hands(event.before, event.after) and screen.acting.person()
              and screen.acting.people() > 1 and self.last_human is not None and player != self.last_human):
            screen.open_panel(Mode.HAND_OVER, sentence)   # an answer, a proof or a penalty decided something
        elif sentence:
            answered = rules.is_question(rules.task(event.before))
            screen.hud.flash(sentence, screen.now, seconds=8.0 if answered else 4.0)
        else:
            self.waiting()
        if screen.acting.person():
            self.last_human = player
        if screen.here is not None and isinstance(event.action, rules.SealRoll) \
                and rules.acting_player(event.before) not in screen.here and not screen.current.ends_itself:
            screen.open_panel(Mode.ROLLING, event.action, False)   # online: the seal tumbles at every window

    def waiting(self) -> None:
        """Online, where the hot seat hands the mouse over: who the game waits for, said once."""
        screen = self.screen
        waited = screen.acting.waited_for()
        away = waited is not None and screen.match.away(waited)
        if waited is not None and (waited, away) != self.last_waited:
            screen.hud.flash(words.waiting_for(screen.match.state, waited, away), screen.now)
            log.info("waiting for %s%s", screen.match.state.players[waited], " to come back" if away else "")
        self.last_waited = (waited, away)

    def refused(self, event: Refused) -> None:
        self.screen.hud.flash(words.refusal(event.error, self.screen.match.state), self.screen.now)

    def collapsed(self, event: Collapsed) -> None:
        screen = self.screen
        screen.close_panel()
        screen.hud.flash(_("The villa collapses!"), screen.now, seconds=8.0)
        screen.fell_at = screen.match.villa.time
        screen.recorder.fell(screen.match.villa.time)
        if screen.sound is not None:
            screen.sound.crash()
        screen.change_mode(Mode.FALLING)

    def round(self, event: RoundStarted) -> None:
        screen = self.screen
        screen.recorder.stop()   # the fallen villa lay still: it is built anew for the next round
        for piece in screen.view.scene.pieces.values():
            piece.clearColorScale()
        if screen.mode == Mode.FALLING and screen.recorder.fell_at is None:
            # the fall was shown again (or skipped) before the fallen pieces lay still
            screen.change_mode(screen.mode_now())
            screen.view.focus_top()

    def headline(self) -> str:
        """The status line: the turn's task (a mode may say more: drawing a column out, a computer's doing)."""
        state = self.screen.match.state
        return _("The game is over") if state.over else words.guidance(state).headline

    def show_state(self) -> None:
        """The HUD for the state now: standings, seal, floors left, the buttons, blocked columns."""
        screen = self.screen
        state = screen.match.state
        guide = words.guidance(state)
        screen.hud.show_game(guide, neutral=state.neutral, family=state.ruleset.family)
        shown = [(c.name, c.label, lambda name=c.name: screen.command(name))
                 for c in guide.commands if c.name is not Button.CHOOSE]
        if screen.here is not None:   # online the colours are chosen in the game (the hot seat: before it)
            shown += [(f"{Button.CHOOSE.value} {a.colour.value}", _(a.colour.value).capitalize(),
                       lambda a=a: screen.ask(lambda seat, a=a: rq.request_for(seat, a)))
                      for c in guide.commands if c.name is Button.CHOOSE for a in c.actions]
        screen.hud.show_commands([] if state.over or guide.asks or not screen.acting.person() else shown)
        for column in state.blocked:
            if column in screen.view.scene.pieces:
                screen.view.scene.pieces[column].setColorScale(BLOCKED_SHADE)
