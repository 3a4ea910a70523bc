"""The referee: one way in for every change.

`apply(state, action)` returns the new state or raises a `RuleError` naming the broken
rule; the old state is never touched (all records are frozen). `legal_actions(state)`
lists what the player to move (or the player asked, or chance) may do; `expected_facts`
lists examples of the physics facts the rules would accept now. Every accepted action is
appended to `state.log`, and `replay` rebuilds any game from its setup and log.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from . import eligibility as eligible
from . import seal as seal_rules
from .actions import (Abort, Action, AssignColoursAtRandom, Challenge, ChooseColour, Decline,
                      GiveUpFloor, Object, Pass, ProposeFloor, SealRoll, TakeColumn)
from .errors import GameOver, IllegalBuild, IllegalProposal, IllegalSetup, NotYourMove
from .facts import Collapse, CollapseCause, ColumnPlaced, ColumnTakenOut, FloorLaid, VillaSurvey
from .pieces import COLUMNS_BY_ID, Colour, TOP_FLOOR_LEVEL, floor_colour
from .rulesets import FamilyMode, Scoring
from .setup import colours_left, new_game, pick_order, seeded_deal, starting_player
from .state import GameSetup, GameState, Result, Role, Seal, Step, Turn

ASKING_ROLES = {Role.PROOF: "objection", Role.FAMILY_CHALLENGE: "challenge", Role.CHALLENGE: "neutral challenge"}


# --- queries for the interface ---------------------------------------------

def whose_move(state: GameState) -> int | None:
    """The player who must act now; None when the game is over or chance decides."""
    if state.over or is_chance_node(state):
        return None
    return state.turn.actor


def is_chance_node(state: GameState) -> bool:
    return state.turn.step in (Step.COLOUR_ROLL, Step.FAMILY_ROLL)


def blamed_for_collapse(state: GameState) -> int | None:
    """Who would have brought the villa down if it fell now: whoever's action is under way (the
    builder, objector or challenger holding a column; the proposer while taking out or laying a
    floor); between actions, the player whose turn it is."""
    turn = state.turn
    if state.over or turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        return None
    return turn.actor if turn.step in (Step.IN_HAND, Step.TAKE) else turn.player


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
        return [SealRoll(c) for c in Colour]
    if step is Step.COLOUR_CHOICE:
        return [ChooseColour(c) for c in colours_left(state)]
    if step is Step.FAMILY_ROLL:
        return [SealRoll(c) for c in Colour] + [SealRoll(None)]
    if step is Step.START:
        actions: list[Action] = [TakeColumn(c) for c in eligible.role_takeable(state)]
        if eligible.can_propose(state):
            actions.append(ProposeFloor())
        return actions or [Pass()]
    if step is Step.TAKE:
        return [TakeColumn(c) for c in eligible.role_takeable(state)]
    if step is Step.IN_HAND:
        return [Abort()] if state.ruleset.abort_allowed else []
    if step is Step.ASK:
        return [Challenge() if turn.role is Role.CHALLENGE else Object(), Decline()]
    if step is Step.LAY_FLOOR:
        return [GiveUpFloor()]
    return []  # TAKE_OUT awaits a fact


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
    facts.append(Collapse(1.0, CollapseCause.COLUMN_TOPPLED, f"floor-{top}"))
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


# --- the one way in ----------------------------------------------------------

def apply(state: GameState, action: Action) -> GameState:
    """The state after `action`, or a `RuleError`; `state` itself never changes."""
    if state.over:
        raise GameOver("game-over", "the game is over: " + state.result.reason)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise NotYourMove("unknown-action", f"{type(action).__name__} is not an action of this game")
    new_state = handler(state, action)
    return replace(new_state, log=state.log + (action,))


def replay(setup: GameSetup, log: Iterable[Action]) -> GameState:
    """The game rebuilt from its setup by applying its log again."""
    state = new_game(setup)
    for action in log:
        state = apply(state, action)
    return state


def _expect(state: GameState, *steps: Step, what: str) -> None:
    if state.turn.step not in steps:
        raise NotYourMove("not-now", f"{what} is not possible now ({_moment(state)})")


def _moment(state: GameState) -> str:
    turn = state.turn
    who = state.colour_name(turn.actor)
    return {
        Step.COLOUR_ROLL: f"{who} rolls the seal for a colour",
        Step.COLOUR_CHOICE: f"{who} chooses a colour",
        Step.FAMILY_ROLL: f"{who} rolls the seal for this turn's colour",
        Step.START: f"{who} starts a turn",
        Step.TAKE: f"{who} must take a column ({turn.role.value})",
        Step.IN_HAND: f"{who} holds {turn.column}",
        Step.ASK: f"{who} is asked about a {ASKING_ROLES.get(turn.role, '')}",
        Step.TAKE_OUT: f"{who} takes one of the objector's columns out",
        Step.LAY_FLOOR: f"{who} lays the {floor_colour(min(state.top_level + 1, TOP_FLOOR_LEVEL))} floor",
        Step.OVER: "the game is over",
    }[turn.step]


# --- setup --------------------------------------------------------------------

def _give_colour(state: GameState, colour: Colour) -> GameState:
    player = state.turn.actor
    colours = list(state.colours)
    colours[player] = colours[player] + (colour,)
    state = replace(state, colours=tuple(colours))
    order = pick_order(state.setup)
    done = sum(len(cs) for cs in state.colours)
    left = colours_left(state)
    if done < len(order) and len(order) - done == 1 and len(left) == 1:
        # The last player takes the last colour: no choice left, so no action needed.
        return _give_colour(replace(state, turn=Turn(order[done], Step.COLOUR_CHOICE, order[done])), left[0])
    if done < len(order):
        return replace(state, turn=Turn(order[done], Step.COLOUR_CHOICE, order[done]))
    neutral = left[0] if state.n == 3 and not state.ruleset.family else None
    return begin_turn(replace(state, neutral=neutral), starting_player(state.setup))


def _on_seal_roll(state: GameState, action: SealRoll) -> GameState:
    if state.turn.step is Step.FAMILY_ROLL:
        colours = tuple(Colour) if action.colour is None else (action.colour,)
        return replace(state, turn=replace(state.turn, step=Step.START, colours=colours))
    _expect(state, Step.COLOUR_ROLL, what="rolling the seal")
    if action.colour is None:
        raise IllegalSetup("colour-roll", "a colour roll must show a colour (roll again on an end face)")
    return _give_colour(state, Colour(action.colour))


def _on_choose_colour(state: GameState, action: ChooseColour) -> GameState:
    _expect(state, Step.COLOUR_CHOICE, what="choosing a colour")
    if action.colour not in colours_left(state):
        raise IllegalSetup("colour-taken", f"{action.colour.value} is already taken")
    return _give_colour(state, action.colour)


def _on_random_colours(state: GameState, action: AssignColoursAtRandom) -> GameState:
    _expect(state, Step.COLOUR_ROLL, Step.COLOUR_CHOICE, what="dealing colours at random")
    if any(state.colours):
        raise IllegalSetup("colour-deal", "colours can be dealt at random only before anyone has one")
    for colour in seeded_deal(state.setup, action.seed):
        if state.over or state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
            break
        state = _give_colour(state, colour)
    return state


# --- turns -----------------------------------------------------------------

def begin_turn(state: GameState, player: int) -> GameState:
    """Start `player`'s turn, unless the game (or a family round) ends here."""
    if state.quiet_turns >= state.n or not eligible.anyone_can_act(state):
        return _stalled(state, player)
    if state.ruleset.mode is FamilyMode.RANDOM:
        return replace(state, turn=Turn(player, Step.FAMILY_ROLL, player))
    colours = tuple(Colour) if state.ruleset.mode is FamilyMode.FREESTYLE else None
    return replace(state, turn=Turn(player, Step.START, player, colours=colours))


