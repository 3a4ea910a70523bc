"""Learn by playing: lessons as data, each part a prepared villa played as a match like any other.

    for lesson in LESSONS:
        attempt = Attempt(lesson.parts[0], "You")   # the screen plays it; `attempt.done` / `attempt.why`
"""

from villa.match.lessons.aims import Did, Fell, Seal, Who
from villa.match.lessons.attempt import Attempt
from villa.match.lessons.lesson import FELL, MISSED, Lesson, Part
from villa.match.lessons.script import Knock, Lay, Pull, Script
from villa.match.lessons.table import LESSONS

__all__ = ["Attempt", "Did", "FELL", "Fell", "Knock", "Lay", "LESSONS", "Lesson", "MISSED", "Part", "Pull", "Script",
           "Seal", "Who", "lesson_named"]


def lesson_named(code: str) -> Lesson:
    """The lesson with this code; KeyError for none."""
    for lesson in LESSONS:
        if lesson.code == code:
            return lesson
    raise KeyError(code)
