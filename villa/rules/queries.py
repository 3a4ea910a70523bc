"""What the interface and the computer players ask the referee: who acts, what they may do,
which facts the physics may report, and whether the physics agrees with the rules."""

from __future__ import annotations

from . import eligibility as eligible
from .actions import (Abort, Action, Challenge, ChooseColour, Decline, ForgoPenalty, GiveUpFloor, Object, Pass,
                      ProposeFloor, SealRoll, TakeColumn)
from .facts import Collapse, CollapseCause, ColumnPlaced, ColumnTakenOut, FloorLaid, VillaSurvey
from .pieces import TOP_FLOOR_LEVEL, Colour, floor_id
from .setup import colours_left
from .state import GameState, Role, Step


def whose_move(state: GameState) -> int | None:
    """The player who must act now; None when the game is over or chance decides."""
    if state.over or is_chance_node(state):
        return None
    return state.turn.actor


def is_chance_node(state: GameState) -> bool:
    return state.turn.step in (Step.COLOUR_ROLL, Step.FAMILY_ROLL)


def takeable_columns(state: GameState) -> list[str]:
    """The columns the actor may take now (what the interface lets the mouse grab)."""
    if state.turn.step in (Step.START, Step.TAKE):
        return eligible.role_takeable(state)
    return []


def legal_actions(state: GameState) -> list[Action]:
    """Every player or chance action `apply` accepts now (facts: see `expected_facts`).

    `AssignColoursAtRandom(seed)` is also accepted whenever the first colour pick is due.
    """
    turn = state.turn
    step = turn.step
    if step is Step.OVER:
        return []
    if step is Step.COLOUR_ROLL:
        # Every face the seal may land on; when everyone rolls, a colour already taken is a
        # roll like any other, and the same player rolls again.
        return [SealRoll(c) for c in Colour]
    if step is Step.COLOUR_CHOICE:
        return [ChooseColour(c) for c in colours_left(state)]
    if step is Step.FAMILY_ROLL:
        return [SealRoll(c) for c in Colour] + [SealRoll(None)]
    if step is Step.START:
        takes: list[Action] = [TakeColumn(c) for c in eligible.role_takeable(state)]
        claim: list[Action] = [ProposeFloor()] if eligible.can_propose(state) else []
        # Nothing to build and no floor that could be laid: a pass, or a claim given up (the same end).
        rest: list[Action] = [Pass()] if not takes and not eligible.floor_can_be_laid(state) else []
        return takes + claim + rest
    if step is Step.TAKE:
        return [TakeColumn(c) for c in eligible.role_takeable(state)]
    if step is Step.IN_HAND:
        return [Abort()] if state.ruleset.abort_allowed else []
    if step is Step.ASK:
        return [Challenge() if turn.role is Role.CHALLENGE else Object(), Decline()]
    if step is Step.LAY_FLOOR:
        return [GiveUpFloor()]
    if step is Step.TAKE_OUT:
        return [ForgoPenalty()]  # or the fact ColumnTakenOut of the column pulled out
    return []


def expected_facts(state: GameState) -> list:
    """Examples of physics facts the rules accept now (a collapse is always possible in play)."""
    turn = state.turn
    if state.over or turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        return []
    top = state.top_level
    facts: list = []
    if turn.step is Step.IN_HAND:
        facts.append(ColumnPlaced(turn.column, top, True))
        if top == TOP_FLOOR_LEVEL:
            facts += [ColumnPlaced(turn.column, top, True, d) for d in sorted(state.columns_on(top))[:2]]
    elif turn.step is Step.TAKE_OUT:
        facts += [ColumnTakenOut(c) for c in eligible.objector_columns_in_villa(state)]
    elif turn.step is Step.LAY_FLOOR:
        on_top = sorted(state.columns_on(top))
        need = state.ruleset.min_support(top + 1)
        if len(on_top) >= need:  # a failed objection's penalty may have left too few
            facts.append(FloorLaid(top + 1, frozenset(on_top)))
        if len(on_top) > need:
            facts.append(FloorLaid(top + 1, frozenset(on_top[:need])))
    facts.append(Collapse(1.0, CollapseCause.COLUMN_TOPPLED, floor_id(top)))
    return facts


def check_survey(state: GameState, survey: VillaSurvey) -> list[str]:
    """Where the physics' survey disagrees with the rules' picture (empty: they agree)."""
    problems = []
    for c, lv in state.levels.items():
        seen = survey.column_levels.get(c)
        if c in survey.column_levels and seen != lv and c != state.turn.column:
            problems.append(f"{c}: rules say level {lv}, physics says {seen}")
    if survey.top_level and survey.top_level != state.top_level:
        problems.append(f"top level: rules say {state.top_level}, physics says {survey.top_level}")
    return problems
