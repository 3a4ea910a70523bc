"""Which piece a ray (a mouse ray) first hits: one pick, by Bullet's ray test on the pieces' own
shapes, for a villa built and for the columns of a layout being arranged before any is built."""

from __future__ import annotations

from typing import Mapping

from panda3d.bullet import BulletWorld
from panda3d.core import Point3, TransformState, Vec3

from villa.physics.bodies import column_body
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, column_spec

RAY_LENGTH = 500.0   # cm: past the far side of the table from any camera


def first_hit(world: BulletWorld, origin, direction, ignore: str = "table") -> tuple[str, Point3] | None:
    """The body a ray first hits, and where; None when it hits nothing (or only `ignore`)."""
    direction = Vec3(*direction)
    direction.normalize()
    origin = Point3(*origin)
    hit = world.rayTestClosest(origin, origin + direction * RAY_LENGTH)
    if not hit.hasHit() or hit.getNode().getName() == ignore:
        return None
    return hit.getNode().getName(), Point3(hit.getHitPos())


def moved(world: BulletWorld, body) -> None:
    """A body was set somewhere new in a world that never steps: put it in anew where it is. A ray test finds
    bodies by the bounds they had when added (the broadphase works them out again only as the world steps), so
    a body moved and not put in anew is found where it stood, and missed where it stands. `body` must not be
    kinematic: Bullet takes a kinematic body's pose from its node only as the world steps."""
    world.removeRigidBody(body)
    world.attachRigidBody(body)


class StandingColumns:
    """Columns standing on the plate where a layout puts them, in a world of their own that never
    steps: only to be pointed at."""

    def __init__(self, columns) -> None:
        self.world = BulletWorld()
        self.bodies = {column: column_body(column, column_spec(column)) for column in columns}
        self._placed: dict[str, tuple] = {}

    def pick(self, origin, direction, spots: Mapping[str, tuple[float, float, float, float]]
             ) -> tuple[str, Point3] | None:
        """The column a ray first hits; `spots` gives each column's x, y, yaw and how far it is lifted."""
        for column, spot in spots.items():
            if self._placed.get(column) == spot:
                continue
            body = self.bodies[column]
            x, y, yaw, lifted = spot
            z = BASE.top_z + lifted + COLUMN_HEIGHT / 2
            body.setTransform(TransformState.makePosHpr(Point3(x, y, z), Vec3(yaw, 0, 0)))
            if column in self._placed:
                moved(self.world, body)
            else:
                self.world.attachRigidBody(body)
            self._placed[column] = spot
        return first_hit(self.world, origin, direction)
