"""Pulling a column with the mouse, carrying it up and setting it on the top floor.

The hand is a spring from the grabbed point to the target, damped and capped in force,
worked out before each call to Bullet (every 1/60 s) and held through its steps, and
fingers that keep the column upright and unturned (a torque of up to `HAND_TORQUE`). Under
a loaded floor friction wins against a weak pull; the floor stays where it lies unless the
column drags it harder than its other supports hold it (see `friction`); a free column
follows at once. Once the column is out from under every floor it is carried: a stiffer
spring on its centre, its weight borne, kept upright, lifted clear of the villa before it
follows the mouse across.

Life of a pull (`state`, a `Grip`; its values are the words in quotes):
  PULLING   "pulling"   the column is still under (or on) the villa; aim at a point or a ray
  CARRYING  "carrying"  it is free; it rises to `carry_z` and follows the aim
  LOWERING  "lowering"  `place()` was called; it sinks onto the surface beneath it
  HELD      "held"      `place(hold=True)` was called and it touched down: it stands under its own
                        weight, still held upright; `aim` slides it, `lift()` carries it again,
                        `let_go()` lets go of it
  PLACED    "placed"    it is let go; once `villa.settled`, `result()` gives ColumnPlaced
  ABORTED   "aborted"   `abort()` put the villa back as it was when the column was grabbed
  TAKEN_OUT "taken out" `take_out()` removed it from the villa; `result()` gives ColumnTakenOut
  DROPPED   "dropped"   the villa collapsed while it was in hand; it was let go
"""

from __future__ import annotations

import functools
import math
import weakref
from enum import StrEnum

from panda3d.bullet import BulletGenericConstraint
from panda3d.core import Point3, Quat, TransformState, Vec3

from villa.physics import bodies, geometry, hand, survey
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, GRAVITY, column_spec
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.facts import ColumnPlaced, ColumnTakenOut
from villa.rules.pieces import floor_id, level_of_floor

PULL_STIFFNESS = 200.0      # kg/s²: 1 cm of stretch pulls with 2 N
PULL_MAX_FORCE = 300.0      # kg·cm/s² = 3 N: enough to slide a column out under a floor's weight
CARRY_STIFFNESS = 400.0
CARRY_MAX_FORCE = 500.0     # 5 N, on top of the column's weight
UPRIGHT_RATE = 20.0         # 1/s: how fast a carried column is turned upright
CLEARANCE = 1.0             # cm a carried column's foot keeps above everything
LIFT_SPEED = 20.0           # cm/s when rising clear of the villa
LOWER_SPEED = 4.0           # cm/s when setting it down
RIM_MARGIN = 0.2            # cm: a column set on another has its centre this far inside that one's top;
                            # one set beside another may overlap its end by as much (a corner)
FREE_MARGIN = 0.3           # cm between a free column and the outline of any floor above it
STEADY_LIFT = 0.1           # cm: "lightly lifted" (rule 1)
STEADY_LIFT_SPEED = 1.0     # cm/s: gently, or what stands on the floor is jolted
STALL_CHECKS = 15           # 1/60 s checks a lowered column may hang without sinking before it is let go
HAND_TORQUE = 500.0         # kg·cm²/s² = 5 N·cm: fingers round a column hold it upright and unturned.
                            # Drawn by its middle with nothing to hold it, a column tips forward (the
                            # friction at its foot, which bears its weight too, exceeds that at its top)
                            # until its rim wedges under the floor and lifts it


class Grip(StrEnum):
    """How the hand holds a column (`Pull.state`)."""

    PULLING = "pulling"
    CARRYING = "carrying"
    LOWERING = "lowering"
    HELD = "held"
    PLACED = "placed"
    ABORTED = "aborted"
    TAKEN_OUT = "taken out"
    DROPPED = "dropped"


IN_HAND = (Grip.PULLING, Grip.CARRYING, Grip.LOWERING, Grip.HELD)


