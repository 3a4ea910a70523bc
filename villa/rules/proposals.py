"""Proposing a new floor: the claim, the others asked in turn, the objector's proof and its
penalty, and laying the floor (or giving it up). Also the answers to a neutral challenge
and to the family edition's challenge, which are asked the same way.
"""

from __future__ import annotations

from dataclasses import replace

from . import eligibility as eligible
from . import seal as seal_rules
from .actions import Challenge, Decline, GiveUpFloor, Object, ProposeFloor
from .errors import IllegalProposal, NotYourMove
from .facts import ColumnTakenOut, FloorLaid
from .pieces import TOP_FLOOR_LEVEL, floor_colour
from .rulesets import Scoring
from .state import GameState, Role, Step
from .turns import ASKING_ROLES, ask, end_turn, expect, to_take


def on_propose(state: GameState, action: ProposeFloor) -> GameState:
    expect(state, Step.START, what="proposing a floor (only at the start of a turn)")
    if state.top_level >= TOP_FLOOR_LEVEL:
        raise IllegalProposal("no-floor-left", "the red floor is on: no floor is left")
    if not eligible.can_propose(state):
        need = state.ruleset.min_support(state.top_level + 1)
        raise IllegalProposal("floor-support", f"the next floor needs {need} columns on the top level to rest on")
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
    expect(state, Step.ASK, what="objecting or challenging")
    turn = state.turn
    if isinstance(action, Decline):
        nxt = (turn.actor + 1) % state.n
        if nxt != turn.player:
            return replace(state, turn=replace(turn, actor=nxt))
        if turn.role is Role.CHALLENGE:
            return to_take(state, Role.OWN, turn.player)  # nobody challenged: the own move
        return replace(state, turn=replace(turn, step=Step.LAY_FLOOR, actor=turn.player))
    if isinstance(action, Challenge) != (turn.role is Role.CHALLENGE):
        raise NotYourMove("not-now", f"the question is about a {ASKING_ROLES[turn.role]}")
    if turn.role is Role.CHALLENGE:
        return replace(state, turn=replace(turn, step=Step.TAKE, challenger=turn.actor))
    return replace(state, turn=replace(turn, step=Step.TAKE, objector=turn.actor))


def on_taken_out(state: GameState, fact: ColumnTakenOut) -> GameState:
    expect(state, Step.TAKE_OUT, what="taking a column out of the villa")
    if fact.column not in eligible.objector_columns_in_villa(state):
        raise IllegalProposal("objection-penalty",
                              f"the proposer takes out one of the objector's columns in the villa, not {fact.column}")
    levels = dict(state.levels)
    levels[fact.column] = None
    state = replace(state, levels=levels, out=state.out | {fact.column})
    state = seal_rules.after_loss(state)
    # Decided: the objection failed, so the claim stands and the floor goes on.
    return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR, actor=state.turn.player))


def on_floor(state: GameState, fact: FloorLaid) -> GameState:
    expect(state, Step.LAY_FLOOR, what="laying a floor")
    top = state.top_level
    rs = state.ruleset
    if fact.level != top + 1:
        raise IllegalProposal("regulation-4", f"the floors go on in order: next is the "
                              f"{floor_colour(top + 1)} floor (level {top + 1})")
    stray = set(fact.resting_on) - state.columns_on(top)
    if stray:
        raise IllegalProposal("floor-on-top-columns", f"the floor rests only on columns of the top level, "
                              f"not on {', '.join(sorted(stray))}")
    need = rs.min_support(fact.level)
    if len(fact.resting_on) < need:
        raise IllegalProposal("floor-support", f"the {floor_colour(fact.level)} floor must rest on at least "
                              f"{need} columns, not {len(fact.resting_on)}")
    if rs.floors_inside_base and not fact.inside_base:
        raise IllegalProposal("floor-inside-base", "under this house rule no floor may overhang the base plate")
    supports = dict(state.floor_supports)
    supports[fact.level] = frozenset(fact.resting_on)
    state = replace(state, top_level=fact.level, floor_supports=supports)
    if rs.family or rs.proposer_moves_column:
        return to_take(state, Role.OWN, state.turn.player)
    return end_turn(state, progress=True)


def on_give_up(state: GameState, action: GiveUpFloor) -> GameState:
    expect(state, Step.LAY_FLOOR, what="giving up the floor")
    if state.ruleset.family:
        # With no floor, a column must move.
        return to_take(state, Role.OWN, state.turn.player, progress=False)
    return end_turn(state, progress=False)
