"""A question of the rules (object? challenge?) goes to the person asked: with two people at one mouse,
the panel asks to pass it over; with one person against computers, it is simply their question."""

import pytest

from villa import rules
from villa.match import requests as rq

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("people, over", [(2, "Pass the mouse to"), (1, "A question for")])
def test_a_proposal_asks_the_other_player_and_passes_the_mouse_only_between_people(game, frames, people, over):
    from villa.match import Strength
    screen = game(players=("Anna", "Ben"))
    match = screen.match
    proposer = match.actor
    if people == 1:
        match.change_seat(proposer, Strength.EASY)   # a computer's seat with no hand of its own: the test moves for it
    frames(3)
    assert rq.ask(match, rq.Propose).accepted
    frames(3)
    assert screen.mode == "Asking" and match.actor == 1 - proposer
    assert screen.panel.over.getText() == over
    assert screen.panel.title.getText() == ("Anna", "Ben")[1 - proposer]
