"""Watching a recorded game again, turn by turn, from a replay (or any save) file.

Each turn the rules play the recorded moves again from the start of the game, and the
villa is set to the poses recorded after that turn; the two must agree (the survey of
the poses against the rules' picture), and at the end the state played again must be
exactly the state saved. Anything else means the file was changed, and is said so.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from villa import rules
from villa.app import saves
from villa.rules.pieces import floor_colour


@dataclass(frozen=True)
class ReplayTurn:
    turn: int
    text: str                  # what happened, in words
    state: rules.GameState     # the rules' state after the turn, played again
    villa: object              # the villa as recorded after the turn


def turns(game: saves.Game) -> Iterator[ReplayTurn]:
    """Every recorded turn after the start, played again and checked against its poses."""
    state = game.start
    done = len(game.start.log)
    for record in game.turns[1:]:
        before = state
        moves = game.state.log[done:record.actions]
        for action in moves:
            state = rules.apply(state, action)
        done = record.actions
        villa = saves.villa_of(record, state)
        yield ReplayTurn(record.turn, describe(before, moves, state), state, villa)
    if rules.state_to_json(state) != rules.state_to_json(game.state):
        raise saves.SaveError("played again, the game does not end in the state saved")


def describe(before: rules.GameState, moves, after: rules.GameState) -> str:
    """One line: who did what in a turn."""
    who = before.colour_name(before.turn.player)
    parts = []
    for move in moves:
        if isinstance(move, rules.ColumnPlaced):
            parts.append(f"set {move.column} on the {floor_colour(move.level)} floor" if move.level >= 1
                         else f"set {move.column} down")
        elif isinstance(move, rules.Abort):
            parts.append("gave a column up")
        elif isinstance(move, rules.ProposeFloor):
            parts.append("proposed a floor")
        elif isinstance(move, rules.Object):
            parts.append("an objection")
        elif isinstance(move, rules.FloorLaid):
            parts.append(f"laid the {floor_colour(move.level)} floor on {len(move.resting_on)} columns")
        elif isinstance(move, rules.GiveUpFloor):
            parts.append("gave the floor up")
        elif isinstance(move, rules.ColumnTakenOut):
            parts.append(f"took {move.column} out of the game")
        elif isinstance(move, rules.Collapse):
            parts.append(f"the villa fell ({move.cause.value}, {move.piece} first)")
        elif isinstance(move, rules.Pass):
            parts.append("passed")
    return f"{who}: {', '.join(parts) or 'nothing'}"


def summary(state: rules.GameState) -> str:
    top = floor_colour(state.top_level) if state.top_level else "no"
    standing = sum(1 for lv in state.levels.values() if lv is not None)
    seal = state.colour_name(state.seal.holder) if state.seal.holder is not None else "nobody"
    if state.over:
        return f"game over: {state.result.reason} ({top} floor on top, {standing} columns in the villa)"
    return (f"{state.colour_name(rules.whose_move(state))} to move; {top} floor on top, {standing} columns "
            f"in the villa, seal held by {seal}")


def watch_headless(path: Path, out: TextIO = sys.stdout) -> int:
    """Step through a replay in words; confirms the final state is reproduced."""
    game = saves.load(path)
    print(f"replay of {path}: {', '.join(game.info.players)}, layout {game.info.layout.name}, "
          f"{game.turn} turns", file=out, flush=True)
    try:
        for turn in turns(game):
            print(f"turn {turn.turn}: {turn.text}", file=out, flush=True)
    except saves.SaveError as error:
        raise saves.SaveError(f"the replay {path} does not hold together: {error}") from None
    print(f"final: {summary(game.state)}", file=out, flush=True)
    print(f"the replay reproduces the saved final state ({saves.digest(game)})", file=out, flush=True)
    return 0
