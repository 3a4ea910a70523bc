"""The builder's hands under the mouse: press, hold, release.

A press (or the wheel down) lowers the carried floor, or sets the carried column down, and keeps
holding it; the pointer slides it, Q/E turn it, the wheel up lifts it clear. Releasing the button
lets go of it once it touches down. A quick click (a touchpad's tap) lays it as before, but
carefully: it is lowered and let go once it sits (a floor level for `SIT_SECONDS`, a column
standing); a floor that tips stays in the hands for the player to shift, lift or let go with the
next click. A piece held clear of everything is never let go by a release: it would fall.
"""

from __future__ import annotations

from typing import Callable

from villa.match import requests as rq
from villa.match.face import is_floor
from villa.physics.laying import Laying
from villa.physics.pulling import Grip

CLICK_SECONDS = 0.25   # a press let go sooner than this, without moving, is a click
LEVEL_DEG = 0.5        # a held floor leaning less than this sits level
SIT_SECONDS = 0.5      # a clicked floor touching its columns this long, still level, is let go


class Hands:
    """What the game screen's button and wheel do to a floor or column in the builder's hands; each
    returns the match's refusal or None. `request(make)` sends the request `make(seat)` for the seat asked now."""

    def __init__(self, match, clock: Callable[[], float],
                 request: Callable[[Callable[[int], rq.Request]], rq.Reply]) -> None:
        self.match, self.clock, self._request = match, clock, request
        self.pressed_at: float | None = None
        self.lowered_now = False    # this press lowered the piece (a click then lets go once it sits)
        self.lowering = False       # lowered and not lifted since: on its way down, or down
        self.let_go_once_down = False   # clicked: let go once it sits, unless it tips
        self.down_since: float | None = None

    def can_lower(self) -> bool:
        hand = self.match.hand
        if is_floor(hand):
            return hand.state == Laying.CARRYING or (hand.state == Laying.HELD and not self.lowering)
        return hand is not None and hand.state == Grip.CARRYING

    def press(self) -> Exception | None:
        """The button goes down: lower what is carried (a floor is held at its middle, under the pointer)."""
        self.pressed_at = self.clock()
        self.lowered_now = False
        if not self.can_lower():
            return None
        refusal = self.lower()
        self.lowered_now = refusal is None
        return refusal

    def release(self, moved: bool) -> Exception | None:
        """The button comes up: let go of what sits, unless the press was a click that lowered it."""
        pressed_at, self.pressed_at = self.pressed_at, None
        lowered, self.lowered_now = self.lowered_now, False
        if pressed_at is None:
            return None
        if lowered and not moved and self.clock() - pressed_at < CLICK_SECONDS:
            self.let_go_once_down = True   # a click: let go once it sits (`update`)
            return None
        self.let_go_once_down = False
        return self._ask(rq.LetGo) if self.down() else None

    def update(self) -> Exception | None:
        """Every frame: a clicked piece is let go once it sits; a floor that tips stays in the hands."""
        if not self.let_go_once_down or not self.down():
            self.down_since = None
            return None
        hand = self.match.hand
        if is_floor(hand):
            if hand.tilt_deg() >= LEVEL_DEG:
                self.let_go_once_down = False   # it tips: the player shifts it, or lets go with a click
                return None
            if self.down_since is None:
                self.down_since = self.clock()
            if self.clock() - self.down_since < SIT_SECONDS:
                return None
        self.let_go_once_down = False
        return self._ask(rq.LetGo)

    def wheel(self, notches: int) -> tuple[bool, Exception | None]:
        """Down lowers (and holds), up lifts clear: whether the wheel was used for it, and the refusal."""
        if notches < 0 and self.can_lower():
            self.let_go_once_down = False
            return True, self.lower()
        if notches > 0 and self.match.holding:
            return True, self.lift()
        return False, None

    def lower(self) -> Exception | None:
        lower = rq.Lower if is_floor(self.match.hand) else rq.SetDown
        refusal = self._ask(lambda seat: lower(seat, hold=True))
        self.lowering = refusal is None
        return refusal

    def lift(self) -> Exception | None:
        self.lowering = self.let_go_once_down = False
        return self._ask(rq.Lift)

    def down(self) -> bool:
        """Is the held piece down: a floor touching its columns, a column standing?"""
        hand = self.match.hand
        if not self.match.holding:
            return False
        return bool(hand.touching()) if is_floor(hand) else hand.state == Grip.HELD

    def _ask(self, make: Callable[[int], rq.Request]) -> Exception | None:
        return self._request(make).refusal

    def reset(self) -> None:
        """A new piece in hand (or none)."""
        self.pressed_at, self.lowered_now, self.lowering = None, False, False
        self.let_go_once_down, self.down_since = False, None