class Pull:
    taken_up = False    # the hot seat's hands take every column up themselves (online, one may be taken up again)

    def __init__(self, villa, column: str, point: Point3, steady: bool = False) -> None:
        if villa.collapse is not None:
            raise PlacementError(Refusal.COLLAPSED)
        if column not in villa.nodes:
            raise PlacementError(Refusal.NOT_IN_VILLA, column=column)
        # weak: the villa holds its hands while they act, and a villa dropped mid-move must be
        # freed by its reference count alone (whoever holds a hand holds its villa too)
        self.villa = weakref.proxy(villa)
        self.column = column
        self.np = villa.nodes[column]
        self.body = self.np.node()
        self.grab_local = self.np.getRelativePoint(villa.root, Point3(point))
        self.grab_z = Point3(point).z
        self.target = Point3(point)
        self.state = Grip.PULLING
        self.start_poses = villa.poses()
        where = survey.standing(villa, column)
        self.from_level = where.level if where else 0
        self.steadied: str | None = None
        self._steady_pose: tuple[Point3, Quat] | None = None
        self._lift_z: float | None = None
        self._aim_xy: tuple[float, float] | None = None
        self._stalled = 0
        self._hold_on_touch = False
        self.strain = 0.0   # N: the force the column resists the hand with (what the spring pulls with)
        self._fingers: BulletGenericConstraint | None = None
        villa.hands.take(self, column)
        villa.wake()
        self._hold_upright()
        self.steady = steady
        self._check_free()

    # --- the mouse ---

    def aim(self, point: Point3) -> None:
        """Drive toward this world point: the grabbed point while pulling; once carrying, only its
        x and y count (the column moves across at the carrying height)."""
        point = Point3(point)
        if self.state == Grip.PULLING:
            self.target = point
        elif self.state in (Grip.CARRYING, Grip.HELD):
            self._aim_xy = (point.x, point.y)

    def aim_ray(self, origin: Point3, direction: Vec3) -> None:
        """Aim where a mouse ray meets the working plane: the grab height while pulling,
        the carrying height once the column is free."""
        z = self.grab_z if self.state == Grip.PULLING else self.carry_z()
        point = geometry.on_plane(origin, direction, z)
        if point is not None:
            self.aim(point)

    @property
    def steady(self) -> bool:
        return self.steadied is not None

    @steady.setter
    def steady(self, on: bool) -> None:
        """Hold the floor this column carries in place, lightly lifted (rule 1), or let it go."""
        if on and self.steadied is None and self.state == Grip.PULLING:
            above = [lv for lv in self.villa.floor_levels if survey.carries(self.villa, self.column, lv)]
            if above:
                self.steadied = floor_id(above[0])
                floor = self.villa.nodes[self.steadied]
                self._steady_pose = (floor.getPos(), floor.getQuat())
                self.villa.anchors.let_go(self.steadied)
                floor.node().setKinematic(True)  # lifted gently in `before_steps`
        elif not on and self.steadied is not None:
            self._set_floor_down()

    def _set_floor_down(self) -> None:
        """Set the steadied floor back exactly where it lay, and let it bear on its columns again."""
        floor = self.villa.nodes[self.steadied]
        floor.setPosQuat(*self._steady_pose)
        body = floor.node()
        body.setKinematic(False)
        body.setLinearVelocity(Vec3(0, 0, 0))
        body.setAngularVelocity(Vec3(0, 0, 0))
        body.setActive(True, True)
        self.villa.anchors.anchor_floor(self.steadied)
        self.steadied = None

    # --- where it is ---

    def is_free(self) -> bool:
        """Is the column out from under every floor above the level it came from?"""
        pos = self.np.getPos()
        return not under_a_floor(self.villa, self.column, pos.x, pos.y, self.from_level)

    def carry_z(self) -> float:
        """Height of a carried column's centre: its foot clear of everything in the villa."""
        return carry_z(self.villa, self.column)

    def surface_below(self) -> tuple[int, str | None, float] | None:
        """(level, column stood on or None, z of that surface) straight under the column, or None."""
        return surface_below(self.villa, self.column)

    def preview(self) -> ColumnPlaced | None:
        """What setting the column down straight below would report (not yet settled): for the GUI's hints."""
        return preview(self.villa, self.column)

    # --- actions ---

    def place(self, hold: bool = False) -> None:
        """Set the carried column down on the surface straight below it: let go on touching
        down, or with `hold`, keep holding it upright where it stands (`let_go()`, `lift()`)."""
        if self.state != Grip.CARRYING:
            raise PlacementError(Refusal.NOT_FREE_TO_SET_DOWN, column=self.column)
        refusal = landing_refusal(self.villa, self.column)
        if refusal is not None:
            raise refusal
        self._stalled = 0
        self._hold_on_touch = hold
        self.state = Grip.LOWERING

    def lift(self) -> None:
        """Lift the held column clear of everything again: carried, as before it was set down."""
        if self.state == Grip.HELD:
            self._lift_z = self.np.getZ()
            self.body.setGravity(Vec3(0, 0, 0))
            self.state = Grip.CARRYING

    def let_go(self) -> None:
        """Let go of the held column where it stands."""
        if self.state == Grip.HELD:
            self._let_go()

    def abort(self) -> None:
        """Give up: the villa is put back exactly as it stood when the column was grabbed."""
        if self.state in (Grip.PLACED, Grip.ABORTED, Grip.TAKEN_OUT):
            return
        if self.villa.collapse is not None:
            raise PlacementError(Refusal.CANNOT_PUT_BACK)
        self._finish()
        self.villa.restore(self.start_poses)
        self.state = Grip.ABORTED

    def take_out(self) -> None:
        """Remove the free column from the villa altogether (a failed objection's forfeit)."""
        if self.state not in (Grip.CARRYING, Grip.LOWERING, Grip.HELD):
            raise PlacementError(Refusal.NOT_FREE_TO_TAKE_OUT, column=self.column)
        self._finish()
        self.villa.remove(self.column)
        self.state = Grip.TAKEN_OUT

    def result(self) -> ColumnPlaced | ColumnTakenOut | None:
        """The fact, once the column is down (or out) and the villa has settled; else None."""
        if not self.villa.settled:
            return None
        if self.state == Grip.PLACED:
            return survey.column_placed(self.villa, self.column)
        if self.state == Grip.TAKEN_OUT:
            return ColumnTakenOut(self.column)
        return None

    def _let_go(self) -> None:
        self._finish()
        self.state = Grip.PLACED
        self.villa.anchors.anchor_all(at_rest=False)  # its foot grips once it has come down

    def _hold_upright(self) -> None:
        """Fingers round the column: its turn is locked where it was grabbed, up to `HAND_TORQUE`
        (past that they slip for a moment: they take hold again at the next check)."""
        fingers = BulletGenericConstraint(self.body, TransformState.makeIdentity(), True)
        for axis in range(3):
            fingers.setLinearLimit(axis, 1, -1)     # low above high: free
            fingers.setAngularLimit(axis, 0, 0)     # locked
        fingers.setBreakingThreshold(HAND_TORQUE * self.villa.step_seconds)
        self.villa.world.attachConstraint(fingers)
        self._fingers = fingers

    def _release_fingers(self) -> None:
        if self._fingers is not None:
            self.villa.world.removeConstraint(self._fingers)
            self._fingers = None

    def _finish(self) -> None:
        self._release_fingers()
        if self.steadied is not None:
            self._set_floor_down()
        self.villa.hands.release(self, self.column)
        if self.column in self.villa.nodes:
            self.body.setGravity(Vec3(0, 0, -GRAVITY))
        self.villa.wake()

    # --- before each call to Bullet ---

    def before_steps(self, dt: float) -> None:
        """Set the hand's force for the next `dt` seconds of steps."""
        if self.steadied is not None:
            floor = self.villa.nodes[self.steadied]
            goal = self._steady_pose[0].z + STEADY_LIFT
            floor.setZ(min(goal, floor.getZ() + STEADY_LIFT_SPEED * dt))
        if self.state == Grip.PULLING:
            # The spring runs from the grabbed point, but pulls through the column's centre:
            # a pull off-centre tips the column in Bullet's soft contacts until its rim wedges
            # under the floor and lifts it, which a clamped wooden column does not do.
            offset = self._world_offset()
            target = self.target - offset
            force = self._spring(self.np.getPos(self.villa.root), target, PULL_STIFFNESS, PULL_MAX_FORCE, dt)
            self.strain = force.length() / hand.NEWTON
        elif self.state in (Grip.CARRYING, Grip.LOWERING, Grip.HELD):
            self._carry(dt)

    def after_check(self) -> None:
        """Every 1/60 s: notice when the column comes free, or touches down."""
        if self.villa.collapse is not None and self.state in IN_HAND:
            self._finish()
            self.state = Grip.DROPPED
            return
        if self.state == Grip.PULLING:
            if self._fingers is not None and not self._fingers.isEnabled():
                self._fingers.setEnabled(True)
            self._check_free()
        elif self.state == Grip.LOWERING:
            below = self.surface_below()
            foot = self.np.getZ() - COLUMN_HEIGHT / 2
            # let go on touching down, or once it stops sinking (it rests on something else)
            self._stalled = self._stalled + 1 if self.body.getLinearVelocity().z > -0.2 else 0
            if below is None or foot - below[2] < 0.03 or self._stalled > STALL_CHECKS:
                if self._hold_on_touch:
                    self.body.setGravity(Vec3(0, 0, -GRAVITY))  # it stands under its own weight
                    self.state = Grip.HELD
                else:
                    self._let_go()

    def _check_free(self) -> None:
        if self.state == Grip.PULLING and self.is_free():
            self._release_fingers()
            if self.steadied is not None:
                self._set_floor_down()
            self.state = Grip.CARRYING
            self.villa.anchors.reweigh()  # it carries nothing now: no floor is dragged
            pos = self.np.getPos()
            self._aim_xy = (pos.x, pos.y)
            self._lift_z = pos.z
            self.body.setGravity(Vec3(0, 0, 0))  # borne by the hand from now on

    def _world_offset(self) -> Vec3:
        return self.np.getQuat(self.villa.root).xform(Vec3(self.grab_local))

    def _spring(self, at: Point3, to: Point3, k: float, cap: float, dt: float) -> Vec3:
        """A critically damped spring (`hand.spring_force`) from the column's centre at `at`
        toward `to`, capped in force, held for `dt`; returns its force."""
        force = hand.spring_force(self.body.getMass(), self.body.getLinearVelocity(), to - at, k, cap, dt)
        self.body.applyCentralForce(force)
        return force

    def _carry(self, dt: float) -> None:
        pos = self.np.getPos()
        lift_to = self.carry_z()
        if self.state == Grip.HELD:
            below = self.surface_below()
            seat = below[2] + COLUMN_HEIGHT / 2 if below else pos.z
            target = Point3(*self._aim_xy, seat)   # it stands there: the spring bears nothing
        elif self.state == Grip.LOWERING:
            below = self.surface_below()
            floor_z = below[2] + COLUMN_HEIGHT / 2 if below else pos.z
            self._lift_z = max(floor_z - 0.1, self._lift_z - LOWER_SPEED * dt)
            target = Point3(pos.x, pos.y, self._lift_z)
        else:
            self._lift_z = min(lift_to, self._lift_z + LIFT_SPEED * dt)
            risen = pos.z > lift_to - 0.3
            x, y = self._aim_xy if risen else (pos.x, pos.y)
            target = Point3(x, y, self._lift_z)
        self.strain = self._spring(pos, target, CARRY_STIFFNESS, CARRY_MAX_FORCE, dt).length() / hand.NEWTON
        # keep it upright, and stop it spinning
        axis = self.villa.axis(self.column)
        self.body.setAngularVelocity(axis.cross(Vec3(0, 0, 1)) * UPRIGHT_RATE)


