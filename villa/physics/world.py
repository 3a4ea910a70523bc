"""The villa in Bullet: building it, stepping it at a fixed rate, its poses and snapshots."""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable

from panda3d.core import NodePath, Point3, Quat, Vec3, loadPrcFileData

from villa.physics import bodies
from villa.physics.collapse import CollapseWatch
from villa.physics.dimensions import (COLUMN_HEIGHT, FLOOR_THICKNESS, FLOORS, GRAVITY, Layout, column_spec,
                                      surface_z)
from villa.physics.layouts import validate_layout
from villa.rules.facts import Collapse, VillaSurvey
from villa.rules.pieces import COLUMNS_BY_ID

# Must be set before the first BulletWorld exists. 10 iterations hold a set-up still; tall
# stacks creep less with more (15: about half, 20: a third) at a tenth more cost for each 5.
loadPrcFileData("villa.physics", "bullet-solver-iterations 15")
from panda3d.bullet import BulletWorld  # noqa: E402  (after the setting above)

STEP = 1.0 / 480.0          # fixed physics step: 240 Hz lets loaded columns creep
TICKS_PER_CHECK = 8         # watch for collapse every 1/60 s of simulated time
MAX_TICKS_PER_CALL = 16     # a slow frame slows the villa down rather than piling up work
QUIET_S = 0.5               # the villa is put to sleep once every piece has been this long below
                            # Bullet's sleeping speeds. Bullet's own sleeping (2 s, per island) is
                            # spoiled by single-step jolts of loaded columns, and waits long
                            # enough for stacked floors to creep.

BUILD_RAMP_S = 0.2          # a villa built from a layout takes up its weight over this long: set
                            # down at full weight all at once, a tall stack jolts on its fresh
                            # contacts and shears by a millimetre before it settles
TABLE_ROLL_DECAY = 3.0      # 1/s: a column rolling on the table loses speed like wood on a cloth
                            # (Bullet 2.84 in Panda3D has no rolling friction; without this a
                            # fallen round column rolls for metres)
STILL_SPEED = 0.05          # cm/s, and
STILL_SPIN = 0.005          # rad/s: a resting body slower than both after a step is stopped dead.
                            # Wood sticks; Bullet's iterative friction lets a stack shear slowly
                            # instead. Anything set moving by a real force (a step of gravity is
                            # 2 cm/s; a floor 5 mm past its edge gains 0.01 rad/s) is faster.

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]  # (x, y, z), (w, x, y, z)


def _holding_still(loose: list) -> Callable[[Any], None]:
    """What Bullet calls after each of its steps: stop dead each body in `loose` slower than
    `STILL_SPEED` and `STILL_SPIN`. It holds the list, not the villa: a callback that held
    the villa would keep it alive, since Python cannot see the reference kept in Bullet."""
    zero = Vec3(0, 0, 0)

    def hold_still(_step) -> None:
        for body in loose:
            if body.getLinearVelocity().length() < STILL_SPEED and body.getAngularVelocity().length() < STILL_SPIN:
                body.setLinearVelocity(zero)
                body.setAngularVelocity(zero)
    return hold_still


def _power_of_two_at_most(n: int) -> int:
    return 1 << (n.bit_length() - 1)


