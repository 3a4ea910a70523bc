"""Computer players play whole games headless, to the end, under every kind of game the menu offers:
two, three and four players, the publisher's rules and the family edition. The referee refuses none
of their actions, and the log replays to the very state the game ended in.

The default run plays one short game on a villa set up higher (the same turn code, fewer turns): three
players with the neutral colour. A round of the family edition, two and four players, and a game from
the base plate under every rule set are behind the `slow` marker (pytest -m slow): now that the wood
holds, their villas stand for many turns. The benchmark (scripts/bench_computer.py) plays more.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from villa import rules
from villa.match import Match, MatchSetup, Refused, Seat, Strength, layout_named
from villa.match.computer import seat_computers

E, M, H = Strength.EASY, Strength.MEDIUM, Strength.HARD
ONE_ROUND = replace(rules.RULE_SETS["family-random-tournament"], rounds=1)
MAX_FRAMES = 60 * 60 * 40


def play_to_the_end(strengths: tuple[Strength, ...], ruleset: rules.RuleSet, floors: int, seed: int,
                    layout: str = "random") -> Match:
    seats = tuple(Seat(f"Computer {i + 1} ({s.value})", s) for i, s in enumerate(strengths))
    match = Match(MatchSetup(seats, layout_named(layout, seed, floors), ruleset, seed, deal_colours=floors > 1))
    refused: list[Refused] = []
    match.events.subscribe(Refused, refused.append)
    seat_computers(match)
    for _ in range(MAX_FRAMES):
        if match.over and match.turns[-1].actions == len(match.state.log):
            break
        match.frame()
    assert match.over, f"the game did not end: {match.state.turn}"
    assert refused == []
    assert rules.replay(match.state.setup, match.state.log) == match.state
    return match


@pytest.mark.parametrize("strengths,ruleset,floors,seed", [
    ((M, E, E), rules.PUBLISHER, 5, 2),
    pytest.param((E, E, H), ONE_ROUND, 5, 2, marks=pytest.mark.slow),
    pytest.param((H, E), rules.PUBLISHER, 4, 1, marks=pytest.mark.slow),
    pytest.param((E, H, E, E), rules.PUBLISHER, 5, 3, marks=pytest.mark.slow),
    pytest.param((H, H, H, H), rules.PUBLISHER, 4, 2, marks=pytest.mark.slow),
], ids=["three-players", "family-edition", "two-players", "four-players", "four-hard-players"])
def test_computer_players_play_a_legal_game_to_the_end(strengths, ruleset, floors, seed):
    match = play_to_the_end(strengths, ruleset, floors, seed)
    assert match.state.result.ending in ("collapse", "no more building", "rounds played")


@pytest.mark.slow
@pytest.mark.parametrize("number,name", list(enumerate(sorted(rules.RULE_SETS))))
def test_computer_players_play_every_rule_set_from_the_base_plate(number, name):
    players = 2 + number % 3
    strengths = tuple((E, M, H)[(number + i) % 3] for i in range(players))
    play_to_the_end(strengths, rules.RULE_SETS[name], 1, number + 1, layout=("rings", "colonnade", "random")[number % 3])
