"""Shared moves for the scenario tests: set up games and play builds the way a GUI would."""

from __future__ import annotations

from dataclasses import replace

import pytest

from villa.rules import (PUBLISHER, ChooseColour, Colour, ColumnPlaced, GameSetup, GameState, RuleError,
                         SealRoll, TakeColumn, apply, new_game)
from villa.rules.state import Seal, Step

BLUE, RED, YELLOW, GREEN = Colour.BLUE, Colour.RED, Colour.YELLOW, Colour.GREEN


def four_players(ruleset=PUBLISHER) -> GameState:
    """Seats 0..3 get blue, red, yellow, green (green is left over, so seat 3 starts)."""
    state = new_game(GameSetup(ruleset, ("Blanca", "Ruediger", "Gerald", "Giovanna")))
    state = apply(state, SealRoll(BLUE))
    state = apply(state, ChooseColour(RED))
    return apply(state, ChooseColour(YELLOW))


def three_players(ruleset=PUBLISHER) -> GameState:
    """Seats 0..2 get blue, red, green; yellow is neutral; seat 2 starts."""
    state = new_game(GameSetup(ruleset, ("Blanca", "Ruediger", "Giovanna")))
    state = apply(state, SealRoll(BLUE))
    state = apply(state, ChooseColour(RED))
    return apply(state, ChooseColour(GREEN))


def two_players(ruleset=PUBLISHER) -> GameState:
    """Seat 0 blue+yellow, seat 1 red+green; seat 1 starts."""
    state = new_game(GameSetup(ruleset, ("Anna", "Ben")))
    state = apply(state, SealRoll(BLUE))
    state = apply(state, ChooseColour(RED))
    return apply(state, ChooseColour(YELLOW))


def turn_of(state: GameState, player: int) -> GameState:
    """The same position, at the start of `player`'s turn."""
    return replace(state, turn=replace(state.turn, player=player, actor=player, step=Step.START,
                                       neutral_done=False))


def position(state: GameState, top: int | None = None, seal: Seal | None = None, **levels: int | None) -> GameState:
    """Move columns (ids with '_' for '-') and the top level by hand, as a test fixture."""
    new_levels = dict(state.levels)
    for key, level in levels.items():
        new_levels[key.replace("_", "-")] = level
    changes = {"levels": new_levels}
    if top is not None:
        changes["top_level"] = top
    if seal is not None:
        changes["seal"] = seal
    return replace(state, **changes)


def build(state: GameState, column: str, **placed) -> GameState:
    """Take `column` and set it on the top floor, footprint inside."""
    state = apply(state, TakeColumn(column))
    return apply(state, ColumnPlaced(column, state.top_level, placed.get("footprint_inside", True),
                                     placed.get("on_column")))


def refused(state: GameState, action, rule: str) -> RuleError:
    """Apply must refuse `action` for breaking `rule`, and leave the state as it was."""
    before = state
    log = state.log
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert caught.value.rule == rule, str(caught.value)
    assert state == before and state.log == log
    return caught.value
