"""Proposing a new floor: the claim, the others asked in turn, the objector's proof and its
penalty, and laying the floor (or giving it up). Also the answers to a neutral challenge
and to the family edition's challenge, which are asked the same way.
"""

from __future__ import annotations

from dataclasses import replace

from . import eligibility as eligible
from . import seal as seal_rules
from .actions import Challenge, Decline, ForgoPenalty, GiveUpFloor, Object, ProposeFloor
from .errors import Rule
from .facts import ColumnTakenOut, FloorLaid
from .rulesets import Scoring
from .state import GameState, Role, Step
from .turns import ask, end_turn, expect, not_now, to_take


def on_propose(state: GameState, action: ProposeFloor) -> GameState:
    expect(state, action, Step.START)
    if not eligible.can_propose(state):
        raise Rule.NO_FLOOR_LEFT.refuse()
    # Too few columns on the top level do not stop the claim: unopposed, the floor is given up.
    rs = state.ruleset
    if rs.family:
        claimed = eligible.takeable(state, eligible.turn_colours(state, state.turn.player))
        if rs.scoring is Scoring.TOURNAMENT and claimed:  # a column could still be tried: it may be challenged
            return ask(state, Role.FAMILY_CHALLENGE)
        return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR))
    if eligible.takeable(state, state.colours[state.turn.player]):
        return ask(state, Role.PROOF)
    # None of the proposer's columns can be moved up: there is nothing to object with.
    return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR))


def on_answer(state: GameState, action: Object | Challenge | Decline) -> GameState:
    expect(state, action, Step.ASK)
    turn = state.turn
    if isinstance(action, Decline):
        nxt = (turn.actor + 1) % state.n
        if nxt != turn.player:
            return replace(state, turn=replace(turn, actor=nxt))
        if turn.role is Role.CHALLENGE:
            return to_take(state, Role.OWN, turn.player)  # nobody challenged: the own move
        return replace(state, turn=replace(turn, step=Step.LAY_FLOOR, actor=turn.player))
    if isinstance(action, Challenge) != (turn.role is Role.CHALLENGE):
        raise not_now(state, action)  # the question is about the other kind of doubt
    if turn.role is Role.CHALLENGE:
        return replace(state, turn=replace(turn, step=Step.TAKE, challenger=turn.actor))
    return replace(state, turn=replace(turn, step=Step.TAKE, objector=turn.actor))


def on_taken_out(state: GameState, fact: ColumnTakenOut) -> GameState:
    expect(state, fact, Step.TAKE_OUT)
    if fact.column not in eligible.objector_columns_in_villa(state):
        raise Rule.OBJECTION_PENALTY.refuse(column=fact.column, objector=state.turn.objector)
    levels = dict(state.levels)
    levels[fact.column] = None
    state = replace(state, levels=levels, out=state.out | {fact.column})
    state = seal_rules.after_loss(state)
    # Decided: the objection failed, so the claim stands and the floor goes on.
    return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR, actor=state.turn.player))


def on_forgo(state: GameState, action: ForgoPenalty) -> GameState:
    expect(state, action, Step.TAKE_OUT)
    # The claim stands all the same: the floor goes on, as after a take-out.
    return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR, actor=state.turn.player))


def on_floor(state: GameState, fact: FloorLaid) -> GameState:
    expect(state, fact, Step.LAY_FLOOR)
    top = state.top_level
    rs = state.ruleset
    if fact.level != top + 1:
        raise Rule.REGULATION_4.refuse(level=fact.level, next=top + 1)
    stray = fact.resting_on - state.columns_on(top)
    if stray:
        raise Rule.FLOOR_ON_TOP_COLUMNS.refuse(columns=sorted(stray), level=top)
    need = rs.min_support(fact.level)
    if len(fact.resting_on) < need:
        raise Rule.FLOOR_SUPPORT.refuse(level=fact.level, need=need, have=len(fact.resting_on))
    if rs.floors_inside_base and not fact.inside_base:
        raise Rule.FLOOR_INSIDE_BASE.refuse(level=fact.level)
    laid_on = {**state.floors_laid_on, fact.level: fact.resting_on}
    state = replace(state, top_level=fact.level, floors_laid_on=laid_on)
    if rs.family or rs.proposer_moves_column:
        return to_take(state, Role.OWN, state.turn.player)
    return end_turn(state, progress=True)


def on_give_up(state: GameState, action: GiveUpFloor) -> GameState:
    expect(state, action, Step.LAY_FLOOR)
    if state.ruleset.family:
        # With no floor, a column must move.
        return to_take(state, Role.OWN, state.turn.player, progress=False)
    return end_turn(state, progress=False)
