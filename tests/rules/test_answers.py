"""The referee's answers to "what now": the task, the columns the hand may take (the penalty pull
included), why one is refused, how the game ended and why, and what a placement does to the seal."""

from villa import rules
from villa.rules import (Abort, Collapse, CollapseCause, EndReason, Ending, Object, ProposeFloor, Rule, Task,
                         TakeColumn, apply)
from villa.rules.state import Seal

from .helpers import build, four_players, position, three_players, turn_of

BLUE, RED, YELLOW, GREEN = 0, 1, 2, 3
CRASH = Collapse(3.0, CollapseCause.PIECE_ON_TABLE, "blue-thin-2")


def failed_objection():
    """Red proposed the orange floor, Yellow objected and gave the proof up: Red may pull one of Yellow's out."""
    state = position(four_players(), top=2, blue_thin_1=2, red_thin_1=2, yellow_thin_1=2, green_thin_1=2,
                     seal=Seal(holder=YELLOW, shows=BLUE, level=2))
    state = apply(apply(turn_of(state, RED), ProposeFloor()), Object())
    return apply(apply(state, TakeColumn("red-hex")), Abort())


def test_the_penalty_pull_is_among_the_columns_the_hand_may_take():
    state = failed_objection()
    assert rules.task(state) is Task.TAKE_OUT
    assert set(rules.grabbable_columns(state)) == {"yellow-thin-1", "yellow-thin-2", "yellow-thin-3", "yellow-hex",
                                                   "yellow-thick"}
    assert rules.takeable_columns(state) == []   # no build now: only the pull out of the game
    assert rules.why_not_grabbable(state, "yellow-hex") is None
    assert rules.why_not_grabbable(state, "green-thick").code is Rule.OBJECTION_PENALTY


def test_a_refused_column_is_refused_with_the_engines_own_rule():
    state = turn_of(three_players(), BLUE)
    assert rules.task(state) is Task.NEUTRAL
    refusal = rules.why_not_grabbable(state, "blue-thick")
    assert refusal.code is Rule.NEUTRAL_FIRST and refusal.params["column"] == "blue-thick"
    state = build(state, "yellow-hex")
    assert rules.task(state) is Task.OWN
    assert rules.why_not_grabbable(state, "yellow-thin-1").code is Rule.OWN_COLUMN
    in_hand = apply(state, TakeColumn("blue-thick"))
    assert rules.task(in_hand) is Task.PLACE and rules.why_not_grabbable(in_hand, "blue-hex").code is Rule.NOT_NOW


def test_a_question_names_the_columns_the_answer_would_have_to_prove_it_with():
    state = position(four_players(), top=2, blue_thin_1=2, red_thin_1=2, yellow_thin_1=2, green_thin_1=2)
    asked = apply(turn_of(state, RED), ProposeFloor())
    assert rules.is_question(rules.task(asked)) and rules.task(asked) is Task.ANSWER_OBJECTION
    assert set(rules.proof_columns(asked)) == {"red-thin-2", "red-thin-3", "red-hex", "red-thick"}
    assert rules.proof_columns(turn_of(state, RED)) == ()


def test_the_end_is_told_by_codes():
    midgame = turn_of(position(four_players(), top=3, seal=Seal(RED, YELLOW, 3), red_thick=3, yellow_hex=3), BLUE)
    fallen = apply(apply(midgame, TakeColumn("blue-thin-1")), CRASH)
    assert fallen.result.ending is Ending.COLLAPSE
    assert [(b.reason, b.values) for b in rules.end_reasons(fallen)] == [
        (EndReason.DOWN, {"player": BLUE}), (EndReason.HOLDER_WINS, {"player": RED})]
    by_holder = apply(apply(turn_of(midgame, RED), TakeColumn("red-thin-1")), CRASH)
    assert [b.reason for b in rules.end_reasons(by_holder)] == [EndReason.DOWN_HOLDING, EndReason.SHOWN_WINS]
    assert rules.end_reasons(midgame) == ()


def test_a_placement_tells_its_points_and_what_it_does_to_the_seal():
    state = turn_of(position(four_players(), top=3, seal=Seal(RED, YELLOW, 3), red_thick=3, blue_thin_1=3), BLUE)
    assert rules.seal_contested(state)
    small = rules.placement(state, BLUE, "blue-thin-2")          # blue 2 points: not more than red's 3
    assert small.points == 2 and small.seal == state.seal and not small.claims_new_floor
    retake = rules.placement(state, BLUE, "blue-thick")          # blue 4 points: the seal passes, showing red
    assert retake.points == 4 and retake.seal == Seal(BLUE, RED, 3)
    new_floor = rules.placement(position(state, seal=Seal(RED, YELLOW, 2)), BLUE, "blue-thin-2")
    assert new_floor.claims_new_floor and new_floor.seal == Seal(BLUE, RED, 3)
    assert not rules.seal_contested(position(state, top=1))


def test_an_ending_given_as_text_is_the_ending_itself():
    from villa.rules import Result
    result = Result(None, "nobody could build any further", ending="no more building")
    assert result.ending is Ending.NO_MORE_BUILDING


def test_giving_up_with_nothing_in_hand_is_a_granted_floor_back_in_the_box_or_a_build_given_up():
    state = turn_of(four_players(), BLUE)
    assert rules.giving_up(state) is None, "nothing to give up at the start of a turn"
    taken = apply(state, TakeColumn(rules.grabbable_columns(state)[0]))
    assert rules.giving_up(taken) == Abort(), "a build whose column no hand holds (a save made mid-turn)"
    granted = apply(apply(apply(apply(state, ProposeFloor()), rules.Decline()), rules.Decline()), rules.Decline())
    assert rules.task(granted) is Task.LAY_FLOOR and rules.giving_up(granted) == rules.GiveUpFloor()
    assert rules.giving_up(failed_objection()) is None, "a penalty pull is forgone, not given up"
    family = rules.new_game(rules.GameSetup(rules.family(rules.FamilyMode.FREESTYLE, rules.Scoring.BASIC),
                                            ("Anna", "Ben")))
    taken = apply(family, TakeColumn(rules.grabbable_columns(family)[0]))
    assert rules.task(taken) is Task.PLACE and rules.giving_up(taken) is None, "the family edition gives nothing up"
