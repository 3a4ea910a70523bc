"""Setting the columns up by hand, without a window: where a column may go, and the set-up checks in words."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from villa.physics import layouts
from villa.physics.dimensions import BASE, column_spec
from villa.physics.world import Villa
from villa.presentation.arrangement import CHECKS, Arrangement, check_line, reason
from villa.rules.pieces import ALL_COLUMNS


def _edge_spot(arrangement: Arrangement, column: str) -> tuple[float, float]:
    """A free place for `column` with its centre right on the blue floor's outline."""
    here = arrangement.spots[column]
    points = sorted(arrangement.outline(), key=lambda p: math.hypot(p[0] - here.x, p[1] - here.y))
    return next(p for p in points if arrangement.free(column, *p))


@pytest.mark.parametrize("name", list(layouts.PRESETS))
def test_every_preset_passes_every_check(name):
    arrangement = Arrangement.from_layout(layouts.preset(name))
    assert arrangement.problems() == [] and arrangement.valid
    assert arrangement.layout().floors == layouts.preset(name).floors
    assert set(arrangement.carrying()) == {c.column for c in layouts.supports(layouts.preset(name), 1)}


def test_a_column_never_goes_outside_the_site_nor_into_another():
    arrangement = Arrangement.from_layout(layouts.preset("rings"))
    assert arrangement.move("red-thick", 40.0, 0.0)                 # far out beyond the border
    spot = arrangement.spots["red-thick"]
    assert math.hypot(spot.x, spot.y) + column_spec("red-thick").radius <= BASE.site_radius
    other = arrangement.spots["blue-thin-1"]
    assert arrangement.move("red-thick", other.x, other.y)          # right onto another column
    spot = arrangement.spots["red-thick"]
    assert math.hypot(spot.x - other.x, spot.y - other.y) >= column_spec("red-thick").radius + 0.7 + 0.2
    assert not any(p.check in ("site", "apart") for p in arrangement.problems())


def test_the_nearest_free_place_is_where_the_pointer_is_when_it_is_free():
    arrangement = Arrangement.from_layout(layouts.preset("free corners"))
    assert arrangement.spot_for("green-thin-3", 3.3, -9.0) == (3.3, -9.0)


def test_a_column_dragged_past_the_border_stops_at_the_edge_of_the_site():
    arrangement = Arrangement.from_layout(layouts.preset("free corners"))
    x, y = arrangement.spot_for("green-thin-3", 3.3 * 3, -9.6 * 3)   # straight out from where it stands
    limit = BASE.site_radius - column_spec("green-thin-3").radius
    assert abs(math.hypot(x, y) - limit) < 0.02 and abs(math.atan2(y, x) - math.atan2(-9.6, 3.3)) < 1e-3


def test_a_column_half_under_the_edge_is_named():
    arrangement = Arrangement.from_layout(layouts.preset("free corners"))
    arrangement.move("blue-thin-3", *_edge_spot(arrangement, "blue-thin-3"))
    problems = arrangement.problems()
    assert [p.check for p in problems] == ["edge"] and problems[0].columns == ("blue-thin-3",)
    assert reason(problems[0]) == ("The blue thin column stands half under the edge of the blue floor: "
                                   "move it fully under the floor or clear of it.")
    with pytest.raises(layouts.LayoutError, match="blue-thin-3 stands half under the edge"):
        layouts.validate_layout(arrangement.layout(), setup=True)


def test_too_few_columns_under_the_floor_and_a_tipping_floor_are_named():
    arrangement = Arrangement.from_layout(layouts.preset("rings"), need=3)
    floor = arrangement.floor
    places = ((d / 10 * math.cos(a), d / 10 * math.sin(a)) for a in (0, 1, 2, 3, 4, 5) for d in range(150, 300))
    for x, y in places:   # slide the floor's place off the plate until two columns are left under it
        arrangement.floor = type(floor)(1, x, y, 0.0)
        if len(arrangement.carrying()) == 2:
            break
    assert len(arrangement.carrying()) == 2
    found = {p.check: p for p in arrangement.problems()}
    assert reason(found["carried"], 3) == "Only 2 columns would carry the blue floor; it needs at least 3."
    assert check_line("carried", arrangement) == "Columns under the blue floor: 2 (at least 3)"
    assert reason(found["steady"]).startswith("The blue floor would tip")
    assert set(found["carried"].columns) == set(arrangement.carrying())


def test_no_column_under_the_floor_is_said_so():
    arrangement = Arrangement.from_layout(layouts.preset("rings"))
    floor = arrangement.floor
    arrangement.floor = type(floor)(1, 40.0, 0.0, 0.0)   # the floor's place far from every column
    problems = {p.check: p for p in arrangement.problems()}
    assert problems["carried"].columns == ()
    assert reason(problems["carried"]) == "The blue floor would rest on no column: move some inside the blue outline."
    assert "plate" in problems


