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


@pytest.mark.parametrize("lowered", [False, True], ids=["carried", "lowered"])
def test_a_floor_in_hand_when_the_villa_falls_falls_with_it(free_corners, lowered):
    villa = free_corners
    _three_columns_on_blue(villa)
    lay = villa.lay_floor()
    if lowered:
        lay.lower()
    frames(villa, 5)
    high = villa.nodes["floor-2"].getZ()
    villa.wake()
    villa.body("floor-1").setLinearVelocity((150, 0, 0))
    frames(villa, 600, lambda: villa.collapse is not None)
    assert villa.run_until_settled(30)
    assert lay.state == "dropped" and "floor-2" not in villa.in_hand
    assert villa.nodes["floor-2"].getZ() < high - 5, "it came down with the rest"
