"""Learn to play, from the main menu: the list of lessons, each lesson's parts, then on to the next."""

from __future__ import annotations

from dataclasses import replace

from villa.match.lessons import LESSONS
from villa.presentation import menus
from villa.presentation.lesson_screen import LEARNER, LessonScreen


class Learning:
    """The lessons of one window, for its `Front`: at most one lesson open (`screen`), each one done ticked in
    the settings."""

    def __init__(self, front) -> None:
        self.front = front
        self.screen: LessonScreen | None = None

    def lessons(self) -> None:
        """The list of lessons, a tick on each one done."""
        front = self.front
        self.close()
        front._open(menus.LessonsScreen(lessons=LESSONS, done=front.settings.lessons_done, on_lesson=self.open_lesson,
                                        on_back=front.main_menu))

    def open_lesson(self, lesson) -> None:
        """A lesson, played under the name of the last game's first person."""
        front = self.front
        front._close_menu()
        self.close()
        people = [name for name, strength in front.settings.last_seats if strength is None]
        self.screen = LessonScreen(front.stage, lesson, LESSONS.index(lesson) + 1, on_done=self._done,
                                   on_next=self._after, on_leave=self.lessons, sound=front.sound,
                                   learner=people[0] if people else LEARNER)
        front.apply_settings(front.settings)

    def _done(self, lesson) -> None:
        settings = self.front.settings
        if lesson.code not in settings.lessons_done:
            self.front.apply_settings(replace(settings, lessons_done=(*settings.lessons_done, lesson.code)))

    def _after(self, lesson) -> None:
        number = LESSONS.index(lesson) + 1
        if number < len(LESSONS):
            self.open_lesson(LESSONS[number])
        else:
            self.lessons()

    def close(self) -> None:
        if self.screen is not None:
            self.screen.close()
            self.screen = None
