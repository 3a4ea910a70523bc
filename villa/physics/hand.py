"""What every hand shares: a damped spring of capped force, and what a held piece touches."""

from __future__ import annotations

import math

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
