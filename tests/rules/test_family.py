"""The family edition (003): modes, platforms, rounds, basic and tournament scoring, the challenge."""

from villa.rules import (Abort, ChooseColour, Collapse, CollapseCause, Decline, FamilyMode, FloorLaid, GameSetup,
                         GiveUpFloor, Object, Pass, ProposeFloor, Scoring, SealRoll, TakeColumn, apply, family,
                         legal_actions, new_game, takeable_columns, whose_move)
from villa.rules.state import Role, Step

from .helpers import BLUE, GREEN, RED, YELLOW, build, position, refused

CRASH = Collapse(1.0, CollapseCause.COLUMN_TOPPLED, "red-thin-1")


def game(mode, scoring=Scoring.BASIC, rounds=2, players=("Ann", "Bo", "Cy")):
    state = new_game(GameSetup(family(mode, scoring, rounds), players))
    if mode is FamilyMode.ASSIGNED:
        for colour in (RED, BLUE, GREEN, YELLOW)[: len(players)]:
            state = apply(state, ChooseColour(colour))
    return state


def test_freestyle_any_colour():
    state = game(FamilyMode.FREESTYLE)
    assert len(takeable_columns(state)) == 20
    state = build(state, "yellow-thick")
    assert whose_move(state) == 1


def test_random_the_seal_decides_and_an_end_face_is_free_choice():
    state = game(FamilyMode.RANDOM)
    assert SealRoll(None) in legal_actions(state)
    rolled = apply(state, SealRoll(GREEN))
    assert {c.split("-")[0] for c in takeable_columns(rolled)} == {"green"}
    refused(rolled, TakeColumn("red-hex"), "seal-colour")
    free = apply(state, SealRoll(None))
    assert len(takeable_columns(free)) == 20


def test_assigned_colour_only():
    state = game(FamilyMode.ASSIGNED)
    assert {c.split("-")[0] for c in takeable_columns(state)} == {"red"}
    refused(state, TakeColumn("blue-hex"), "own-column")


def test_no_abort_in_the_family_edition():
    state = apply(game(FamilyMode.FREESTYLE), TakeColumn("red-hex"))
    assert legal_actions(state) == []
    refused(state, Abort(), "no-abort")


def test_a_platform_then_a_column_must_move():
    state = position(game(FamilyMode.FREESTYLE), red_thin_1=1)
    state = apply(state, ProposeFloor())  # basic scoring: nobody challenges
    assert state.turn.step is Step.LAY_FLOOR
    state = apply(state, FloorLaid(2, frozenset({"red-thin-1"})))  # any support will do
    assert state.turn.step is Step.TAKE and state.turn.role is Role.OWN and whose_move(state) == 0
    state = build(state, "blue-thick")
    assert state.levels["blue-thick"] == 2 and whose_move(state) == 1


def test_giving_up_the_platform_still_means_moving_a_column():
    state = apply(position(game(FamilyMode.FREESTYLE), red_thin_1=1), ProposeFloor())
    state = apply(state, GiveUpFloor())
    assert state.turn.role is Role.OWN and whose_move(state) == 0


def test_basic_scoring_the_toppler_gets_a_point_and_begins_the_next_round():
    state = apply(game(FamilyMode.FREESTYLE, rounds=2), TakeColumn("red-hex"))
    state = apply(state, CRASH)
    assert state.scores == (1, 0, 0) and state.round == 2 and not state.over
    assert state.top_level == 1 and all(lv == 0 for lv in state.levels.values())  # a fresh villa
    assert whose_move(state) == 0
    state = apply(build(state, "red-hex"), CRASH)  # Bo topples the second round
    assert state.over and state.scores == (1, 1, 0)
    assert state.result.winner == 2 and "Cy wins with 0" in state.result.reason


def test_basic_scoring_a_tie_has_no_single_winner():
    state = apply(game(FamilyMode.FREESTYLE, rounds=1), CRASH)  # Ann topples; Bo and Cy stay on 0
    assert state.over and state.result.winner is None and state.result.tied == (1, 2)
    assert "tie" in state.result.reason and state.result.collapsed_by == 0


def test_tournament_points_only_once_the_green_platform_is_on():
    state = game(FamilyMode.FREESTYLE, Scoring.TOURNAMENT)
    state = build(state, "red-thick")
    assert state.scores == (0, 0, 0)
    state = position(state, top=2)
    state = build(state, "blue-thick")  # Bo
    state = build(state, "blue-hex")    # Cy
    assert state.scores == (0, 3, 2)
    state = apply(apply(state, TakeColumn("green-thin-1")), CRASH)  # Ann topples
    assert state.scores == (-5, 3, 2) and state.round == 2 and whose_move(state) == 0


def test_tournament_challenge_succeeds_the_challenger_scores_and_play_goes_on():
    state = position(game(FamilyMode.FREESTYLE, Scoring.TOURNAMENT), top=2, red_thin_1=2)
    state = apply(state, ProposeFloor())  # Ann claims no column can be moved
    assert state.turn.step is Step.ASK and state.turn.role is Role.FAMILY_CHALLENGE
    state = apply(state, Decline())
    state = apply(state, Object())  # Cy challenges
    assert whose_move(state) == 2
    state = build(state, "yellow-thick")
    assert state.scores == (0, 0, 3) and state.top_level == 2  # no platform
    assert whose_move(state) == 1


