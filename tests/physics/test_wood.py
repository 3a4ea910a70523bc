"""Wood that holds: static friction at any pull speed, floors never frozen mid-fall, feet that
match the end faces, the intended inertia and real wood, copies that predict the live villa,
and an awake villa that stays put. The longer sweeps are in scripts/bench_physics.py."""

import json
import math

import pytest
from panda3d.core import Point3, Vec3

from villa.physics import COLUMNS, FLOORS, PRESETS, Villa, random_layout
from villa.physics.bodies import column_body, column_inertia, floor_body, floor_inertia
from villa.physics.dimensions import (COLUMN_DENSITY, FLOOR_DENSITY, GRAVITY, ColumnSpot, FloorSpot, Layout,
                                      column_spec)
from villa.physics.world import STEP

from .conftest import FRAME, set_down


def _draw_out(villa, column, direction, cm_s, frames_at_most=600):
    """Draw `column` out along `direction` at `cm_s`, unsteadied, until it comes free; the
    largest movement of the blue floor on the way (cm)."""
    floor = villa.nodes["floor-1"].getPos()
    pos = villa.nodes[column].getPos()
    pull = villa.grab(column, pos)
    moved = 0.0
    for i in range(frames_at_most):
        pull.aim(pos + direction * (i * cm_s * FRAME))
        villa.step(FRAME)
        moved = max(moved, (villa.nodes["floor-1"].getPos() - floor).length())
        if pull.state != "pulling":
            break
    return pull, moved


# --- 1. static friction holds at any speed ---

def test_a_slow_pull_of_an_inner_thin_column_leaves_the_floor_where_it_lay(rings):
    """Coulomb says the nineteen other columns hold the floor with about twenty times what
    one thin column drags it with; Bullet alone dragged it 21 mm at this speed."""
    pull, moved = _draw_out(rings, "blue-thin-3", Vec3(0, 1, 0), cm_s=3.0)   # its way out between the rings
    assert pull.state == "carrying" and rings.collapse is None
    assert moved <= 0.05


# --- 2. floors are never frozen mid-fall ---

def _edge_villa(kind: str, turn: float, beyond: float) -> Villa:
    """The blue floor on two columns of `kind` at (0, ±4), turned `turn`, and a thick one at
    (-6, 0): its centre of mass `beyond` cm past the outer edge of the pair's true end faces
    (negative: inside)."""
    spec = COLUMNS[kind]
    if spec.sides:
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        reach = max(x * c - y * s for x, y in spec.corners())
    else:
        reach = spec.radius
    pair = {"thin": ("red-thin-1", "blue-thin-1"), "hex": ("red-hex", "blue-hex"), "thick": ("red-thick", "blue-thick")}
    a, b = pair[kind]
    layout = Layout("edge", (ColumnSpot(a, 0, 0.0, 4.0, turn), ColumnSpot(b, 0, 0.0, -4.0, turn),
                             ColumnSpot("green-thick", 0, -6.0, 0.0)),
                    (FloorSpot(1, reach + beyond, 0.0, -90.0),))
    return Villa.from_layout(layout, validate=False)


def _watch(villa: Villa, seconds: float = 5.0) -> None:
    """Run until the villa rests or `seconds` pass; never may a floor rest tilted with no collapse called."""
    while villa.time < seconds and not villa.settled:
        villa.advance(FRAME)
        if villa.settled:
            break
    if villa.collapse is None:
        assert villa.tilt_deg("floor-1") <= 1.0, "a floor left hanging at rest"


@pytest.mark.parametrize("beyond_mm", [0.0, 0.25, 1.0, 3.0])
def test_a_floor_tipping_slowly_over_its_edge_is_called_down(beyond_mm):
    villa = _edge_villa("thin", 0.0, beyond_mm / 10)
    _watch(villa)
    assert villa.collapse is not None and villa.collapse.piece == "floor-1"


@pytest.mark.parametrize("kind", ["thin", "hex"])
def test_a_floor_1_mm_inside_its_edge_stands_level_and_rests(kind):
    villa = _edge_villa(kind, 0.0, -0.1)
    _watch(villa)
    assert villa.settled and villa.collapse is None


# --- 3. round feet: the turn of a column does not change the verdict ---

@pytest.mark.parametrize("turn", [0.0, 45.0])
def test_a_thick_column_turned_any_way_holds_a_floor_1_mm_inside_its_edge_and_drops_it_1_mm_outside(turn):
    inside, outside = _edge_villa("thick", turn, -0.1), _edge_villa("thick", turn, 0.1)
    _watch(inside)
    _watch(outside)
    assert inside.collapse is None and inside.settled
    assert outside.collapse is not None


