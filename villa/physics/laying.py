"""Laying the next floor: carry it over the top columns, turn it, lower it onto them.

The floor is carried kinematically, hovering `HOVER` above the highest column top, so it
cannot knock anything while it is moved and turned. `lower()` brings it down to just
above the columns beneath it and lets it go; once `villa.settled`, `result()` gives
FloorLaid with the columns it actually rests on.

`lower(hold=True)` lowers it in the builder's hands instead: from then on it is a body of
its own, held at a grip point by a damped spring of capped force (`HOLD_MAX_FORCE`, three
times the blue floor's weight) that bears no weight once the floor sits level on its
columns. Off balance it tips about its columns until the spring carries the rest, and
hangs there (`tilt_deg()`, `touching()`); `aim` slides it, `turn` turns it, `lift()` raises
it clear and `lower(hold=True)` lowers it again; `let_go()` lets go of it.

`state` (a `Laying`): CARRYING "carrying" -> LOWERING "lowering" -> LAID "laid", or
CARRYING -> HELD "held" (<-> lifted and lowered) -> LAID; or CANCELLED "cancelled"; or
DROPPED "dropped": the villa fell while the floor was in hand (carried, lowered or held), and it falls too.
"""

from __future__ import annotations

import math
import weakref
from enum import StrEnum

from panda3d.core import Point3, Vec3

from villa.physics import geometry, hand, survey
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOOR_THICKNESS, FLOORS, GRAVITY, column_spec, surface_z
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.facts import FloorLaid
from villa.rules.pieces import floor_id

HOVER = 1.5          # cm between the carried floor's underside and the highest column top
MOVE_SPEED = 40.0    # cm/s across
TURN_SPEED = 180.0   # degrees/s
LOWER_SPEED = 3.0    # cm/s
LET_GO_GAP = 0.02    # cm: let go this far above the columns
HOLD_STIFFNESS = 600.0   # kg/s²: the held floor's grip point 1 cm off its aim pulls with 6 N (less, held still: see `hand`)
HOLD_MAX_FORCE = 300.0   # kg·cm/s² = 3 N: bears any floor clear of the columns, not a villa knocked over
HOLD_SIT_SHARE = 0.1     # the hands stop lowering once they bear less than this share of the floor's weight
HOLD_DEPTH = 0.5         # cm below the lowest column top the hands would lower it, were it never to sit
HOLD_LIFT_SPEED = 3.0    # cm/s: lifted off the columns gently
HOLD_LEVEL_RATE = 10.0   # 1/s: a held floor clear of everything is kept level in the hands
HOLD_TIP_DEG = 1.0       # a floor tipping on the columns leans this far in the hands, no further:
                         # the hands' spring sags by the floor's weight over its implicit stiffness
                         # (at most its mass per step squared), and off balance it would droop
                         # far enough to push its columns over
HOLD_CATCH_RATE = 30.0   # 1/s: how fast the hands take back a lean past that
HOLD_STEADY_RATE = 10.0  # 1/s: the hands damp a held floor's tipping on the columns, never stop it
HOLD_TURN_RATE = 10.0    # 1/s: how fast a held floor is turned toward its aimed turn


class Laying(StrEnum):
    """Where the floor being laid is (`FloorLay.state`)."""

    CARRYING = "carrying"
    LOWERING = "lowering"
    HELD = "held"
    LAID = "laid"
    CANCELLED = "cancelled"
    DROPPED = "dropped"


