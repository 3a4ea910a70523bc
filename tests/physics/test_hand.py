"""The builder's hands: a floor and a column held on contact, felt, and only then let go;
the strain of a pull."""

from panda3d.core import Point3

from .conftest import frames, set_down

TRIO = ("red-thin-3", "blue-thin-3", "green-thin-3")  # free-standing in the preset "free corners"
OFF_BALANCE_X = -5.2   # the green floor's centre 0.5 cm past the tops of the two columns at x = -4


def _three_columns_on_blue(villa):
    for column, (x, y) in zip(TRIO, ((-4, -3), (-4, 3), (4, 0))):
        set_down(villa, villa.grab(column), x, y)


def _held_over(villa, x):
    lay = villa.lay_floor()
    lay.aim(Point3(x, 0, 0))
    frames(villa, 60)
    lay.lower(hold=True)
    frames(villa, 90)
    return lay


def test_a_floor_held_off_balance_tips_without_falling_and_sits_once_moved_towards_its_high_side(free_corners):
    villa = free_corners
    _three_columns_on_blue(villa)
    lay = _held_over(villa, OFF_BALANCE_X)
    assert lay.state == "held" and lay.tilt_deg() > 0.75
    assert lay.touching() <= {"red-thin-3", "blue-thin-3"} and lay.touching()
    frames(villa, 60)
    assert lay.tilt_deg() < 10.0 and villa.collapse is None   # held: leaning, not falling
    high_x, high_y = lay.high_side()
    assert high_x > 0.9   # the side away from the two columns it leans on stays up
    lay.lift()
    frames(villa, 30)
    grip = lay.grip_point()
    lay.aim(Point3(grip.x + high_x, grip.y + high_y, 0))
    frames(villa, 30)
    lay.lower(hold=True)
    frames(villa, 90)
    assert lay.tilt_deg() < 0.5 and lay.touching()
    lay.let_go()
    assert villa.run_until_settled(5) and villa.collapse is None
    assert lay.result().resting_on == set(TRIO)


def test_a_floor_let_go_off_balance_falls(free_corners):
    villa = free_corners
    _three_columns_on_blue(villa)
    lay = _held_over(villa, OFF_BALANCE_X)
    lay.let_go()
    villa.run_until_settled(8)
    assert villa.collapse is not None


def test_a_column_set_down_is_held_standing_slid_lifted_and_let_go(free_corners):
    villa = free_corners
    pull = villa.grab("red-thin-3")
    pull.aim(Point3(-4, -3, 0))
    frames(villa, 240, lambda: abs(villa.nodes[pull.column].getX() + 4) < 0.02)
    pull.place(hold=True)
    frames(villa, 600, lambda: pull.state == "held")
    frames(villa, 30)
    assert pull.state == "held" and villa.tilt_deg("red-thin-3") < 1.0
    pull.aim(Point3(-3, -3, 0))
    frames(villa, 60)
    assert abs(villa.nodes["red-thin-3"].getX() + 3) < 0.2 and pull.state == "held"
    pull.lift()
    frames(villa, 30)
    assert pull.state == "carrying" and villa.nodes["red-thin-3"].getZ() > villa.nodes["floor-1"].getZ() + 4.5
    pull.place(hold=True)
    frames(villa, 600, lambda: pull.state == "held")
    pull.let_go()
    assert villa.run_until_settled(5) and villa.collapse is None
    fact = pull.result()
    assert fact.level == 1 and fact.footprint_inside


def _strain(villa, column, pull_by=2.0):
    start = villa.nodes[column].getPos()
    pull = villa.grab(column, start)
    out = Point3(start.x, start.y, 0)
    out.normalize()
    pull.aim(start + out * pull_by)
    strains = []
    frames(villa, 20, lambda: strains.append(pull.strain) and False)
    return max(strains)


def test_a_loaded_column_strains_the_hand_more_than_a_free_one(free_corners):
    loaded = _strain(free_corners, "red-thick")     # under the blue floor
    free = _strain(free_corners, "green-thin-3")    # standing free
    assert loaded > 2 * free and loaded > 0.5
