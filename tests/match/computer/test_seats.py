"""Computer players seated at a match: they play whole turns through the match's own methods, the referee
refuses none of their actions, and a game taken up again goes on with the same computer players."""

from __future__ import annotations

from villa.match import Match, MatchSetup, Refused, Seat, Strength, layout_named
from villa.match import record as records
from villa.match.computer import seat_computers


def _play(match: Match, turns: int, frames: int = 60 * 60 * 4) -> None:
    goal = match.turn + turns
    for _ in range(frames):
        if match.turn >= goal or (match.over and match.turns[-1].actions == len(match.state.log)):
            return
        match.frame()
    raise AssertionError(f"the game stood still at turn {match.turn}: {match.state.turn}")


def test_computer_seats_choose_their_colours_and_play_without_a_refusal():
    setup = MatchSetup((Seat("Ann", Strength.EASY), Seat("Bo", Strength.MEDIUM), Seat("Cy", Strength.HARD)),
                       layout_named("colonnade"), seed=4)
    match = Match(setup)
    refused = []
    match.events.subscribe(Refused, refused.append)
    seat_computers(match)
    _play(match, 2)
    assert all(match.state.colours) and match.state.neutral is not None
    assert refused == [] and (match.turn >= 2 or match.over)


def test_a_game_taken_up_again_goes_on_with_the_same_computer_players():
    setup = MatchSetup((Seat("Anna"), Seat("Computer (hard)", Strength.HARD)), layout_named("rings"), seed=9)
    match = Match(setup)
    seat_computers(match, everyone=True)
    _play(match, 2)
    document = records.to_document(match.record)
    assert [s["computer"] for s in document["match"]["seats"]] == [None, "hard"]
    again = records.from_document(document)
    assert again.setup.seats == setup.seats
    taken_up = Match(again.setup, again)
    seats = seat_computers(taken_up)
    assert [s.player for s in seats] == [1] and seats[0].strength is Strength.HARD
    copy = Match(again.setup, again)
    seat_computers(copy, everyone=True)
    before = len(copy.state.log)
    _play(copy, 1)
    assert len(copy.state.log) > before
