"""The referee's answers to "what now": the player's task, the columns the hand may take (the
penalty pull included), why a column is refused, how the game ended and why, and what a
placement would do to the seal. The screen, the match and the computer players ask these and
work none of it out themselves."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from . import eligibility as eligible
from . import seal as seal_rules
from . import queries
from .actions import Abort, Challenge, ChooseColour, Decline, ForgoPenalty, GiveUpFloor, Object, Pass, TakeColumn
from .facts import FloorLaid
from .queries import expected_facts
from .errors import Rule, RuleError
from .frozen import FrozenMap
from .pieces import GREEN_LEVEL, Colour
from .state import Ending, GameState, Role, Seal, Step


class Task(str, Enum):
    """What the player to act must do now."""

    COLOUR_ROLL = "colour roll"            # roll the seal for a colour
    COLOUR_CHOICE = "colour choice"        # choose a colour
    SEAL_ROLL = "seal roll"                # family, random mode: roll the seal for this turn's colour
    BUILD = "build"                        # take an own column up, or propose a floor
    NEUTRAL = "neutral"                    # three players: a neutral column first (or propose a floor)
    OWN = "own"                            # the own column after the neutral one (or after a floor)
    PLACE = "place"                        # a column is in hand: set it on the top floor, or abort
    ANSWER_OBJECTION = "answer objection"  # asked: object to the proposed floor?
    ANSWER_CHALLENGE = "answer challenge"  # asked: challenge a neutral abort?
    ANSWER_FAMILY = "answer family challenge"  # asked: challenge the claim that nothing can move?
    PROOF = "proof"                        # the objector moves one of the proposer's columns up
    CHALLENGE_PROOF = "challenge proof"    # the challenger moves a different neutral column up
    FAMILY_PROOF = "family proof"          # the family challenger moves a column of the required colour
    TAKE_OUT = "take out"                  # the proposer pulls one of the objector's columns out
    LAY_FLOOR = "lay floor"                # lay the next floor (or give it up)
    PASS = "pass"                          # nothing can be built and no floor proposed
    OVER = "over"


ANSWER_TASKS = {Role.PROOF: Task.ANSWER_OBJECTION, Role.CHALLENGE: Task.ANSWER_CHALLENGE,
                Role.FAMILY_CHALLENGE: Task.ANSWER_FAMILY}
PROOF_TASKS = {Role.PROOF: Task.PROOF, Role.CHALLENGE: Task.CHALLENGE_PROOF,
               Role.FAMILY_CHALLENGE: Task.FAMILY_PROOF}
_STEP_TASKS = {Step.OVER: Task.OVER, Step.COLOUR_ROLL: Task.COLOUR_ROLL, Step.COLOUR_CHOICE: Task.COLOUR_CHOICE,
               Step.FAMILY_ROLL: Task.SEAL_ROLL, Step.IN_HAND: Task.PLACE, Step.TAKE_OUT: Task.TAKE_OUT,
               Step.LAY_FLOOR: Task.LAY_FLOOR}


def task(state: GameState) -> Task:
    """The task of the player who must act now."""
    turn = state.turn
    if turn.step in _STEP_TASKS:
        return _STEP_TASKS[turn.step]
    if turn.step is Step.ASK:
        return ANSWER_TASKS[turn.role]
    if turn.step is Step.TAKE:
        return PROOF_TASKS.get(turn.role, Task.OWN)
    takes = eligible.role_takeable(state)   # Step.START
    if not takes and not eligible.floor_can_be_laid(state):
        return Task.PASS
    if state.neutral is not None and not turn.neutral_done and eligible.neutral_takeable(state):
        return Task.NEUTRAL
    return Task.BUILD


def is_question(task_now: Task) -> bool:
    """Is another player asked (an objection or a challenge to answer)?"""
    return task_now in ANSWER_TASKS.values()


def grabbable_columns(state: GameState) -> tuple[str, ...]:
    """The columns the hand may take now: for a build, a proof or a challenge, or the objector's
    columns at a failed objection's penalty pull."""
    if state.turn.step is Step.TAKE_OUT:
        return tuple(eligible.objector_columns_in_villa(state))
    if state.turn.step in (Step.START, Step.TAKE):
        return tuple(eligible.role_takeable(state))
    return ()


