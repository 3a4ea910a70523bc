"""The hand: pulling, steadying, carrying, placing, aborting, taking out."""

import pytest
from panda3d.core import Point3, Vec3

from villa.physics import PlacementError
from villa.physics import pulling
from villa.rules.facts import ColumnPlaced, ColumnTakenOut

from .conftest import frames, set_down


def _others_moved_mm(villa, before, column):
    return max((villa.nodes[p].getPos() - before[p]).length() * 10 for p in before if p != column)


def test_a_free_column_comes_out_without_disturbing_anything(free_corners):
    villa = free_corners
    before = {p: villa.nodes[p].getPos() for p in villa.nodes}
    pos = villa.nodes["red-thin-3"].getPos()
    pull = villa.grab("red-thin-3", pos + Point3(0, -0.7, 1))
    assert pull.state == "carrying"  # nothing rests on it
    pull.aim(Point3(0, 0, 0))
    frames(villa, 150)
    assert villa.nodes["red-thin-3"].getZ() > 14  # carried clear above the blue floor
    assert _others_moved_mm(villa, before, "red-thin-3") < 1.0
    assert pull.preview() == ColumnPlaced("red-thin-3", 1, True, None)
    set_down(villa, pull, 1.0, -1.0)
    assert pull.result() == ColumnPlaced("red-thin-3", 1, True, None)
    assert villa.survey().column_levels["red-thin-3"] == 1 and villa.collapse is None


def _pull_out(villa, pull, pos, out):
    """Draw the hand outward at 3 cm/s until the column comes free."""
    for i in range(600):
        pull.aim(pos + out * (1 + i * 0.05))
        frames(villa, 1)
        if pull.state != "pulling":
            return


def test_a_loaded_column_comes_out_and_its_floor_stays(rings):
    floor = rings.nodes["floor-1"].getPos()
    pos = rings.nodes["red-thick"].getPos()  # in the outer ring, under the floor's edge
    pull = rings.grab("red-thick", pos + Point3(0, 0, 1))
    _pull_out(rings, pull, pos + Point3(0, 0, 1), Vec3(pos.x, pos.y, 0).normalized())
    assert pull.state == "carrying" and rings.collapse is None
    # its nineteen other columns hold the floor with far more friction than it drags with
    assert (rings.nodes["floor-1"].getPos() - floor).length() < 0.05


def test_a_weak_pull_cannot_free_a_loaded_column(rings, monkeypatch):
    monkeypatch.setattr(pulling, "PULL_MAX_FORCE", 20.0)  # 0.2 N: friction under the load wins
    pos = rings.nodes["red-thick"].getPos()
    pull = rings.grab("red-thick", pos)
    pull.aim(pos + Point3(pos.x, pos.y, 0) * 2)
    frames(rings, 120)
    assert pull.state == "pulling"
    assert (rings.nodes["red-thick"].getPos() - pos).length() < 0.3


def test_steadying_holds_the_floor_still(rings):
    floor = rings.nodes["floor-1"].getPos()
    pos = rings.nodes["red-thick"].getPos()
    pull = rings.grab("red-thick", pos, steady=True)
    assert pull.steadied == "floor-1"
    _pull_out(rings, pull, pos, Vec3(pos.x, pos.y, 0).normalized())
    assert pull.state == "carrying" and not pull.steady
    assert (rings.nodes["floor-1"].getPos() - floor).length() < 0.01


def test_a_column_under_a_slab_past_the_outline_is_not_yet_free(rings):
    # the floor's box slabs reach past its drawn outline here and there: a column beyond
    # the outline but under a slab would lift the floor's rim if it rose
    from villa.physics import bodies, geometry
    from villa.physics.dimensions import FLOORS, surface_z
    r, reach = 0.7, 0.7 + pulling.FREE_MARGIN
    outline = FLOORS[1].outline
    spot = None
    for x10 in range(-140, 141, 2):
        for y10 in range(-110, 111, 2):
            x, y = x10 / 10, y10 / 10
            if -geometry.signed_distance(outline, x, y) > reach + 0.05 and any(
                    max(abs(x - cx) - hx, 0) ** 2 + max(abs(y - cy) - hy, 0) ** 2 < (r + 0.05) ** 2
                    for cx, cy, hx, hy in bodies.floor_slabs(1)):
                spot = (x, y)
    assert spot is not None
    floor = rings.nodes["floor-1"].getPos()
    x, y = spot[0] + floor.x, spot[1] + floor.y
    rings.remove("red-thin-1")  # one of twenty under the floor: move it out to the spot
    rings.add_column("red-thin-1", Point3(x, y, surface_z(0) + 4.0))
    assert rings.run_until_settled(5) and rings.collapse is None
    pull = rings.grab("red-thin-1")
    assert pull.state == "pulling"