def under_a_floor(villa, column: str, x: float, y: float, level: int) -> bool:
    """Would `column`, standing at world (x, y) on `level`, be under any floor above that level?

    Counts both a floor's drawn outline and its physics box slabs, which reach a little
    past the outline (a column still under a slab lifts the floor as it rises).
    """
    reach = column_spec(column).radius + FREE_MARGIN
    for floor_level in villa.floor_levels:
        if floor_level <= level or floor_id(floor_level) in villa.in_hand:
            continue
        floor = villa.nodes[floor_id(floor_level)]
        local = floor.getRelativePoint(villa.root, Point3(x, y, floor.getZ()))
        if math.hypot(local.x, local.y) >= _slabs_reach(floor_level) + reach:
            continue        # out of reach of the outline and of every slab
        if FLOORS[floor_level].meets(local.x, local.y, reach):
            return True
        for cx, cy, hx, hy in bodies.floor_slabs(floor_level):
            dx, dy = max(abs(local.x - cx) - hx, 0.0), max(abs(local.y - cy) - hy, 0.0)
            if dx * dx + dy * dy < reach * reach:
                return True
    return False


@functools.cache
def _slabs_reach(level: int) -> float:
    """How far from the floor's centre its outline and its slabs reach. A pull asks every
    1/60 s whether the column is out, and a point beyond this needs no more asking."""
    slabs = (math.hypot(abs(cx) + hx, abs(cy) + hy) for cx, cy, hx, hy in bodies.floor_slabs(level))
    return max(FLOORS[level].radius, *slabs)