def proof_columns(state: GameState) -> tuple[str, ...]:
    """Asked: the columns the asked player would have to prove it with, should they object or challenge."""
    if state.turn.step is not Step.ASK:
        return ()
    return tuple(eligible.role_takeable(replace(state, turn=replace(state.turn, step=Step.TAKE))))


def why_not_grabbable(state: GameState, column: str) -> RuleError | None:
    """None if the hand may take `column` now; otherwise the refusal, with its rule code."""
    if column in grabbable_columns(state):
        return None
    turn = state.turn
    if turn.step is Step.TAKE_OUT:
        return Rule.OBJECTION_PENALTY.refuse(column=column, objector=turn.objector)
    if turn.step not in (Step.START, Step.TAKE):
        return Rule.NOT_NOW.refuse(action=TakeColumn.__name__, step=turn.step.value, role=turn.role.value,
                                   actor=turn.actor)
    return eligible.why_not_takeable(state, column).error()


def acting_player(state: GameState) -> int | None:
    """The player at the table who acts now, chance included (who rolls the seal); None once the game is over."""
    if state.over:
        return None
    return state.turn.actor


def answer_for(state: GameState, objects: bool):
    """The action a yes or no of the asked player stands for now: an objection or a challenge (whichever the
    rules ask), or declining; None when nobody is asked."""
    if state.turn.step is not Step.ASK or state.over:
        return None
    if not objects:
        return Decline()
    return Challenge() if state.turn.role is Role.CHALLENGE else Object()


def floor_to_lay(state: GameState) -> bool:
    """Is a floor granted now that can be laid on the columns standing on the top floor (else only given up)?"""
    return state.turn.step is Step.LAY_FLOOR and any(isinstance(f, FloorLaid) for f in expected_facts(state))


def mouse_changes_hands(before: GameState, after: GameState) -> bool:
    """At one table: must the mouse be handed over in person after this move, because it decided something for
    another player (an answer, a proof or challenge under way, a failed objection's penalty)? Their turn
    passing the ordinary way needs no telling."""
    turn = before.turn
    decided = (turn.step in (Step.ASK, Step.TAKE_OUT)
               or (turn.step is Step.IN_HAND and turn.role in (Role.PROOF, Role.CHALLENGE, Role.FAMILY_CHALLENGE)))
    return decided and not after.over and acting_player(after) != acting_player(before)


def passing_moves(state: GameState, in_hand: bool = False) -> tuple:
    """The moves that end what the player asked now must do, building nothing, as the rules allow (a player whose
    time ran out): a column or a floor in hand (`in_hand`, or the rules' own) given up, a question declined, a
    granted floor or a penalty pull forgone, the turn passed, or a column taken and given up at once; a colour, the
    first left. Empty where the rules allow no such way (the family edition, where nothing is given up)."""
    turn, legal = state.turn, queries.legal_actions(state)
    if state.over or queries.is_chance_node(state):
        return ()
    if turn.step is Step.IN_HAND or in_hand:
        return next(((giving_up,) for giving_up in (Abort(), GiveUpFloor()) if giving_up in legal), ())
    for quiet in (Decline(), GiveUpFloor(), ForgoPenalty(), Pass()):
        if quiet in legal:
            return (quiet,)
    colours = [a for a in legal if isinstance(a, ChooseColour)]
    if colours:
        return (colours[0],)
    grabbable = grabbable_columns(state)
    if grabbable and state.ruleset.abort_allowed and turn.step in (Step.START, Step.TAKE):
        return TakeColumn(grabbable[0]), Abort()
    return ()


def turn_colours(state: GameState) -> tuple[Colour, ...]:
    """The colours the player whose turn it is builds with this turn."""
    return eligible.turn_colours(state, state.turn.player)


