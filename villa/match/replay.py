"""A recorded game watched again, turn by turn: the rules play the recorded moves from the start,
and the villa stands as recorded after each turn. The two must agree (the survey of the poses
against the rules' picture), and at the end the state played again must be exactly the state
recorded; anything else means the record was changed, and `RecordError` says so."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from villa import rules
from villa.match.record import Record, RecordError, fell_laying, state_at, villa_of
from villa.physics.world import Villa


@dataclass(frozen=True)
class ReplayTurn:
    turn: int
    before: rules.GameState     # the rules' state as the turn began
    moves: tuple                # the actions and facts of the turn, in order
    state: rules.GameState      # the rules' state after the turn, played again
    villa: Villa                # the villa as recorded after the turn


def turns(record: Record) -> Iterator[ReplayTurn]:
    """Every recorded turn after the start, played again and checked against its poses."""
    state = state_at(record, record.turns[0])   # the colours may have been settled before the first turn
    done = record.turns[0].actions
    for entry in record.turns[1:]:
        before, last = state, None
        moves = record.state.log[done:entry.actions]
        for action in moves:
            state, last = rules.apply(state, action), state
        done = entry.actions
        yield ReplayTurn(entry.turn, before, tuple(moves), state, villa_of(entry, state, fell_laying(last, state)))
    if rules.state_to_json(state) != rules.state_to_json(record.state):
        raise RecordError("played again, the game does not end in the state saved")
