"""The referee: one way in for every change.

`apply(state, action)` returns the new state or raises a `RuleError` naming the broken
rule; the old state is never touched (all records are frozen). Every accepted action is
appended to `state.log`, and `replay` rebuilds any game from its setup and log. What may
be done now is asked of `villa.rules.queries` (re-exported here).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterable

from . import building, proposals, setup, turns
from .actions import (Abort, Action, AssignColoursAtRandom, Challenge, ChooseColour, Decline, ForgoPenalty,
                      GiveUpFloor, Object, Pass, ProposeFloor, SealRoll, SetUpHigher, TakeColumn)
from .errors import Rule
from .facts import Collapse, ColumnPlaced, ColumnTakenOut, FloorLaid, VillaSurvey
from .queries import (check_survey, expected_facts, is_chance_node, legal_actions, takeable_columns,
                      whose_move)
from .setup import new_game
from .state import GameSetup, GameState, Step
from .turns import begin_turn, blamed_for_collapse
from .validation import check_fields


def apply(state: GameState, action: Action) -> GameState:
    """The state after `action`, or a `RuleError`; `state` itself never changes."""
    if state.over:
        raise Rule.GAME_OVER.refuse(ending=state.result.ending.value)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise Rule.UNKNOWN_ACTION.refuse(action=type(action).__name__)
    check_fields(action)
    new_state = handler(state, action)
    return replace(new_state, log=state.log + (action,))


def replay(setup: GameSetup, log: Iterable[Action]) -> GameState:
    """The game rebuilt from its setup by applying its log again."""
    state = new_game(setup)
    for action in log:
        state = apply(state, action)
    return state


def _on_seal_roll(state: GameState, action: SealRoll) -> GameState:
    """The seal is rolled for a colour at the start, or (family, random) for a turn's colour."""
    if state.turn.step is Step.FAMILY_ROLL:
        return turns.on_family_roll(state, action)
    return setup.on_colour_roll(state, action)


def _on_survey(state: GameState, fact: VillaSurvey) -> GameState:
    raise Rule.SURVEY.refuse()


_HANDLERS: dict[type, Callable] = {
    SealRoll: _on_seal_roll,
    ChooseColour: setup.on_choose_colour,
    AssignColoursAtRandom: setup.on_random_colours,
    SetUpHigher: setup.on_set_up_higher,
    TakeColumn: building.on_take,
    Abort: building.on_abort,
    Pass: building.on_pass,
    ColumnPlaced: building.on_placed,
    ProposeFloor: proposals.on_propose,
    Object: proposals.on_answer,
    Challenge: proposals.on_answer,
    Decline: proposals.on_answer,
    ForgoPenalty: proposals.on_forgo,
    GiveUpFloor: proposals.on_give_up,
    FloorLaid: proposals.on_floor,
    ColumnTakenOut: proposals.on_taken_out,
    Collapse: turns.on_collapse,
    VillaSurvey: _on_survey,
}

__all__ = ["apply", "legal_actions", "expected_facts", "replay", "whose_move", "is_chance_node",
           "blamed_for_collapse", "takeable_columns", "check_survey", "begin_turn"]
