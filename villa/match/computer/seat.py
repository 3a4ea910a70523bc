"""A computer player at the table: it rolls the seal, answers when asked, and moves with its hand.

    seat_computers(match)                  # every seat the setup gives to a computer
    seat_computers(match, everyone=True)   # headless: computers take every seat
    seat_computers(match, aside=True)      # the window: thinking in a worker process

The seat is a driver of the match. Before every frame it looks whether it must act; if so it sends
the rules' state and the villa's snapshot to its thinker and holds the frames (no simulated time
passes) until the plan is back; then its hand carries the plan out one frame at a time. It decides
from the seed, the rules' state and the villa alone, so the same game goes on the same way wherever
it is played and however long the thinking took.
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import Future

from villa import rules
from villa.match import requests as rq
from villa.match.computer import hands
from villa.match.computer.plans import Plan, Request
from villa.match.computer.worker import thinker_for
from villa.match.setup import Strength
from villa.match.table import Match
from villa.physics.pulling import Pull
from villa.rules.state import Step

log = logging.getLogger(__name__)


class ComputerSeat:
    def __init__(self, match: Match, player: int, strength: Strength = Strength.MEDIUM, aside: bool = False,
                 watch: hands.Watch | None = None) -> None:
        self.match, self.player, self.strength = match, player, Strength(strength)
        self.seed = match.setup.seed * 8 + player
        self.thinker = thinker_for(aside)
        self.watch = watch
        self.move: hands.Move | None = None
        self.doing: str | None = None       # what it does now, for the status line: "thinking", "pull", "lay"
        self.plans: list[Plan] = []          # every plan it made, in order (for measuring and tests)
        self.thinking: list[tuple[float, float]] = []   # per decision: wall and CPU seconds (measuring only)
        self._pending: tuple[tuple, Future, float, float] | None = None
        self._failed: tuple | None = None    # the moment a plan came to nothing (a take refused)

    def before_frame(self) -> bool:
        if self.move is not None:
            try:
                next(self.move)
            except StopIteration:
                self.move, self.doing = None, None
            return True
        match = self.match
        if match.over:
            return True
        state = match.state
        if state.turn.step is Step.IN_HAND and match.actor == self.player and not match.collapsed:
            self._left_in_hand()
            return True
        if match.busy:
            return True
        if rules.is_chance_node(state):
            if state.turn.actor == self.player:
                match.request(rq.Roll(self.player))
            return True
        if match.actor != self.player:
            self._pending = None
            return True
        return self._think_and_act(state)

    def _left_in_hand(self) -> None:
        """A column of its own still in hand with no move under way (taken up again, or stuck): it goes
        back; the family edition knows no giving up, so it is drawn on and set down."""
        match = self.match
        hand = match.hand
        if hand is not None and getattr(hand, "state", None) not in ("pulling", "carrying"):
            return   # coming down, being judged
        if match.state.ruleset.abort_allowed:
            match.request(rq.GiveUp(self.player))
        elif isinstance(hand, Pull):
            self._start(hands.carry_on(match), "pull")

    def _think_and_act(self, state: rules.GameState) -> bool:
        match = self.match
        key = (len(state.log), state.turn)
        if self._pending is None or self._pending[0] != key:
            request = Request(rules.state_to_json(state), self.match.villa.snapshot(), self.player,
                              self.strength.value, self.seed)
            wall, cpu = time.perf_counter(), time.process_time()
            self._pending = (key, self.thinker.submit(request), wall, cpu)
        _, future, wall, cpu = self._pending
        if not future.done():
            self.doing = "thinking"
            return False    # hold the frame: no time passes while it thinks
        self._pending = None
        self.thinking.append((time.perf_counter() - wall, time.process_time() - cpu))
        try:
            plan = future.result()
        except Exception:   # a broken worker: think here instead of stalling the game
            log.exception("the worker could not think; thinking in this process")
            plan = thinker_for(False).submit(Request(rules.state_to_json(state), self.match.villa.snapshot(),
                                                     self.player, self.strength.value, self.seed)).result()
        self.plans.append(plan)
        if key == self._failed:   # the same plan came to nothing before: something else, by the rules
            plan = _fallback(state, plan)
        self._carry_out(plan)
        if self.move is None and (len(match.state.log), match.state.turn) == key and match.hand is None:
            self._failed = key
        return True

    def _carry_out(self, plan: Plan) -> None:
        match = self.match
        if plan.pulls:
            self._start(hands.pull(match, plan, self.watch), "pull")
        elif plan.lays:
            self._start(hands.lay_floor(match, plan), "lay")
        elif plan.action is not None:
            refusal = match.request(rq.request_for(self.player, plan.action)).refusal
            if refusal is not None:
                raise RuntimeError(f"the computer player chose {plan.action}, which the referee refused: {refusal}")
        self.doing = self.doing if self.move is not None else None

    def _start(self, move: hands.Move, doing: str) -> None:
        self.move, self.doing = move, doing
        self.before_frame()


def _fallback(state: rules.GameState, failed: Plan) -> Plan:
    """Another way on when a plan could not even start: any other action the rules allow, else
    another column (given up at once where the rules allow it)."""
    legal = rules.legal_actions(state)
    other = [a for a in legal if not isinstance(a, (rules.TakeColumn, rules.ProposeFloor))]
    if other:
        return Plan(action=other[0], why="its plan came to nothing")
    columns = [c for c in rules.takeable_columns(state) if c != failed.column]
    if columns:
        return Plan(column=columns[0], give_up=state.ruleset.abort_allowed, why="its plan came to nothing")
    return Plan(action=legal[0] if legal else None, why="its plan came to nothing")


def seat_computers(match: Match, everyone: bool = False, strength: Strength = Strength.MEDIUM,
                   aside: bool = False) -> list[ComputerSeat]:
    """Computer players for the seats the setup gives them (or, `everyone`, for every seat: a seat of a
    person gets one of `strength`). `aside`: they think in a worker process (the window)."""
    seats = []
    for player, seat in enumerate(match.setup.seats):
        if seat.is_computer or everyone:
            computer = ComputerSeat(match, player, seat.computer or strength, aside)
            match.add_driver(computer)
            seats.append(computer)
    return seats


def reseat_computers(match: Match, aside: bool = False) -> list[ComputerSeat]:
    """After seats changed hands: computer players exactly for the seats the setup now gives them."""
    for driver in match.drivers:
        if isinstance(driver, ComputerSeat):
            match.remove_driver(driver)
    return seat_computers(match, aside=aside)