def _end_turn(state: GameState, progress: bool) -> GameState:
    quiet = 0 if progress else state.quiet_turns + 1
    return begin_turn(replace(state, quiet_turns=quiet), (state.turn.player + 1) % state.n)


def _to_take(state: GameState, role: Role, actor: int, progress: bool = True) -> GameState:
    """Ask `actor` to take a column for `role`; if none can be taken, the turn ends
    (`progress`: whether the villa changed this turn so far)."""
    new = replace(state, turn=replace(state.turn, step=Step.TAKE, role=role, actor=actor, column=None, origin=None))
    if eligible.role_takeable(new):
        return new
    return _end_turn(new, progress=progress)


def _on_take(state: GameState, action: TakeColumn) -> GameState:
    _expect(state, Step.START, Step.TAKE, what="taking a column")
    c = action.column
    if c not in eligible.role_takeable(state):
        rule, why = eligible.why_not_takeable(state, c)
        raise IllegalBuild(rule, why)
    levels = dict(state.levels)
    origin, levels[c] = levels[c], None
    role = state.turn.role if state.turn.step is Step.TAKE else Role.BUILD
    return replace(state, levels=levels,
                   turn=replace(state.turn, step=Step.IN_HAND, role=role, column=c, origin=origin))


def _on_abort(state: GameState, action: Abort) -> GameState:
    _expect(state, Step.IN_HAND, what="aborting a build")
    if not state.ruleset.abort_allowed:
        raise IllegalBuild("no-abort", "these rules know no aborted build: the column must be placed")
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
            return _ask(state, Role.CHALLENGE)
        return _to_take(state, Role.OWN, turn.player)
    if turn.role is Role.PROOF:
        # The objection failed: the proposer takes one of the objector's columns out (if any is
        # left in the villa), then lays the floor.
        step = Step.TAKE_OUT if eligible.objector_columns_in_villa(state) else Step.LAY_FLOOR
        return replace(state, turn=replace(state.turn, step=step, actor=turn.player))
    if turn.role is Role.CHALLENGE:
        return _to_take(state, Role.OWN, turn.player)  # the challenge failed: the own move as normal
    return _end_turn(state, progress=True)


