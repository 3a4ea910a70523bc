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
        self.last_waited: tuple = (None, False, False)   # online: the person last waited for, away, gone for good
        self.gone_for_good: frozenset[int] = frozenset()  # online: the people who gave their seats up
        seats = screen.seats                              # online: the people's seats a computer plays, said
        self.stand_ins_told = frozenset(n for n in range(screen.match.state.n) if seats and seats.stand_in(n))
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
        """Online, where the hot seat hands the mouse over: who the game waits for, said once; a person who left for
        good, said to everyone once (the host is offered a computer player for the seat)."""
        screen = self.screen
        waited = screen.acting.waited_for()
        away = screen.away(waited)
        now = (waited, bool(away), getattr(away, "for_good", False))
        if waited is not None and now != self.last_waited:
            screen.hud.flash(screen.waiting_words(waited), screen.now)
            log.info("waiting for %s%s", screen.match.state.players[waited], " to come back" if away else "")
        state = screen.match.state
        gone = frozenset(n for n in range(state.n) if getattr(screen.away(n), "for_good", False))
        for player in sorted(gone - self.gone_for_good):
            hosting = screen.seats is not None and screen.seats.hosting
            screen.hud.announce(words.left_for_good(state, player, hosting), screen.now)
            log.info("%s left the game for good", state.players[player])
        stand_ins = frozenset(n for n in range(state.n) if screen.seats is not None and screen.seats.stand_in(n))
        for player in sorted(stand_ins - self.stand_ins_told):
            screen.hud.flash("", screen.now, 0.0)          # whatever was said of their seat is over
            screen.hud.announce(words.computer_plays_now(state.players[player]), screen.now)
            log.info("a computer plays for %s", state.players[player])
        self.stand_ins_told = stand_ins
        if now != self.last_waited or gone != self.gone_for_good:
            self.last_waited, self.gone_for_good = now, gone
            self.show_state()       # the host's button for a computer player comes or goes
            screen.hud.show_status(screen.current.headline())     # (the mode's words, not the turn's task)

    def stand_ins(self) -> list:
        """Online, for the host: a computer player offered for the seat of a person who gave it up for good, or
        who left while the game waits for them."""
        screen = self.screen
        if screen.seats is None or not screen.seats.hosting or screen.on_stand_in is None or screen.match.over:
            return []
        waited = screen.acting.waited_for()
        seats = sorted(self.gone_for_good | ({waited} if waited is not None and screen.away(waited) else set()))
        names = screen.match.state.players
        return [(f"stand_in {n}", words.stand_in_words(names[n]), lambda n=n: screen.on_stand_in(n)) for n in seats]

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
        seats = screen.seats
        computers = frozenset(n for n in range(state.n) if seats is not None and seats.stand_in(n))
        screen.hud.show_game(guide, neutral=state.neutral, family=state.ruleset.family, computers=computers)
        shown = [(c.name, c.label, lambda name=c.name: screen.command(name))
                 for c in guide.commands if c.name is not Button.CHOOSE]
        if screen.here is not None:   # online the colours are chosen in the game (the hot seat: before it)
            shown += [(f"{Button.CHOOSE.value} {a.colour.value}", _(a.colour.value).capitalize(),
                       lambda a=a: screen.ask(lambda seat, a=a: rq.request_for(seat, a)))
                      for c in guide.commands if c.name is Button.CHOOSE for a in c.actions]
        if screen.cut_off_now() is not None:     # online, the game's server lost: nothing to do but leave
            shown = [("leave", words.leave_words(), screen.on_leave)] if screen.on_leave is not None else []
            screen.hud.show_commands(shown)
            return
        shown = [] if state.over or guide.asks or not screen.acting.person() else shown
        screen.hud.show_commands(shown + self.stand_ins())
        for column in state.blocked:
            if column in screen.view.scene.pieces:
                screen.view.scene.pieces[column].setColorScale(BLOCKED_SHADE)
