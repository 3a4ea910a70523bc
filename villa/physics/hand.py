"""What every hand shares: a damped spring of capped force, what a held piece touches, and the villa's
hands at work."""

from __future__ import annotations

import math
import weakref

from panda3d.core import Vec3

NEWTON = 100.0   # kg·cm/s² in one newton (the villa's units are centimetres)


def spring_force(mass: float, velocity: Vec3, stretch: Vec3, k: float, cap: float, dt: float) -> Vec3:
    """The force of a critically damped spring of stiffness `k`, stretched by `stretch`, on a
    point of `mass` moving at `velocity`, capped at `cap` and held for `dt`.

    Worked out implicitly (from the velocity the point will have at the end of `dt`), so it
    stays steady over a whole 1/60 s, where a stiff spring on a light piece would overshoot
    and swing if worked out from the velocity now. The price: held still against a load, it
    pulls with only k / (1 + c·dt/m + k·dt²/m) per cm of stretch, never more than m/dt², so a
    held piece sags under its weight by at least g·dt² (2.7 mm at 1/60 s).
    """
    c = 2.0 * math.sqrt(k * mass)
    v_end = (velocity + stretch * (k * dt / mass)) / (1.0 + c * dt / mass + k * dt * dt / mass)
    force = (v_end - velocity) * (mass / dt)
    if force.length() > cap:
        force *= cap / force.length()
    return force


def touching(villa, piece: str, columns: bool = True) -> frozenset[str]:
    """The pieces (only the columns, if `columns`) the held `piece` touches now, by Bullet's contacts."""
    found = set()
    for contact in villa.world.contactTest(villa.body(piece)).getContacts():
        if contact.getManifoldPoint().getDistance() > 0.02:
            continue
        for node in (contact.getNode0(), contact.getNode1()):
            name = node.getName()
            if name != piece and (not columns or name in villa.columns):
                found.add(name)
    return frozenset(found)


class Hands:
    """The hands at work on the villa (a `Pull`, a `FloorLay`): each acts before Bullet's steps and looks
    after each check; the pieces they hold are the villa's `in_hand`, not anchored, watched for collapse
    nor counted for "settled"."""

    def __init__(self, villa) -> None:
        self.villa = weakref.proxy(villa)   # the villa holds its hands (see `CollapseWatch`)
        self._at_work: list = []

    @property
    def busy(self) -> bool:
        """Is a hand at work? Then the villa steps, whether or not its bodies sleep."""
        return bool(self._at_work)

    def take(self, hand, piece: str) -> None:
        """`hand` takes `piece`: what it carried is held by the rest, or falls."""
        self.villa.in_hand.add(piece)
        self.villa.anchors.let_go(piece)
        self.villa.anchors.reweigh()
        self._at_work.append(hand)

    def release(self, hand, piece: str | None = None) -> None:
        """`hand` stops acting, and lets go of `piece`."""
        if hand in self._at_work:
            self._at_work.remove(hand)
        self.villa.in_hand.discard(piece)

    def before_steps(self, seconds: float) -> None:
        for hand in list(self._at_work):
            hand.before_steps(seconds)

    def after_check(self) -> None:
        for hand in list(self._at_work):
            hand.after_check()