def test_abort_puts_the_villa_back(rings):
    before = rings.poses()
    pos = rings.nodes["blue-thin-1"].getPos()
    pull = rings.grab("blue-thin-1", pos)
    pull.aim(pos + Point3(3, 0, 0))
    frames(rings, 40)
    pull.abort()
    assert pull.state == "aborted" and rings.settled and not rings.in_hand
    assert rings.poses() == before
    frames(rings, 30)
    assert rings.poses() == before


def test_take_out_removes_the_column(free_corners):
    pull = free_corners.grab("green-thin-3")
    frames(free_corners, 30)
    pull.take_out()
    assert free_corners.run_until_settled(5)
    assert pull.result() == ColumnTakenOut("green-thin-3")
    assert free_corners.survey().column_levels["green-thin-3"] is None


def test_a_column_is_set_down_only_when_free_and_over_the_villa(rings, free_corners):
    pos = rings.nodes["red-thick"].getPos()
    held = rings.grab("red-thick", pos)
    assert held.state == "pulling"
    with pytest.raises(PlacementError, match="not free to set down"):
        held.place()
    pull = free_corners.grab("blue-thin-3")
    pull.aim(Point3(40, 0, 0))
    frames(free_corners, 200)
    assert pull.preview() is None
    with pytest.raises(PlacementError, match="no floor under"):
        pull.place()


def test_a_ray_aims_the_pull(free_corners):
    pull = free_corners.grab("yellow-thin-3")
    frames(free_corners, 90)
    camera = Point3(0, -60, 60)
    pull.aim_ray(camera, Point3(2, 0, pull.carry_z()) - camera)
    frames(free_corners, 120)
    pos = free_corners.nodes["yellow-thin-3"].getPos()
    assert abs(pos.x - 2) < 0.1 and abs(pos.y) < 0.1


def test_a_column_is_not_set_down_on_the_rim_of_another(free_corners):
    # lowered onto another column with its centre near that one's rim, a column sits askew on
    # the rim and topples; beside a standing column with their ends overlapping, its foot comes
    # down on that one's rim: the hand refuses both. Well on that column, or clear of it, or
    # touching it by no more than a corner, the column may come down
    villa = free_corners
    first = villa.grab("red-thin-3", villa.nodes["red-thin-3"].getPos() + Point3(0, -0.7, 1))
    set_down(villa, first, 0.0, 0.0)
    second = villa.grab("green-thin-3", villa.nodes["green-thin-3"].getPos() + Point3(0, -0.7, 1))
    assert second.state == "carrying"
    r = 0.7   # both thin
    for gap, refused in ((0.3, False), (r - 0.1, True), (r + 0.25, True), (2 * r - 0.3, True), (2 * r - 0.1, False),
                         (2 * r + 0.2, False)):
        second.aim(Point3(gap, 0.0, 0))
        frames(villa, 240, lambda: abs(villa.nodes["green-thin-3"].getX() - gap) < 0.02)
        refusal = pulling.landing_refusal(villa, "green-thin-3")
        assert (refusal is not None and refusal.code == "on a rim"
                and refusal.values["on_column"] == "red-thin-3") if refused else refusal is None
        if refused:
            with pytest.raises(PlacementError):
                second.place()
    second.place()
    frames(villa, 600, lambda: second.state == "placed")
    assert villa.run_until_settled(10) and villa.collapse is None
    assert second.result() == ColumnPlaced("green-thin-3", 1, True, None)

def test_whether_a_column_is_under_a_floor_is_the_same_asked_quickly_or_in_full():
    # the pull asks every 1/60 s; two discs about each floor's centre settle most points at once,
    # and must never answer otherwise than the outline and the slabs asked edge by edge
    import random

    from villa.physics import Villa, bodies, geometry, random_layout
    from villa.physics.dimensions import FLOORS, column_spec
    from villa.rules.pieces import floor_id

    villa = Villa.from_layout(random_layout(1003, 5))     # five floors, turned every way

    def in_full(column, x, y, level):
        reach = column_spec(column).radius + pulling.FREE_MARGIN
        for above in villa.floor_levels:
            if above <= level:
                continue
            floor = villa.nodes[floor_id(above)]
            local = floor.getRelativePoint(villa.root, Point3(x, y, floor.getZ()))
            if geometry.signed_distance(FLOORS[above].outline, local.x, local.y) > -reach or any(
                    max(abs(local.x - cx) - hx, 0) ** 2 + max(abs(local.y - cy) - hy, 0) ** 2 < reach ** 2
                    for cx, cy, hx, hy in bodies.floor_slabs(above)):
                return True
        return False

    rng = random.Random(35)
    asked = [(rng.choice(villa.columns), rng.uniform(-16, 16), rng.uniform(-16, 16), rng.randrange(4))
             for _ in range(3000)]
    answers = [pulling.under_a_floor(villa, *question) for question in asked]
    assert answers == [in_full(*question) for question in asked]
    assert 0.2 < sum(answers) / len(answers) < 0.8     # both answers are asked often
