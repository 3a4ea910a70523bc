"""Every way a game can end writes saves that load back: a clumsy hand brings the villa down at each moment of
a turn, and every autosave of that game is taken up again and its replay played to the same end. One game
per ending here; `scripts/sweep_saves.py --endings` (and the slow test) goes through every rule set."""

from __future__ import annotations

import io

import pytest

from villa import rules
from villa.app import cli, headless, saves, sweep
from villa.app.keeping import Keeper
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match import record as records
from villa.match.computer import seat_computers
from villa.match.computer.clumsy import ClumsyHand, Ending

PUBLISHER = rules.PUBLISHER
# a fall ends the first round, and the next ends the game
FAMILY = {mode: rules.family(mode, rules.Scoring.BASIC, rounds=2) for mode in rules.FamilyMode}


def _game(ending: Ending, ruleset: rules.RuleSet, players: int = 2, seed: int = 1) -> MatchSetup:
    seats = tuple(Seat(f"Computer {i + 1}", Strength.EASY) for i in range(players))
    return MatchSetup(seats, layout_named("free corners", seed), ruleset, seed)


GAMES = [(ending, PUBLISHER, 3 if ending is Ending.CHALLENGE else 2) for ending in Ending] + \
        [(ending, FAMILY[mode], 2) for ending, mode in zip((Ending.PULLING, Ending.SETTING_DOWN, Ending.LAYING),
                                                             rules.FamilyMode)]


@pytest.mark.parametrize("ending, ruleset, players", GAMES,
                         ids=[f"{e.value.replace(' ', '-')}-{r.name}" for e, r, _ in GAMES])
def test_a_game_brought_down_at_any_moment_loads_back_from_every_save(ending, ruleset, players, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    counts = sweep.Counts()
    assert sweep.check(_game(ending, ruleset, players), 0, ending, counts) == []
    record = counts.last
    assert record.state.over and record.state.result.fell
    assert isinstance(record.state.log[-1], rules.Collapse) and ending.came(sweep.fell_from(record))
    assert counts.autosaves == record.turn and counts.replays == 1
    if ruleset.family:
        assert record.state.round == ruleset.rounds, "every round ended in a fall"


def test_a_villa_that_falls_as_its_floor_is_laid_leaves_a_replay_and_an_autosave_that_load(tmp_path,
                                                                                             monkeypatch):
    """The green floor let go and the villa fell: the floor lies in the heap, though never laid for the rules."""
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    match = Match(_game(Ending.LAYING, PUBLISHER))
    hand = ClumsyHand(match, Ending.LAYING)
    match.add_driver(hand)
    hand.lead(seat_computers(match, everyone=True))
    keeper = Keeper()
    keeper.follow(match)
    while not (match.over and match.turns[-1].actions == len(match.state.log)):
        match.frame()
    assert "floor-2" in match.turns[-1].villa["pieces"] and match.state.top_level == 1
    out = io.StringIO()   # what `--replay FILE --headless` and `--continue --headless` say
    assert headless.run(cli.parse(["--replay", str(keeper.replay_path), "--headless"]), out) == 0
    assert "reproduces the saved final state" in out.getvalue()
    assert headless.run(cli.parse(["--continue", "--headless"]), out) == 0
    assert f"continued at turn {match.turn} from {saves.autosave_path()}" in out.getvalue()
    assert "the game is over: Computer 1 brought the villa down" in out.getvalue()


def test_the_villa_falling_as_a_floor_is_laid_does_not_excuse_a_floor_too_many_elsewhere(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    counts = sweep.Counts()
    assert sweep.check(_game(Ending.PULLING, PUBLISHER), 0, Ending.PULLING, counts) == []
    document = records.to_document(counts.last, "replay")
    pieces = document["turns"][-1]["villa"]["pieces"]
    pieces["floor-2"] = [40.0, 40.0, 2.0, 1.0, 0.0, 0.0, 0.0]
    with pytest.raises(records.RecordError, match="has floors"):
        records.from_document(document)


@pytest.mark.slow
@pytest.mark.parametrize("game", list(sweep.ending_games()), ids=str)
def test_every_ending_under_every_rule_set_of_the_menu_loads_back(game, tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    assert sweep.check(game.setup(), 0, game.ending) == []
