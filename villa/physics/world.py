"""The villa in Bullet: building it, stepping it at a fixed rate, its poses and snapshots."""

from __future__ import annotations

import ctypes
import math
from typing import Any, Iterable

from panda3d.core import NodePath, Point3, Quat, RenderState, TransformState, Vec3, loadPrcFileData

from villa.physics import bodies, picking, survey
from villa.physics.collapse import CollapseWatch
from villa.physics.dimensions import (COLUMN_HEIGHT, FLOOR_THICKNESS, FLOORS, GRAVITY, Layout, column_spec,
                                      surface_z)
from villa.physics.friction import Anchors
from villa.physics.laying import FloorLay
from villa.physics.layouts import validate_layout
from villa.physics.pulling import Pull
from villa.rules.facts import Collapse, VillaSurvey
from villa.rules.pieces import COLUMNS_BY_ID, floor_id, level_of_floor

# Must be set before the first BulletWorld exists.
loadPrcFileData("villa.physics", "bullet-solver-iterations 10")
from panda3d.bullet import BulletWorld  # noqa: E402  (after the setting above)

STEP = 1.0 / 480.0          # fixed physics step: 240 Hz lets loaded columns creep
TICKS_PER_CHECK = 8         # watch for collapse every 1/60 s of simulated time
MAX_TICKS_PER_CALL = 16     # a slow frame slows the villa down rather than piling up work
FRAME_TICKS = 2             # `step` runs whole pairs of steps (see `_new_world`)
QUIET_S = 0.5               # the villa is put to sleep once no piece has moved for this long ...
REST_MOVE = 0.01            # cm: ... further than this at any point of it (its rim: the turn
                            # times its reach, and the shift). A resting piece jumps by up to a
                            # step of gravity (g·step², 0.04 mm) when a step's contact force
                            # flickers to nothing; a floor tipping from 0.03 mm past its edge
                            # moves its rim seven times as far in half a second
JITTER_S = 2.0              # ... or once no point of any piece strays further than
REST_JITTER = 0.05          # cm from where it stood this long ago: a piece trembling about a fixed
                            # pose (a column stood on a column on the red floor rocks by a few
                            # hundredths of a millimetre for ever) is at rest, where one that tips
                            # or creeps keeps going one way and leaves this far behind
REST_MOVE_FALLEN = 0.5      # cm: ... or than this once the villa has collapsed: the heap has
                            # nothing anchored, and its pieces crawl over each other and the table
FALLEN_REST_S = 4.0         # and a collapsed villa is put to rest this long after it fell, whatever
                            # still rolls (Bullet 2.84 in Panda3D has no rolling friction)
BUILD_RAMP_S = 0.2          # a villa built from a layout takes up its weight over this long: set
                            # down at full weight all at once, a tall stack jolts on its fresh
                            # contacts
TABLE_ROLL_DECAY = 3.0      # 1/s: a column rolling on the table loses speed like wood on a cloth
                            # (Bullet 2.84 in Panda3D has no rolling friction; without this a
                            # fallen round column rolls for metres)
OFF_THE_TABLE_Z = -10.0     # cm: a piece this far below the table's top went over its edge: it lies on
                            # the floor beside the table (flung from a fall, it would fall for ever)
CRAWL = 1.0                 # cm/s: a column lying on the table that moves and rolls slower than
                            # this is stopped: a cylinder on its side touches the table at one
                            # point a step, which wanders along it, and it would crawl for minutes
# Bullet hands Panda3D each body's pose extrapolated back from the end of its last step by
# the time it carries over, less one step: a falling body is seen a step behind. The world
# is made carrying just under one step, a multiple of 2^-28 s: with n·STEP for n = 2, 4, 8
# or 16 the sum stays exact in single precision, so it carries that time for ever and the
# poses read are those at the end of the steps (a microsecond behind).
CARRIED_TIME = math.floor((STEP - 2 ** -20) * 2 ** 28) / 2 ** 28

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]  # (x, y, z), (w, x, y, z)