def _on_placed(state: GameState, fact: ColumnPlaced) -> GameState:
    _expect(state, Step.IN_HAND, what="placing a column")
    turn = state.turn
    top = state.top_level
    if fact.column != turn.column:
        raise IllegalBuild("regulation-6", f"only the chosen column ({turn.column}) may be moved, not {fact.column}")
    if fact.level != top:
        raise IllegalBuild("onto-top-floor", f"a column goes onto the top floor (level {top}), not level {fact.level}")
    if not fact.footprint_inside:
        raise IllegalBuild("regulation-3", "no column may overhang the edge of the floor it stands on")
    if fact.on_column is not None:
        if top != TOP_FLOOR_LEVEL:
            raise IllegalBuild("regulation-8", "columns may be stacked only on the red floor")
        if state.levels.get(fact.on_column) != top:
            raise IllegalBuild("regulation-8", f"{fact.on_column} does not stand on the red floor")
    levels = dict(state.levels)
    levels[fact.column] = top
    state = replace(state, levels=levels, turn=replace(turn, column=None, origin=None))
    colour = COLUMNS_BY_ID[fact.column].colour
    if state.ruleset.family:
        if state.ruleset.scoring is Scoring.TOURNAMENT and top >= seal_rules.GREEN_LEVEL:
            mover = turn.actor
            scores = list(state.scores)
            scores[mover] += COLUMNS_BY_ID[fact.column].points
            state = replace(state, scores=tuple(scores))
        return _end_turn(state, progress=True)
    if turn.role is Role.PROOF:
        # The objection succeeded: the column leaves the game and the proposal fails.
        levels[fact.column] = None
        return _end_turn(replace(state, levels=levels, out=state.out | {fact.column}), progress=True)
    if turn.role is Role.CHALLENGE:
        return _end_turn(state, progress=True)  # the challenge succeeded: the own move is lost
    if colour is state.neutral:
        return _to_take(replace(state, turn=replace(state.turn, neutral_done=True)), Role.OWN, turn.player)
    state = seal_rules.after_placement(state, turn.player)
    return _end_turn(state, progress=True)