class FloorLay:
    taken_up = False    # the hot seat's hands take every floor up themselves (online, one may be taken up again)

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
        self.rest_z = rest_height(villa, level)
        x, y = self._centre_of_level()
        self.x, self.y, self.yaw = x, y, 0.0
        self.aim_x, self.aim_y, self.aim_yaw = x, y, 0.0
        self.z = self.rest_z + HOVER + FLOOR_THICKNESS / 2
        self.state = Laying.CARRYING
        self._grip = Point3(0, 0, FLOOR_THICKNESS / 2)
        self._hand_z = self._goal_z = self.z + FLOOR_THICKNESS / 2
        self.strain = 0.0    # N: the hands' force on a held floor
        self.np = villa.add_floor(level, Point3(x, y, self.z), 0.0)
        self.body = self.np.node()
        self.body.setKinematic(True)
        villa.hands.take(self, self.piece)

    def _centre_of_level(self) -> tuple[float, float]:
        if self.below == 0:
            return 0.0, 0.0
        p = self.villa.nodes[floor_id(self.below)].getPos()
        return p.x, p.y

    # --- the mouse ---

    def aim(self, point: Point3) -> None:
        """Carry the floor's centre (held: its grip point) toward this point (x and y count)."""
        if self.state in (Laying.CARRYING, Laying.HELD):
            self.aim_x, self.aim_y = Point3(point).x, Point3(point).y

    def aim_ray(self, origin: Point3, direction: Vec3) -> None:
        """Aim where a mouse ray meets the plane the floor hovers in (held: the hand's height)."""
        point = geometry.on_plane(origin, direction, self._hand_z if self.state == Laying.HELD else self.z)
        if point is not None:
            self.aim(point)

    def turn(self, degrees: float) -> None:
        """Turn the floor by this many degrees (counter-clockwise seen from above)."""
        if self.state in (Laying.CARRYING, Laying.HELD):
            self.aim_yaw += degrees

    # --- held in the hands ---

    def tilt_deg(self) -> float:
        """How far the floor leans from level (degrees)."""
        return self.villa.tilt_deg(self.piece)

    def touching(self) -> frozenset[str]:
        """The columns the held floor touches now (none before it is held)."""
        return hand.touching(self.villa, self.piece) if self.state == Laying.HELD else frozenset()

    def high_side(self) -> tuple[float, float]:
        """The way (a unit x, y) the floor leans up: where it stays clear of its columns."""
        axis = self.villa.axis(self.piece)
        length = math.hypot(axis.x, axis.y)
        return (-axis.x / length, -axis.y / length) if length > 1e-9 else (0.0, 0.0)

    def grip_point(self) -> Point3:
        """Where the hands hold the floor, in the world."""
        return self.villa.root.getRelativePoint(self.np, self._grip)

    def lift(self) -> None:
        """Lift the held floor clear of the columns again (it stays in the hands)."""
        if self.state == Laying.HELD:
            self._goal_z = self.rest_z + HOVER + FLOOR_THICKNESS

    def let_go(self) -> None:
        """Let go of the held floor: it lies as it lies, and is judged once the villa settles."""
        if self.state != Laying.HELD:
            return
        self._release()
        self.villa.watch.rest_floor(self.level)
        self.villa.anchors.anchor_all(at_rest=False)
        self.state = Laying.LAID

    def _seat_z(self) -> float:
        """How low the hands go at most: the grip point with the floor lying level on the
        lowest column top under it now, less `HOLD_DEPTH` (they stop once it sits)."""
        tops = [self.villa.nodes[c].getZ() + COLUMN_HEIGHT / 2 for c in self.columns_under()]
        return min(tops, default=self.rest_z) + FLOOR_THICKNESS - HOLD_DEPTH

    def _take_in_hands(self, grip: Point3 | None) -> None:
        """From carried (kinematic) to held: a body of its own, on a spring at `grip`."""
        local = self.np.getRelativePoint(self.villa.root, Point3(grip)) if grip is not None else Point3(0, 0, 0)
        self._grip = Point3(local.x, local.y, FLOOR_THICKNESS / 2)  # on its top face
        self.body.setKinematic(False)
        self.body.setLinearVelocity(Vec3(0, 0, 0))
        self.body.setAngularVelocity(Vec3(0, 0, 0))
        self.body.setDeactivationEnabled(False)
        self.body.setActive(True, True)
        self.villa.wake()
        p = self.grip_point()
        self.aim_x, self.aim_y, self._hand_z = p.x, p.y, p.z
        self.state = Laying.HELD

    def _release(self) -> None:
        self.body.setDeactivationEnabled(True)
        self.villa.hands.release(self, self.piece)
        self.villa.wake()
        self.strain = 0.0

    def _hold(self, dt: float) -> None:
        """Set the hands' force on the held floor for the next `dt` seconds of steps."""
        pos = self.np.getPos()
        self.x, self.y, self.yaw = pos.x, pos.y, self.np.getH()
        speed = LOWER_SPEED if self._goal_z < self._hand_z else HOLD_LIFT_SPEED
        self._hand_z = _approach(self._hand_z, self._goal_z, speed * dt)
        grip = self.grip_point()
        if (self._goal_z < self._hand_z and self.strain * hand.NEWTON < HOLD_SIT_SHARE * self.body.getMass() * GRAVITY
                and hand.touching(self.villa, self.piece)):
            self._goal_z = self._hand_z   # the columns bear it: lower no further
        offset = grip - pos
        velocity = self.body.getLinearVelocity() + self.body.getAngularVelocity().cross(offset)
        stretch = Point3(self.aim_x, self.aim_y, self._hand_z) - grip
        force = hand.spring_force(self.body.getMass(), velocity, stretch, HOLD_STIFFNESS, HOLD_MAX_FORCE, dt)
        force.z = max(force.z, 0.0)   # the hands bear it; they never press it onto the columns
        self.body.applyForce(force, offset)
        self.strain = force.length() / hand.NEWTON
        # the hands turn it as aimed; clear of everything they also keep it level, while
        # on the columns it leans as they let it
        turn = (self.aim_yaw - self.yaw + 180.0) % 360.0 - 180.0
        spin = Vec3(0, 0, math.radians(max(-TURN_SPEED, min(TURN_SPEED, turn * HOLD_TURN_RATE))))
        level = self.villa.axis(self.piece).cross(Vec3(0, 0, 1))   # turns it back toward level
        if not hand.touching(self.villa, self.piece, columns=False):
            spin += level * HOLD_LEVEL_RATE   # levelled in the air only: turned about the grip, its low
                                              # side would push down on the column it leans on
        elif self._goal_z <= self._hand_z and (tilt := self.tilt_deg()) > HOLD_TIP_DEG:
            # (not while lifting it off: turned back about the grip, its low side would press on a rim)
            level.normalize()
            spin += level * (math.radians(tilt - HOLD_TIP_DEG) * HOLD_CATCH_RATE)
        else:
            w = self.body.getAngularVelocity() * math.exp(-HOLD_STEADY_RATE * dt)  # steadied, not stiffened
            spin += Vec3(w.x, w.y, 0)
        self.body.setAngularVelocity(spin)

    # --- what it would rest on ---

    def columns_under(self) -> frozenset[str]:
        """The top columns whose tops lie under the floor's outline where it is now."""
        return columns_under(self.villa, self.level, self.x, self.y, self.yaw)

    def preview(self) -> FloorLaid:
        """What lowering it here would report, if nothing moved: for the GUI's hints."""
        outline = geometry.transform(FLOORS[self.level].outline, self.x, self.y, self.yaw)
        inside = all(math.hypot(x, y) <= BASE.radius for x, y in outline)
        return FloorLaid(self.level, self.columns_under(), inside)

    # --- actions ---

    def lower(self, hold: bool = False, grip: Point3 | None = None) -> None:
        """Lower the floor onto the columns beneath it: let go on touching them, or with
        `hold`, keep holding it (at the world point `grip` on it; its centre if None)."""
        if self.state == Laying.HELD:
            self._goal_z = self._seat_z()
            return
        if self.state != Laying.CARRYING:
            return
        if not self.columns_under():
            raise PlacementError(Refusal.NO_COLUMN_UNDER, level=self.level)
        if hold:
            self._take_in_hands(grip)
            self._goal_z = self._seat_z()
            return
        self.aim_x, self.aim_y, self.aim_yaw = self.x, self.y, self.yaw
        self.state = Laying.LOWERING

    def cancel(self) -> None:
        """Give up laying the floor: it goes back to the box."""
        if self.state in (Laying.CARRYING, Laying.LOWERING, Laying.HELD):
            self.villa.hands.release(self)
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
        if self.state == Laying.HELD:
            self._hold(dt)
            return
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
        """Every 1/60 s: a villa that falls while the floor is in hand takes it down too: no floor hangs
        in the air, and the hands let go of one they held."""
        if self.villa.collapse is None or self.state not in (Laying.CARRYING, Laying.LOWERING, Laying.HELD):
            return
        self.body.setKinematic(False)   # a carried floor is moved by hand, not by Bullet
        self._release()
        self.state = Laying.DROPPED

    def _let_go(self) -> None:
        self.np.setPos(self.x, self.y, self.z)
        self.np.setH(self.yaw)
        self.body.setKinematic(False)
        self.body.setLinearVelocity(Vec3(0, 0, 0))
        self.body.setAngularVelocity(Vec3(0, 0, 0))
        self.villa.hands.release(self, self.piece)
        self.villa.wake()
        self.villa.watch.rest_floor(self.level)
        self.villa.anchors.anchor_all(at_rest=False)
        self.state = Laying.LAID