# --- where a column in hand is, measured on any villa (the hand's, or a villa drawn as heard) ---

def carry_z(villa, column: str) -> float:
    """Height of a carried column's centre: its foot clear of everything in the villa."""
    top = 0.0
    for piece, np in villa.nodes.items():
        if piece in ("table", column):
            continue
        if level_of_floor(piece) is not None:
            spec = FLOORS[level_of_floor(piece)]
            top = max(top, np.getZ() + spec.thickness / 2 + spec.radius * math.sin(math.radians(villa.tilt_deg(piece))))
        elif piece != "base":
            top = max(top, np.getZ() + COLUMN_HEIGHT / 2)
    return top + CLEARANCE + COLUMN_HEIGHT / 2


def surface_below(villa, column: str) -> tuple[int, str | None, float] | None:
    """(level, column stood on or None, z of that surface) straight under the column, or None."""
    pos = villa.nodes[column].getPos()
    best = None
    for level in villa.floor_levels:
        if floor_id(level) in villa.in_hand:
            continue
        floor = villa.nodes[floor_id(level)]
        local = floor.getRelativePoint(villa.root, pos)
        if FLOORS[level].contains(local.x, local.y):
            z = villa.root.getRelativePoint(floor, Point3(local.x, local.y, FLOORS[level].thickness / 2)).z
            if best is None or z > best[2]:
                best = (level, None, z)
    r = column_spec(column).radius
    for other in villa.columns:
        if other == column or other in villa.in_hand:
            continue
        o = villa.nodes[other].getPos()
        if math.hypot(o.x - pos.x, o.y - pos.y) < column_spec(other).radius + r * 0.5:
            where = survey.standing(villa, other)
            z = o.z + COLUMN_HEIGHT / 2
            if where and (best is None or z > best[2]):
                best = (where.level, other, z)
    if best is None:
        if math.hypot(pos.x, pos.y) < BASE.radius:
            best = (0, None, BASE.top_z)
    return best


