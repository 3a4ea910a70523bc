"""Every game the program can produce can be saved, loaded, continued and replayed: computer games across
every player count, layout, rule set and variant, each settled turn's autosave read back, taken up again
and (at the end) replayed.

Used by `scripts/sweep_saves.py` (hundreds of games) and by the test suite (a seeded handful).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from villa import rules
from villa.app import saves
from villa.match import LAYOUT_NAMES, Match, MatchSetup, Seat, Strength, TurnSettled, layout_named
from villa.match import record as records
from villa.match import replay
from villa.match.computer import seat_computers

STRENGTHS = (Strength.EASY, Strength.MEDIUM, Strength.HARD)


def setups(count: int, first_seed: int = 1, strength: Strength | None = None) -> Iterator[MatchSetup]:
    """`count` games going round every player count, layout and rule set (with its variants); the computer
    players' strengths go round too, unless one `strength` is asked for."""
    kinds = itertools.cycle(itertools.product((2, 3, 4), LAYOUT_NAMES, sorted(rules.RULE_SETS)))
    for number in range(count):
        players, layout, ruleset = next(kinds)
        seed = first_seed + number
        seats = tuple(Seat(f"Computer {i + 1}", strength or STRENGTHS[(seed + i) % 3]) for i in range(players))
        yield MatchSetup(seats, layout_named(layout, seed), rules.RULE_SETS[ruleset], seed)


def check(setup: MatchSetup, turns: int) -> list[str]:
    """Play up to `turns` turns; every autosave must load back as the game it was, and go on from there;
    the record at the end must replay to its last state. Returns what went wrong, in words."""
    match = Match(setup)
    seat_computers(match, everyone=True)
    problems: list[str] = []

    def settled(_event) -> None:
        text = records.dumps(match.record, "autosave")
        try:
            loaded = saves.from_text(text)
        except saves.SaveError as error:
            problems.append(f"turn {match.turn}: refused: {error}")
            return
        if records.digest(loaded) != records.digest(match.record):
            problems.append(f"turn {match.turn}: loads back as another game")
        elif Match(loaded.setup, loaded).villa.snapshot() != match.villa.snapshot():
            problems.append(f"turn {match.turn}: taken up again, the villa is not the one saved")
    match.events.subscribe(TurnSettled, settled)
    goal = turns
    for _ in range(60 * 60 * 4 * max(1, turns)):
        if match.turn >= goal or (match.over and match.turns[-1].actions == len(match.state.log)):
            break
        match.frame()
    else:
        problems.append(f"the game stood still at turn {match.turn}")
    try:
        replayed = list(replay.turns(saves.from_text(records.dumps(match.record, "replay"))))
        if replayed and replayed[-1].state != match.state:
            problems.append("the replay does not end where the game did")
    except (saves.SaveError, records.RecordError) as error:
        problems.append(f"the replay is refused: {error}")
    match.close()
    return problems
