"""The villa in Bullet: built from a layout or a snapshot, stepped at a fixed rate, put to sleep at rest."""

from __future__ import annotations

import ctypes
from typing import Any, Iterable

from panda3d.core import NodePath, Point3, Quat, RenderState, TransformState, Vec3

from villa.physics import bodies, survey, table
from villa.physics.collapse import CollapseWatch
from villa.physics.dimensions import COLUMN_HEIGHT, FLOOR_THICKNESS, FLOORS, GRAVITY, Layout, column_spec, surface_z
from villa.physics.friction import Anchors
from villa.physics.hand import Hands
from villa.physics.laying import FloorLay
from villa.physics.layouts import validate_layout
from villa.physics.pieces import STEP, Pieces, Pose
from villa.physics.pulling import Pull
from villa.physics.rest import RestWatch
from villa.rules.facts import Collapse, VillaSurvey
from villa.rules.pieces import COLUMNS_BY_ID, level_of_floor

TICKS_PER_CHECK = 8         # watch for collapse every 1/60 s of simulated time
MAX_TICKS_PER_CALL = 16     # a slow frame slows the villa down rather than piling up work
FRAME_TICKS = 2             # `step` runs whole pairs of steps (see `pieces.CARRIED_TIME`)
BUILD_RAMP_S = 0.2          # a villa built from a layout takes up its weight over this long: set
                            # down at full weight all at once, a tall stack jolts on its fresh
                            # contacts


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


class Villa(Pieces):
    """The wooden villa: its pieces in a Bullet world (`Pieces`), stepped in time, watched for collapse
    and for rest, and put to sleep at rest.

    Time is simulated seconds since the villa was built (`time`), advanced only by `step`.

    Whenever it comes to rest the villa builds its Bullet world anew from its poses, as
    `from_snapshot` does: a settled villa and one restored from its snapshot are then the
    same in every bit and go on alike under the same calls.
    """

    def __init__(self) -> None:
        super().__init__()
        self.ticks = 0
        self._accum = 0.0
        self._asleep = False
        self._ramp_ticks = 0
        self._keep_awake = False
        self._built = False              # anchored and watched as it stands (see `_run`)
        self.hands = Hands(self)
        self.watch = CollapseWatch(self)
        self.rest_watch = RestWatch(self)
        self.anchors = Anchors(self, STEP)

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
        self.in_hand.discard(piece)
        self.anchors.reweigh()   # what it carried is held by the rest, or falls

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
            if self._asleep and not self.hands.busy:
                self.ticks += ticks
                return  # nothing can move: every body sleeps and nothing pushes
            if self.ticks < self._ramp_ticks:
                batch = min(FRAME_TICKS, ticks)  # the build's ramp changes gravity every pair of steps
                self.world.setGravity(Vec3(0, 0, -GRAVITY * min(1.0, (self.ticks + batch) / self._ramp_ticks)))
            else:
                # a power of two: n·step is then exact in Bullet's single precision, and so is the
                # time it carries (see `pieces.CARRIED_TIME`)
                batch = _power_of_two_at_most(min(ticks, TICKS_PER_CHECK - self.ticks % TICKS_PER_CHECK))
            self.hands.before_steps(batch * STEP)
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
            table.roll_to_rest(self, TICKS_PER_CHECK * STEP)
            table.catch_the_fallen(self)
        self.hands.after_check()
        if self._asleep:
            return
        if self.hands.busy or self.in_hand or self._keep_awake:
            self.rest_watch.forget()
        elif self.rest_watch.at_rest():
            self.watch.lies_askew()   # a floor come to rest askew has fallen: never left hanging
            self.sleep()

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
        return self._asleep and not self.hands.busy

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
        if not self.hands.busy and not self.in_hand:
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
        self.rest_watch.forget()

    def keep_awake(self, awake: bool = True) -> None:
        """Keep every body awake (or let them sleep again): for measuring and debugging."""
        self._keep_awake = awake
        self.wake()

    # --- collapse ---

    @property
    def collapse(self) -> Collapse | None:
        """The collapse, once one has happened (the first piece to give way and when)."""
        return self.watch.collapse

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


