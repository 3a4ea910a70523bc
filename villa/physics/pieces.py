"""The villa's pieces as bodies in a Bullet world on the table, and where each of them lies."""

from __future__ import annotations

import math

from panda3d.core import NodePath, Point3, Quat, Vec3, loadPrcFileData

from villa.physics import bodies, picking
from villa.physics.dimensions import FLOORS, GRAVITY
from villa.rules.pieces import COLUMNS_BY_ID, floor_id

# Must be set before the first BulletWorld exists.
loadPrcFileData("villa.physics", "bullet-solver-iterations 10")
from panda3d.bullet import BulletWorld  # noqa: E402  (after the setting above)

STEP = 1.0 / 480.0          # fixed physics step: 240 Hz lets loaded columns creep
# Bullet hands Panda3D each body's pose extrapolated back from the end of its last step by
# the time it carries over, less one step: a falling body is seen a step behind. The world
# is made carrying just under one step, a multiple of 2^-28 s: with n·STEP for n = 2, 4, 8
# or 16 the sum stays exact in single precision, so it carries that time for ever and the
# poses read are those at the end of the steps (a microsecond behind).
CARRIED_TIME = math.floor((STEP - 2 ** -20) * 2 ** 28) / 2 ** 28

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]  # (x, y, z), (w, x, y, z)

FLOOR_LEVELS = {floor_id(level): level for level in FLOORS}   # a floor's piece id -> its level


class Pieces:
    """The table, the base plate, the floors and the columns as Bullet bodies: where each lies, and which
    one a ray meets first. `Villa` steps them in time.

    Piece ids: "base", "floor-1" .. "floor-5", and column ids as in `villa.rules.pieces`.
    """

    step_seconds = STEP     # Bullet's fixed step, for the hands

    def __init__(self) -> None:
        self.root = NodePath("villa")
        self.nodes: dict[str, NodePath] = {}
        self.in_hand: set[str] = set()   # pieces held by a hand: not laid, not watched, not "settled"
        self._new_world()

    def _new_world(self) -> None:
        self.world = BulletWorld()
        self.world.setGravity(Vec3(0, 0, -GRAVITY))
        self.world.setForceUpdateAllAabbs(False)  # sleeping bodies keep their bounds
        self.world.doPhysics(CARRIED_TIME, 1, STEP)  # less than a step: no step, only the time carried
        for body in (bodies.table_body(), bodies.base_body()):
            self._attach(body, Point3(0, 0, -1.0 if body.getName() == "table" else bodies.BASE.thickness / 2))

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

    # --- what is on the table ---

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

    # --- where each lies ---

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

    def pick(self, origin: Point3, direction: Vec3) -> tuple[str, Point3] | None:
        """The piece a ray first hits (a mouse ray), and where; None when it hits nothing but the table."""
        return picking.first_hit(self.world, origin, direction)
