"""Games brought down by a pull, headless, for the tests of the motion recorded and of the clips made of it."""

from __future__ import annotations

import math

from villa import rules
from villa.match import Match, MatchSetup, Seat, layout_named
from villa.match import requests as rq

PLAYERS = ("Anna", "Ben", "Cleo")


def pulled_through(players=PLAYERS, layout: str = "rings", seed: int = 1, pull_s: float = 2.0,
                   frames: int = 60 * 30) -> tuple[Match, str, int]:
    """A game whose first player takes the first column they may and pulls it in across the villa over `pull_s`
    seconds, until the villa falls and lies still. Returns the match, the column and the player."""
    match = Match(MatchSetup(tuple(Seat(p) for p in players), layout_named(layout, seed), seed=seed,
                             deal_colours=True))
    player = match.actor
    column = rules.grabbable_columns(match.state)[0]
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    start = match.villa.nodes[column].getPos()
    reach = math.hypot(start.x, start.y) or 1.0
    for frame in range(frames):
        share = min(1.0, frame / (60 * pull_s))
        aim = (start.x * (1 - 2.2 * share * 25 / reach), start.y * (1 - 2.2 * share * 25 / reach), start.z)
        if match.hand is not None:
            rq.ask(match, lambda s: rq.Aim(s, aim))
        match.frame()
        if match.over and match.turns[-1].actions == len(match.state.log):
            return match, column, player
    raise AssertionError(f"the villa did not fall and come to rest ({match.state.turn})")
