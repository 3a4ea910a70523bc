"""How the game in play carries out a seat's request (`villa.match.requests`): the hand's moves on the wooden
villa (take, aim, steady, turn, set down, lay, lower, lift, let go, give up) and the choices the referee decides
at once (propose, answer, forgo, pass, a colour, the seal's roll). `Match.request` has checked that the rules ask
the seat; each handler answers with the refusal (a `RuleError` or a `PlacementError`) or None."""

from __future__ import annotations

from collections.abc import Callable

from panda3d.core import Point3

from villa import rules
from villa.match import events as ev
from villa.match import requests as rq
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull
from villa.physics.refusals import PlacementError, Refusal

Refer = Callable[[object], Exception | None]    # an action or fact to the referee: its refusal, or None


class CarryingOut:
    """`refer`: the match's way to the referee (the verdict becomes its state, and the news goes out). The match
    calls a request's handler from `HANDLERS`."""

    def __init__(self, match, refer: Refer) -> None:
        self.match, self.refer = match, refer
        self.touched = False     # the held piece has touched down since it was last lowered

    def _not_now(self, what: str) -> rules.RuleError:
        return rq.not_now(self.match.state, what)

    def take(self, request: rq.Take) -> Exception | None:
        """Take hold of a column (at a world point on it): for a build, a proof or a challenge the referee is
        told it is chosen; at a failed objection's penalty it is the column to pull out of the game."""
        match, column = self.match, request.column
        if match.hand is not None or match.collapsed or match.over:
            return self._not_now("taking a column")
        if column not in match.villa.nodes:
            return PlacementError(Refusal.NOT_IN_VILLA, column=column)
        if rules.task(match.state) is rules.Task.TAKE_OUT:
            refusal = rules.why_not_grabbable(match.state, column)
        else:
            refusal = self.refer(rules.TakeColumn(column))
        if refusal is not None:
            return refusal
        point = None if request.point is None else Point3(*request.point)
        match.hand = match.villa.grab(column, point, request.steady)
        return None

    def aim(self, request: rq.Aim) -> Exception | None:
        """The piece in hand moves toward the point (a pulled column's grabbed point, a carried column's spot,
        a floor's middle)."""
        if self.match.hand is None:
            return self._not_now("aiming")
        self.match.hand.aim(Point3(*request.point))
        return None

    def steady(self, request: rq.Steady) -> Exception | None:
        if not isinstance(self.match.hand, Pull):
            return self._not_now("steadying")
        self.match.hand.steady = request.on
        return None

    def turn_floor(self, request: rq.TurnFloor) -> Exception | None:
        if not isinstance(self.match.hand, FloorLay):
            return self._not_now("turning a floor")
        self.match.hand.turn(request.degrees)
        return None

    def set_down(self, request: rq.SetDown) -> Exception | None:
        """Set the carried column down straight below it, if the referee would accept it there; held, the hand
        keeps it upright once it touches down, until let go (or lifted)."""
        pull = self.match.hand
        if not isinstance(pull, Pull) or pull.state != Grip.CARRYING:
            return PlacementError(Refusal.NOT_FREE_TO_SET_DOWN)
        refusal = self.match.landing_refusal()
        if refusal is None:
            try:
                pull.place(hold=request.hold)
                self.touched = False
            except PlacementError as error:
                refusal = error
        return refusal

    def give_up(self, _request: rq.GiveUp) -> Exception | None:
        """Give up what is in hand: the column goes back (blocked for the rest of the game), the floor goes back
        in the box; a penalty pull goes back and another of the objector's may be tried. With nothing in hand,
        what the rules say giving up means now (a floor granted, a build no hand holds any more)."""
        match = self.match
        hand = match.hand
        if isinstance(hand, FloorLay):
            refusal = self.refer(rules.GiveUpFloor())
            if refusal is None:
                hand.cancel()
                match.hand = None
            return refusal
        if isinstance(hand, Pull) and hand.state in (Grip.PULLING, Grip.CARRYING, Grip.HELD):
            if rules.task(match.state) is not rules.Task.TAKE_OUT:
                refusal = self.refer(rules.Abort())
                if refusal is not None:
                    return refusal
            hand.abort()
            match.hand = None
            return None
        giving_up = rules.giving_up(match.state) if hand is None and not match.collapsed else None
        if giving_up is not None:
            return self.refer(giving_up)
        return self._not_now("giving up")

    def lay_floor(self, _request: rq.LayFloor) -> Exception | None:
        """Bring the next floor over the top columns, to be carried, turned and lowered."""
        match = self.match
        if match.hand is not None or match.collapsed or not match.can_lay_floor():
            return self._not_now("laying a floor")
        try:
            match.hand = match.villa.lay_floor()
        except PlacementError as error:
            return error
        return None

    def lower(self, request: rq.Lower) -> Exception | None:
        """Lower the carried floor onto the columns beneath it and let go on touching them; held, the hands
        keep it (at the world point `grip` on it; its middle if None) until let go. A held floor lifted clear
        is lowered again, held."""
        lay = self.match.hand
        if not isinstance(lay, FloorLay) or lay.state not in (Laying.CARRYING, Laying.HELD):
            return self._not_now("lowering a floor")
        try:
            lay.lower(hold=request.hold, grip=None if request.grip is None else Point3(*request.grip))
        except PlacementError as error:
            return error
        self.touched = False
        return None

    def lift(self, _request: rq.Lift) -> Exception | None:
        """Lift the held floor or column clear again: it is carried, to be moved and lowered elsewhere."""
        if not self.match.holding:
            return self._not_now("lifting")
        self.match.hand.lift()
        return None

    def let_go(self, _request: rq.LetGo) -> Exception | None:
        """Let go of the held floor or column: it counts as laid or placed once the villa settles."""
        match = self.match
        hand = match.hand
        if not match.holding:
            return self._not_now("letting go")
        hand.let_go()
        match.events.emit(ev.LetGo(hand.piece if isinstance(hand, FloorLay) else hand.column))
        return None

    def roll(self, _request: rq.Roll) -> Exception | None:
        """Roll the seal: what `next_roll()` says it shows, applied."""
        roll = self.match.next_roll()
        if roll is None or self.match.busy:
            return self._not_now("rolling the seal")
        return self.refer(roll)

    def choose(self, request) -> Exception | None:
        """A choice the referee decides at once: propose, answer, forgo, pass, a colour."""
        action = rq.rules_action(self.match.state, request)
        if action is None:
            return self._not_now(type(request).__name__)
        return self.refer(action)


HANDLERS: dict[type, Callable] = {    # each request's handler, a method of `CarryingOut`
    rq.Take: CarryingOut.take, rq.Aim: CarryingOut.aim, rq.Steady: CarryingOut.steady,
    rq.TurnFloor: CarryingOut.turn_floor, rq.SetDown: CarryingOut.set_down, rq.LayFloor: CarryingOut.lay_floor,
    rq.Lower: CarryingOut.lower, rq.Lift: CarryingOut.lift, rq.LetGo: CarryingOut.let_go,
    rq.GiveUp: CarryingOut.give_up, rq.Roll: CarryingOut.roll, rq.Propose: CarryingOut.choose,
    rq.Answer: CarryingOut.choose, rq.Forgo: CarryingOut.choose, rq.Pass: CarryingOut.choose,
    rq.ChooseColour: CarryingOut.choose,
}