# --- the end ------------------------------------------------------------------------------

class EndReason(str, Enum):
    """One step of the explanation of how a game ended (the words come from these codes)."""

    TOPPLED = "toppled"                            # family: the culprit brought the villa down
    NOTHING_MOVES = "nothing moves"                # family: nobody could move a column any more
    TIED = "tied"                                  # family: several tied for first
    AFTER_ROUNDS = "after rounds"                  # family: the totals after the last round follow
    DOWN_BEFORE_SEAL = "down before seal"          # the villa fell before anyone held the seal
    DOWN = "down"                                  # the culprit brought the villa down ...
    HOLDER_WINS = "holder wins"                    # ... and the seal's holder wins
    DOWN_HOLDING_UNMARKED = "down holding unmarked"  # the holder brought it down; the seal shows nobody
    DOWN_HOLDING = "down holding"                  # the holder brought it down ...
    SHOWN_WINS = "shown wins"                      # ... and the player the seal shows wins
    STALLED_NO_SEAL = "stalled no seal"            # nobody could build further, nobody held the seal
    STALLED = "stalled"                            # nobody could build further ... (the holder wins)


@dataclass(frozen=True)
class Because:
    """One reason, with the players it names."""

    reason: EndReason
    values: dict[str, Any]


def end_reasons(state: GameState) -> tuple[Because, ...]:
    """Why the game ended as it did, reason by reason (empty while it goes on)."""
    result = state.result
    if result is None:
        return ()
    holder, shows, culprit = state.seal.holder, state.seal.shows, result.collapsed_by
    out: list[Because] = []
    if state.ruleset.family:
        if culprit is not None:
            out.append(Because(EndReason.TOPPLED, {"player": culprit}))
        elif result.ending is Ending.ROUNDS_PLAYED:
            out.append(Because(EndReason.NOTHING_MOVES, {}))
        if result.winner is None and result.tied:
            out.append(Because(EndReason.TIED, {"players": result.tied}))
        out.append(Because(EndReason.AFTER_ROUNDS, {"rounds": state.ruleset.rounds}))
        return tuple(out)
    if result.ending is Ending.COLLAPSE and culprit is not None:
        if holder is None:
            out.append(Because(EndReason.DOWN_BEFORE_SEAL, {"player": culprit}))
        elif holder != culprit:
            out += [Because(EndReason.DOWN, {"player": culprit}), Because(EndReason.HOLDER_WINS, {"player": holder})]
        elif shows is None:
            out.append(Because(EndReason.DOWN_HOLDING_UNMARKED, {"player": culprit}))
        else:
            out += [Because(EndReason.DOWN_HOLDING, {"player": culprit}),
                    Because(EndReason.SHOWN_WINS, {"player": shows})]
    elif holder is None:
        out.append(Because(EndReason.STALLED_NO_SEAL, {}))
    else:
        out.append(Because(EndReason.STALLED, {"player": holder}))
    return tuple(out)


# --- the seal -------------------------------------------------------------------------------

def seal_contested(state: GameState) -> bool:
    """Do columns on the top floor count now: for the seal, and the family's tournament points?"""
    return state.top_level >= GREEN_LEVEL


@dataclass(frozen=True)
class Placement:
    """What setting a column on the top floor would do: the player's points there after it, and the seal."""

    points: int
    seal: Seal
    claims_new_floor: bool   # the first own column on a floor not yet claimed


def placement(state: GameState, player: int, column: str) -> Placement:
    """What `player` setting their own `column` on the top floor would score and do to the seal."""
    top = state.top_level
    after = replace(state, levels=FrozenMap({**state.levels, column: top}))
    unheld = state.seal.holder is None and state.seal.level == top   # no holder to out-score
    seal = state.seal if unheld else seal_rules.after_placement(after, player).seal
    return Placement(after.points(player), seal, seal_contested(state) and state.seal.level != top)

