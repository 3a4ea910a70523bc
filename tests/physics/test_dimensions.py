import math

from villa.physics.dimensions import (BASE, COLUMNS, FLOORS, ColumnSpot, FloorSpot, Layout, layout_from_json,
                                      layout_to_json, polygon_area, polygon_centroid)
from villa.physics import geometry


def test_floors_shrink_from_blue_to_red():
    areas = [FLOORS[level].area for level in range(1, 6)]
    assert areas == sorted(areas, reverse=True)
    assert [FLOORS[level].colour for level in range(1, 6)] == ["blue", "green", "yellow", "orange", "red"]


def test_outlines_are_counter_clockwise_about_their_centre_of_mass():
    for spec in FLOORS.values():
        assert polygon_area(spec.outline) > 0
        cx, cy = polygon_centroid(spec.outline)
        assert math.hypot(cx, cy) < 1e-3


def test_the_blue_floor_is_crescent_like_and_fits_on_the_base():
    outline = FLOORS[1].outline
    hull = geometry.convex_hull(outline)
    assert polygon_area(hull) > 1.03 * polygon_area(outline)  # a bite out of its side
    assert FLOORS[1].radius < BASE.radius


def test_column_kinds():
    assert COLUMNS["thin"].radius < COLUMNS["hex"].radius < COLUMNS["thick"].radius
    assert len(COLUMNS["hex"].corners()) == 6
    assert abs(COLUMNS["hex"].across_flats - 2.5) < 1e-9
    assert len({c.height for c in COLUMNS.values()}) == 1


def test_layout_round_trips_through_json():
    layout = Layout("x", (ColumnSpot("red-thin-1", 0, 1.5, -2.0, 30.0),), (FloorSpot(1, 0.5, 0.25, 12.0),))
    assert layout_from_json(layout_to_json(layout)) == layout
