"""The villa as a player's window heard it: every piece a kinematic Bullet body at the pose the window draws
(`villa.online.client.smoothing`), so a press picks the column under the pointer and the screen's hints
measure the same wood as the hot-seat game's. Nothing falls here: the server's villa is the one that moves."""

from __future__ import annotations

from panda3d.core import Point3, Quat, Vec3

from villa.physics.world import Villa
from villa.rules.pieces import level_of_floor


class Puppet(Villa):
    def __init__(self) -> None:
        super().__init__()
        self.world.setGravity(Vec3(0, 0, 0))
        self.clock = 0.0
        self.resting = True

    @property
    def time(self) -> float:
        return self.clock

    @property
    def settled(self) -> bool:
        return self.resting

    def show(self, poses: dict, out: frozenset[str]) -> None:
        """Every piece where the window draws it; pieces out of the game are taken off the table."""
        for piece in [p for p in self.nodes if p in out]:
            self.remove(piece)
        for piece, ((x, y, z), (qw, qx, qy, qz)) in poses.items():
            if piece in out:
                continue
            if piece not in self.nodes:
                level = level_of_floor(piece)
                at = Point3(x, y, z)
                node = self.add_floor(level, at) if level is not None else self.add_column(piece, at)
                node.node().setKinematic(True)
            self.nodes[piece].setPosQuat(Point3(x, y, z), Quat(qw, qx, qy, qz))
        self.world.doPhysics(0.0)     # the bodies' bounds follow their nodes, for picking