def _approach(value: float, goal: float, step: float) -> float:
    return goal if abs(goal - value) <= step else value + math.copysign(step, goal - value)


# --- what a floor in hand would rest on, measured on any villa (the hands', or a villa drawn as heard) ---

def top_columns(villa, below: int) -> list[str]:
    """The columns standing on the floor at level `below` (0: the base plate), none of them in a hand."""
    return [c for c in villa.columns if c not in villa.in_hand
            and (s := survey.standing(villa, c)) is not None and s.level == below]


def rest_height(villa, level: int) -> float:
    """How high the tops of the columns floor `level` would rest on reach (with none, a column's height over the
    floor below): the height a floor in hand is carried over."""
    tops = [villa.nodes[c].getZ() + COLUMN_HEIGHT / 2 for c in top_columns(villa, level - 1)]
    return max(tops, default=surface_z(level - 1) + COLUMN_HEIGHT)


def columns_under(villa, level: int, x: float, y: float, yaw: float) -> frozenset[str]:
    """The top columns whose tops lie under the outline of floor `level` held at (x, y), turned `yaw`."""
    found = []
    for c in top_columns(villa, level - 1):
        p = villa.nodes[c].getPos()
        lx, ly = geometry.to_local(p.x, p.y, x, y, yaw)
        if FLOORS[level].meets(lx, ly, column_spec(c).radius):
            found.append(c)
    return frozenset(found)
