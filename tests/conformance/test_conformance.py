"""One game, whatever the wire: scripted games played at once on the hot seat's `Match` and, through the real
server over loopback, on a window's `OnlineMatch` (`lockstep.Lockstep`), tell the same events in the same order,
read the same on every face a screen reads (the villa's and the piece in hand's: `screen.READS`, a grid of pointer
rays among them), and end in the same state, with the same villa.

The default run plays four games (about half a minute): objections proved and failed with the penalty pull, a
fact refused, floors laid and given up and a collapse to the end; three players' neutral column and challenge;
the seal's colour rolls; the family edition's rolled colours and a round that falls and is built anew. Every
rule set is swept behind the `slow` marker (`test_every_rule_set.py`)."""

from __future__ import annotations

import pytest

from villa.match import events as ev
from villa.online.client import play
from villa.physics import picking
from tests.conformance import screen
from tests.conformance.games import COLOURS, GAMES
from tests.conformance.lockstep import Lockstep, told


def _both(game) -> Lockstep:
    tables = Lockstep(game.setup)
    try:
        tables.play(game.script)
        tables.finish()
    finally:
        tables.close()
    return tables


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_a_scripted_game_is_told_the_same_online_as_at_the_hot_seat(game):
    tables = _both(game)
    told_kinds = {told(event)[0] for event in tables.heard["hot seat"]}
    assert game.tells <= told_kinds, f"the script never came to {game.tells - told_kinds}"
    compared = set(tables.seen.compared)
    assert game.compares <= compared, f"the script never compared {sorted(game.compares - compared)}"
    assert screen.rays_compared(tables.seen) >= 200, "too few pointer rays"


def _deaf(monkeypatch):
    """A window that loses the news of a turn settled."""
    heard = play.OnlineMatch._heard_event

    def deaf(match, event):
        if not isinstance(event, ev.TurnSettled):
            heard(match, event)
    monkeypatch.setitem(play._NEWS, "event", deaf)


def _pointing_where_it_stood(monkeypatch):
    """A window whose villa finds each piece where it was first drawn (a world that never steps keeps the bounds a
    body had when added)."""
    monkeypatch.setattr(picking, "moved", lambda world, body: None)


@pytest.mark.parametrize("fault, caught", [(_deaf, "event .* differs"),
                                           (_pointing_where_it_stood, "the screen reads otherwise.*villa.pick")],
                         ids=["a turn's end unheard", "picked where it stood"])
def test_a_window_that_tells_the_game_otherwise_is_caught(fault, caught, monkeypatch):
    """The comparison is not blind: a window that loses the news of a turn's end, or points at a column where it
    stood before it was built with, fails it."""
    fault(monkeypatch)
    tables = Lockstep(COLOURS.setup)
    try:
        with pytest.raises(AssertionError, match=caught):
            tables.play(COLOURS.script)
    finally:
        tables.close()
