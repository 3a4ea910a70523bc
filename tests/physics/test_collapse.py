"""Collapse: the moment, the cause and the first piece to give way."""

from panda3d.core import Point3

from villa.physics import Villa
from villa.physics.dimensions import ColumnSpot, FloorSpot, Layout, surface_z
from villa.rules.facts import CollapseCause

from .conftest import frames

# The blue floor on three columns at one end and a thin one under its far corner:
# the thin one alone keeps it from tipping.
CORNER = Layout("corner", (ColumnSpot("red-thick", 0, -6, -3), ColumnSpot("blue-thick", 0, -6, 3),
                           ColumnSpot("green-hex", 0, -2.5, 0), ColumnSpot("red-thin-1", 0, 9, 0)),
                (FloorSpot(1, 0, 0, 0),))


def _pull_corner(steady: bool):
    villa = Villa.from_layout(CORNER)
    assert villa.run_until_settled(5)
    pos = villa.nodes["red-thin-1"].getPos()
    pull = villa.grab("red-thin-1", pos + Point3(0.7, 0, 0), steady=steady)
    pull.aim(pos + Point3(6, 0, 0))
    frames(villa, 240, lambda: villa.collapse is not None)
    return villa, pull


def test_pulling_the_only_column_under_an_overhang_brings_the_floor_down():
    villa, pull = _pull_corner(steady=False)
    assert villa.collapse is not None
    assert villa.collapse.piece == "floor-1"
    assert villa.collapse.cause in (CollapseCause.FLOOR_TILTED, CollapseCause.FLOOR_DROPPED)
    assert 0.1 < villa.collapse.at_s < 4.0
    assert pull.state == "dropped"


def test_steadying_the_floor_does_not_save_it_once_the_column_is_out():
    villa, _ = _pull_corner(steady=True)
    assert villa.collapse is not None and villa.collapse.piece == "floor-1"


def test_a_toppling_column_is_a_collapse(rings):
    start = rings.time
    rings.add_column("red-thin-1", Point3(3, 0, surface_z(1) + 4.2), quat=None)
    rings.nodes["red-thin-1"].setR(30)  # leaning well past its foot: it falls over
    frames(rings, 120, lambda: rings.collapse is not None)
    assert rings.collapse.cause is CollapseCause.COLUMN_TOPPLED
    assert rings.collapse.piece == "red-thin-1" and rings.collapse.at_s > start


def test_a_piece_reaching_the_table_is_a_collapse():
    villa = Villa.from_layout(Layout("one", (), ()), validate=False)
    villa.add_column("red-hex", Point3(20, 0, 8))
    frames(villa, 120, lambda: villa.collapse is not None)
    assert villa.collapse.cause is CollapseCause.PIECE_ON_TABLE and villa.collapse.piece == "red-hex"
