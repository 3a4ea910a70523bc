"""The order of play: starting and ending turns, asking the others, and how a game (or a
family round) ends, by a collapse or because nobody can do anything any more.

Every handler of `engine.apply` hands over to these when its part of the turn is done.
"""

from __future__ import annotations

from dataclasses import replace

from . import eligibility as eligible
from . import seal as seal_rules
from .actions import SealRoll
from .errors import Rule, RuleError
from .facts import Collapse
from .pieces import GREEN_LEVEL, Colour
from .rulesets import FamilyMode, Scoring
from .state import Ending, GameState, Result, Role, Seal, Step, Turn


def expect(state: GameState, action, *steps: Step) -> None:
    """Refuse an action that does not fit the step the game is at."""
    if state.turn.step not in steps:
        raise not_now(state, action)


def not_now(state: GameState, action) -> RuleError:
    turn = state.turn
    return Rule.NOT_NOW.refuse(action=type(action).__name__, step=turn.step.value, role=turn.role.value,
                               actor=turn.actor)


# --- turns -----------------------------------------------------------------

def begin_turn(state: GameState, player: int) -> GameState:
    """Start `player`'s turn, unless the game (or a family round) ends here."""
    if state.quiet_turns >= state.n or not eligible.anyone_can_act(state):
        return _stalled(state, player)
    if state.ruleset.mode is FamilyMode.RANDOM:
        return replace(state, turn=Turn(player, Step.FAMILY_ROLL, player))
    colours = tuple(Colour) if state.ruleset.mode is FamilyMode.FREESTYLE else None
    return replace(state, turn=Turn(player, Step.START, player, colours=colours))


def on_family_roll(state: GameState, action: SealRoll) -> GameState:
    """Family edition, random colour: the seal decides the turn's colour; an end face frees the choice."""
    colours = tuple(Colour) if action.colour is None else (action.colour,)
    return replace(state, turn=replace(state.turn, step=Step.START, colours=colours))


def end_turn(state: GameState, progress: bool) -> GameState:
    """The turn is over; `progress`: whether the villa changed in it. A quiet turn counts towards
    the stall only when it was not the seal's doing: in the family's random mode, while a column
    of any colour could still go up, a bad roll stops one turn, not the round (003: "Play until
    the tower collapses.")."""
    if progress:
        quiet = 0
    elif _the_roll_stopped_it(state):
        quiet = state.quiet_turns
    else:
        quiet = state.quiet_turns + 1
    return begin_turn(replace(state, quiet_turns=quiet), (state.turn.player + 1) % state.n)


def _the_roll_stopped_it(state: GameState) -> bool:
    return state.ruleset.mode is FamilyMode.RANDOM and bool(eligible.takeable(state, Colour))


def to_take(state: GameState, role: Role, actor: int, progress: bool = True) -> GameState:
    """Ask `actor` to take a column for `role`; if none can be taken, the turn ends
    (`progress`: whether the villa changed this turn so far)."""
    new = replace(state, turn=replace(state.turn, step=Step.TAKE, role=role, actor=actor, column=None, origin=None))
    if eligible.role_takeable(new):
        return new
    return end_turn(new, progress=progress)


def ask(state: GameState, role: Role) -> GameState:
    """Ask the others one by one, clockwise from the player's left."""
    first = (state.turn.player + 1) % state.n
    return replace(state, turn=replace(state.turn, step=Step.ASK, role=role, actor=first))


# --- the end ---------------------------------------------------------------

def blamed_for_collapse(state: GameState) -> int | None:
    """Who would have brought the villa down if it fell now: whoever's action is under way (the
    builder, objector or challenger holding a column; the proposer while taking out or laying a
    floor); between actions, the player whose turn it is."""
    turn = state.turn
    if state.over or turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        return None
    return turn.actor if turn.step in (Step.IN_HAND, Step.TAKE) else turn.player


def on_collapse(state: GameState, fact: Collapse) -> GameState:
    if state.turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        raise Rule.NOT_STARTED.refuse()
    culprit = blamed_for_collapse(state)
    if state.ruleset.family:
        scores = list(state.scores)
        if state.ruleset.scoring is Scoring.BASIC:
            scores[culprit] += 1
        elif state.top_level >= GREEN_LEVEL:
            # 003: "points are only earned once the second platform (the green platform) is placed";
            # the -5 for toppling is one of those points, so before the green platform it costs nothing.
            scores[culprit] -= 5
        return _end_round(replace(state, scores=tuple(scores)), next_player=culprit,
                          how=f"{state.colour_name(culprit)} toppled the villa", culprit=culprit)
    return _finish(state, Result(*seal_rules.winner_after_collapse(state, culprit), collapsed_by=culprit,
                                 ending=Ending.COLLAPSE))


def _stalled(state: GameState, next_player: int) -> GameState:
    if state.ruleset.family:
        return _end_round(state, next_player=next_player, how="nobody could move a column any more")
    return _finish(state, Result(*seal_rules.winner_when_stalled(state), ending=Ending.NO_MORE_BUILDING))


def _finish(state: GameState, result: Result) -> GameState:
    return replace(state, result=result, turn=replace(state.turn, step=Step.OVER, actor=state.turn.player))


def _end_round(state: GameState, next_player: int, how: str, culprit: int | None = None) -> GameState:
    """A family round is over: the next one starts on a fresh villa, or the game ends."""
    if state.round < state.ruleset.rounds:
        fresh = replace(state, levels={c: 0 for c in state.levels}, out=frozenset(), blocked=frozenset(),
                        top_level=1, floors_laid_on={1: state.setup.blue_floor_supports}, seal=Seal(),
                        quiet_turns=0, round=state.round + 1)
        return begin_turn(fresh, next_player)
    scores = state.scores
    best = min(scores) if state.ruleset.scoring is Scoring.BASIC else max(scores)
    leaders = tuple(p for p, s in enumerate(scores) if s == best)
    table = ", ".join(f"{state.players[p]} {s}" for p, s in enumerate(scores))
    if len(leaders) == 1:
        result = Result(leaders[0], f"{how}; after {state.ruleset.rounds} rounds {state.players[leaders[0]]} "
                                    f"wins with {best} points ({table})", collapsed_by=culprit,
                        ending=Ending.ROUNDS_PLAYED)
    else:
        names = " and ".join(state.players[p] for p in leaders)
        result = Result(None, f"{how}; after {state.ruleset.rounds} rounds {names} tie with {best} points "
                              f"({table})", collapsed_by=culprit, ending=Ending.ROUNDS_PLAYED, tied=leaders)
    return _finish(state, result)
