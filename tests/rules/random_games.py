"""Playing random legal games against the engine, checking its contract at every step."""

from __future__ import annotations

import json
import random
from collections import Counter

from villa.rules import (Abort, AssignColoursAtRandom, Challenge, ChooseColour, Collapse, Colour, ColumnPlaced,
                         ColumnTakenOut, Decline, FloorLaid, ForgoPenalty, GameSetup, GameState, GiveUpFloor, Object,
                         Pass, ProposeFloor, Rule, RuleError, SealRoll, SetUpHigher, TakeColumn, apply, expected_facts,
                         legal_actions, new_game, replay, state_from_json, state_to_json)
from villa.rules.frozen import FrozenMap
from villa.rules.pieces import ALL_COLUMNS, TOP_FLOOR_LEVEL
from villa.rules.seal import holder_is_consistent
from villa.rules.state import Step

PROFILE = "default"
PLAYED: Counter = Counter()
ALL_IDS = frozenset(c.id for c in ALL_COLUMNS)

UNIVERSE = (
    [SealRoll(c) for c in Colour] + [SealRoll(None)] + [ChooseColour(c) for c in Colour]
    + [TakeColumn(c) for c in sorted(ALL_IDS)] + [TakeColumn("purple-thin-9")]
    + [Abort(), ProposeFloor(), Object(), Challenge(), Decline(), ForgoPenalty(), GiveUpFloor(), Pass()]
    + [ChooseColour("purple"), SealRoll("blue"), TakeColumn(3), ColumnPlaced("red-hex", "1", True), None]
)


def check_invariants(state: GameState) -> None:
    # All twenty columns accounted for: on a level, in hand, or out of the game; never two of these.
    assert set(state.levels) == ALL_IDS
    in_villa = {c for c, lv in state.levels.items() if lv is not None}
    in_hand = {state.turn.column} if state.turn.column is not None else set()
    assert not in_villa & in_hand and not in_villa & state.out and not in_hand & state.out
    assert in_villa | in_hand | state.out == ALL_IDS
    assert state.blocked <= in_villa | state.out | in_hand
    assert 1 <= state.top_level <= TOP_FLOOR_LEVEL
    assert all(0 <= lv <= state.top_level for c, lv in state.levels.items() if lv is not None)
    assert set(state.floor_supports) == set(range(1, state.top_level + 1)) == set(state.floors_laid_on)
    for level, carrying in state.floor_supports.items():
        assert carrying <= state.columns_on(level - 1) and carrying <= state.floors_laid_on[level]
    assert type(state.levels) is FrozenMap and type(state.floors_laid_on) is FrozenMap
    # The seal follows the points, and never shows its own holder.
    assert holder_is_consistent(state), state.seal
    assert state.seal.shows is None or state.seal.shows != state.seal.holder
    assert 0 <= state.turn.actor < state.n and 0 <= state.turn.player < state.n
    assert state.over == (state.result is not None)


def random_villa(rng: random.Random, ruleset) -> SetUpHigher:
    """A villa set up higher at random, as the rules accept it: every floor on enough columns
    of the level below, the other columns anywhere up to the top or out of the game."""
    ids = sorted(ALL_IDS)
    rng.shuffle(ids)
    top = rng.randint(1, TOP_FLOOR_LEVEL)
    levels, floors = {}, {}
    for floor in range(1, top + 1):
        under = [ids.pop() for _ in range(ruleset.min_support(floor) + rng.randint(0, 1))]
        levels.update({c: floor - 1 for c in under})
        floors[floor] = under
    for c in ids:
        if rng.random() < 0.8:
            levels[c] = rng.randint(0, top)
    return SetUpHigher.of(levels, floors)


def bad_facts(state: GameState, rng: random.Random) -> list:
    """Facts the rules must refuse now."""
    top = state.top_level
    wrong_column = rng.choice(sorted(ALL_IDS - {state.turn.column}))
    facts = [FloorLaid(min(top + 2, 7), frozenset()), ColumnTakenOut(wrong_column)
             if state.turn.step is not Step.TAKE_OUT else FloorLaid(top, frozenset())]
    if state.turn.step is Step.IN_HAND:
        c = state.turn.column
        facts += [ColumnPlaced(c, top, False), ColumnPlaced(c, top - 1, True), ColumnPlaced(wrong_column, top, True)]
        if top < TOP_FLOOR_LEVEL:
            facts.append(ColumnPlaced(c, top, True, on_column=wrong_column))
    else:
        facts.append(ColumnPlaced(wrong_column, top, True))
    if state.turn.step is Step.TAKE_OUT:
        objector = set(state.colours[state.turn.objector])
        facts += [ColumnTakenOut(c) for c in sorted(ALL_IDS) if c.split("-")[0] not in {o.value for o in objector}][:2]
    if state.turn.step is Step.LAY_FLOOR:
        facts += [FloorLaid(top + 1, frozenset({wrong_column}) - state.columns_on(top) or frozenset({"x"}))]
    return facts


def refused_unchanged(state: GameState, action) -> None:
    before_log = state.log
    try:
        apply(state, action)
    except RuleError as error:
        assert state.log == before_log
        assert set(error.params) == set(Rule(error.rule).params)
        return
    raise AssertionError(f"{action} was accepted at {state.turn}")


def play(ruleset, n_players: int, seed: int, collapse_rate: float, probe: bool = True) -> GameState:
    rng = random.Random(seed)
    state = new_game(GameSetup(ruleset, tuple(f"P{i}" for i in range(n_players))))
    if rng.random() < 0.3 and state.turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        state = apply(state, AssignColoursAtRandom(rng.randrange(10**6)))
    if rng.random() < 0.3 and state.turn.step in (Step.START, Step.FAMILY_ROLL):
        state = apply(state, random_villa(rng, ruleset))
    snapshot_at = rng.randrange(1, 200)
    steps = 0
    while not state.over:
        check_invariants(state)
        legal = legal_actions(state)
        facts = expected_facts(state)
        if probe:
            # No illegal action is ever accepted, and every offered one is.
            candidate = rng.choice(UNIVERSE)
            if candidate not in legal:
                refused_unchanged(state, candidate)
            for fact in rng.sample(bad_facts(state, rng), 2):
                refused_unchanged(state, fact)
            for offered in rng.sample(legal, min(2, len(legal))):
                apply(state, offered)
        calm = [f for f in facts if not isinstance(f, Collapse)]
        options = legal + calm
        if not options or (facts and rng.random() < collapse_rate):
            options = [f for f in facts if isinstance(f, Collapse)]
        state = apply(state, rng.choice(options))
        steps += 1
        if steps == snapshot_at:
            assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
        assert steps < 5000, "the game does not end"
    check_invariants(state)
    assert state.result is not None and legal_actions(state) == []
    assert replay(state.setup, state.log) == state
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    PLAYED[(ruleset.name, n_players)] += 1
    return state
