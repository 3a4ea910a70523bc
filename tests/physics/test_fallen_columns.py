"""After a collapse, fallen columns come to rest on the table near the villa."""

import math

from panda3d.core import Vec3

from villa.physics import layouts
from villa.physics.bodies import TABLE_HALF
from villa.physics.world import Villa


def test_fallen_columns_do_not_roll_away():
    villa = Villa.from_layout(layouts.random_layout(2, floors=5))
    villa.run_until_settled()
    for column in list(villa.columns):  # knock out everything under the blue floor
        if villa.nodes[column].getZ() < 1.2 + 8.0:
            villa.remove(column)
    villa.wake()
    villa.advance(10.0)
    assert villa.collapse is not None
    farthest = max(math.hypot(*villa.poses()[c][0][:2]) for c in villa.columns)
    assert farthest < 90.0  # within reach on the drawn table (radius 100 cm)


def test_a_column_flung_over_the_tables_edge_lies_on_the_floor_beside_it():
    """Not falling for ever: a game's record holds every piece within reach of the table (`villa.match.record`)."""
    villa = Villa.from_layout(layouts.preset("free corners"), setup=True)
    assert villa.run_until_settled(5)
    column = "red-thin-3"     # standing free in front of the villa
    villa.wake()
    villa.body(column).setLinearVelocity(Vec3(0, -900, 300))    # flung far beyond the table
    villa.advance(12.0)
    x, y, z = villa.nodes[column].getPos()
    assert abs(x) <= TABLE_HALF and abs(y) <= TABLE_HALF and -20.0 < z < 0.0
