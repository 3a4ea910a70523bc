"""After a collapse, fallen columns come to rest on the table near the villa."""

import math

from villa.physics import layouts
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
