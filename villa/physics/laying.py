"""Laying the next floor: carry it over the top columns, turn it, lower it onto them.

The floor is carried kinematically, hovering `HOVER` above the highest column top, so it
cannot knock anything while it is moved and turned. `lower()` brings it down to just
above the columns beneath it and lets it go; once `villa.settled`, `result()` gives
FloorLaid with the columns it actually rests on.

`state` (a `Laying`): CARRYING "carrying" -> LOWERING "lowering" -> LAID "laid" (or
CANCELLED "cancelled", or DROPPED "dropped": the villa fell while it was in hand, and it falls too).
"""

from __future__ import annotations

import math
import weakref
from enum import StrEnum

from panda3d.core import Point3, Vec3

from villa.physics import geometry, survey
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOOR_THICKNESS, FLOORS, column_spec, surface_z
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.facts import FloorLaid
from villa.rules.pieces import floor_id

HOVER = 1.5          # cm between the carried floor's underside and the highest column top
MOVE_SPEED = 40.0    # cm/s across
TURN_SPEED = 180.0   # degrees/s
LOWER_SPEED = 3.0    # cm/s
LET_GO_GAP = 0.02    # cm: let go this far above the columns


class Laying(StrEnum):
    """Where the floor being laid is (`FloorLay.state`)."""

    CARRYING = "carrying"
    LOWERING = "lowering"
    LAID = "laid"
    CANCELLED = "cancelled"
    DROPPED = "dropped"


