"""Every game the program can produce can be saved, loaded, continued and replayed: computer games across
every player count, layout, rule set and variant, each settled turn's autosave read back, taken up again
and (at the end) replayed. And every way a game can end: a clumsy hand brings the villa down at each
moment of a turn (`Ending`), under every rule set the new-game menu offers, and that game too must load
back from every autosave and replay to its end.

Used by `scripts/sweep_saves.py` (hundreds of games) and by the test suite (a seeded handful).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from villa import rules
from villa.app import saves
from villa.match import LAYOUT_NAMES, Match, MatchSetup, Seat, Strength, TurnSettled, layout_named
from villa.match import record as records
from villa.match import replay
from villa.match.computer import seat_computers
from villa.match.computer.clumsy import ClumsyHand, Ending

STRENGTHS = (Strength.EASY, Strength.MEDIUM, Strength.HARD)
VARIANTS = ("two_supports_from_orange", "floors_inside_base", "proposer_moves_column", "everyone_rolls")
ENDING_TURNS = 80     # a game steered toward its ending that has not ended by then never will


def setups(count: int, first_seed: int = 1, strength: Strength | None = None, every: int = 1) -> Iterator[MatchSetup]:
    """`count` games going round every player count, layout and rule set (with its variants); the computer
    players' strengths go round too, unless one `strength` is asked for. With `every`, only the first game of
    each `every` is made (a sample of the same round, without building the villas of the others)."""
    kinds = itertools.cycle(itertools.product((2, 3, 4), LAYOUT_NAMES, sorted(rules.RULE_SETS)))
    for number in range(count):
        players, layout, ruleset = next(kinds)
        if number % every:
            continue
        seed = first_seed + number
        seats = tuple(Seat(f"Computer {i + 1}", strength or STRENGTHS[(seed + i) % 3]) for i in range(players))
        yield MatchSetup(seats, layout_named(layout, seed), rules.RULE_SETS[ruleset], seed)


@dataclass
class Counts:
    """What a sweep loaded back."""

    games: int = 0
    autosaves: int = 0     # autosaves read back and taken up again
    replays: int = 0       # replays played again to their end
    refused: int = 0       # autosaves or replays that did not load back as the game they were
    last: records.Record | None = None   # the last game, as it ended


def menu_rule_sets() -> list[rules.RuleSet]:
    """Every rule set the new-game menu can start: the publisher's with any house variants, and the
    family edition in each mode and scoring."""
    publisher = [rules.PUBLISHER.with_variants(**dict(zip(VARIANTS, on)))
                 for on in itertools.product((False, True), repeat=len(VARIANTS))]
    return publisher + [rules.family(mode, scoring) for mode in rules.FamilyMode for scoring in rules.Scoring]


@dataclass(frozen=True)
class EndingGame:
    """A game to be brought down at the moment `ending`; its villa is built only when it is played."""

    ending: Ending
    ruleset: rules.RuleSet
    players: int
    layout: str
    seed: int

    def setup(self) -> MatchSetup:
        seats = tuple(Seat(f"Computer {i + 1}", Strength.EASY) for i in range(self.players))
        return MatchSetup(seats, layout_named(self.layout, self.seed), self.ruleset, self.seed)

    def __str__(self) -> str:
        return f"{self.ending.value}-{self.ruleset.name}-{self.players}p".replace(" ", "-")


def ending_games(first_seed: int = 1, endings=tuple(Ending),
                 rule_sets: list[rules.RuleSet] | None = None) -> Iterator[EndingGame]:
    """A game for every ending under every rule set it can come to (a challenge needs three players
    under the publisher's rules); the layouts and the other player counts go round."""
    kinds = itertools.cycle(itertools.product(LAYOUT_NAMES, (2, 4, 3)))
    number = 0
    for ending in endings:
        for ruleset in rule_sets or menu_rule_sets():
            layout, players = next(kinds)
            players = 3 if ending is Ending.CHALLENGE and not ruleset.family else players
            if not ending.fits(ruleset, players):
                continue
            yield EndingGame(ending, ruleset, players, layout, first_seed + number)
            number += 1


def fell_from(record: records.Record) -> rules.GameState:
    """The rules' state the last move (the fall that ended the game) came to."""
    state = record.start
    for action in record.state.log[len(record.start.log):-1]:
        state = rules.apply(state, action)
    return state


def check(setup: MatchSetup, turns: int, ending: Ending | None = None, counts: Counts | None = None) -> list[str]:
    """Play up to `turns` turns (with an `ending`: until the clumsy hand has brought the game to its end);
    every autosave must load back as the game it was, and go on from there; the record at the end must
    replay to its last state. Returns what went wrong, in words; `counts` adds up what was loaded."""
    counts = counts or Counts()
    counts.games += 1
    match = Match(setup)
    if ending is None:
        seat_computers(match, everyone=True)
    else:
        hand = ClumsyHand(match, ending)
        match.add_driver(hand)
        hand.lead(seat_computers(match, everyone=True))
        turns = ENDING_TURNS
    problems: list[str] = []

    def settled(_event) -> None:
        text = records.dumps(match.record, "autosave")
        try:
            loaded = saves.from_text(text)
        except saves.SaveError as error:
            problems.append(f"turn {match.turn}: refused: {error}")
            counts.refused += 1
            return
        if records.digest(loaded) != records.digest(match.record):
            problems.append(f"turn {match.turn}: loads back as another game")
            counts.refused += 1
        elif Match(loaded.setup, loaded).villa.snapshot() != match.villa.snapshot():
            problems.append(f"turn {match.turn}: taken up again, the villa is not the one saved")
            counts.refused += 1
        else:
            counts.autosaves += 1
    match.events.subscribe(TurnSettled, settled)
    goal = turns
    for _ in range(60 * 60 * 4 * max(1, turns)):
        if match.turn >= goal or (match.over and match.turns[-1].actions == len(match.state.log)):
            break
        match.frame()
    else:
        problems.append(f"the game stood still at turn {match.turn}")
    if ending is not None and not (match.over and match.state.result.fell):
        problems.append(f"the villa never fell ({ending.value}) in {match.turn} turns")
    elif ending is not None and not ending.came(fell_from(match.record)):
        problems.append(f"the villa fell, but not {ending.value}")
    try:
        replayed = list(replay.turns(saves.from_text(records.dumps(match.record, "replay"))))
        if replayed and replayed[-1].state != match.state:
            problems.append("the replay does not end where the game did")
            counts.refused += 1
        else:
            counts.replays += 1
    except (saves.SaveError, records.RecordError) as error:
        problems.append(f"the replay is refused: {error}")
        counts.refused += 1
    counts.last = match.record
    match.close()
    return problems
