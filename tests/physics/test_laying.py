"""Laying the next floor."""

import pytest
from panda3d.core import Point3

from villa.physics import PlacementError

from .conftest import frames, set_down


TRIO = ("red-thin-3", "blue-thin-3", "green-thin-3")  # free-standing in the preset "free corners"


def _three_columns_on_blue(villa):
    for column, (x, y) in zip(TRIO, ((-4, -3), (-4, 3), (4, 0))):
        set_down(villa, villa.grab(column), x, y)
        assert villa.collapse is None


def test_a_floor_is_laid_on_the_top_columns(free_corners):
    rings = free_corners
    _three_columns_on_blue(rings)
    lay = rings.lay_floor()
    assert lay.level == 2
    lay.aim(Point3(0.5, 0, 0))
    lay.turn(40)
    frames(rings, 60)
    assert lay.preview().resting_on == set(TRIO)
    lay.lower()
    frames(rings, 300, lambda: lay.state == "laid")
    assert rings.run_until_settled(5)
    fact = lay.result()
    assert fact.level == 2 and fact.resting_on == set(TRIO) and fact.inside_base
    assert rings.survey().top_level == 2 and rings.collapse is None


def test_a_floor_over_no_column_cannot_be_lowered_and_can_be_given_up(rings):
    lay = rings.lay_floor()
    with pytest.raises(PlacementError):
        lay.lower()  # no column stands on the blue floor yet
    lay.cancel()
    assert "floor-2" not in rings.nodes and rings.survey().top_level == 1