def test_a_standing_villa_touches_its_floors_and_base_with_the_box_ends_of_its_columns_alone():
    """Every resting contact of a column is box against box, whole patches at once: its round or
    hexagonal body (child shape 0) touches nothing while the villa stands, awake or not."""
    villa = Villa.from_layout(random_layout(1003, 5))
    villa.advance(0.5)
    villa.keep_awake()
    touching = 0
    for _ in range(30):
        villa.step(FRAME)
        for manifold in villa.world.getManifolds():
            ends = [(manifold.getNode0().getName(), 0), (manifold.getNode1().getName(), 1)]
            for i in range(manifold.getNumManifoldPoints()):
                point = manifold.getManifoldPoint(i)
                for piece, side in ends:
                    if piece in villa.columns:
                        touching += 1
                        assert (point.getIndex0(), point.getIndex1())[side] > 0, f"the body of {piece} touches"
    assert touching > 30 * 20 * 4 * 2   # every column, its top and its foot, four corners at least
    assert villa.collapse is None


# --- 4. and 5. the intended inertia, and real wood ---

def test_bullet_holds_the_intended_inertia():
    villa = Villa.from_layout(PRESETS["rings"])
    villa.add_floor(3, Point3(0, 0, 40))
    for piece, np in villa.nodes.items():
        body = np.node()
        if body.getMass() == 0:
            continue
        want = floor_inertia(FLOORS[int(piece[6:])]) if piece.startswith("floor-") else column_inertia(column_spec(piece))
        got = body.getInertia()
        assert all(math.isclose(got[i], want[i], rel_tol=1e-5) for i in range(3)), piece
    copy = villa.copy()   # a world built anew holds them too
    assert copy.body("red-thick").getInertia() == villa.body("red-thick").getInertia()


def test_every_piece_weighs_as_real_wood():
    assert 0.0004 <= FLOOR_DENSITY <= 0.0008      # kg/cm³: plywood
    assert 0.0005 <= COLUMN_DENSITY <= 0.0008     # turned hardwood: beech, maple
    for spec in FLOORS.values():
        assert math.isclose(floor_body(spec).getMass(), spec.area * spec.thickness * FLOOR_DENSITY, rel_tol=1e-5)
    for kind, spec in COLUMNS.items():
        assert math.isclose(column_body(f"red-{kind}", spec).getMass(), spec.volume * COLUMN_DENSITY, rel_tol=1e-5)


# --- 6. a copy predicts the live villa ---

def _two_second_pull(villa: Villa, column: str) -> dict:
    pos = villa.nodes[column].getPos()
    away = Vec3(pos.x, pos.y, 0).normalized()
    pull = villa.grab(column, pos + Point3(0, 0, 1))
    for i in range(120):
        pull.aim(pos + Point3(0, 0, 1) + away * (1 + i * 0.05))
        villa.step(FRAME)
    return villa.poses()


def test_a_villa_restored_from_its_snapshot_goes_on_as_the_live_one(free_corners):
    """After a turn (a column carried up and set down), the same 2 s pull on the live villa
    and on one restored from its snapshot through JSON."""
    live = free_corners
    pull = live.grab("red-thin-3", live.nodes["red-thin-3"].getPos() + Point3(0, -0.7, 1))
    set_down(live, pull, 1.0, -1.0)
    for dt in (1 / 75, 1 / 45):   # frames while asleep: the time carried over is saved too
        live.step(dt)
    copy = Villa.from_snapshot(json.loads(json.dumps(live.snapshot())))
    a, b = _two_second_pull(live, "red-thick"), _two_second_pull(copy, "red-thick")
    assert max(math.dist(a[p][0], b[p][0]) for p in a) <= 0.005   # 0.05 mm; in fact bit for bit
    assert a == b


# --- 7. awake, nothing creeps or spins; gravity from the first step ---

def test_a_villa_of_five_floors_kept_awake_neither_creeps_nor_spins():
    villa = Villa.from_layout(random_layout(1001, 5))
    assert villa.run_until_settled(10)
    before = {p: (villa.nodes[p].getPos(), villa.nodes[p].getQuat()) for p in villa.nodes}
    villa.keep_awake()   # as during a long pull
    villa.advance(10.0)
    assert villa.collapse is None
    assert max((villa.nodes[p].getPos() - pos).length() for p, (pos, _) in before.items()) <= 0.05
    for column in villa.columns:
        turn = before[column][1].conjugate() * villa.nodes[column].getQuat()
        assert math.degrees(2 * math.asin(min(1.0, abs(turn[3])))) <= 0.2, column


def test_gravity_acts_from_the_first_step():
    villa = Villa()
    villa.add_column("red-thin-1", Point3(0, 0, 50))
    villa.step(FRAME)   # eight steps of free fall: g·step²·(1 + 2 + ... + 8)
    assert villa.ticks == 8
    assert math.isclose(50 - villa.nodes["red-thin-1"].getZ(), GRAVITY * STEP ** 2 * 36, rel_tol=1e-3)