def landing_refusal(villa, column: str) -> PlacementError | None:
    """Why the column may not be lowered straight down from where it is (None: it may): nothing
    below it, or its foot would come down on a column's rim: on the column below, with its
    centre near that one's rim, or beside a column standing up, their ends overlapping by more
    than a corner. On the column below it sits askew on the rim and topples (a thin column on a
    thin one stood with its centre 0.55 cm off and toppled at 0.6; a thick on a thick stood at
    1.3 cm and toppled at 2.0); beside one, its foot mostly slides off the rim, knocking that
    column, and now and then topples. A hand that sees the rim moves over a little."""
    below = surface_below(villa, column)
    if below is None:
        return PlacementError(Refusal.NO_FLOOR_UNDER, column=column)
    _, on_column, surface = below
    pos, r = villa.nodes[column].getPos(), column_spec(column).radius
    for other in villa.columns:
        if other == column or other in villa.in_hand:
            continue
        o, reach = villa.nodes[other].getPos(), column_spec(other).radius
        off = math.hypot(o.x - pos.x, o.y - pos.y)
        if other == on_column:
            on_rim = off > reach - RIM_MARGIN
        else:   # standing up beside the spot: its top above the surface the column comes down on
            on_rim = o.z + COLUMN_HEIGHT / 2 > surface + RIM_MARGIN and off < r + reach - RIM_MARGIN
        if on_rim:
            return PlacementError(Refusal.ON_A_RIM, column=column, on_column=other)
    return None


def preview(villa, column: str) -> ColumnPlaced | None:
    """What setting the column down straight below would report (not yet settled): for the GUI's hints."""
    below = surface_below(villa, column)
    if below is None:
        return None
    level, on_column, _ = below
    inside = _footprint_inside_at(villa, column, level)
    return ColumnPlaced(column, level, inside, on_column)


def _footprint_inside_at(villa, column: str, level: int) -> bool:
    spec = column_spec(column)
    node = villa.nodes[column]
    pos = node.getPos()
    foot = geometry.transform(spec.footprint(), pos.x, pos.y, node.getH())
    if level == 0:
        return all(math.hypot(x, y) <= BASE.site_radius for x, y in foot)
    floor = villa.nodes[floor_id(level)]
    local = [floor.getRelativePoint(villa.root, Point3(x, y, pos.z)) for x, y in foot]
    return geometry.polygon_inside([(p.x, p.y) for p in local], FLOORS[level].outline)
