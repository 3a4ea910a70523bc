"""What a lesson is: data. One or more parts, each a prepared villa, the seats, the aim as a test of the
match's events, the mistakes it names, and the hands that show it can be done and failed.

Words are not here: `code` names the lesson's words (its title, and per part the aim, the hint and
each mistake's why), which `villa.presentation.lesson_words` holds in every language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from villa import rules
from villa.match.lessons.aims import Aim, Fell
from villa.match.setup import MatchSetup, Seat, Strength
from villa.physics.dimensions import Layout

NAMES = ("Mira", "Emil", "Lotte", "Jonas")   # the other seats' names (one may be the learner's own)
FELL = "fell"                       # every part's mistake unless its aim is the fall itself
MISSED = "missed"                   # the learner's turn went by without the aim


@dataclass(frozen=True)
class Part:
    """One prepared villa and one thing to do on it.

    `layout` and `seed` make the villa and deal the colours (a villa built higher, or `deal_colours`);
    `learner` is the learner's seat, the others are scripted by `script` (seat -> steps). `aim` completes
    the part; `mistakes` (aim, why code) fail it, first met first. `solution` and `mistake` are the
    learner's steps that complete it and that fail it (with `mistake_why`): the tests play both.
    `builders_eye`: the part is played with the builder's eye on."""

    layout: Layout
    players: int
    learner: int
    aim: Aim
    mistakes: tuple[tuple[Aim, str], ...] = ()
    script: dict[int, tuple] = field(default_factory=dict)
    seed: int = 1
    ruleset: rules.RuleSet = rules.PUBLISHER
    solution: tuple = ()
    mistake: tuple = ()
    mistake_why: str = FELL
    builders_eye: bool = False      # the builder's eye on: where the floors' load lies, what holds them up

    def setup(self, learner_name: str = "", names: Sequence[str] = NAMES) -> MatchSetup:
        """The match this part is played as: the learner a person, the others computer seats (the
        script plays them)."""
        others = iter(name for name in names if name != learner_name)
        seats = tuple(Seat(learner_name or next(others)) if seat == self.learner
                      else Seat(next(others), Strength.EASY) for seat in range(self.players))
        return MatchSetup(seats, self.layout, self.ruleset, self.seed, deal_colours=True,
                          builders_eye=self.builders_eye)

    def judge(self, event) -> tuple[bool, str | None] | None:
        """(True, None): the aim is met; (False, why): a mistake; None: neither yet."""
        if self.aim.met(event, self.learner):
            return True, None
        for mistake, why in self.mistakes:
            if mistake.met(event, self.learner):
                return False, why
        if not isinstance(self.aim, Fell) and Fell().met(event, self.learner):
            return False, FELL
        return None


@dataclass(frozen=True)
class Lesson:
    """A lesson: its code (its words' key, and what the settings keep once it is done) and its parts, in order."""

    code: str
    parts: tuple[Part, ...]
