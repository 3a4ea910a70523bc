"""The lessons' words: a title for each lesson, an aim, a hint and what success shows for each part, a why
for each mistake a part names, in every language."""

from __future__ import annotations

import pytest

from villa.match.lessons import FELL, LESSONS, MISSED
from villa.presentation import i18n, lesson_words

PARTS = [(lesson, number) for lesson in LESSONS for number in range(len(lesson.parts))]


def test_every_lesson_and_part_has_its_words_and_no_words_are_left_over():
    assert set(lesson_words.TITLES) == {lesson.code for lesson in LESSONS}
    assert set(lesson_words.PARTS) == {(lesson.code, number) for lesson, number in PARTS}
    named = {(lesson.code, why) for lesson in LESSONS for part in lesson.parts
             for why in [why for _aim, why in part.mistakes] + [FELL, MISSED]}
    assert set(lesson_words.WHYS) <= named, "a why no part can give"
    for lesson in LESSONS:
        for part in lesson.parts:
            for _aim, why in part.mistakes:
                assert (lesson.code, why) in lesson_words.WHYS, f"{lesson.code}: {why} has no words of its own"


@pytest.mark.parametrize("language", ["de", "fr", "nl"])
def test_every_lesson_word_is_translated_with_the_other_players_name_in_it(language):
    try:
        i18n.install(language)
        for lesson, number in PARTS:
            english = lesson_words.PARTS[lesson.code, number]
            said = (lesson_words.aim(lesson, number, "Emil"), lesson_words.hint(lesson, number, "Emil"),
                    lesson_words.done(lesson, number, "Emil"))
            for source, words in zip(english, said):
                assert words != source.format(other="Emil"), f"{language}: untranslated {source!r}"
                assert ("Emil" in words) == ("{other}" in source)
            assert lesson_words.title(lesson) != lesson_words.TITLES[lesson.code]
        for (code, why), source in lesson_words.WHYS.items():
            lesson = next(lesson for lesson in LESSONS if lesson.code == code)
            assert lesson_words.why(lesson, why, "Emil") != source.format(other="Emil")
    finally:
        i18n.install("en")


def test_the_mistake_each_part_is_failed_with_on_purpose_has_its_own_words():
    """tests/match/test_lessons.py fails every part on purpose with `mistake` and finds `mistake_why`: these
    are the words the player then reads."""
    for lesson in LESSONS:
        for part in lesson.parts:
            said = lesson_words.why(lesson, part.mistake_why, "Emil")
            if part.mistake_why != FELL:
                assert said == lesson_words.WHYS[lesson.code, part.mistake_why].format(other="Emil")
            assert said and "{" not in said


def test_a_mistake_without_words_of_its_own_falls_back_to_the_fall():
    first = LESSONS[0]
    assert lesson_words.why(first, FELL, "Mira") == "The villa fell. Pull more slowly, and straight out."
    assert "may not be chosen again" in lesson_words.why(first, "gave-up", "Mira")
    assert lesson_words.why(first, MISSED, "Mira").startswith("The turn went by without it.")
