"""A lesson in the window: each part's match on the game screen like any game, its card beside the villa
(hint, skip, leave), and once the aim is met or a mistake made, a panel that says so: why it failed (try
again, skip, leave), or what it showed (on to the next part or lesson).

    LessonScreen(stage, lesson, on_done=tick, on_next=open_lesson_after, on_leave=lesson_list)
"""

from __future__ import annotations

from typing import Callable

from villa.match.lessons import Attempt, Lesson
from villa.presentation import lesson_words, panels
from villa.presentation.fonts import font
from villa.presentation.game import GameScreen
from villa.presentation.i18n import _
from villa.presentation.lesson_card import LessonCard

LEARNER = "Anna"   # the learner's name when no game was played yet


class LessonScreen:
    """`on_done(lesson)` once its last part is done; `on_next(lesson)`: on to the lesson after it (the caller
    knows which); `on_leave()`: back to the list. `learner`: the learner's name at the table (a name, as the
    game's sentences say "Anna proposes", never "you proposes")."""

    def __init__(self, stage, lesson: Lesson, number: int, *, on_done: Callable[[Lesson], None],
                 on_next: Callable[[Lesson], None], on_leave: Callable[[], None], sound=None,
                 learner: str = LEARNER) -> None:
        self.stage, self.lesson, self.number, self.sound, self.learner = stage, lesson, number, sound, learner
        self.on_done, self.on_next, self.on_leave = on_done, on_next, on_leave
        self.part = 0
        self.attempt: Attempt | None = None
        self.game: GameScreen | None = None
        self.card: LessonCard | None = None
        self.verdict: panels.Panel | None = None
        self.start_part(0)
        stage.task_mgr.add(self._watch, "villa lesson", sort=-5)

    @property
    def other(self) -> str:
        """The name of the other player the part is about."""
        part = self.lesson.parts[self.part]
        seats = self.attempt.match.setup.seats
        scripted = [seat for seat, steps in part.script.items() if steps]
        return seats[scripted[0] if scripted else (part.learner + 1) % part.players].name

    def start_part(self, number: int) -> None:
        """Part `number` from the start: a fresh villa, the card, no verdict."""
        self._close_part()
        self.part = number
        self.attempt = Attempt(self.lesson.parts[number], self.learner)
        self.game = GameScreen(self.stage, self.attempt.match, sound=self.sound, end_panel=False)
        parts = len(self.lesson.parts)
        heading = _("Lesson {number}: {title}").format(number=self.number, title=lesson_words.title(self.lesson))
        if parts > 1:
            heading += "  " + _("(part {part} of {parts})").format(part=number + 1, parts=parts)
        self.card = LessonCard(self.stage, heading=heading, aim=lesson_words.aim(self.lesson, number, self.other),
                               hint=lesson_words.hint(self.lesson, number, self.other), on_skip=self.next,
                               on_leave=self.leave)

    def _watch(self, task):
        attempt = self.attempt
        if attempt is not None and attempt.over and self.verdict is None:
            self._tell()
        return task.cont

    def _tell(self) -> None:
        lesson, number, other = self.lesson, self.part, self.other
        if self.attempt.done:
            last = number + 1 == len(lesson.parts)
            if last:
                self.on_done(lesson)
            onward = _("Next lesson") if last else _("Next part")
            self.verdict = panels.Panel(self.stage, font(), over=lesson_words.title(lesson), title=_("Well done!"),
                                        words=lesson_words.done(lesson, number, other), height=0.8,
                                        answers=[(onward, self.next), (_("Back to the lessons"), self.leave)])
        else:
            self.verdict = panels.Panel(self.stage, font(), over=lesson_words.title(lesson), title=_("Not yet"),
                                        words=lesson_words.why(lesson, self.attempt.why, other), height=0.8,
                                        answers=[(_("Try again"), self.retry), (_("Skip"), self.next),
                                                 (_("Leave"), self.leave)])

    # --- the panel's and the card's buttons ---

    def retry(self) -> None:
        self.start_part(self.part)

    def next(self) -> None:
        """On to the next part, or past the last one to the next lesson."""
        if self.part + 1 < len(self.lesson.parts):
            self.start_part(self.part + 1)
        else:
            self.on_next(self.lesson)

    def leave(self) -> None:
        self.on_leave()

    def _close_part(self) -> None:
        for piece in (self.verdict, self.card):
            if piece is not None:
                piece.destroy()
        self.verdict = self.card = None
        if self.game is not None:
            self.game.close()
            self.game = None
        if self.attempt is not None:
            self.attempt.close()
            self.attempt = None

    def close(self) -> None:
        self.stage.task_mgr.remove("villa lesson")
        self._close_part()
