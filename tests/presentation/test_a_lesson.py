"""A lesson played in the window, clicked and dragged with the real pointer (xdotool under Xvfb): from the
main menu to the list, the first lesson failed once and tried again, done, and ticked in the list."""

from __future__ import annotations

import pytest
from panda3d.core import Point3

from villa.app import settings as stored
from villa.match.lessons import LESSONS
from villa.presentation import lesson_words
from villa.presentation.preferences import Settings

pytestmark = pytest.mark.gui


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en", last_seats=(("Rosa", None), ("Mira", "easy"))))
    yield app
    app.close()


def test_the_first_lesson_failed_tried_again_done_and_ticked(front, frames, mouse, on_screen, press_button,
                                                             snapshot):
    first = LESSONS[0]
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["learn"])
    assert front.menu.widgets[f"{first.code} done"]["text"] == "", "nothing is done yet"
    press_button(front.menu.widgets[first.code])
    lesson = front.learning.screen
    assert lesson is not None and front.menu is None
    seats = lesson.attempt.match.setup.seats
    assert seats[first.parts[0].learner].name == "Rosa", "the learner plays under the name of the last game"
    assert len({seat.name for seat in seats}) == len(seats)
    assert lesson.card.aim.getText() == lesson_words.aim(first, 0, lesson.other)
    press_button(lesson.card.buttons["hint"])
    assert lesson.card.hint.getText().startswith("Your blue and red thin columns")
    snapshot("lesson-1-hint")

    # a mistake: the column given up (Esc) is told why, and the part can be tried again
    match = lesson.attempt.match
    column = "blue-thin-3"
    mouse.move(*on_screen(match.villa.nodes[column].getPos()))
    frames(3)
    assert lesson.game.hover == column, lesson.game.hint
    mouse.down()
    frames(3)
    mouse.key("Escape")
    frames(5)
    mouse.up()
    frames(3)
    assert lesson.verdict is not None and lesson.verdict.title.getText() == "Not yet"
    assert lesson.verdict.words.getText() == lesson_words.why(first, "gave-up", lesson.other)
    press_button(lesson.verdict.buttons[0])   # Try again
    assert lesson.verdict is None and lesson.attempt.match is not match

    # done: pulled out, carried over the blue floor, set down
    match, screen = lesson.attempt.match, lesson.game
    x, y = on_screen(match.villa.nodes[column].getPos())
    mouse.move(x, y)
    frames(3)
    mouse.down()
    frames(3)
    for step in range(1, 6):
        mouse.move(x, y - 8 * step)
        frames(2)
    mouse.up()
    frames(10)
    assert screen.mode == "Carrying", screen.hint
    blue = match.villa.nodes["floor-1"].getPos()
    mouse.move(*on_screen(Point3(blue.x, blue.y, blue.z + 0.3)))
    for _ in range(300):
        frames()
        if screen.hint and screen.hint.startswith("click to set it down"):
            break
    frames(10)
    mouse.down()
    frames(2)
    mouse.up()
    for _ in range(900):
        frames()
        if lesson.verdict is not None:
            break
    snapshot("lesson-1-done")
    assert lesson.verdict is not None and lesson.verdict.title.getText() == "Well done!", screen.hint
    assert front.settings.lessons_done == (first.code,)
    assert stored.load_settings().lessons_done == (first.code,), "kept on disk at once"

    press_button(lesson.verdict.buttons[1])   # Back to the lessons
    assert front.learning.screen is None and front.menu is not None
    assert front.menu.widgets[f"{first.code} done"]["text"] == "✓"
    assert front.menu.widgets[f"{LESSONS[1].code} done"]["text"] == ""

    # the third lesson skipped from its card: on to the fourth, nothing ticked
    press_button(front.menu.widgets[LESSONS[2].code])
    press_button(front.learning.screen.card.buttons["skip"])
    assert front.learning.screen.lesson is LESSONS[3] and front.settings.lessons_done == (first.code,)
    press_button(front.learning.screen.card.buttons["leave"])
    assert front.learning.screen is None and front.menu.widgets[f"{LESSONS[2].code} done"]["text"] == ""