def give_back_free_memory() -> None:
    """Hand the memory a finished game freed back to the system. Every Bullet world takes its pools (4 MB;
    a villa is built anew at each rest, a computer player tries its moves on copies) and glibc keeps what
    they freed for reuse, the renderer's threads each their own: over an evening of games one after another
    the game's size would creep up by a world's pools now and then, each game that needed more at once than
    any before. A no-op where the C library has no `malloc_trim`."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _let_go_of_old_poses() -> None:
    """Panda3D keeps every transform it has made (each pose of each body after each call to Bullet) until
    asked to let go of those nobody uses. A window asks once a frame as it draws; a villa stepped with no
    window (headless play, a computer player's copies) must ask itself, or it grows by megabytes a turn."""
    TransformState.garbageCollect()
    RenderState.garbageCollect()


def _power_of_two_at_most(n: int) -> int:
    return 1 << (n.bit_length() - 1)


FLOOR_LEVELS = {floor_id(level): level for level in FLOORS}   # a floor's piece id -> its level
# the farthest any point of each piece lies from its centre of mass (cm)
_REACH = {**{piece: math.hypot(FLOORS[level].radius, FLOOR_THICKNESS / 2) for piece, level in FLOOR_LEVELS.items()},
          **{column: math.hypot(COLUMN_HEIGHT / 2, column_spec(column).radius) for column in COLUMNS_BY_ID}}


class Villa:
    """The wooden villa: a Bullet world holding the base plate, the floors laid and the columns in play.

    Piece ids: "base", "floor-1" .. "floor-5", and column ids as in `villa.rules.pieces`.
    Time is simulated seconds since the villa was built (`time`), advanced only by `step`.

    Whenever it comes to rest the villa builds its Bullet world anew from its poses, as
    `from_snapshot` does: a settled villa and one restored from its snapshot are then the
    same in every bit and go on alike under the same calls.
    """

    def __init__(self) -> None:
        self.root = NodePath("villa")
        self.nodes: dict[str, NodePath] = {}
        self.ticks = 0
        self._accum = 0.0
        self._controllers: list[Any] = []
        self._asleep = False
        self._ramp_ticks = 0
        self._keep_awake = False
        self._still_since: dict[str, tuple[Point3, Quat]] = {}
        self._still_ticks = 0
        self._jitter_since: dict[str, tuple[Point3, Quat]] = {}
        self._jitter_ticks = 0
        self._built = False              # anchored and watched as it stands (see `_run`)
        self.in_hand: set[str] = set()   # pieces held by a controller: not watched, not "settled"
        self.watch = CollapseWatch(self)
        self.anchors = Anchors(self, STEP)
        self._new_world()

    def _new_world(self) -> None:
        self.world = BulletWorld()
        self.world.setGravity(Vec3(0, 0, -GRAVITY))
        self.world.setForceUpdateAllAabbs(False)  # sleeping bodies keep their bounds
        self.world.doPhysics(CARRIED_TIME, 1, STEP)  # less than a step: no step, only the time carried
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
        villa._ramp_ticks = round(BUILD_RAMP_S / STEP)
        villa._take_as_built()
        return villa

    def _take_as_built(self) -> None:
        """The pieces rest where they stand: watched from here, and anchored."""
        self._built = True
        self.watch.reset()
        self.anchors.anchor_all()

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
        self.anchors.forget(piece)
        np = self.nodes.pop(piece)
        self.world.removeRigidBody(np.node())
        np.removeNode()
        self.let_go(piece)
        self.anchors.reweigh()   # what it carried is held by the rest, or falls

    def _attach(self, body, pos: Point3, yaw: float = 0.0, quat: Quat | None = None) -> NodePath:
        np = self.root.attachNewNode(body)
        np.setPos(pos)
        if quat is not None:
            np.setQuat(quat)
        else:
            np.setH(yaw)
        self.world.attachRigidBody(body)
        self.nodes[body.getName()] = np
        return np

    # --- what is in it ---

    @property
    def columns(self) -> list[str]:
        return [p for p in self.nodes if p in COLUMNS_BY_ID]

    @property
    def floor_levels(self) -> list[int]:
        return sorted(FLOOR_LEVELS[p] for p in self.nodes if p in FLOOR_LEVELS)

    @property
    def top_level(self) -> int:
        laid = [lv for lv in self.floor_levels if floor_id(lv) not in self.in_hand]
        return max(laid, default=0)

    def body(self, piece: str):
        return self.nodes[piece].node()

    # --- stepping ---

    @property
    def time(self) -> float:
        return self.ticks * STEP

    step_seconds = STEP     # Bullet's fixed step, for the hands

    def step(self, dt: float) -> int:
        """Advance by `dt` seconds of real time in fixed steps; returns the steps taken.

        Call once per frame. Leftover time carries over to the next call, so the same
        sequence of `dt` always gives the same poses.
        """
        self._accum += dt
        n = FRAME_TICKS * int(self._accum / (FRAME_TICKS * STEP) + 1e-6)
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
        if not self._built:
            self._take_as_built()  # a villa set up piece by piece: as it stands at its first step
        while ticks > 0:
            if self._asleep and not self._controllers:
                self.ticks += ticks
                return  # nothing can move: every body sleeps and nothing pushes
            if self.ticks < self._ramp_ticks:
                batch = min(FRAME_TICKS, ticks)  # the build's ramp changes gravity every pair of steps
                self.world.setGravity(Vec3(0, 0, -GRAVITY * min(1.0, (self.ticks + batch) / self._ramp_ticks)))
            else:
                # a power of two: n·step is then exact in Bullet's single precision, and so is the
                # time it carries (see CARRIED_TIME)
                batch = _power_of_two_at_most(min(ticks, TICKS_PER_CHECK - self.ticks % TICKS_PER_CHECK))
            for controller in list(self._controllers):
                controller.before_steps(batch * STEP)
            self.world.doPhysics(batch * STEP, batch, STEP)
            self.ticks += batch
            ticks -= batch
            if self.ticks % TICKS_PER_CHECK == 0:
                self._check()
        _let_go_of_old_poses()

    def _check(self) -> None:
        """Every 1/60 s of simulated time: collapse, anchors, rolling on the table, hands, sleep."""
        self._asleep = not any(np.node().isActive() for np in self.nodes.values())
        if not self._asleep:
            if self.watch.collapse is None:
                if self.watch.check() is not None:
                    self.anchors.clear()  # everything is let go: it falls as it may
                else:
                    self.anchors.check(self.watch.floor_tilts)
            self._roll_to_rest()
            self._catch_the_fallen()
        for controller in list(self._controllers):
            controller.after_check()
        if not self._asleep:
            self._sleep_when_still()

    def _roll_to_rest(self) -> None:
        """Slow down columns lying on the table, and stop those that crawl (once per check)."""
        keep = math.exp(-TABLE_ROLL_DECAY * TICKS_PER_CHECK * STEP)
        for column in self.columns:
            np = self.nodes[column]
            if np.getZ() > column_spec(column).radius + 0.3 or column in self.in_hand:
                continue  # standing, or not on the table
            body = np.node()
            spin, speed = body.getAngularVelocity() * keep, body.getLinearVelocity() * keep
            if speed.length() < CRAWL and spin.length() * column_spec(column).radius < CRAWL:
                spin, speed = Vec3(0, 0, 0), Vec3(0, 0, 0)
            body.setAngularVelocity(spin)
            body.setLinearVelocity(speed)

    def _catch_the_fallen(self) -> None:
        """A piece that went over the table's edge stops on the floor beside it, where a game's record can hold it."""
        edge = bodies.TABLE_HALF
        for piece, np in self.nodes.items():
            body = np.node()
            if piece in ("table", "base"):
                continue
            if np.getZ() < OFF_THE_TABLE_Z and not body.isKinematic():
                np.setPos(min(max(np.getX(), -edge), edge), min(max(np.getY(), -edge), edge), OFF_THE_TABLE_Z)
                body.setLinearVelocity(Vec3(0, 0, 0))
                body.setAngularVelocity(Vec3(0, 0, 0))
                body.setKinematic(True)

    def hold(self, piece: str) -> None:
        """A piece is taken in hand: no longer anchored, watched for collapse, nor counted for "settled"."""
        self.in_hand.add(piece)
        self.anchors.let_go(piece)
        self.anchors.reweigh()

    def let_go(self, piece: str) -> None:
        self.in_hand.discard(piece)

    def _sleep_when_still(self) -> None:
        """Put the villa to rest once no point of any piece has moved `REST_MOVE` in `QUIET_S`.

        Judged by displacement, not speed: a resting piece's speed flickers (a step without
        contact force is 2 cm/s of gravity), while a floor pivoting slowly on its edge has
        a slow centre but a rim that travels.
        """
        if self._controllers or self.in_hand or self._keep_awake:
            self._still_since = {}
            self._jitter_since = {}
            return
        moved = not self._still_since
        limit = REST_MOVE if self.watch.collapse is None else REST_MOVE_FALLEN
        for piece, np in self.nodes.items():
            if piece not in _REACH:
                continue  # the base plate, the table
            start = self._still_since.get(piece)
            if start is None or _moved(np, start, _REACH[piece]) > limit:
                moved = True
                break
        fallen = self.watch.collapse is not None and self.time - self.watch.collapse.at_s >= FALLEN_REST_S
        if moved and not fallen:
            self._still_since = _poses(self.nodes)
            self._still_ticks = self.ticks
        elif fallen or (self.ticks - self._still_ticks) * STEP >= QUIET_S - 1e-9:
            self.watch.lies_askew()   # a floor come to rest askew has fallen: never left hanging
            self.sleep()
            return
        if self.watch.collapse is None and self._trembles_in_place():
            self.watch.lies_askew()
            self.sleep()

    def _trembles_in_place(self) -> bool:
        """Has every piece stayed within `REST_JITTER` of where it stood `JITTER_S` ago? (Judged
        once per `JITTER_S`; the reference poses are then taken anew.)"""
        if not self._jitter_since:
            self._jitter_since = _poses(self.nodes)
            self._jitter_ticks = self.ticks
            return False
        if (self.ticks - self._jitter_ticks) * STEP < JITTER_S - 1e-9:
            return False
        still = all(_moved(self.nodes[p], start, _REACH[p]) <= REST_JITTER
                    for p, start in self._jitter_since.items() if p in self.nodes)
        self._jitter_since = {}
        return still

    def run_until_settled(self, limit: float = 10.0) -> bool:
        """Step until every piece not in hand is at rest (True) or `limit` seconds pass (False)."""
        end = self.ticks + round(limit / STEP)
        while self.ticks < end:
            self._run(TICKS_PER_CHECK - self.ticks % TICKS_PER_CHECK)
            if self.settled:
                return True
        return self.settled

    @property
    def settled(self) -> bool:
        """Is every piece, except any held in hand, at rest (asleep)?"""
        return not any(np.node().isActive() for piece, np in self.nodes.items()
                       if piece not in self.in_hand and np.node().getMass() > 0)

    @property
    def still(self) -> bool:
        """Can nothing move? Every body sleeps and no hand pushes: a step changes no pose."""
        return self._asleep and not self._controllers

    def wake(self) -> None:
        for np in self.nodes.values():
            if np.node().getMass() > 0:
                np.node().setActive(True)
        self._asleep = False

    def sleep(self) -> None:
        """Put the villa to rest where it stands: every body asleep, its speed cleared.

        With nothing in hand, the Bullet world is first built anew from the poses, exactly
        as `from_snapshot` builds it: contact caches and the solver's warm start are gone,
        and every resting piece is anchored where it lies.
        """
        if not self._controllers and not self.in_hand:
            self._rebuild()
        self._fall_asleep()

    def _fall_asleep(self) -> None:
        for np in self.nodes.values():
            body = np.node()
            if body.getMass() > 0:
                body.setLinearVelocity(Vec3(0, 0, 0))
                body.setAngularVelocity(Vec3(0, 0, 0))
                body.setActive(False, True)  # forced: a body that was held refuses a plain request
        self._asleep = True
        self._still_since = {}
        self._jitter_since = {}

    def keep_awake(self, awake: bool = True) -> None:
        """Keep every body awake (or let them sleep again): for measuring and debugging."""
        self._keep_awake = awake
        self.wake()

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

    # --- snapshots (saved games, copies for planning) ---

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON: the simulated time, the frame time carried over, and every piece's pose.

        Taken when the villa has settled, it holds everything its future depends on:
        `Villa.from_snapshot` of it goes on exactly as this villa does under the same calls.
        """
        return {
            "time_ticks": self.ticks,
            "carried_s": self._accum,
            "pieces": {piece: [*pos, *quat] for piece, (pos, quat) in self.poses().items() if piece != "base"},
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "Villa":
        """The villa exactly as in `snapshot`, every piece at rest and anchored where it lies.

        Snapshots of earlier versions (without "carried_s") load too.
        """
        try:
            villa = cls()
            villa.ticks = int(data["time_ticks"])
            villa._accum = float(data.get("carried_s", 0.0))
            villa._load(data["pieces"])
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise ValueError(f"not a valid villa snapshot: {error}") from error
        villa._fall_asleep()
        return villa

    def copy(self) -> "Villa":
        """A villa of its own, the same in every bit as this one: `from_snapshot(snapshot())`.

        Take it when the villa has settled; it then goes on exactly as this one under the
        same calls (in this process or another).
        """
        return Villa.from_snapshot(self.snapshot())

    def _load(self, pieces: dict[str, Any]) -> None:
        """Add the pieces at their poses, in a fixed order (the floors up, then the columns
        by id): the same pieces make the same world, whatever order the data lists them in."""
        def order(piece: str):
            return (0, level_of_floor(piece), "") if level_of_floor(piece) is not None else (1, 0, piece)

        for piece in sorted(pieces, key=order):
            x, y, z, qw, qx, qy, qz = map(float, pieces[piece])
            pos, quat = Point3(x, y, z), Quat(qw, qx, qy, qz)
            if level_of_floor(piece) is not None and level_of_floor(piece) in FLOORS:
                self.add_floor(level_of_floor(piece), pos, quat=quat)
            elif piece in COLUMNS_BY_ID:
                self.add_column(piece, pos, quat=quat)
            else:
                raise ValueError(f"no piece is called {piece!r}")
        self._take_as_built()

    def _rebuild(self) -> None:
        """Build the Bullet world anew from the present poses (see `sleep`)."""
        pieces = self.snapshot()["pieces"]
        self.anchors.clear()
        for np in self.nodes.values():
            np.removeNode()
        self.nodes = {}
        self._new_world()
        self._load(pieces)

    def restore(self, poses: dict[str, Pose], pieces: Iterable[str] | None = None) -> None:
        """Put pieces back at the given poses, at rest (used by an aborted pull)."""
        for piece in pieces if pieces is not None else poses:
            if piece in self.nodes and piece in poses:
                (x, y, z), (qw, qx, qy, qz) = poses[piece]
                self.nodes[piece].setPosQuat(Point3(x, y, z), Quat(qw, qx, qy, qz))
        self.sleep()

    # --- picking ---

    def pick(self, origin: Point3, direction: Vec3) -> tuple[str, Point3] | None:
        """The piece a ray first hits (a mouse ray), and where; None when it hits nothing but the table."""
        return picking.first_hit(self.world, origin, direction)

    # --- the hand ---

    def grab(self, column: str, point: Point3 | None = None, steady: bool = False) -> Pull:
        """Take hold of a column at a world point on it (its centre if None): a `Pull`."""
        return Pull(self, column, self.nodes[column].getPos() if point is None else point, steady)

    def lay_floor(self, level: int | None = None) -> FloorLay:
        """Bring the next floor (or `level`) to carry over the top columns: a `FloorLay`."""
        return FloorLay(self, level)

    # --- facts ---

    def survey(self) -> VillaSurvey:
        """Where every column stands, what carries each floor, the top level (read once settled)."""
        return survey.survey(self)


def _poses(nodes: dict[str, NodePath]) -> dict[str, tuple[Point3, Quat]]:
    """Where each movable piece stands now."""
    return {p: (np.getPos(), np.getQuat()) for p, np in nodes.items() if p in _REACH}


def _moved(np, start: tuple[Point3, Quat], reach: float) -> float:
    """How far any point of a piece within `reach` of its centre has moved since `start` (at most).

    The turn is read off the vector part of the quaternion between the two poses (twice its
    length, the angle): an arccosine of their dot product would drown a small turn in the
    rounding of single precision."""
    pos, quat = start
    turn = quat.conjugate() * np.getQuat()
    return (np.getPos() - pos).length() + 2 * math.sqrt(turn[1] ** 2 + turn[2] ** 2 + turn[3] ** 2) * reach