def test_tournament_challenge_collapse_costs_five_and_the_challenger_begins():
    state = position(game(FamilyMode.FREESTYLE, Scoring.TOURNAMENT), top=2, red_thin_1=2)
    state = apply(apply(state, ProposeFloor()), Object())  # Bo challenges
    state = apply(apply(state, TakeColumn("yellow-thick")), CRASH)
    assert state.scores == (0, -5, 0) and state.round == 2 and whose_move(state) == 1


def test_no_platform_left_means_a_column_must_move():
    state = position(game(FamilyMode.FREESTYLE), top=5, red_thin_1=5, red_thin_2=5, red_thin_3=5)
    assert ProposeFloor() not in legal_actions(state)


def test_tournament_most_points_win():
    state = game(FamilyMode.FREESTYLE, Scoring.TOURNAMENT, rounds=1)
    state = position(state, top=2)
    state = build(state, "blue-thick")
    state = apply(state, CRASH)  # Bo topples: -5
    assert state.result.winner == 0 and state.scores == (3, -5, 0)


def test_a_round_in_which_nobody_moves_anything_ends():
    state = game(FamilyMode.FREESTYLE, rounds=2)
    state = position(state, top=2, **{c.replace("-", "_"): 2 for c in state.levels})
    for _ in range(3):  # every player claims, lays nothing and has nothing to move
        assert state.round == 1
        state = apply(apply(state, ProposeFloor()), GiveUpFloor())
    assert state.round == 2 and state.scores == (0, 0, 0) and state.top_level == 1


def test_random_unlucky_rolls_do_not_end_the_round():
    """003: "Play until the tower collapses." Passes forced by the seal do not stall the round: it
    stalls only when no colour the seal can show could move any column."""
    state = game(FamilyMode.RANDOM, rounds=2, players=("Ann", "Bo"))
    state = position(state, top=5, **{c.replace("-", "_"): 5 for c in state.levels})
    state = position(state, red_thin_1=4)  # the one column left below the top floor
    for colour in (BLUE, GREEN, YELLOW, BLUE):
        state = apply(state, SealRoll(colour))
        assert legal_actions(state) == [Pass()]
        state = apply(state, Pass())
        assert state.round == 1 and state.turn.step is Step.FAMILY_ROLL
    state = apply(state, SealRoll(RED))
    state = build(state, "red-thin-1")
    assert state.round == 2 and state.top_level == 1  # now nothing could move: a fresh villa


def test_random_an_end_face_frees_the_last_column_too():
    state = game(FamilyMode.RANDOM, rounds=1, players=("Ann", "Bo"))
    state = position(state, top=5, **{c.replace("-", "_"): 5 for c in state.levels})
    state = position(state, red_thin_1=4)
    state = apply(apply(state, SealRoll(GREEN)), Pass())
    state = apply(state, SealRoll(None))
    assert legal_actions(state) == [TakeColumn("red-thin-1")]


def test_random_a_round_still_stalls_when_no_colour_could_move_anything():
    state = game(FamilyMode.RANDOM, rounds=2, players=("Ann", "Bo"))
    state = position(state, top=2, **{c.replace("-", "_"): 2 for c in state.levels})
    for colour in (BLUE, RED):  # only the platform is left, and each gives it up
        assert state.round == 1
        state = apply(state, SealRoll(colour))
        state = apply(apply(state, ProposeFloor()), GiveUpFloor())
    assert state.round == 2


def test_tournament_toppling_before_the_green_platform_costs_nothing():
    """003: "points are only earned once the second platform (the green platform) is placed. Once the
    green platform is in place, assign points as follows: ... Toppling the tower -5 Points\""""
    state = game(FamilyMode.FREESTYLE, Scoring.TOURNAMENT)
    state = build(state, "red-thick")                           # Ann, on the blue platform: no points
    state = apply(apply(state, TakeColumn("blue-hex")), CRASH)  # Bo topples it
    assert state.scores == (0, 0, 0) and state.round == 2 and whose_move(state) == 1
    # the green platform laid in the same turn: the column set on it scores, a collapse costs 5
    state = position(state, red_thin_1=1)
    state = apply(apply(apply(state, ProposeFloor()), Decline()), Decline())  # nobody challenges Bo
    state = apply(state, FloorLaid(2, frozenset({"red-thin-1"})))
    state = build(state, "blue-thick")
    assert state.scores == (0, 3, 0)
    state = apply(apply(state, TakeColumn("green-hex")), CRASH)  # Cy
    assert state.scores == (0, 3, -5)


def test_tournament_a_challenge_toppled_before_the_green_platform_costs_nothing():
    state = position(game(FamilyMode.FREESTYLE, Scoring.TOURNAMENT), red_thin_1=1)
    state = apply(apply(state, ProposeFloor()), Object())  # Bo challenges Ann's claim on the blue platform
    state = apply(apply(state, TakeColumn("yellow-thick")), CRASH)
    assert state.scores == (0, 0, 0) and state.round == 2 and whose_move(state) == 1
