"""The words and the turn flow against the rules engine: whole games of facts, every player count and rule set.

At every moment the commands offered must be exactly the legal actions, the columns the
mouse may take exactly the ones the rules accept, and the words must name who acts.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from villa import rules
from villa.online import protocol
from villa.online.protocol import Online, OnlineError
from villa.physics.refusals import PlacementError, Refusal
from villa.presentation import i18n
from villa.presentation import words as flow
from villa.rules import Task
from villa.rules import (Abort, ChooseColour, Collapse, ColumnPlaced, ColumnTakenOut, Decline, GameSetup, Object,
                         ProposeFloor, RULE_SETS, SealRoll, TakeColumn, apply, expected_facts, legal_actions, new_game)
from villa.rules.pieces import ALL_COLUMNS
from villa.rules.state import Role, Step

from tests.rules.helpers import four_players, position, turn_of


def check(state: rules.GameState) -> flow.Guidance:
    guide = flow.guidance(state)
    legal = legal_actions(state)
    offered = [a for c in guide.commands for a in c.actions]
    assert set(offered) == set(legal), (guide.task, guide.commands, legal)
    assert len(offered) == len(legal), "every legal action has exactly one command"
    assert len({c.name for c in guide.commands}) == len(guide.commands)
    if state.turn.step is Step.TAKE_OUT:
        assert set(guide.grabbable) == {f.column for f in expected_facts(state) if isinstance(f, ColumnTakenOut)}
    else:
        assert set(guide.grabbable) == {a.column for a in legal if isinstance(a, TakeColumn)}
    assert guide.actor == rules.whose_move(state)
    if guide.actor is not None:
        assert state.players[guide.actor] in guide.headline
    assert guide.asks == (state.turn.step is Step.ASK) == (guide.question is not None)
    assert (guide.task is Task.PLACE) == (state.turn.step is Step.IN_HAND)
    assert (guide.task is Task.OVER) == state.over
    assert len(guide.standings) == state.n
    assert [s.holds_seal for s in guide.standings] == [state.seal.holder == p for p in range(state.n)]
    if state.turn.step in (Step.START, Step.TAKE):
        for column in (c.id for c in ALL_COLUMNS):
            reason = flow.why_not(state, column)
            if column in guide.grabbable:
                assert reason is None
            else:
                assert reason, column
    return guide


def play(ruleset, players: int, seed: int, collapse_rate: float = 0.004) -> tuple[rules.GameState, set]:
    """A random game of facts, checking the guidance at every step; returns the end and the tasks seen."""
    rng = random.Random(seed)
    state = new_game(GameSetup(ruleset, tuple(f"Player{i}" for i in range(players))))
    seen: set = set()
    for _ in range(5000):
        guide = check(state)
        seen.add(guide.task)
        if state.over:
            return state, seen
        facts = expected_facts(state)
        calm = [f for f in facts if not isinstance(f, Collapse)]
        # The player acts through the commands offered (and the mouse), the villa through facts.
        options = [a for c in guide.commands for a in c.actions] + calm
        if not options or rng.random() < collapse_rate:
            options = [f for f in facts if isinstance(f, Collapse)]
        action = rng.choice(options)
        after = apply(state, action)
        words = flow.narrate(state, action, after)
        if state.turn.step is Step.TAKE_OUT or (state.turn.step is Step.IN_HAND and state.turn.role is Role.PROOF
                                                and not after.over):
            assert words, (state.turn, action)
        state = after
    raise AssertionError("the game does not end")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ruleset_name", sorted(RULE_SETS))
def test_the_guidance_always_matches_the_legal_actions(ruleset_name, players):
    tasks = set()
    for seed in range(6):
        end, seen = play(RULE_SETS[ruleset_name], players, seed * 31 + players)
        assert end.result is not None
        tasks |= seen
    assert Task.OVER in tasks
    if RULE_SETS[ruleset_name].family:
        assert not tasks & {Task.NEUTRAL, Task.ANSWER_OBJECTION, Task.ANSWER_CHALLENGE}
    if players == 3 and not RULE_SETS[ruleset_name].family:
        assert Task.NEUTRAL in tasks


def _three_players():
    """Seats get blue, red, green; yellow is neutral; seat 2 (Cleo) starts."""
    state = new_game(GameSetup(rules.PUBLISHER, ("Anna", "Ben", "Cleo")))
    state = apply(state, SealRoll(rules.Colour.BLUE))
    state = apply(state, ChooseColour(rules.Colour.RED))
    state = apply(state, ChooseColour(rules.Colour.GREEN))
    # three columns already up, so a floor could be proposed
    return replace(state, levels={**state.levels, "red-thin-1": 1, "blue-thin-1": 1, "green-thin-2": 1})


def test_three_players_start_with_a_neutral_column_then_their_own():
    state = _three_players()
    guide = flow.guidance(state)
    assert guide.task is Task.NEUTRAL and guide.colours == (rules.Colour.YELLOW,)
    assert "Cleo" in guide.headline and "neutral" in guide.headline
    assert {c.name for c in guide.commands} == {"build", "propose"}
    assert "neutral column must go up first" in flow.why_not(state, "green-thick")
    state = apply(state, TakeColumn("yellow-thin-1"))
    assert flow.guidance(state).command("abort") is not None
    state = apply(state, ColumnPlaced("yellow-thin-1", 1, True))
    guide = flow.guidance(state)
    assert guide.task is Task.OWN and guide.colours == (rules.Colour.GREEN,)


def test_a_neutral_abort_asks_the_others_to_challenge():
    state = apply(apply(_three_players(), TakeColumn("yellow-thin-1")), Abort())
    guide = flow.guidance(state)
    assert guide.task is Task.ANSWER_CHALLENGE and guide.asks
    assert guide.actor == 0 and {c.name for c in guide.commands} == {"challenge", "decline"}
    after = apply(state, Decline())
    assert flow.guidance(after).actor == 1
    after2 = apply(after, Decline())
    assert "Cleo moves one of their own" in flow.narrate(after, Decline(), after2)
    assert flow.guidance(after2).task is Task.OWN


def test_an_objection_asks_in_turn_then_the_proof_then_the_take_out_explained():
    state = apply(_three_players(), ProposeFloor())
    guide = flow.guidance(state)
    assert guide.task is Task.ANSWER_OBJECTION and guide.actor == 0 and "Cleo" in guide.question
    assert [c.label for c in guide.commands] == ["Object (Y)", "No objection (N)"]
    objecting = apply(state, Object())
    assert "Anna objects" in flow.narrate(state, Object(), objecting)
    guide = flow.guidance(objecting)
    assert guide.task is Task.PROOF and guide.colours == (rules.Colour.GREEN,) and "Anna" in guide.headline
    # the proof fails: Cleo takes one of Anna's columns out of the game
    holding = apply(objecting, TakeColumn("green-thin-1"))
    failed = apply(holding, Abort())
    assert "objection fails" in flow.narrate(holding, Abort(), failed)
    guide = flow.guidance(failed)
    assert guide.task is Task.TAKE_OUT and guide.actor == 2
    assert set(guide.grabbable) == {c.id for c in ALL_COLUMNS if c.colour is rules.Colour.BLUE}
    assert "Anna" in flow.why_not(failed, "red-thick")
    out = apply(failed, ColumnTakenOut("blue-hex"))
    words = flow.narrate(failed, ColumnTakenOut("blue-hex"), out)
    assert words.startswith("The blue hexagonal column leaves the game") and "Anna" in words
    assert flow.guidance(out).task is Task.LAY_FLOOR
    assert "blue-hex" in flow.guidance(out).out


def test_a_window_waiting_on_a_question_says_what_is_decided_and_otherwise_who_it_waits_for():
    """Online, the person the game waits for at another screen: deciding a question, or just acting."""
    proposed = apply(_three_players(), ProposeFloor())
    assert flow.waiting_for(proposed, 0) == "Anna decides whether to object"
    challenged = apply(apply(_three_players(), TakeColumn("yellow-thin-1")), Abort())
    assert flow.waiting_for(challenged, 0) == "Anna decides whether to challenge the neutral column given up"
    assert flow.waiting_for(_three_players(), 2) == "Waiting for Cleo"
    i18n.install("de")
    try:
        assert flow.waiting_for(proposed, 0) == "Anna entscheidet, ob Einspruch erhoben wird"
    finally:
        i18n.install("en")


def test_a_successful_proof_removes_the_column_and_ends_the_turn():
    objecting = apply(apply(_three_players(), ProposeFloor()), Object())
    holding = apply(objecting, TakeColumn("green-hex"))
    placed = ColumnPlaced("green-hex", 1, True)
    after = apply(holding, placed)
    words = flow.narrate(holding, placed, after)
    assert "objection succeeds" in words and "The green hexagonal column leaves the game" in words
    assert after.turn.player == 0


def test_two_players_build_with_either_colour():
    state = new_game(GameSetup(rules.PUBLISHER, ("Anna", "Ben")))
    state = apply(state, rules.AssignColoursAtRandom(3))
    guide = flow.guidance(state)
    assert len(guide.colours) == 2 and set(guide.colours) == set(state.colours[guide.actor])


def test_the_family_random_mode_rolls_the_seal_each_turn_and_shows_rounds_and_totals():
    state = new_game(GameSetup(RULE_SETS["family-random-tournament"], ("Anna", "Ben")))
    guide = flow.guidance(state)
    assert guide.task is Task.SEAL_ROLL and guide.command("roll") is not None
    assert guide.rounds == "round 1 of 3" and guide.seal == ""
    state = apply(state, SealRoll(rules.Colour.RED))
    guide = flow.guidance(state)
    assert guide.task is Task.BUILD and guide.colours == (rules.Colour.RED,)
    assert "the seal asks for a red column" in flow.why_not(state, "blue-thick")


def test_while_the_column_is_drawn_out_the_status_says_so():
    state = _three_players()
    column = next(iter(rules.takeable_columns(state)))
    taken = apply(state, TakeColumn(column))
    said = flow.pulling_headline(taken)
    assert said.startswith(flow.player_name(taken, taken.turn.actor) + ": draw " + flow.column_words(column))
    assert "Space" in said and "(Esc)" in said


def test_the_seal_line_promises_the_green_floor_only_below_it():
    higher = {"blue-thin-1": 0, "red-thin-1": 0, "yellow-thin-1": 0, "blue-hex": 1, "red-hex": 1, "yellow-hex": 1,
              "green-hex": 2}
    floors = {1: ["blue-thin-1", "red-thin-1", "yellow-thin-1"], 2: ["blue-hex", "red-hex", "yellow-hex"]}
    state = apply(four_players(), rules.SetUpHigher.of(higher, floors))
    assert state.top_level == 2 and state.seal.holder is None
    assert flow.seal_words(state) == "Master Builder Seal: nobody yet"
    assert "green floor" in flow.seal_words(four_players())


def test_the_seal_and_the_end_in_words():
    state = _three_players()
    assert "nobody yet" in flow.guidance(state).seal
    over = apply(state, Collapse(1.0, rules.CollapseCause.COLUMN_TOPPLED, "floor-1"))
    title, reason = flow.result_words(over)
    assert title == "No Master Builder" and "Cleo brought the villa down before anyone held" in reason
    assert flow.guidance(over).task is Task.OVER and flow.guidance(over).commands == ()


def test_a_floor_claimed_in_vain_is_worded_as_given_up_not_as_laid():
    """004: a floor that cannot cover three columns must be given up; the headline says so."""
    state = turn_of(position(four_players(rules.PUBLISHER), top=2, blue_thin_1=2, red_thin_1=2), 1)
    state = rules.apply(state, rules.ProposeFloor())
    while state.turn.step is Step.ASK:
        state = rules.apply(state, Decline())
    guidance = check(state)
    assert guidance.task is Task.LAY_FLOOR and "too few columns" in guidance.headline
    assert "lay the" not in guidance.headline


def test_every_refusal_of_the_referee_the_wood_and_the_server_has_its_sentence_in_one_table():
    assert set(flow.REFUSALS) == set(rules.Rule) | set(Refusal) | set(Online)
    assert all(flow.Said.ALOUD in sentences for sentences in flow.REFUSALS.values())


def test_a_refusal_is_worded_from_its_code_and_its_details():
    state = apply(four_players(), TakeColumn("green-thin-1"))
    try:
        apply(state, ColumnPlaced("green-thin-1", 1, False))
    except rules.RuleError as error:
        assert error.code is rules.Rule.REGULATION_3
        assert flow.refusal(error, state) == \
            "No column may overhang the edge of the floor it stands on (regulation 3)."
    error = rules.Rule.OUT_OF_GAME.refuse(column="blue-hex")
    assert flow.refusal(error, state) == "The blue hexagonal column is out of the game."
    assert flow.refusal(error, state, flow.Said.TOOLTIP) == "it is out of the game"
    moved = rules.Rule.REGULATION_6.refuse(column="blue-hex", chosen="red-thick")   # no tooltip sentence of its own
    assert flow.refusal(moved, state, flow.Said.TOOLTIP) == \
        "Only the chosen column (the red thick column) may be moved (regulation 6)."


def test_a_refusal_of_the_online_server_is_worded_by_its_code_in_every_language():
    """What the server refused (a seat not one's own, a wrong room code) comes as a code, worded here."""
    refusal = protocol.refusal_from(*protocol.refusal_parts(OnlineError(Online.NOT_YOUR_SEAT, seat=1)))
    assert flow.refusal(refusal) == "That is another player's seat."
    try:
        for language, words in (("de", "Platz"), ("fr", "place"), ("nl", "plaats")):
            i18n.install(language)
            assert words in flow.refusal(refusal)
    finally:
        i18n.install("en")


def test_the_tooltip_after_the_neutral_column_asks_for_an_own_one():
    state = apply(_three_players(), TakeColumn("yellow-thin-1"))
    state = apply(state, ColumnPlaced("yellow-thin-1", 1, True))
    assert rules.task(state) is Task.OWN
    assert flow.why_not(state, "red-thick") == "after the neutral column comes one of your own"
    assert flow.why_not(turn_of(four_players(), 0), "red-thin-1") == "it is not one of your columns"


def test_every_refusal_of_the_wood_is_worded_by_its_code_in_every_language():
    """No English sentence of the physics reaches the screen: each refusal code has its own words."""
    error = PlacementError(Refusal.NOT_IN_VILLA, column="red-hex")
    english = flow.refusal(error)
    assert "red" in english and "not in the villa" in english
    try:
        i18n.install("de")
        german = flow.refusal(error)
        assert "nicht in der Villa" in german
        assert flow.refusal(PlacementError(Refusal.FLOOR_ALREADY_LAID, level=3, colour="yellow")) \
            == "Die Etage (Gelb) liegt schon."
    finally:
        i18n.install("en")


# --- online: how a connection ended, and a window cut off from its game --------------------------------------

def test_every_way_a_connection_ends_has_its_own_sentence_and_only_a_broken_message_is_called_unreadable():
    from villa.online.wire.codec import WireError
    said = {
        "hung up": flow.connection_ended(OnlineError(Online.HUNG_UP)),
        "reset": flow.connection_ended(OnlineError(Online.RESET, why="reset")),
        "stopped": flow.connection_ended(OnlineError(Online.CLOSING)),
        "host left": flow.connection_ended(OnlineError(Online.HOST_LEFT, host="Anna")),
        "host at the menus": flow.connection_ended(OnlineError(Online.HOST_LEFT, host="Anna", menu=True)),
        "silent": flow.connection_ended(OnlineError(Online.SILENT)),
        "version": flow.connection_ended(OnlineError(Online.VERSION, game="0.2.0", protocol=1)),
        "broken": flow.connection_ended(WireError("a frame that breaks the wire's form")),
    }
    assert said["host left"] == "Anna's window, which hosted this game, has closed."
    assert said["host at the menus"] == "Anna went back to the menus, and the game stopped with it."
    assert said["hung up"] == "The server closed the connection without a word."
    assert said["reset"].startswith("The connection to the server was reset")
    assert said["version"].startswith("The server plays another version of the game (0.2.0)")
    assert len(set(said.values())) == len(said), "each its own"
    assert [k for k, v in said.items() if "cannot read" in v] == ["broken"]


def test_a_window_cut_off_from_its_game_says_why_whose_window_and_when_it_tries_again():
    from villa.online.client.seats_now import CutOff
    cut = CutOff(OnlineError(Online.HUNG_UP), "Anna", False, 7.2)
    assert flow.cut_off(cut).startswith("Anna's window, which hosted this game, has closed.")
    assert flow.cut_off_headline(cut) == "Cut off from Anna's window: trying again in 8 s"
    asleep = CutOff(OnlineError(Online.SILENT), "Anna", False, 0.0)
    assert flow.cut_off(asleep).startswith("Anna's window, which hosts this game, has stopped answering")
    assert flow.cut_off_headline(asleep) == "Cut off from Anna's window: trying now …"
    fleet = CutOff(OnlineError(Online.RESET), "", True, 0.5)
    assert flow.cut_off(fleet) == "The game's server is gone: looking for the game on the fleet's other servers …"
    assert flow.cut_off_headline(fleet) == "Cut off from the game server: trying now …"
    lone = [flow.cut_off(CutOff(OnlineError(code), "", False, 1.0))
            for code in (Online.CLOSING, Online.SILENT, Online.HUNG_UP, Online.RESET)]
    assert len(set(lone)) == 4 and all("another" not in s and "cannot read" not in s for s in lone)
    assert flow.back_in_game(False) == "Back in the game."


def test_waiting_for_a_player_who_left_says_how_long_the_seat_is_kept_and_who_may_give_it():
    from villa.online.client.seats_now import Away
    state = new_game(GameSetup(rules.PUBLISHER, ("Anna", "Ben")))
    assert flow.waiting_for(state, 1, Away(540.0, False)) == (
        "Waiting for Ben to come back: the room keeps the seat 9 min more, or until the host gives it to a computer "
        "player")
    assert flow.waiting_for(state, 1, Away(42.3, False), hosting=True) == (
        "Waiting for Ben to come back: the room keeps the seat 43 s more, or until you give it to a computer player")
    assert flow.waiting_for(state, 1, Away(500.0, True)) == (
        "Ben has left the game for good: the host may give the seat to a computer player")
    assert flow.waiting_for(state, 1, True) == "Waiting for Ben to come back"
    assert flow.waiting_for(state, 1) == "Waiting for Ben"