class Villa:
    """The wooden villa: a Bullet world holding the base plate, the floors laid and the columns in play.

    Piece ids: "base", "floor-1" .. "floor-5", and column ids as in `villa.rules.pieces`.
    Time is simulated seconds since the villa was built (`time`), advanced only by `step`.
    """

    def __init__(self) -> None:
        self.world = BulletWorld()
        self.world.setGravity(Vec3(0, 0, -GRAVITY))
        self.world.setForceUpdateAllAabbs(False)  # sleeping bodies keep their bounds
        self.root = NodePath("villa")
        self.nodes: dict[str, NodePath] = {}
        self.ticks = 0
        self._accum = 0.0
        self._controllers: list[Any] = []
        self._asleep = False
        self._quiet_ticks = 0
        self._ramp_ticks = 0
        self._keep_awake = False
        self.in_hand: set[str] = set()   # pieces held by a controller: not watched, not "settled"
        self._loose: list = []           # the dynamic bodies not in hand, held still after each step
        self.world.setTickCallback(_holding_still(self._loose), False)
        self.watch = CollapseWatch(self)
        for body in (bodies.table_body(), bodies.base_body()):
            self._attach(body, Point3(0, 0, -1.0 if body.getName() == "table" else bodies.BASE.thickness / 2))

    # --- building ---

    @classmethod
    def from_layout(cls, layout: Layout, validate: bool = True, setup: bool = False) -> "Villa":
        """A villa built as `layout` says, every piece set exactly in place (not yet settled)."""
        if validate:
            validate_layout(layout, setup)
        villa = cls()
        for f in layout.floors:
            villa.add_floor(f.level, Point3(f.x, f.y, surface_z(f.level) - FLOOR_THICKNESS / 2), f.yaw)
        for c in layout.columns:
            villa.add_column(c.column, Point3(c.x, c.y, surface_z(c.level) + COLUMN_HEIGHT / 2), c.yaw)
        villa.watch.reset()
        villa._ramp_ticks = round(BUILD_RAMP_S / STEP)
        return villa

    def add_column(self, column_id: str, pos: Point3, yaw: float = 0.0, quat: Quat | None = None) -> NodePath:
        np = self._attach(bodies.column_body(column_id, column_spec(column_id)), pos, yaw, quat)
        self._asleep = False
        return np

    def add_floor(self, level: int, pos: Point3, yaw: float = 0.0, quat: Quat | None = None) -> NodePath:
        np = self._attach(bodies.floor_body(FLOORS[level]), pos, yaw, quat)
        self._asleep = False
        return np

    def remove(self, piece: str) -> None:
        """Take a piece out of the villa altogether."""
        np = self.nodes.pop(piece)
        self.world.removeRigidBody(np.node())
        np.removeNode()
        self.let_go(piece)

    def _attach(self, body, pos: Point3, yaw: float = 0.0, quat: Quat | None = None) -> NodePath:
        np = self.root.attachNewNode(body)
        np.setPos(pos)
        if quat is not None:
            np.setQuat(quat)
        else:
            np.setH(yaw)
        self.world.attachRigidBody(body)
        self.nodes[body.getName()] = np
        self.loose_changed()
        return np

    # --- what is in it ---

    @property
    def columns(self) -> list[str]:
        return [p for p in self.nodes if p not in ("table", "base") and not p.startswith("floor-")]

    @property
    def floor_levels(self) -> list[int]:
        return sorted(int(p[6:]) for p in self.nodes if p.startswith("floor-"))

    @property
    def top_level(self) -> int:
        laid = [lv for lv in self.floor_levels if f"floor-{lv}" not in self.in_hand]
        return max(laid, default=0)

    def body(self, piece: str):
        return self.nodes[piece].node()

    # --- stepping ---

    @property
    def time(self) -> float:
        return self.ticks * STEP

    def step(self, dt: float) -> int:
        """Advance by `dt` seconds of real time in fixed steps; returns the steps taken.

        Call once per frame. Leftover time carries over to the next call, so the same
        sequence of `dt` always gives the same poses.
        """
        self._accum += dt
        n = int(self._accum / STEP + 1e-6)
        self._accum -= n * STEP
        if n > MAX_TICKS_PER_CALL:
            n, self._accum = MAX_TICKS_PER_CALL, 0.0
        self._run(n)
        return n

    def advance(self, seconds: float) -> None:
        """Run `seconds` of simulated time at once (tests, benchmarks, settling)."""
        self._run(round(seconds / STEP))

    def _run(self, ticks: int) -> None:
        """Take `ticks` fixed steps, checking the villa after every `TICKS_PER_CHECK`-th.

        The steps up to the next check go to Bullet in one call: Panda3D then copies the
        poses out once instead of after every step (a quarter less cost with every body
        awake). A hand acts once before each call, its force held through it.
        """
        while ticks > 0:
            if self._asleep and not self._controllers:
                self.ticks += ticks
                return  # nothing can move: every body sleeps and nothing pushes
            if self.ticks < self._ramp_ticks:
                batch = 1  # the build's ramp changes gravity before every single step
                self.world.setGravity(Vec3(0, 0, -GRAVITY * (self.ticks + 1) / self._ramp_ticks))
            else:
                # a power of two: n·step is then exact in Bullet's single precision, so it takes
                # exactly n steps and keeps no remainder to carry (or to extrapolate poses by)
                batch = _power_of_two_at_most(min(ticks, TICKS_PER_CHECK - self.ticks % TICKS_PER_CHECK))
            for controller in list(self._controllers):
                controller.before_steps(batch * STEP)
            self.world.doPhysics(batch * STEP, batch, STEP)
            self.ticks += batch
            ticks -= batch
            if self.ticks % TICKS_PER_CHECK == 0:
                self._check()

    def _check(self) -> None:
        """Every 1/60 s of simulated time: collapse, rolling on the table, hands, sleep."""
        self._asleep = not any(np.node().isActive() for np in self.nodes.values())
        if not self._asleep:
            self.watch.check()
            self._roll_to_rest()
        for controller in list(self._controllers):
            controller.after_check()
        if not self._asleep:
            self._sleep_when_quiet()

    def _roll_to_rest(self) -> None:
        """Slow down columns lying on the table (called once per check)."""
        keep = math.exp(-TABLE_ROLL_DECAY * TICKS_PER_CHECK * STEP)
        for column in self.columns:
            np = self.nodes[column]
            if column in self.in_hand or np.getZ() > column_spec(column).radius + 0.3:
                continue  # standing, or not on the table
            body = np.node()
            body.setAngularVelocity(body.getAngularVelocity() * keep)
            body.setLinearVelocity(body.getLinearVelocity() * keep)

    def hold(self, piece: str) -> None:
        """A piece is taken in hand: no longer watched for collapse, nor counted for "settled"."""
        self.in_hand.add(piece)
        self.loose_changed()

    def let_go(self, piece: str) -> None:
        self.in_hand.discard(piece)
        self.loose_changed()

    def loose_changed(self) -> None:
        """Recount the bodies held still after each step (after pieces are added, removed, taken in hand)."""
        self._loose[:] = [np.node() for piece, np in self.nodes.items()
                          if np.node().getMass() > 0 and piece not in self.in_hand and not np.node().isKinematic()]

    def _sleep_when_quiet(self) -> None:
        if self._controllers or self.in_hand or self._keep_awake:
            self._quiet_ticks = 0
            return
        quiet = all(np.node().getLinearVelocity().length() < bodies.LINEAR_SLEEP
                    and np.node().getAngularVelocity().length() < bodies.ANGULAR_SLEEP
                    for np in self.nodes.values())
        self._quiet_ticks = self._quiet_ticks + TICKS_PER_CHECK if quiet else 0
        if self._quiet_ticks * STEP >= QUIET_S - 1e-9:
            self.sleep()
            self._quiet_ticks = 0

    def run_until_settled(self, limit: float = 10.0) -> bool:
        """Step until every piece not in hand is at rest (True) or `limit` seconds pass (False)."""
        end = self.ticks + round(limit / STEP)
        while self.ticks < end:
            self._run(TICKS_PER_CHECK)
            if self.settled:
                return True
        return self.settled

    @property
    def settled(self) -> bool:
        """Is every piece, except any held in hand, at rest (asleep)?"""
        return not any(np.node().isActive() for piece, np in self.nodes.items()
                       if piece not in self.in_hand and np.node().getMass() > 0)

    def wake(self) -> None:
        for np in self.nodes.values():
            if np.node().getMass() > 0:
                np.node().setActive(True)
        self._asleep = False

    def sleep(self) -> None:
        """Put every body to sleep where it is, velocities cleared (when quiet, after a restore)."""
        for np in self.nodes.values():
            body = np.node()
            if body.getMass() > 0:
                body.setLinearVelocity(Vec3(0, 0, 0))
                body.setAngularVelocity(Vec3(0, 0, 0))
                body.setActive(False, True)  # forced: a body that was held refuses a plain request
        self._asleep = True

    def keep_awake(self, awake: bool = True) -> None:
        """Keep every body awake (or let them sleep again): for measuring and debugging."""
        self._keep_awake = awake
        for np in self.nodes.values():
            if np.node().getMass() > 0 and np.getName() not in self.in_hand:
                np.node().setDeactivationEnabled(not awake)
        self._asleep = False

    def add_controller(self, controller) -> None:
        self._controllers.append(controller)
        self._asleep = False

    def remove_controller(self, controller) -> None:
        if controller in self._controllers:
            self._controllers.remove(controller)

    # --- collapse ---

    @property
    def collapse(self) -> Collapse | None:
        """The collapse, once one has happened (the first piece to give way and when)."""
        return self.watch.collapse

    # --- poses ---

    def pose(self, piece: str) -> Pose:
        np = self.nodes[piece]
        p, q = np.getPos(), np.getQuat()
        return (p[0], p[1], p[2]), (q[0], q[1], q[2], q[3])

    def poses(self) -> dict[str, Pose]:
        """Every piece in the villa (not the table): position and quaternion (w, x, y, z) of its body frame."""
        return {piece: self.pose(piece) for piece in self.nodes if piece != "table"}

    def axis(self, piece: str) -> Vec3:
        """The piece's local z axis in the world (a column's axis, a floor's normal)."""
        return self.nodes[piece].getQuat().getUp()

    def tilt_deg(self, piece: str) -> float:
        return math.degrees(math.acos(max(-1.0, min(1.0, self.axis(piece).z))))

    # --- snapshots (saved games) ---

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON: the simulated time and every piece's pose. Take it when the villa has settled."""
        return {
            "time_ticks": self.ticks,
            "pieces": {piece: [*pos, *quat] for piece, (pos, quat) in self.poses().items() if piece != "base"},
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "Villa":
        """The villa exactly as in `snapshot`, every piece at rest."""
        try:
            villa = cls()
            villa.ticks = int(data["time_ticks"])
            for piece, values in data["pieces"].items():
                x, y, z, qw, qx, qy, qz = map(float, values)
                pos, quat = Point3(x, y, z), Quat(qw, qx, qy, qz)
                if piece.startswith("floor-"):
                    villa.add_floor(int(piece[6:]), pos, quat=quat)
                elif piece in COLUMNS_BY_ID:
                    villa.add_column(piece, pos, quat=quat)
                else:
                    raise ValueError(f"no piece is called {piece!r}")
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise ValueError(f"not a valid villa snapshot: {error}") from error
        villa.sleep()
        villa.watch.reset()
        return villa

    def restore(self, poses: dict[str, Pose], pieces: Iterable[str] | None = None) -> None:
        """Put pieces back at the given poses, at rest (used by an aborted pull)."""
        for piece in pieces if pieces is not None else poses:
            if piece in self.nodes and piece in poses:
                (x, y, z), (qw, qx, qy, qz) = poses[piece]
                body = self.body(piece)
                self.nodes[piece].setPosQuat(Point3(x, y, z), Quat(qw, qx, qy, qz))
                body.setLinearVelocity(Vec3(0, 0, 0))
                body.setAngularVelocity(Vec3(0, 0, 0))
                body.clearForces()
        self.sleep()

    # --- picking ---

    def pick(self, origin: Point3, direction: Vec3, length: float = 500.0) -> tuple[str, Point3] | None:
        """The piece a ray first hits (a mouse ray), and where; None when it hits nothing but the table."""
        direction = Vec3(direction)
        direction.normalize()
        hit = self.world.rayTestClosest(Point3(origin), Point3(origin) + direction * length)
        if not hit.hasHit() or hit.getNode().getName() == "table":
            return None
        return hit.getNode().getName(), Point3(hit.getHitPos())

    # --- the hand ---

    def grab(self, column: str, point: Point3 | None = None, steady: bool = False):
        """Take hold of a column at a world point on it (its centre if None): a `Pull`."""
        from villa.physics.pulling import Pull
        return Pull(self, column, self.nodes[column].getPos() if point is None else point, steady)

    def lay_floor(self, level: int | None = None):
        """Bring the next floor (or `level`) to carry over the top columns: a `FloorLay`."""
        from villa.physics.laying import FloorLay
        return FloorLay(self, level)

    # --- facts ---

    def survey(self) -> VillaSurvey:
        """Where every column stands, what carries each floor, the top level (read once settled)."""
        from villa.physics.survey import survey
        return survey(self)
