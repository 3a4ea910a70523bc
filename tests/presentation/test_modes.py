"""The game screen's modes: a class for every mode, and the arrangement's pick is the physics' own."""

from villa.physics import layouts
from villa.physics.dimensions import BASE, COLUMN_HEIGHT
from villa.presentation.arrangement import Arrangement
from villa.presentation.game import MODES
from villa.presentation.modes import Mode


def test_every_mode_has_its_class_and_each_class_its_mode():
    assert set(MODES) == set(Mode)
    assert all(cls.mode is mode for mode, cls in MODES.items())


def test_a_column_being_arranged_is_picked_by_its_own_shape_where_it_stands_and_where_it_is_lifted():
    arrangement = Arrangement.from_layout(layouts.preset("free corners"))
    spot = arrangement.spots["blue-thin-3"]
    column, point = arrangement.pick((spot.x, spot.y, 50.0), (0, 0, -1))
    assert column == "blue-thin-3" and abs(point[2] - (BASE.top_z + COLUMN_HEIGHT)) < 0.05
    column, point = arrangement.pick((spot.x, spot.y, 50.0), (0, 0, -1), lifted={column: 3.0})
    assert abs(point[2] - (BASE.top_z + COLUMN_HEIGHT + 3.0)) < 0.05
    arrangement.spots[column] = type(spot)(column, 0, spot.x + 30.0, spot.y, spot.yaw)   # moved far off
    hit = arrangement.pick((spot.x, spot.y, 50.0), (0, 0, -1))
    assert hit is None or hit[0] != column