# --- proposals, objections and challenges ------------------------------------------

def _ask(state: GameState, role: Role) -> GameState:
    first = (state.turn.player + 1) % state.n
    return replace(state, turn=replace(state.turn, step=Step.ASK, role=role, actor=first))


def _on_propose(state: GameState, action: ProposeFloor) -> GameState:
    _expect(state, Step.START, what="proposing a floor (only at the start of a turn)")
    if state.top_level >= TOP_FLOOR_LEVEL:
        raise IllegalProposal("no-floor-left", "the red floor is on: no floor is left")
    if not eligible.can_propose(state):
        need = state.ruleset.min_support(state.top_level + 1)
        raise IllegalProposal("floor-support", f"the next floor needs {need} columns on the top level to rest on")
    rs = state.ruleset
    if rs.family:
        claimed = eligible.takeable(state, eligible.turn_colours(state, state.turn.player))
        if rs.scoring is Scoring.TOURNAMENT and claimed:  # a column could still be tried: it may be challenged
            return _ask(state, Role.FAMILY_CHALLENGE)
        return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR))
    if eligible.takeable(state, state.colours[state.turn.player]):
        return _ask(state, Role.PROOF)
    # None of the proposer's columns can be moved up: there is nothing to object with.
    return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR))


def _on_answer(state: GameState, action) -> GameState:
    _expect(state, Step.ASK, what="objecting or challenging")
    turn = state.turn
    if isinstance(action, Decline):
        nxt = (turn.actor + 1) % state.n
        if nxt != turn.player:
            return replace(state, turn=replace(turn, actor=nxt))
        if turn.role is Role.CHALLENGE:
            return _to_take(state, Role.OWN, turn.player)  # nobody challenged: the own move
        return replace(state, turn=replace(turn, step=Step.LAY_FLOOR, actor=turn.player))
    if isinstance(action, Challenge) != (turn.role is Role.CHALLENGE):
        raise NotYourMove("not-now", f"the question is about a {ASKING_ROLES[turn.role]}")
    if turn.role is Role.CHALLENGE:
        return replace(state, turn=replace(turn, step=Step.TAKE, challenger=turn.actor))
    return replace(state, turn=replace(turn, step=Step.TAKE, objector=turn.actor))


def _on_taken_out(state: GameState, fact: ColumnTakenOut) -> GameState:
    _expect(state, Step.TAKE_OUT, what="taking a column out of the villa")
    if fact.column not in eligible.objector_columns_in_villa(state):
        raise IllegalProposal("objection-penalty",
                              f"the proposer takes out one of the objector's columns in the villa, not {fact.column}")
    levels = dict(state.levels)
    levels[fact.column] = None
    state = replace(state, levels=levels, out=state.out | {fact.column})
    state = seal_rules.after_loss(state)
    # Decided: the objection failed, so the claim stands and the floor goes on.
    return replace(state, turn=replace(state.turn, step=Step.LAY_FLOOR, actor=state.turn.player))


def _on_floor(state: GameState, fact: FloorLaid) -> GameState:
    _expect(state, Step.LAY_FLOOR, what="laying a floor")
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
        return _to_take(state, Role.OWN, state.turn.player)
    return _end_turn(state, progress=True)


def _on_give_up(state: GameState, action: GiveUpFloor) -> GameState:
    _expect(state, Step.LAY_FLOOR, what="giving up the floor")
    if state.ruleset.family:
        # With no floor, a column must move.
        return _to_take(state, Role.OWN, state.turn.player, progress=False)
    return _end_turn(state, progress=False)


