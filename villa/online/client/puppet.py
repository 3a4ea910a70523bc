"""The villa as a player's window heard it: every piece a Bullet body at the pose the window draws
(`villa.online.client.smoothing`), so a press picks the column under the pointer and the screen's hints
measure the same wood as the hot-seat game's. Nothing falls here: the server's villa is the one that moves,
and this world never steps (its bodies keep their weight, for the builder's eye, and feel no gravity)."""

from __future__ import annotations

from panda3d.core import Point3, Quat, Vec3

from villa.physics import picking
from villa.physics.pieces import Pose
from villa.physics.world import Villa
from villa.rules.pieces import level_of_floor


class Puppet(Villa):
    def __init__(self) -> None:
        super().__init__()
        self.world.setGravity(Vec3(0, 0, 0))
        self.clock = 0.0
        self.resting = True
        self._shown: dict[str, Pose] = {}     # each piece's pose as last drawn

    @property
    def time(self) -> float:
        return self.clock

    @property
    def settled(self) -> bool:
        return self.resting

    def show(self, poses: dict[str, Pose], out: frozenset[str]) -> None:
        """Every piece where the window draws it; pieces out of the game are taken off the table. A piece that
        moved is put in the world anew where it is drawn, for the ray test to find it there (`picking.moved`)."""
        for piece in [p for p in self.nodes if p in out]:
            self.remove(piece)
            self._shown.pop(piece, None)
        for piece, pose in poses.items():
            if piece in out or self._shown.get(piece) == pose:
                continue
            (x, y, z), (qw, qx, qy, qz) = pose
            at, quat = Point3(x, y, z), Quat(qw, qx, qy, qz)
            node = self.nodes.get(piece)
            if node is None:
                level = level_of_floor(piece)
                if level is not None:
                    self.add_floor(level, at, quat=quat)
                else:
                    self.add_column(piece, at, quat=quat)
            else:
                node.setPosQuat(at, quat)
                picking.moved(self.world, node.node())
            self._shown[piece] = pose
