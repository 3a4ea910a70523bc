"""One try at a lesson's part: its match, its scripted seats, and the verdict once the aim is met or a
mistake is made.

    attempt = Attempt(LESSONS[0].parts[0], "Anna")
    attempt.match.advance(dt)          # the screen (or a test) runs it like any game
    attempt.done, attempt.why          # True once the aim is met; the code of the mistake, once made
"""

from __future__ import annotations

from villa.match.lessons.lesson import MISSED, Part
from villa.match.lessons.script import Script
from villa.match.table import Match


class Attempt:
    """A part's match with its other players scripted, judged on every event until the aim or a mistake."""

    def __init__(self, part: Part, learner_name: str = "", learner_steps: tuple | None = None) -> None:
        """`learner_steps`: the learner's seat scripted too (the tests' hand); None: a person plays it."""
        self.part = part
        self.match = Match(part.setup(learner_name))
        steps = {seat: part.script.get(seat, ()) for seat in range(part.players) if seat != part.learner}
        if learner_steps is not None:
            steps[part.learner] = learner_steps
        self.script = Script(self.match, steps, on_stuck=self._stuck)
        self.match.add_driver(self.script)
        self.done = False
        self.why: str | None = None
        self._stop = self.match.events.subscribe(None, self._heard)

    @property
    def over(self) -> bool:
        return self.done or self.why is not None

    def _heard(self, event) -> None:
        if self.over:
            return
        verdict = self.part.judge(event)
        if verdict is not None:
            self.done, self.why = verdict
            self._stop()

    def _stuck(self) -> None:
        """The other players have nothing left to do and the aim is not met: the turn went by without it."""
        if not self.over:
            self.why = MISSED
            self._stop()

    def close(self) -> None:
        self._stop()
        self.match.close()
