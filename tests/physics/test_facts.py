"""What the villa reports to the referee."""

from panda3d.core import Point3

from villa.physics import Villa, preset
from villa.physics.dimensions import FLOORS, ColumnSpot, FloorSpot, Layout, surface_z
from villa.physics import survey
from villa.rules.facts import ColumnPlaced


def test_the_survey_of_a_set_up(rings):
    found = rings.survey()
    assert found.top_level == 1
    assert found.columns_on(0) == frozenset(c.column for c in preset("rings").columns)
    assert found.floor_supports[1] == found.columns_on(0)  # every column carries the blue floor


def test_free_columns_carry_nothing(free_corners):
    found = free_corners.survey()
    free = {f"{c}-thin-3" for c in ("blue", "red", "yellow", "green")}
    assert free <= found.columns_on(0)
    assert not free & found.floor_supports[1]
    assert len(found.floor_supports[1]) == 16


def test_levels_of_a_villa_of_floors():
    layout = Layout("two", (
        ColumnSpot("red-thick", 0, -5, -3), ColumnSpot("red-hex", 0, -5, 3), ColumnSpot("blue-thick", 0, 5, 0),
        ColumnSpot("green-thick", 1, -3, -2), ColumnSpot("green-hex", 1, -3, 2), ColumnSpot("yellow-thick", 1, 3, 0),
        ColumnSpot("blue-thin-1", 2, 0, 0),
    ), (FloorSpot(1, 0, 0, 0), FloorSpot(2, 0, 0, 0)))
    villa = Villa.from_layout(layout)
    assert villa.run_until_settled(5)
    found = villa.survey()
    assert found.top_level == 2
    assert found.column_levels["green-hex"] == 1 and found.column_levels["blue-thin-1"] == 2
    assert found.column_levels["red-thin-1"] is None  # not in the villa
    assert found.floor_supports == {1: frozenset({"red-thick", "red-hex", "blue-thick"}),
                                    2: frozenset({"green-thick", "green-hex", "yellow-thick"})}


def _stand(villa, column, x, y, level):
    villa.add_column(column, Point3(x, y, surface_z(level) + 4.0))
    assert villa.run_until_settled(5)
    return survey.column_placed(villa, column)


def test_a_column_overhanging_the_edge_is_reported(rings):
    assert _stand(rings, "red-thin-1", 10.0, 0.0, 1) == ColumnPlaced("red-thin-1", 1, True, None)
    edge = max(x for x, y in FLOORS[1].outline if abs(y) < 0.5)  # the blue floor's rim on the x axis
    fact = _stand(rings, "red-thin-2", edge - 0.4, 0.0, 1)
    assert fact.level == 1 and not fact.footprint_inside


def test_a_column_standing_on_a_column_is_reported(rings):
    _stand(rings, "red-thick", 0.0, 0.0, 1)
    fact = _stand(rings, "red-thin-1", 0.0, 0.0, 2)
    assert fact == ColumnPlaced("red-thin-1", 1, True, "red-thick")
