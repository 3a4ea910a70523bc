"""The lessons, headless: each part completed by a scripted hand and failed on purpose once, named by its
code; every part's villa stands and deals the learner the colours its steps use."""

from __future__ import annotations

from dataclasses import replace

import pytest

from villa import rules
from villa.match import Accepted, Match
from villa.match.lessons import LESSONS, MISSED, Attempt, Did, Part, Pull, lesson_named
from villa.match.lessons.lesson import FELL
from villa.physics import layouts
from villa.rules.state import Role, Step

FRAMES = 60 * 20    # simulated seconds a part may take: every one of them is over in far less

PARTS = [pytest.param(part, id=f"{lesson.code}-{number + 1}")
         for lesson in LESSONS for number, part in enumerate(lesson.parts)]


def _play(part: Part, steps: tuple) -> Attempt:
    attempt = Attempt(part, "You", learner_steps=steps)
    for _ in range(FRAMES):
        if attempt.over:
            break
        attempt.match.frame()
    attempt.close()
    return attempt


def test_there_are_eight_lessons_with_codes_of_their_own():
    assert len(LESSONS) == 8
    assert len({lesson.code for lesson in LESSONS}) == 8
    assert lesson_named("seal") is LESSONS[5]
    with pytest.raises(KeyError):
        lesson_named("juggling")


@pytest.mark.parametrize("part", PARTS)
def test_a_scripted_hand_completes_each_part(part):
    attempt = _play(part, part.solution)
    assert attempt.done and attempt.why is None


@pytest.mark.parametrize("part", PARTS)
def test_each_part_failed_on_purpose_names_the_mistake(part):
    attempt = _play(part, part.mistake)
    assert not attempt.done
    assert attempt.why == part.mistake_why
    assert part.mistake_why in {why for _aim, why in part.mistakes} | {FELL}


@pytest.mark.parametrize("part", PARTS)
def test_every_part_s_villa_can_stand(part):
    setup = part.setup()
    assert layouts.problems(part.layout, setup=not setup.started_higher) == []


@pytest.mark.parametrize("part", PARTS)
def test_the_learner_is_called_by_name_and_the_others_are_computer_seats(part):
    setup = part.setup("You")
    assert setup.seats[part.learner].name == "You" and not setup.seats[part.learner].is_computer
    assert all(seat.is_computer for n, seat in enumerate(setup.seats) if n != part.learner)


def test_a_mistake_is_told_only_once_and_the_aim_is_not_met_after_it():
    part = lesson_named("objection").parts[0]
    attempt = Attempt(part, learner_steps=(rules.Decline(),))
    for _ in range(10):
        attempt.match.frame()
    assert attempt.why == "declined" and not attempt.done
    attempt.close()


def test_a_turn_that_goes_by_without_the_aim_is_a_mistake_too():
    """The learner gives the hexagonal column up: the seal is not taken, and the other player has no more
    steps; the part does not wait for ever."""
    part = lesson_named("seal").parts[0]
    attempt = _play(part, (Pull("yellow-hex", give_up=True),))
    assert not attempt.done and attempt.why == MISSED


def test_an_aim_asks_who_did_it_in_which_role():
    proof = Did(rules.ColumnPlaced, roles=(Role.PROOF,))
    state = Match(lesson_named("first-pull").parts[0].setup()).state
    proving = replace(state, turn=replace(state.turn, step=Step.IN_HAND, role=Role.PROOF, actor=0))
    placed = rules.ColumnPlaced("blue-thin-3", 1, True, None)
    assert proof.met(Accepted(proving, placed, state), learner=0)
    assert not proof.met(Accepted(proving, placed, state), learner=1)   # someone else's proof
    assert not proof.met(Accepted(state, placed, state), learner=1)     # a build, not a proof