def test_the_family_edition_needs_one_column():
    arrangement = Arrangement.from_layout(layouts.preset("rings"), need=1)
    assert check_line("carried", arrangement) == "Columns under the blue floor: 20 (at least 1)"


def test_every_check_has_its_line():
    arrangement = Arrangement.from_layout(layouts.preset("rings"))
    assert all(check_line(check, arrangement) for check in CHECKS)


def test_a_layout_without_every_column_is_refused():
    rings = layouts.preset("rings")
    short = type(rings)("short", rings.columns[1:], rings.floors)
    with pytest.raises(ValueError, match="leaves out"):
        Arrangement.from_layout(short)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 31), st.lists(st.tuples(st.integers(0, 19), st.floats(-13, 13), st.floats(-13, 13)),
                                          min_size=1, max_size=8),
       st.one_of(st.none(), st.tuples(st.floats(-3, 3), st.floats(-3, 3), st.floats(-180, 180))))
def test_valid_here_means_the_villa_builds(seed, moves, floor_move):
    """The checks agree with the physics' own: a valid arrangement always builds, an invalid one never."""
    arrangement = Arrangement.from_layout(layouts.random_layout(seed % 50))
    if floor_move is not None:
        dx, dy, turn = floor_move
        arrangement.move_floor(arrangement.floor.x + dx, arrangement.floor.y + dy)
        arrangement.turn_floor(turn)
    for index, x, y in moves:
        arrangement.move(ALL_COLUMNS[index].id, x, y)
    layout = arrangement.layout()
    if arrangement.valid:
        assert layouts.problems(layout, setup=True) == []
        Villa.from_layout(layout, setup=True)   # validates again, and builds
    else:   # what the physics refuses, or fewer columns under the floor than the rules want
        assert layouts.problems(layout, setup=True) or len(arrangement.carrying()) < 3


def test_a_valid_arrangement_stands():
    arrangement = Arrangement.from_layout(layouts.preset("colonnade"))
    rng = random.Random(4)
    moved = set()
    for column in ("red-thick", "green-hex", "blue-thin-2") * 10:   # a move is kept while all stays valid
        before = arrangement.spots[column]
        if column not in moved and arrangement.move(column, rng.uniform(-8, 8), rng.uniform(-8, 8)):
            if arrangement.valid:
                moved.add(column)
            else:
                arrangement.spots[column] = before
    assert len(moved) == 3 and arrangement.valid
    villa = Villa.from_layout(arrangement.layout(), setup=True)
    assert villa.run_until_settled(6.0) and villa.collapse is None
    for spot in arrangement.layout().columns:
        x, y, _ = villa.pose(spot.column)[0]
        assert math.hypot(x - spot.x, y - spot.y) < 0.1


def test_the_blue_floor_is_moved_and_turned_and_the_checks_follow():
    arrangement = Arrangement.from_layout(layouts.preset("rings"))
    floor = arrangement.floor
    assert arrangement.on_floor(floor.x, floor.y) and not arrangement.on_floor(floor.x + 30, floor.y)
    arrangement.move_floor(40.0, 0.0)                  # dragged far out: its middle stays over the site
    assert math.hypot(arrangement.floor.x, arrangement.floor.y) <= BASE.site_radius + 1e-6
    assert {"plate", "carried"} & {p.check for p in arrangement.problems()}
    arrangement.move_floor(floor.x, floor.y)
    arrangement.turn_floor(400.0)
    assert arrangement.floor.yaw == pytest.approx((floor.yaw + 40.0) % 360)
    assert arrangement.layout().floors == (arrangement.floor,)
    assert arrangement.outline() == layouts.floor_outline(arrangement.floor)


def test_a_turned_and_moved_floor_goes_on_where_it_was_put():
    arrangement = Arrangement.from_layout(layouts.preset("colonnade"))
    start = arrangement.floor
    placed = None
    for turn in range(5, 360, 5):                     # the first turn and shift every check passes
        for dx, dy in ((0.5, 0.0), (0.0, -0.5), (0.0, 0.0)):
            arrangement.floor = start
            arrangement.move_floor(start.x + dx, start.y + dy)
            arrangement.turn_floor(turn)
            if arrangement.valid:
                placed = arrangement.floor
                break
        if placed:
            break
    assert placed is not None and placed.yaw != start.yaw
    villa = Villa.from_layout(arrangement.layout(), setup=True)
    assert villa.run_until_settled(6.0) and villa.collapse is None
    (x, y, _), _quat = villa.pose("floor-1")
    assert math.hypot(x - placed.x, y - placed.y) < 0.1
    assert abs((villa.nodes["floor-1"].getH() - placed.yaw + 180) % 360 - 180) < 0.5