class FloorLay:
    def __init__(self, villa, level: int | None = None) -> None:
        level = villa.top_level + 1 if level is None else level
        if level not in FLOORS:
            raise PlacementError(Refusal.ALL_FLOORS_LAID)
        if floor_id(level) in villa.nodes:
            raise PlacementError(Refusal.FLOOR_ALREADY_LAID, level=level, colour=FLOORS[level].colour)
        if villa.collapse is not None:
            raise PlacementError(Refusal.COLLAPSED)
        # weak: the villa holds its hands while they act, and a villa dropped mid-move must be
        # freed by its reference count alone (whoever holds a hand holds its villa too)
        self.villa = weakref.proxy(villa)
        self.level = level
        self.piece = floor_id(level)
        self.below = level - 1
        tops = [villa.nodes[c].getZ() + COLUMN_HEIGHT / 2 for c in self._top_columns()]
        self.rest_z = max(tops, default=surface_z(self.below) + COLUMN_HEIGHT)
        x, y = self._centre_of_level()
        self.x, self.y, self.yaw = x, y, 0.0
        self.aim_x, self.aim_y, self.aim_yaw = x, y, 0.0
        self.z = self.rest_z + HOVER + FLOOR_THICKNESS / 2
        self.state = Laying.CARRYING
        self.np = villa.add_floor(level, Point3(x, y, self.z), 0.0)
        self.body = self.np.node()
        self.body.setKinematic(True)
        villa.hold(self.piece)
        villa.add_controller(self)

    def _top_columns(self) -> list[str]:
        return [c for c in self.villa.columns if c not in self.villa.in_hand
                and (s := survey.standing(self.villa, c)) is not None and s.level == self.below]

    def _centre_of_level(self) -> tuple[float, float]:
        if self.below == 0:
            return 0.0, 0.0
        p = self.villa.nodes[floor_id(self.below)].getPos()
        return p.x, p.y

    # --- the mouse ---

    def aim(self, point: Point3) -> None:
        """Carry the floor's centre toward this point (x and y count)."""
        if self.state == Laying.CARRYING:
            self.aim_x, self.aim_y = Point3(point).x, Point3(point).y

    def aim_ray(self, origin: Point3, direction: Vec3) -> None:
        """Aim where a mouse ray meets the plane the floor hovers in."""
        point = geometry.on_plane(origin, direction, self.z)
        if point is not None:
            self.aim(point)

    def turn(self, degrees: float) -> None:
        """Turn the floor by this many degrees (counter-clockwise seen from above)."""
        if self.state == Laying.CARRYING:
            self.aim_yaw += degrees

    # --- what it would rest on ---

    def columns_under(self) -> frozenset[str]:
        """The top columns whose tops lie under the floor's outline where it is now."""
        found = []
        for c in self._top_columns():
            p = self.villa.nodes[c].getPos()
            lx, ly = geometry.to_local(p.x, p.y, self.x, self.y, self.yaw)
            if geometry.signed_distance(FLOORS[self.level].outline, lx, ly) > -column_spec(c).radius:
                found.append(c)
        return frozenset(found)

    def preview(self) -> FloorLaid:
        """What lowering it here would report, if nothing moved: for the GUI's hints."""
        outline = geometry.transform(FLOORS[self.level].outline, self.x, self.y, self.yaw)
        inside = all(math.hypot(x, y) <= BASE.radius for x, y in outline)
        return FloorLaid(self.level, self.columns_under(), inside)

    # --- actions ---

    def lower(self) -> None:
        """Lower the floor onto the columns beneath it."""
        if self.state != Laying.CARRYING:
            return
        if not self.columns_under():
            raise PlacementError(Refusal.NO_COLUMN_UNDER, level=self.level)
        self.aim_x, self.aim_y, self.aim_yaw = self.x, self.y, self.yaw
        self.state = Laying.LOWERING

    def cancel(self) -> None:
        """Give up laying the floor: it goes back to the box."""
        if self.state in (Laying.CARRYING, Laying.LOWERING):
            self.villa.remove_controller(self)
            self.villa.remove(self.piece)
            self.state = Laying.CANCELLED

    def result(self) -> FloorLaid | None:
        """The fact, once the floor is down and the villa has settled; else None."""
        if self.state != Laying.LAID or not self.villa.settled:
            return None
        return survey.floor_laid(self.villa, self.level)

    # --- before each call to Bullet ---

    def before_steps(self, dt: float) -> None:
        """Move the floor on by `dt` seconds toward where it is aimed, or lower it."""
        if self.state == Laying.CARRYING:
            self.x = _approach(self.x, self.aim_x, MOVE_SPEED * dt)
            self.y = _approach(self.y, self.aim_y, MOVE_SPEED * dt)
            self.yaw = _approach(self.yaw, self.aim_yaw, TURN_SPEED * dt)
        elif self.state == Laying.LOWERING:
            tops = [self.villa.nodes[c].getZ() + COLUMN_HEIGHT / 2 for c in self.columns_under()]
            bottom = max(tops, default=self.rest_z) + LET_GO_GAP + FLOOR_THICKNESS / 2
            self.z = max(bottom, self.z - LOWER_SPEED * dt)
            if self.z <= bottom:
                self._let_go()
                return
        self.np.setPos(self.x, self.y, self.z)
        self.np.setH(self.yaw)

    def after_check(self) -> None:
        """A villa that falls while the floor is in hand takes it down too: no floor hangs in the air."""
        if self.villa.collapse is not None and self.state in (Laying.CARRYING, Laying.LOWERING):
            self.body.setKinematic(False)
            self.villa.remove_controller(self)
            self.villa.let_go(self.piece)
            self.villa.wake()
            self.state = Laying.DROPPED

    def _let_go(self) -> None:
        self.np.setPos(self.x, self.y, self.z)
        self.np.setH(self.yaw)
        self.body.setKinematic(False)
        self.body.setLinearVelocity(Vec3(0, 0, 0))
        self.body.setAngularVelocity(Vec3(0, 0, 0))
        self.villa.remove_controller(self)
        self.villa.let_go(self.piece)
        self.villa.wake()
        self.villa.watch.rest_floor(self.level)
        self.villa.anchors.anchor_all(at_rest=False)
        self.state = Laying.LAID


def _approach(value: float, goal: float, step: float) -> float:
    return goal if abs(goal - value) <= step else value + math.copysign(step, goal - value)
