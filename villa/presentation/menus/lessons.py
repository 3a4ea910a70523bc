"""Learn to play: the eight lessons in order, a tick on each one done; any of them may be played again."""

from __future__ import annotations

from typing import Callable, Sequence

from villa.match.lessons import Lesson
from villa.presentation import lesson_words
from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen

TICK = "✓"


class LessonsScreen(Screen):
    """`on_lesson(lesson)` for the one chosen; `done`: the codes of the lessons done."""

    def __init__(self, parent=None, *, lessons: Sequence[Lesson], done: Sequence[str],
                 on_lesson: Callable[[Lesson], None], on_back: Callable[[], None], **options) -> None:
        self.lessons, self.done = tuple(lessons), frozenset(done)
        self.on_lesson, self.on_back = on_lesson, on_back
        super().__init__(parent, **options)

    def build(self) -> None:
        root = self.root
        style.panel(root, (-0.9, 0.9, -0.93, 0.93))
        style.title(root, _("Learn to play"), pos=(0, 0.77), scale=0.09)
        style.text(root, _("Eight short lessons on a prepared villa: one thing to do in each."),
                   pos=(0, 0.66), scale=0.04, fg=style.INK_SOFT, wordwrap=44)
        for i, lesson in enumerate(self.lessons):
            y = 0.52 - i * 0.145
            ticked = lesson.code in self.done
            label = f"{i + 1}. {lesson_words.title(lesson)}"
            self.widgets[lesson.code] = style.button(root, label, lambda lesson=lesson: self.on_lesson(lesson),
                                                     pos=(0, y), width=1.1, height=0.11,
                                                     kind="selected" if ticked else "wood")
            self.widgets[f"{lesson.code} done"] = style.text(root, TICK if ticked else "", pos=(0.66, y - 0.018),
                                                             scale=0.06, kind="bold")
        self.widgets["back"] = style.button(root, _("Back"), self.on_back, pos=(0, -0.82), width=0.5,
                                            kind="primary")
