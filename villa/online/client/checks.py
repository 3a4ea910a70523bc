"""What a window checks of a seat's request before it goes to the server, as the hot seat's match checks it (so a
refusal is said at once, in the same words), and what the window draws at once when it goes: the piece in hand,
ahead of the server's word on it. The server's match decides; a request it refuses comes back as a refusal.

    refusal = checks.refusal(match, request)     # None: it may go
    checks.sent(match, request)                  # it went: the hand as this window now draws it
"""

from __future__ import annotations

from collections.abc import Callable

from panda3d.core import Point3

from villa import rules
from villa.match import requests as rq
from villa.online.client.hands import HeldColumn, HeldFloor, standing_on
from villa.physics.laying import Laying
from villa.physics.pulling import Grip
from villa.physics.refusals import PlacementError, Refusal


def refusal(match, request: rq.Request) -> Exception | None:
    """Why the window refuses the request now, as the match would (None: it may be sent)."""
    return _CHECKS[type(request)](match, request)


def sent(match, request: rq.Request) -> None:
    """The request went to the server: what the window draws of the hand from now on."""
    after = _AFTER.get(type(request))
    if after is not None:
        after(match, request)


def verdict(state: rules.GameState, action) -> Exception | None:
    """The referee's verdict on an action, without taking it."""
    try:
        rules.apply(state, action)
    except rules.RuleError as refused:
        return refused
    return None


# --- the checks ---

def _take(match, request: rq.Take) -> Exception | None:
    if request.column not in match.villa.nodes:
        return PlacementError(Refusal.NOT_IN_VILLA, column=request.column)
    if match.hand is not None or match.collapsed:
        return rq.not_now(match.state, "taking a column")
    if rules.task(match.state) is rules.Task.TAKE_OUT:
        return rules.why_not_grabbable(match.state, request.column)
    return verdict(match.state, rules.TakeColumn(request.column))


def _in_hand(match, _request) -> Exception | None:
    return rq.not_now(match.state, "moving the hand") if match.hand is None else None


def _column(match, _request) -> Exception | None:
    return rq.not_now(match.state, "steadying") if not isinstance(match.hand, HeldColumn) else None


def _floor(match, _request) -> Exception | None:
    return rq.not_now(match.state, "turning a floor") if not isinstance(match.hand, HeldFloor) else None


def _set_down(match, _request: rq.SetDown) -> Exception | None:
    if not isinstance(match.hand, HeldColumn) or match.hand.state != Grip.CARRYING:
        return PlacementError(Refusal.NOT_FREE_TO_SET_DOWN)
    return match.landing_refusal()


def _lay(match, _request: rq.LayFloor) -> Exception | None:
    if match.hand is not None or match.collapsed or not match.can_lay_floor():
        return rq.not_now(match.state, "laying a floor")
    return None


def _lower(match, _request: rq.Lower) -> Exception | None:
    lay = match.hand
    if not isinstance(lay, HeldFloor) or lay.state not in (Laying.CARRYING, Laying.HELD):
        return rq.not_now(match.state, "lowering a floor")
    if lay.state == Laying.CARRYING and not lay.columns_under():
        return PlacementError(Refusal.NO_COLUMN_UNDER, level=lay.level)    # the server's own check, here at once
    return None


def _holding(match, _request) -> Exception | None:
    return None if match.holding else rq.not_now(match.state, "holding")


def _give_up(match, _request: rq.GiveUp) -> Exception | None:
    """What is in hand may always be given up; with nothing in hand, what the rules say giving up means now."""
    if match.hand is not None or (rules.giving_up(match.state) is not None and not match.collapsed):
        return None
    return rq.not_now(match.state, "giving up")


def _roll(match, _request: rq.Roll) -> Exception | None:
    return rq.not_now(match.state, "rolling the seal") if match.next_roll() is None or match.busy else None


def _choice(match, request) -> Exception | None:
    action = rq.rules_action(match.state, request)
    return rq.not_now(match.state, type(request).__name__) if action is None else verdict(match.state, action)


_CHECKS: dict[type, Callable] = {
    rq.Take: _take, rq.Aim: _in_hand, rq.Steady: _column, rq.TurnFloor: _floor, rq.SetDown: _set_down,
    rq.LayFloor: _lay, rq.Lower: _lower, rq.Lift: _holding, rq.LetGo: _holding, rq.GiveUp: _give_up,
    rq.Roll: _roll, rq.Propose: _choice, rq.Answer: _choice, rq.Forgo: _choice, rq.Pass: _choice,
    rq.ChooseColour: _choice,
}


# --- what the window draws at once ---

def _took(match, request: rq.Take) -> None:
    node = match.villa.nodes[request.column]
    point = Point3(*request.point) if request.point is not None else node.getPos()
    match.hand = HeldColumn(match.villa, request.seat, request.column, point, standing_on(match.villa, request.column),
                            taking_out=rules.task(match.state) is rules.Task.TAKE_OUT)


def _setting_down(match, _request: rq.SetDown) -> None:
    match.hand.state = Grip.LOWERING


def _laid(match, request: rq.LayFloor) -> None:
    match.hand = HeldFloor(match.villa, request.seat, match.state.top_level + 1)


def _lowered(match, request: rq.Lower) -> None:
    """From now on the floor is drawn where the server has it: sitting, or tipping in the hands."""
    if match.hand.state == Laying.CARRYING:
        match.hand.state, match.hand.confirmed = (Laying.HELD if request.hold else Laying.LOWERING), False


def _lifted(match, _request: rq.Lift) -> None:
    if isinstance(match.hand, HeldColumn):
        match.hand.state = Grip.CARRYING


def _let_go(match, _request: rq.LetGo) -> None:
    match.hand.state = Grip.PLACED if isinstance(match.hand, HeldColumn) else Laying.LAID
    match.villa.in_hand = set()     # let go, as the hot seat's hands let go at once


def _gave_up(match, _request: rq.GiveUp) -> None:
    match.drop_hand()


_AFTER: dict[type, Callable] = {
    rq.Take: _took, rq.SetDown: _setting_down, rq.LayFloor: _laid, rq.Lower: _lowered, rq.Lift: _lifted,
    rq.LetGo: _let_go, rq.GiveUp: _gave_up,
}