def _on_pass(state: GameState, action: Pass) -> GameState:
    _expect(state, Step.START, what="passing")
    if eligible.role_takeable(state) or eligible.can_propose(state):
        raise IllegalBuild("must-build", "a player who can build must build, or propose a floor")
    return _end_turn(state, progress=False)


# --- the end ---------------------------------------------------------------

def _on_collapse(state: GameState, fact: Collapse) -> GameState:
    if state.turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        raise NotYourMove("not-started", "the game has not started: rebuild the villa")
    culprit = blamed_for_collapse(state)
    if state.ruleset.family:
        scores = list(state.scores)
        scores[culprit] += 1 if state.ruleset.scoring is Scoring.BASIC else -5
        return _end_round(replace(state, scores=tuple(scores)), next_player=culprit,
                          how=f"{state.colour_name(culprit)} toppled the villa", culprit=culprit)
    return _finish(state, Result(*seal_rules.winner_after_collapse(state, culprit), collapsed_by=culprit,
                                 ending="collapse"))


def _stalled(state: GameState, next_player: int) -> GameState:
    if state.ruleset.family:
        return _end_round(state, next_player=next_player, how="nobody could move a column any more")
    return _finish(state, Result(*seal_rules.winner_when_stalled(state), ending="no more building"))


def _finish(state: GameState, result: Result) -> GameState:
    return replace(state, result=result, turn=replace(state.turn, step=Step.OVER, actor=state.turn.player))


def _end_round(state: GameState, next_player: int, how: str, culprit: int | None = None) -> GameState:
    """A family round is over: the next one starts on a fresh villa, or the game ends."""
    if state.round < state.ruleset.rounds:
        fresh = replace(state, levels={c: 0 for c in state.levels}, out=frozenset(), blocked=frozenset(),
                        top_level=1, floor_supports={1: state.setup.blue_floor_supports}, seal=Seal(),
                        quiet_turns=0, round=state.round + 1)
        return begin_turn(fresh, next_player)
    scores = state.scores
    best = min(scores) if state.ruleset.scoring is Scoring.BASIC else max(scores)
    leaders = tuple(p for p, s in enumerate(scores) if s == best)
    table = ", ".join(f"{state.players[p]} {s}" for p, s in enumerate(scores))
    if len(leaders) == 1:
        result = Result(leaders[0], f"{how}; after {state.ruleset.rounds} rounds {state.players[leaders[0]]} "
                                    f"wins with {best} points ({table})", collapsed_by=culprit,
                        ending="rounds played")
    else:
        names = " and ".join(state.players[p] for p in leaders)
        result = Result(None, f"{how}; after {state.ruleset.rounds} rounds {names} tie with {best} points "
                              f"({table})", collapsed_by=culprit, ending="rounds played", tied=leaders)
    return _finish(state, result)


def _on_survey(state: GameState, fact: VillaSurvey) -> GameState:
    raise NotYourMove("survey", "a survey changes nothing: compare it with check_survey(state, survey)")


_HANDLERS = {
    SealRoll: _on_seal_roll,
    ChooseColour: _on_choose_colour,
    AssignColoursAtRandom: _on_random_colours,
    TakeColumn: _on_take,
    Abort: _on_abort,
    ProposeFloor: _on_propose,
    Object: _on_answer,
    Challenge: _on_answer,
    Decline: _on_answer,
    GiveUpFloor: _on_give_up,
    Pass: _on_pass,
    ColumnPlaced: _on_placed,
    FloorLaid: _on_floor,
    ColumnTakenOut: _on_taken_out,
    Collapse: _on_collapse,
    VillaSurvey: _on_survey,
}

__all__ = ["apply", "legal_actions", "expected_facts", "replay", "whose_move", "is_chance_node",
           "blamed_for_collapse",
           "takeable_columns", "check_survey", "begin_turn"]
