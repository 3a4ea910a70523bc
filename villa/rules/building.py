"""Building: taking a column, setting it on the top floor under the building regulations,
aborting, and passing when nothing can be done.

The column taken may be the turn's build, the own column after the neutral one, an
objector's proof or a challenger's: `Turn.role` says which, and what its outcome means.
"""

from __future__ import annotations

from dataclasses import replace

from . import eligibility as eligible
from . import seal as seal_rules
from .actions import Abort, Pass, TakeColumn
from .errors import Rule
from .facts import ColumnPlaced
from .pieces import COLUMNS_BY_ID, GREEN_LEVEL, TOP_FLOOR_LEVEL
from .rulesets import Scoring
from .state import GameState, Role, Step
from .turns import ask, end_turn, expect, to_take


def on_take(state: GameState, action: TakeColumn) -> GameState:
    expect(state, action, Step.START, Step.TAKE)
    c = action.column
    if c not in eligible.role_takeable(state):
        raise eligible.why_not_takeable(state, c).error()
    levels = dict(state.levels)
    origin, levels[c] = levels[c], None
    role = state.turn.role if state.turn.step is Step.TAKE else Role.BUILD
    return replace(state, levels=levels,
                   turn=replace(state.turn, step=Step.IN_HAND, role=role, column=c, origin=origin))


def on_abort(state: GameState, action: Abort) -> GameState:
    expect(state, action, Step.IN_HAND)
    if not state.ruleset.abort_allowed:
        raise Rule.NO_ABORT.refuse()
    turn = state.turn
    c = turn.column
    levels = dict(state.levels)
    levels[c] = turn.origin
    state = replace(state, levels=levels, blocked=state.blocked | {c},
                    turn=replace(turn, column=None, origin=None))
    neutral_attempt = turn.role is Role.BUILD and COLUMNS_BY_ID[c].colour is state.neutral
    if neutral_attempt:
        state = replace(state, turn=replace(state.turn, neutral_done=True))
        if eligible.neutral_takeable(state):
            # Another player may prove that a different neutral column could have gone up.
            return ask(state, Role.CHALLENGE)
        return to_take(state, Role.OWN, turn.player)
    if turn.role is Role.PROOF:
        # The objection failed: the proposer takes one of the objector's columns out (if any is
        # left in the villa), then lays the floor.
        step = Step.TAKE_OUT if eligible.objector_columns_in_villa(state) else Step.LAY_FLOOR
        return replace(state, turn=replace(state.turn, step=step, actor=turn.player))
    if turn.role is Role.CHALLENGE:
        return to_take(state, Role.OWN, turn.player)  # the challenge failed: the own move as normal
    return end_turn(state, progress=True)


def on_placed(state: GameState, fact: ColumnPlaced) -> GameState:
    expect(state, fact, Step.IN_HAND)
    turn = state.turn
    top = state.top_level
    if fact.column != turn.column:
        raise Rule.REGULATION_6.refuse(column=fact.column, chosen=turn.column)
    if fact.level != top:
        raise Rule.ONTO_TOP_FLOOR.refuse(column=fact.column, level=fact.level, top=top)
    if not fact.footprint_inside:
        raise Rule.REGULATION_3.refuse(column=fact.column)
    # Regulation 8: only on the red floor, and only on a column standing there.
    if fact.on_column is not None and (top != TOP_FLOOR_LEVEL or state.levels.get(fact.on_column) != top):
        raise Rule.REGULATION_8.refuse(column=fact.column, on_column=fact.on_column, level=top)
    levels = dict(state.levels)
    levels[fact.column] = top
    state = replace(state, levels=levels, turn=replace(turn, column=None, origin=None))
    colour = COLUMNS_BY_ID[fact.column].colour
    if state.ruleset.family:
        if state.ruleset.scoring is Scoring.TOURNAMENT and top >= GREEN_LEVEL:
            mover = turn.actor
            scores = list(state.scores)
            scores[mover] += COLUMNS_BY_ID[fact.column].points
            state = replace(state, scores=tuple(scores))
        return end_turn(state, progress=True)
    if turn.role is Role.PROOF:
        # The objection succeeded: the column leaves the game and the proposal fails.
        levels[fact.column] = None
        return end_turn(replace(state, levels=levels, out=state.out | {fact.column}), progress=True)
    if turn.role is Role.CHALLENGE:
        return end_turn(state, progress=True)  # the challenge succeeded: the own move is lost
    if colour is state.neutral:
        return to_take(replace(state, turn=replace(state.turn, neutral_done=True)), Role.OWN, turn.player)
    state = seal_rules.after_placement(state, turn.player)
    return end_turn(state, progress=True)


def on_pass(state: GameState, action: Pass) -> GameState:
    expect(state, action, Step.START)
    if eligible.role_takeable(state) or eligible.floor_can_be_laid(state):
        raise Rule.MUST_BUILD.refuse(player=state.turn.player)
    return end_turn(state, progress=False)
