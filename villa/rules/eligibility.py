"""Who may take which column, and whether a floor can be proposed: the rules' eligibility
questions, shared by the engine and by `answers`. Outside `villa/rules` they are asked through
the package (`rules.takeable`, `rules.floor_can_be_laid` ...), never from this module."""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

from .errors import Rule, RuleError
from .pieces import COLUMNS_BY_ID, Colour, TOP_FLOOR_LEVEL
from .rulesets import FamilyMode
from .state import GameState, Role, Step


def takeable(state: GameState, colours: Iterable[Colour]) -> list[str]:
    """Columns of these colours that may be built with: in the villa, below the top, not aborted."""
    colours = set(colours)
    return sorted(c for c, lv in state.levels.items()
                  if lv is not None and lv < state.top_level and c not in state.blocked
                  and COLUMNS_BY_ID[c].colour in colours)


def neutral_takeable(state: GameState) -> list[str]:
    """Neutral columns that may go up: never the last neutral column on its level."""
    if state.neutral is None:
        return []
    on_level: dict[int, int] = {}
    for c, lv in state.levels.items():
        if lv is not None and COLUMNS_BY_ID[c].colour is state.neutral:
            on_level[lv] = on_level.get(lv, 0) + 1
    return [c for c in takeable(state, [state.neutral]) if on_level[state.levels[c]] >= 2]


def turn_colours(state: GameState, player: int) -> tuple[Colour, ...]:
    """The colours `player` builds with this turn."""
    if state.ruleset.family:
        if state.ruleset.mode is FamilyMode.ASSIGNED:
            return state.colours[player]
        if state.turn.player == player and state.turn.colours is not None:
            return state.turn.colours
        return tuple(Colour)
    return state.colours[player]


def start_takeable(state: GameState, player: int, neutral_done: bool = False) -> list[str]:
    """What `player` may take at the start of a turn (three players: a neutral column first)."""
    if state.neutral is not None and not neutral_done:
        neutral = neutral_takeable(state)
        if neutral:
            return neutral
    return takeable(state, turn_colours(state, player))


def can_propose(state: GameState) -> bool:
    """A floor is left. The claim may be made even when too few columns stand on the top level
    to carry it: the floor is then given up (004: "Ist dies unmöglich, muss der Spieler auf das
    Aufsetzen des Plateaus verzichten")."""
    return state.top_level < TOP_FLOOR_LEVEL


def floor_can_be_laid(state: GameState) -> bool:
    """A floor is left, and enough columns stand on the top level to carry it."""
    return can_propose(state) and \
        len(state.columns_on(state.top_level)) >= state.ruleset.min_support(state.top_level + 1)


def role_takeable(state: GameState) -> list[str]:
    """What the actor may take at this step: the turn's build, the own move after the neutral
    one, the objector's proof (the proposer's colours) or a challenge."""
    turn = state.turn
    if turn.step is Step.START:
        return start_takeable(state, turn.player, turn.neutral_done)
    if turn.role is Role.OWN:
        return takeable(state, turn_colours(state, turn.player))
    if turn.role is Role.PROOF:
        return takeable(state, state.colours[turn.player])
    if turn.role is Role.CHALLENGE:
        return neutral_takeable(state)
    if turn.role is Role.FAMILY_CHALLENGE:
        return takeable(state, turn_colours(state, turn.player))
    return []


def anyone_can_act(state: GameState) -> bool:
    """Could any player build, or lay a floor, whatever the seal might show?"""
    if floor_can_be_laid(state) or neutral_takeable(state):
        return True
    rolls = state.ruleset.family and state.ruleset.mode is not FamilyMode.ASSIGNED
    return any(takeable(state, tuple(Colour) if rolls else state.colours[p]) for p in range(state.n))


class Forbidden(NamedTuple):
    """Why a column may not be taken: a rule code and the values its words need."""

    rule: str
    params: dict[str, Any]

    def error(self) -> RuleError:
        return Rule(self.rule).refuse(**self.params)


def why_not_takeable(state: GameState, c: str) -> Forbidden:
    """The rule that forbids taking `c` now (asked only when `c` is not takeable)."""
    def no(rule: Rule, **params: Any) -> Forbidden:
        return Forbidden(rule.value, {"column": c, **params})

    if c not in COLUMNS_BY_ID:
        return no(Rule.NO_SUCH_COLUMN)
    lv = state.levels[c]
    colour = COLUMNS_BY_ID[c].colour
    turn = state.turn
    if c in state.out:
        return no(Rule.OUT_OF_GAME)
    if c in state.blocked:
        return no(Rule.ABORTED_COLUMN)
    if lv is not None and lv >= state.top_level:
        return no(Rule.REGULATION_7, level=state.top_level)
    taking_for = turn.role if turn.step is Step.TAKE else None
    if taking_for is Role.PROOF:
        return no(Rule.OBJECTION_PROOF, proposer=turn.player)
    neutral = colour is state.neutral and state.neutral is not None
    if taking_for is Role.CHALLENGE and not neutral:
        return no(Rule.NEUTRAL_CHALLENGE)
    if neutral:
        if taking_for is Role.OWN:
            return no(Rule.OWN_COLUMN, player=turn.actor)  # after the neutral column comes an own one
        return no(Rule.LAST_NEUTRAL, level=lv)
    if turn.step is Step.START and not turn.neutral_done and neutral_takeable(state):
        return no(Rule.NEUTRAL_FIRST)
    if state.ruleset.family and state.ruleset.mode is FamilyMode.RANDOM:
        return no(Rule.SEAL_COLOUR, colours=[x.value for x in turn_colours(state, turn.player)])
    return no(Rule.OWN_COLUMN, player=turn.actor)


def objector_columns_in_villa(state: GameState) -> list[str]:
    """The objector's columns still in the villa: what a failed objection lets the proposer pull out."""
    objector = state.turn.objector
    if objector is None:
        return []
    own = state.colours[objector]
    return sorted(c for c, lv in state.levels.items() if lv is not None and COLUMNS_BY_ID[c].colour in own)
