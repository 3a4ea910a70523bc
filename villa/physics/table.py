"""The table under the villa: columns lying on it roll to a stop, and pieces flung over its edge lie on
the floor beside it."""

from __future__ import annotations

import math

from panda3d.core import Vec3

from villa.physics import bodies
from villa.physics.dimensions import column_spec

TABLE_ROLL_DECAY = 3.0      # 1/s: a column rolling on the table loses speed like wood on a cloth
                            # (Bullet 2.84 in Panda3D has no rolling friction; without this a
                            # fallen round column rolls for metres)
OFF_THE_TABLE_Z = -10.0     # cm: a piece this far below the table's top went over its edge: it lies on
                            # the floor beside the table (flung from a fall, it would fall for ever)
CRAWL = 1.0                 # cm/s: a column lying on the table that moves and rolls slower than
                            # this is stopped: a cylinder on its side touches the table at one
                            # point a step, which wanders along it, and it would crawl for minutes


def roll_to_rest(villa, seconds: float) -> None:
    """Slow down the columns lying on the table for `seconds` (the time since the last check), and stop
    those that crawl."""
    keep = math.exp(-TABLE_ROLL_DECAY * seconds)
    for column in villa.columns:
        np = villa.nodes[column]
        if np.getZ() > column_spec(column).radius + 0.3 or column in villa.in_hand:
            continue  # standing, or not on the table
        body = np.node()
        spin, speed = body.getAngularVelocity() * keep, body.getLinearVelocity() * keep
        if speed.length() < CRAWL and spin.length() * column_spec(column).radius < CRAWL:
            spin, speed = Vec3(0, 0, 0), Vec3(0, 0, 0)
        body.setAngularVelocity(spin)
        body.setLinearVelocity(speed)


def catch_the_fallen(villa) -> None:
    """A piece that went over the table's edge stops on the floor beside it, where a game's record can hold it."""
    edge = bodies.TABLE_HALF
    for piece, np in villa.nodes.items():
        body = np.node()
        if piece in ("table", "base"):
            continue
        if np.getZ() < OFF_THE_TABLE_Z and not body.isKinematic():
            np.setPos(min(max(np.getX(), -edge), edge), min(max(np.getY(), -edge), edge), OFF_THE_TABLE_Z)
            body.setLinearVelocity(Vec3(0, 0, 0))
            body.setAngularVelocity(Vec3(0, 0, 0))
            body.setKinematic(True)
