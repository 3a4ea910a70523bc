import pytest

from villa.physics import LayoutError, PRESETS, random_layout, validate_layout
from villa.physics.dimensions import ColumnSpot, FloorSpot, Layout
from villa.physics.layouts import problems


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_are_valid_set_ups(name):
    validate_layout(PRESETS[name], setup=True)


@pytest.mark.parametrize("seed", range(4))
def test_random_set_ups_are_valid_and_repeatable(seed):
    layout = random_layout(seed)
    validate_layout(layout, setup=True)
    assert random_layout(seed) == layout


@pytest.mark.parametrize("floors", [2, 3, 5])
def test_random_villas_of_several_floors_are_valid(floors):
    layout = random_layout(7, floors)
    assert len(layout.floors) == floors
    validate_layout(layout)


def _one_floor(*columns):
    return Layout("hand", tuple(columns), (FloorSpot(1, 0.0, 0.0, 0.0),))


def test_impossible_layouts_are_refused_with_reasons():
    border = _one_floor(ColumnSpot("red-thick", 0, 10.5, 0.0), ColumnSpot("red-hex", 0, -5, 3),
                        ColumnSpot("red-thin-1", 0, -5, -3))
    assert any("border ring" in p for p in problems(border))
    crowded = _one_floor(ColumnSpot("red-thick", 0, 0.0, 0.0), ColumnSpot("red-hex", 0, 1.0, 0.0))
    assert any("too close" in p for p in problems(crowded))
    tipping = _one_floor(ColumnSpot("red-thick", 0, -7.0, -3.0), ColumnSpot("red-hex", 0, -7.0, 3.0),
                         ColumnSpot("red-thin-1", 0, -4.0, 0.0))
    assert any("would tip" in p for p in problems(tipping))
    with pytest.raises(LayoutError) as error:
        validate_layout(tipping)
    assert "blue floor would tip" in str(error.value)
    gap = Layout("gap", (), (FloorSpot(2, 0, 0, 0),))
    assert "in order" in problems(gap)[0]
    unknown = _one_floor(ColumnSpot("purple-thin-1", 0, 0, 0))
    assert "no column called" in problems(unknown)[0]


def test_a_set_up_needs_every_column_on_the_site():
    layout = _one_floor(ColumnSpot("red-thick", 0, -5, -3), ColumnSpot("red-hex", 0, -5, 3),
                        ColumnSpot("blue-thick", 0, 5, 0))
    assert not problems(layout)
    assert any("all twenty" in p for p in problems(layout, setup=True))


def test_each_flaw_names_its_check_and_the_columns_at_fault():
    from dataclasses import replace
    from villa.physics.layouts import Check, flaws
    layout = PRESETS["rings"]
    first, second = layout.columns[0], layout.columns[1]
    crowded = replace(layout, columns=(replace(second, x=first.x, y=first.y),) + layout.columns[:1]
                      + layout.columns[2:])
    found = flaws(crowded, setup=True)
    apart = [f for f in found if f.check is Check.APART]
    assert apart and {first.column, second.column} <= {c for f in apart for c in f.columns}
    assert [f.sentence for f in found] == problems(crowded, setup=True)
    assert flaws(layout, setup=True) == []
