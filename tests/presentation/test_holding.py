"""The screen's hands without a window: what a press, a release, a click and the wheel do to a column
set down on the top floor (the floor's way in the window: test_holding_a_floor.py)."""

from __future__ import annotations

from villa.match import Match, MatchSetup, Seat, layout_named
from villa.presentation.holding import CLICK_SECONDS, Hands
from villa.rules.state import Step
from villa.match import requests as rq


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _frames(match, clock, count: int, until=lambda: False) -> None:
    for _ in range(count):
        if until():
            return
        match.frame()
        clock.now += 1 / 60


def _carried_over_the_blue_floor():
    """Free corners: a column of the player's that stands free, drawn out and carried over the blue floor."""
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("free corners", 1), seed=1,
                             deal_colours=True))
    clock = Clock()
    column = f"{match.state.colours[match.actor][0].value}-thin-3"
    assert rq.ask(match, lambda s: rq.Take(s, column)).accepted
    pull = match.hand
    _frames(match, clock, 600, lambda: pull.state == "carrying")
    floor = match.villa.nodes["floor-1"].getPos()
    rq.ask(match, lambda s: rq.Aim(s, tuple(floor)))
    node = match.villa.nodes[column]
    _frames(match, clock, 600, lambda: (node.getX() - floor.x) ** 2 + (node.getY() - floor.y) ** 2 < 0.01)
    return match, clock, Hands(match, clock, lambda make: rq.ask(match, make)), column


def test_a_column_pressed_down_is_held_and_released_it_is_placed():
    match, clock, hands, column = _carried_over_the_blue_floor()
    player = match.actor
    assert hands.press() is None
    _frames(match, clock, 600, lambda: match.holding)
    assert match.holding and match.state.turn.step is Step.IN_HAND, "held upright: not yet placed"
    assert hands.release(moved=False) is None   # held down longer than a click: let go
    _frames(match, clock, 600, lambda: match.actor != player)
    assert match.state.levels[column] == 1


def test_a_click_sets_the_column_down_and_lets_go_once_it_stands():
    match, clock, hands, column = _carried_over_the_blue_floor()
    player = match.actor
    assert hands.press() is None
    clock.now += CLICK_SECONDS / 3
    assert hands.release(moved=False) is None and match.hand.state == "lowering"
    for _ in range(600):
        if match.actor != player:
            break
        assert hands.update() is None
        _frames(match, clock, 1)
    assert match.state.levels[column] == 1


def test_the_wheel_down_sets_it_down_held_the_wheel_up_lifts_it_and_a_click_lets_go():
    match, clock, hands, column = _carried_over_the_blue_floor()
    assert hands.wheel(-1) == (True, None)
    _frames(match, clock, 600, lambda: match.holding)
    _frames(match, clock, 30)
    assert hands.update() is None and match.holding, "lowered with the wheel: held until let go"
    assert hands.wheel(+1) == (True, None) and not match.holding and match.hand.state == "carrying", "it is lifted"
    assert hands.wheel(+1) == (False, None), "nothing held: the wheel zooms"
    assert hands.wheel(-1) == (True, None)
    _frames(match, clock, 600, lambda: match.holding)
    assert match.holding
    hands.press()
    clock.now += CLICK_SECONDS / 3
    assert hands.release(moved=False) is None and not match.holding, "a click lets go"
