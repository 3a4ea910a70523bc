"""A computer player at the table: it answers when asked, rolls the seal, and moves with its hand.

    seat_computers(match)                  # every seat the setup gives to a computer
    seat_computers(match, everyone=True)   # headless: computers take every seat

The seat is a driver of the match: before every frame it looks whether it must act, decides,
and moves its hand one frame further. It decides from the seed, the rules' state and the
villa alone, so the same game goes on the same way wherever it is played.
"""

from __future__ import annotations

import logging

from villa import rules
from villa.match.computer import hands
from villa.match.computer.brain import ComputerPlayer
from villa.match.setup import Strength
from villa.match.table import Match
from villa.rules.state import Step

log = logging.getLogger(__name__)


class ComputerSeat:
    def __init__(self, match: Match, player: int, strength: Strength = Strength.MEDIUM) -> None:
        self.match, self.player, self.strength = match, player, strength
        self.brain = ComputerPlayer(match.setup.seed * 8 + player)
        self.move: hands.Move | None = None
        self.doing: str | None = None       # what its hand does now, for the status line

    def before_frame(self) -> bool:
        if self.move is not None:
            try:
                next(self.move)
            except StopIteration:
                self.move, self.doing = None, None
            return True
        match = self.match
        if match.over or match.busy:
            return True
        state = match.state
        if rules.is_chance_node(state):
            if state.turn.actor == self.player:
                match.roll()
            return True
        if match.actor == self.player:
            self._act(state)
        return True

    def _act(self, state: rules.GameState) -> None:
        match = self.match
        step = state.turn.step
        if step is Step.LAY_FLOOR:
            self._start(hands.lay_floor(match, self.brain), "lay")
        elif step is Step.TAKE_OUT:
            column = self.brain.column_to_take_out(state, match.villa)
            self._start(hands.take_out(match, column), "take out")
        elif step is Step.IN_HAND:
            match.give_up()
        else:
            action = self.brain.choose(state, match.villa)
            if isinstance(action, rules.TakeColumn):
                self._start(hands.build(match, self.brain, action.column), "pull")
            elif action is not None:
                refusal = match.act(action)
                if refusal is not None:
                    raise RuntimeError(f"the computer player chose {action}, which the referee refused: {refusal}")

    def _start(self, move: hands.Move, doing: str) -> None:
        self.move, self.doing = move, doing
        self.before_frame()


def seat_computers(match: Match, everyone: bool = False, strength: Strength = Strength.MEDIUM) -> list[ComputerSeat]:
    """Computer players for the seats the setup gives them (or, `everyone`, for every seat: a seat of a
    person gets one of `strength`)."""
    seats = []
    for player, seat in enumerate(match.setup.seats):
        if seat.is_computer or everyone:
            computer = ComputerSeat(match, player, seat.computer or strength)
            match.add_driver(computer)
            seats.append(computer)
    return seats


def reseat_computers(match: Match) -> list[ComputerSeat]:
    """After seats changed hands: computer players exactly for the seats the setup now gives them."""
    for driver in match.drivers:
        if isinstance(driver, ComputerSeat):
            match.remove_driver(driver)
    return seat_computers(match)
