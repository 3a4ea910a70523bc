#!/usr/bin/env python3
"""Benchmark of the physics core: rest, cost, fidelity against statics, pulling, copies.

    scripts/bench_physics.py            # the full run, as a table
    scripts/bench_physics.py --json     # the same, as one JSON object
    scripts/bench_physics.py --quick    # small counts, for a first look

Costs are CPU time of this process, best of three runs (the machine's other work can
only add to them), with the wall-clock figure beside it, and `machine_reference_ms`, a
fixed Bullet workload apart from the villa, to compare figures from different machines.
The reference is timed between the villa's own runs, and `awake_setup_vs_reference` and
`awake_tall_vs_reference` divide the villa's cost per frame by the reference's per 1/60 s:
ratios measured in the same run, which a busy machine disturbs far less than the figures.
`census_*` counts the contacts Bullet keeps and `cost_split_*` reads Bullet's own profiler
(see `contact_census`).

Statics here is the textbook kind: a floor stands while the centre of its load (the
floor, and everything above it, weighed at the pieces' densities) lies inside the convex
hull of its supports' true feet (discs and hexagons); friction is Coulomb's, with Bullet's
combined coefficient μ = 0.49.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from panda3d.core import NodePath, Point3, Vec3, loadPrcFileData, unloadPrcFile  # noqa: E402

from villa.physics import PRESETS, STEP, Villa, random_layout  # noqa: E402
from villa.physics import geometry, layouts  # noqa: E402
from villa.physics.dimensions import (BASE, COLUMN_HEIGHT, COLUMNS, FLOOR_THICKNESS, FLOORS, ColumnSpot,  # noqa: E402
                                      FloorSpot, Layout, column_spec, surface_z)
from villa.physics.friction import MU  # noqa: E402
from villa.physics.pulling import under_a_floor  # noqa: E402
from villa.rules.pieces import ALL_COLUMNS  # noqa: E402
from contact_census import census, cost_split  # noqa: E402

# after villa.physics, which sets Bullet up before the first world exists
from panda3d.bullet import BulletBoxShape, BulletPlaneShape, BulletRigidBodyNode, BulletWorld  # noqa: E402

FRAME = 1 / 60


def _positions(villa: Villa) -> dict:
    return {p: villa.nodes[p].getPos() for p in villa.nodes}


def _drift_mm(villa: Villa, before: dict, skip=()) -> float:
    return max(((villa.nodes[p].getPos() - before[p]).length() * 10 for p in before
                if p not in skip and p in villa.nodes), default=0.0)


# --- rest ---

def rest(layouts: list[Layout], seconds: float) -> dict:
    worst_drift, settle_times, collapses, unsettled = 0.0, [], 0, 0
    for layout in layouts:
        villa = Villa.from_layout(layout)
        before = _positions(villa)
        settled_at = None
        drift = 0.0
        while villa.time < seconds - 1e-9:
            villa.advance(FRAME)
            if settled_at is None and villa.settled:
                settled_at = villa.time
            if villa.ticks % 480 == 0:
                drift = max(drift, _drift_mm(villa, before))
        drift = max(drift, _drift_mm(villa, before))
        worst_drift = max(worst_drift, drift)
        collapses += villa.collapse is not None
        if settled_at is None:
            unsettled += 1
        else:
            settle_times.append(settled_at)
    return {
        "layouts": len(layouts),
        "max_drift_mm": round(worst_drift, 3),
        "settle_s": round(max(settle_times), 3) if settle_times else None,
        "unsettled": unsettled,
        "collapses": collapses,
    }


def awake_creep(layouts: list[Layout], seconds: float) -> float:
    """Largest drift (mm) of any piece of a settled villa kept awake for `seconds`, as during a long pull."""
    worst = 0.0
    for layout in layouts:
        villa = Villa.from_layout(layout)
        villa.run_until_settled(10)
        before = _positions(villa)
        villa.keep_awake()
        villa.advance(seconds)
        worst = max(worst, _drift_mm(villa, before))
    return round(worst, 3)


# --- cost ---

def _time_frames(villa: Villa, frames: int) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(frames):
        villa.step(FRAME)
    return (time.process_time() - cpu) / frames * 1000, (time.perf_counter() - wall) / frames * 1000


def costs(layouts_: dict[str, Layout], frames: int, repeats: int = 3) -> dict:
    """Milliseconds (CPU, wall) per 1/60 s frame of each villa, every body kept awake and then all
    asleep, and the machine's reference per 1/60 s, timed in turn in each of `repeats` rounds.

    The best of the rounds: the other programs on the machine only ever add time, and timing the
    reference between the villas' runs lets their ratio see the same machine."""
    villas = {}
    for name, layout in layouts_.items():
        villa = Villa.from_layout(layout)
        villa.advance(0.5)
        villa.keep_awake()  # every body awake throughout
        villas[name] = villa
    awake = {name: (math.inf, math.inf) for name in villas}
    reference = math.inf
    for _ in range(repeats):
        reference = min(reference, machine_reference(1))
        for name, villa in villas.items():
            awake[name] = min(awake[name], _time_frames(villa, frames))
    out = {"reference_frame_ms": reference / 60}
    for name, villa in villas.items():
        villa.keep_awake(False)
        villa.run_until_settled(10)
        asleep = min(_time_frames(villa, frames) for _ in range(repeats))
        out[name] = {"bodies": len(villa.nodes) - 1, "awake_ms": awake[name], "asleep_ms": asleep,
                     "vs_reference": awake[name][0] / out["reference_frame_ms"]}
    return out


def where_it_goes(layout: Layout, frames: int) -> tuple[dict, dict | None]:
    """The contact census and Bullet's split of the time, every body awake."""
    villa = Villa.from_layout(layout)
    villa.advance(0.5)
    villa.keep_awake()
    return census(villa, 60), cost_split(villa, frames)


REFERENCE_ITERATIONS = 10   # the reference's solver iterations, whatever the villa's


def machine_reference(repeats: int = 3) -> float:
    """CPU milliseconds for a fixed Bullet workload none of the villa's code takes part in: a 4 x 5
    grid of boxes dropped onto a plane, 480 steps of 1/480 s, with 10 solver iterations. The cost
    figures of different machines compare through it (the same villa code has measured up to 2.7
    times slower on another machine)."""
    page = loadPrcFileData("machine reference", f"bullet-solver-iterations {REFERENCE_ITERATIONS}")
    try:
        return min(_reference_once() for _ in range(repeats))
    finally:
        unloadPrcFile(page)


def _reference_once() -> float:
    world, root = BulletWorld(), NodePath("reference")
    world.setGravity(Vec3(0, 0, -981))
    ground = BulletRigidBodyNode("ground")
    ground.addShape(BulletPlaneShape(Vec3(0, 0, 1), 0))
    world.attachRigidBody(ground)
    for i in range(20):
        box = BulletRigidBodyNode(f"box-{i}")
        box.setMass(50.0)
        box.addShape(BulletBoxShape(Vec3(1.0, 1.0, 1.0)))
        root.attachNewNode(box).setPos(2.1 * (i % 4), 2.1 * (i // 4), 1.0 + 0.5 * i)
        world.attachRigidBody(box)
    cpu = time.process_time()
    for _ in range(480):
        world.doPhysics(1 / 480, 1, 1 / 480)
    return (time.process_time() - cpu) * 1000


def pull_cost(frames: int, repeats: int = 3) -> dict:
    """Milliseconds (CPU) per frame while a hand drags the thick red column to and fro under the
    blue floor (1 cm either way, every 4 s): the hand at work, the column held, the villa awake
    around it. (Drawn steadily outward it now comes free: the floor no longer holds it back.)"""
    best, awake = math.inf, 0
    for _ in range(repeats):
        villa = Villa.from_layout(PRESETS["rings"])
        villa.run_until_settled(5)
        pos = villa.nodes["red-thick"].getPos()
        pull = villa.grab("red-thick", pos + Point3(0, 0, 1))
        away = Vec3(pos.x, pos.y, 0).normalized()
        cpu = time.process_time()
        for i in range(frames):
            pull.aim(pos + Point3(0, 0, 1) + away * math.sin(2 * math.pi * i * FRAME / 4))
            villa.step(FRAME)
        best = min(best, (time.process_time() - cpu) / frames * 1000)
        awake = sum(np.node().isActive() for np in villa.nodes.values())
        assert pull.state == "pulling", "the column came out: the pull no longer measures a loaded pull"
    return {"ms": best, "awake_bodies": awake}


# --- fidelity against statics ---

def _trial(rng: random.Random) -> tuple[Layout, float] | None:
    """A floor of random colour and turn on 2 to 5 columns at random spots, and its statics margin."""
    level = rng.randint(1, 5)
    yaw = rng.uniform(0, 360)
    outline = geometry.transform(FLOORS[level].outline, 0, 0, yaw)
    ids = rng.sample([c.id for c in ALL_COLUMNS], rng.randint(2, 5))
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    spots: list[ColumnSpot] = []
    for cid in ids:
        r = column_spec(cid).radius
        for _ in range(200):
            x, y = rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
            if (geometry.signed_distance(outline, x, y) > r + 0.1 and math.hypot(x, y) + r < BASE.site_radius
                    and all(math.hypot(x - s.x, y - s.y) > r + column_spec(s.column).radius + 0.2 for s in spots)):
                spots.append(ColumnSpot(cid, 0, x, y))
                break
    if len(spots) < 2:
        return None
    feet = [p for s in spots for p in geometry.transform(column_spec(s.column).footprint(), s.x, s.y, 0)]
    margin = geometry.support_margin(feet, 0.0, 0.0)  # the floor's centre of mass is its origin
    return Layout("trial", tuple(spots), (FloorSpot(level, 0.0, 0.0, yaw),)), margin


def fidelity(trials: int, clear_cm: float = 0.5, seconds: float = 4.0) -> dict:
    rng = random.Random(2001)
    agree = clear = stood = fell = 0
    disagreements = []
    for t in range(trials):
        made = None
        while made is None:
            made = _trial(rng)
        layout, margin = made
        if abs(margin) < clear_cm:
            continue
        clear += 1
        villa = Villa()
        floor = layout.floors[0]
        for s in layout.columns:
            villa.add_column(s.column, Point3(s.x, s.y, surface_z(0) + COLUMN_HEIGHT / 2))
        villa.add_floor(floor.level, Point3(0, 0, surface_z(1) - FLOOR_THICKNESS / 2), floor.yaw)
        villa.watch.reset()
        while villa.time < seconds and villa.collapse is None:
            villa.advance(FRAME * 6)
            if villa.settled:
                break
        stands = villa.collapse is None
        stood += stands
        fell += not stands
        if stands == (margin > 0):
            agree += 1
        else:
            disagreements.append({"trial": t, "margin_cm": round(margin, 2), "stood": stands})
    return {"trials": trials, "clear": clear, "agreement": round(agree / clear, 4) if clear else None,
            "stood": stood, "fell": fell, "disagreements": disagreements[:10]}


# --- pulling ---

def free_pulls() -> dict:
    """Each free column of the preset "free corners": lifted out, carried over the floor, set down."""
    worst, placed = 0.0, 0
    free = [f"{c}-thin-3" for c in ("blue", "red", "yellow", "green")]
    for column in free:
        villa = Villa.from_layout(PRESETS["free corners"])
        villa.run_until_settled(5)
        before = _positions(villa)
        pos = villa.nodes[column].getPos()
        pull = villa.grab(column, pos + Point3(0, -0.5, 1.0))
        pull.aim(pos + Point3(0, -3, 0))
        for _ in range(90):
            villa.step(FRAME)
            worst = max(worst, _drift_mm(villa, before, skip=(column,)))
        pull.aim(Point3(1.5 * free.index(column) - 2, -2, 0))
        for _ in range(120):
            villa.step(FRAME)
            worst = max(worst, _drift_mm(villa, before, skip=(column,)))
        pull.place()
        for _ in range(600):
            villa.step(FRAME)
            if pull.state == "placed":
                break
        villa.run_until_settled(10)
        fact = pull.result()
        placed += bool(fact and fact.level == 1 and fact.footprint_inside and villa.collapse is None)
    return {"max_disturbance_mm": round(worst, 3), "placed_ok": placed, "pulls": len(free)}


def loaded_pull() -> dict:
    """The thick column under the blue floor's edge, pulled outward at 3 cm/s, with and without steadying."""
    out = {}
    for steady in (False, True):
        villa = Villa.from_layout(PRESETS["rings"])
        villa.run_until_settled(5)
        floor = villa.nodes["floor-1"].getPos()
        pos = villa.nodes["red-thick"].getPos()
        pull = villa.grab("red-thick", pos + Point3(0, 0, 1), steady=steady)
        away = Vec3(pos.x, pos.y, 0).normalized()
        for i in range(600):
            pull.aim(pos + Point3(0, 0, 1) + away * (1 + i * 0.05))
            villa.step(FRAME)
            if pull.state != "pulling":
                break
        key = "steadied" if steady else "unsteadied"
        out[f"{key}_floor_drag_mm"] = round((villa.nodes["floor-1"].getPos() - floor).length() * 10, 2)
        out[f"{key}_came_out"] = pull.state == "carrying"
    return out


def overhang_pull() -> dict:
    """The only column under the blue floor's far corner, pulled out: the floor must come down."""
    layout = Layout("corner", (ColumnSpot("red-thick", 0, -6, -3), ColumnSpot("blue-thick", 0, -6, 3),
                               ColumnSpot("green-hex", 0, -2.5, 0), ColumnSpot("red-thin-1", 0, 9, 0)),
                    (FloorSpot(1, 0, 0, 0),))
    villa = Villa.from_layout(layout)
    villa.run_until_settled(5)
    pos = villa.nodes["red-thin-1"].getPos()
    pull = villa.grab("red-thin-1", pos + Point3(0.7, 0, 0))
    pull.aim(pos + Point3(6, 0, 0))
    start = villa.time
    for _ in range(300):
        villa.step(FRAME)
        if villa.collapse:
            break
    c = villa.collapse
    return {"collapsed": c is not None, "piece": c.piece if c else None,
            "cause": c.cause.value if c else None, "after_s": round(c.at_s - start, 3) if c else None}


# --- slow pulls: does the floor hold where Coulomb says it does? ---

PATH_GAP = 0.4   # cm kept between a pulled column and the others on its way out


def way_out(villa: Villa, column: str) -> tuple[float, float, float] | None:
    """(distance, dx, dy): the shortest straight way out from under the floor that passes
    clear of every other column, or None."""
    np = villa.nodes[column]
    x0, y0, r = np.getX(), np.getY(), column_spec(column).radius
    others = [(villa.nodes[c].getX(), villa.nodes[c].getY(), column_spec(c).radius) for c in villa.columns if c != column]
    best = None
    for k in range(72):
        a = 2 * math.pi * k / 72
        dx, dy = math.cos(a), math.sin(a)
        distance = next((s * 0.25 + 0.5 for s in range(1, 100)
                         if not under_a_floor(villa, column, x0 + dx * s * 0.25, y0 + dy * s * 0.25, 0)), None)
        if distance is None:
            continue
        end = (x0 + dx * distance, y0 + dy * distance)
        if any(geometry.segment_distance(ox, oy, (x0, y0), end) < r + orr + PATH_GAP for ox, oy, orr in others):
            continue
        if best is None or distance < best[0]:
            best = (distance, dx, dy)
    return best


def coulomb_holds(layout: Layout, column: str) -> bool:
    """Does friction hold the blue floor while `column` is drawn out from under it? The
    column drags it with μ × its share of the load; the others hold it with μ × theirs.
    The shares of a floor on many columns: a rigid plate on equally stiff columns."""
    from villa.physics.loads import share_load
    spots = [c for c in layout.columns if c.level == 0]
    floor = layout.floors[0]
    load = FLOORS[1].mass
    shares = share_load(load, floor.x, floor.y, [(c.x, c.y) for c in spots])
    mine = sum(n for c, n in zip(spots, shares) if c.column == column)
    return MU * mine < MU * (load - mine)


def slow_pulls(speeds=(2.0, 3.0, 4.0)) -> dict:
    """The thick columns and the innermost thin column with a clear way out, of each preset,
    drawn out at 2-4 cm/s without steadying: the largest movement of the blue floor."""
    worst, pulls, held, details = 0.0, 0, 0, []
    for name, layout in PRESETS.items():
        villa = Villa.from_layout(layout)
        villa.run_until_settled(5)
        ways = {c: way_out(villa, c) for c in villa.columns}
        thick = [c for c in villa.columns if c.endswith("-thick") and ways[c]]
        thin = sorted((c for c in villa.columns if "-thin-" in c and ways[c]),
                      key=lambda c: villa.nodes[c].getPos().lengthSquared())[:1]
        for column in thick + thin:
            if not coulomb_holds(layout, column):
                continue
            for speed in speeds:
                villa = Villa.from_layout(layout)
                villa.run_until_settled(5)
                _, dx, dy = ways[column]
                floor = villa.nodes["floor-1"].getPos()
                pos = villa.nodes[column].getPos()
                pull = villa.grab(column, pos)
                moved = 0.0
                for i in range(1200):
                    pull.aim(pos + Vec3(dx, dy, 0) * (i * speed / 60))
                    villa.step(FRAME)
                    moved = max(moved, (villa.nodes["floor-1"].getPos() - floor).length() * 10)
                    if pull.state != "pulling":
                        break
                pulls += 1
                held += pull.state == "carrying" and villa.collapse is None
                worst = max(worst, moved)
                details.append({"preset": name, "column": column, "cm_s": speed, "floor_mm": round(moved, 3)})
    return {"worst_mm": round(worst, 3), "pulls": pulls, "came_out": held,
            "details": sorted(details, key=lambda d: -d["floor_mm"])[:5]}


# --- floors near their tipping edge ---

EDGE_PAIRS = {"thin": ("red-thin-1", "blue-thin-1"), "hex": ("red-hex", "blue-hex"), "thick": ("red-thick", "blue-thick")}


def edge_reach(kind: str, turn: float) -> float:
    """How far the true end face of a column of `kind`, turned `turn` degrees, reaches along +x."""
    spec = COLUMNS[kind]
    if not spec.sides:
        return spec.radius
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    return max(x * c - y * s for x, y in spec.corners())


def edge_layout(kind: str, turn: float, beyond: float) -> Layout:
    """The blue floor on two columns of `kind` at (0, ±4), turned `turn`, and a thick one at
    (-6, 0): its centre of mass `beyond` cm past the pair's outer edge (negative: inside)."""
    a, b = EDGE_PAIRS[kind]
    return Layout("edge", (ColumnSpot(a, 0, 0.0, 4.0, turn), ColumnSpot(b, 0, 0.0, -4.0, turn),
                           ColumnSpot("green-thick", 0, -6.0, 0.0)),
                  (FloorSpot(1, edge_reach(kind, turn) + beyond, 0.0, -90.0),))   # its bite away


def edge_stands(kind: str, turn: float, beyond: float, seconds: float = 6.0) -> bool:
    """Does the floor stand (no collapse) once at rest, or after `seconds`, as long as the
    match lets a placement tremble before judging it?"""
    villa = Villa.from_layout(edge_layout(kind, turn, beyond), validate=False)
    while villa.time < seconds and villa.collapse is None and not villa.settled:
        villa.advance(FRAME * 6)
    return villa.collapse is None


def tipping_edges(step_mm: float = 0.25, span_mm: float = 2.0) -> dict:
    """Where floors tip over each column kind and turn, swept in `step_mm`: the error is how
    far the first fall lies from the true edge (the middle of the step it falls in)."""
    worst, edges = 0.0, {}
    steps = int(round(span_mm / step_mm))
    for kind in EDGE_PAIRS:
        for turn in ((0, 10, 20, 30) if COLUMNS[kind].sides else (0, 15, 22.5, 30, 45)):
            first_fall = next((k for k in range(-steps, steps + 1)
                               if not edge_stands(kind, turn, k * step_mm / 10)), steps + 1)
            edge = (first_fall - 0.5) * step_mm
            edges[f"{kind} {turn}"] = edge
            worst = max(worst, abs(edge))
    return {"worst_mm": round(worst, 3), "edges_mm": edges}


def midfall(trials: int, seconds: float = 5.0) -> dict:
    """Floors set 0-3 mm past their tipping edge and let go, watched `seconds`: how many are
    left at rest tilted more than 1° with no collapse called, and how soon after a floor
    passes the collapse tilt the collapse is called."""
    rng = random.Random(2024)
    freezes, fell, stood, delays = 0, 0, 0, []
    for _ in range(trials):
        kind = rng.choice(list(EDGE_PAIRS))
        turn = rng.uniform(0, 60 if COLUMNS[kind].sides else 90)
        villa = Villa.from_layout(edge_layout(kind, turn, rng.uniform(0.0, 0.3)), validate=False)
        tipped_at = None
        while villa.time < seconds and not villa.settled:
            villa.advance(STEP_TICKS_S)
            if tipped_at is None and villa.tilt_deg("floor-1") > 10.0:
                tipped_at = villa.time
        if villa.collapse is None and villa.tilt_deg("floor-1") > 1.0 and (villa.settled or _still(villa)):
            freezes += 1
        fell += villa.collapse is not None
        stood += villa.collapse is None
        if villa.collapse is not None and tipped_at is not None:
            delays.append(villa.collapse.at_s - tipped_at)
    return {"trials": trials, "freezes": freezes, "fell": fell, "stood": stood,
            "collapse_after_tilt_s": round(max(delays), 4) if delays else None}


STEP_TICKS_S = STEP   # one fixed step of the villa


def _still(villa: Villa) -> bool:
    return all(villa.body(p).getLinearVelocity().length() < 0.05 for p in villa.nodes if villa.body(p).getMass())


# --- loaded floors against statics ---

def _loaded_trial(rng: random.Random) -> tuple[Layout, float] | None:
    """A floor of random colour and turn on 3 to 5 columns, with 1 to 4 columns standing on it,
    and how far inside its supports the load lies (statics at the pieces' densities)."""
    level = rng.randint(1, 5)
    yaw = rng.uniform(0, 360)
    outline = geometry.transform(FLOORS[level].outline, 0, 0, yaw)
    ids = rng.sample([c.id for c in ALL_COLUMNS], 9)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    spots: list[ColumnSpot] = []

    def place(cid: str, on: int) -> None:
        r = column_spec(cid).radius
        for _ in range(200):
            x, y = rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
            if (geometry.signed_distance(outline, x, y) > r + 0.1 and math.hypot(x, y) + r < BASE.site_radius
                    and all(math.hypot(x - s.x, y - s.y) > r + column_spec(s.column).radius + 0.2
                            for s in spots if s.level == on)):
                spots.append(ColumnSpot(cid, on, round(x, 3), round(y, 3), round(rng.uniform(0, 90), 1)))
                return

    for cid in ids[:rng.randint(3, 5)]:
        place(cid, 0)
    if sum(s.level == 0 for s in spots) < 3:
        return None
    for cid in ids[5:5 + rng.randint(1, 4)]:
        place(cid, 1)
    layout = Layout("loaded", tuple(spots), (FloorSpot(level, 0.0, 0.0, yaw),))
    return layout, _loaded_margin(layout)


def _loaded_margin(layout: Layout) -> float:
    floor = layout.floors[0]
    mass = FLOORS[floor.level].mass
    sx, sy = 0.0, 0.0
    for c in layout.columns:
        if c.level == 1:
            m = column_spec(c.column).mass
            mass, sx, sy = mass + m, sx + m * c.x, sy + m * c.y
    cx, cy = sx / mass, sy / mass   # the floor's own centre of mass is at the origin
    feet = [p for c in layout.columns if c.level == 0 for p in layouts.footprint(c)]
    return geometry.support_margin(feet, cx, cy)


def loaded_fidelity(trials: int, clear_cm: float = 0.5, seconds: float = 4.0) -> dict:
    rng = random.Random(3001)
    agree = clear = stood = fell = 0
    disagreements = []
    for t in range(trials):
        made = None
        while made is None:
            made = _loaded_trial(rng)
        layout, margin = made
        if abs(margin) < clear_cm:
            continue
        clear += 1
        villa = Villa()
        floor = layout.floors[0]
        villa.add_floor(floor.level, Point3(0, 0, surface_z(1) - FLOOR_THICKNESS / 2), floor.yaw)
        for s in layout.columns:
            villa.add_column(s.column, Point3(s.x, s.y, surface_z(s.level) + COLUMN_HEIGHT / 2), s.yaw)
        while villa.time < seconds and villa.collapse is None:
            villa.advance(FRAME * 6)
            if villa.settled:
                break
        stands = villa.collapse is None
        stood += stands
        fell += not stands
        if stands == (margin > 0):
            agree += 1
        else:
            disagreements.append({"trial": t, "margin_cm": round(margin, 2), "stood": stands})
    return {"trials": trials, "clear": clear, "agreement": round(agree / clear, 4) if clear else None,
            "stood": stood, "fell": fell, "disagreements": disagreements[:10]}


# --- copies that predict the live villa ---

def _two_second_pull(villa: Villa, column: str) -> dict:
    pos = villa.nodes[column].getPos()
    away = Vec3(pos.x, pos.y, 0).normalized()
    pull = villa.grab(column, pos + Point3(0, 0, 1))
    for i in range(120):
        pull.aim(pos + Point3(0, 0, 1) + away * (1 + i * 0.05))
        villa.step(FRAME)
    return villa.poses()


def restore(cases=(("rings", "red-thick"), ("colonnade", "yellow-thick"), ("tall", None))) -> dict:
    """The same 2 s pull on a settled villa and on one restored from its snapshot (through
    JSON): the largest distance between their pieces; and what a copy costs."""
    worst, copy_ms = 0.0, []
    for name, column in cases:
        layout = random_layout(1003, 5) if name == "tall" else PRESETS[name]
        live = Villa.from_layout(layout)
        live.run_until_settled(10)
        for dt in (1 / 75, 1 / 45, 1 / 60):   # a few frames while asleep: time carried over
            live.step(dt)
        data = json.loads(json.dumps(live.snapshot()))
        for _ in range(5):
            started = time.perf_counter()
            copy = Villa.from_snapshot(data)
            copy_ms.append((time.perf_counter() - started) * 1000)
        column = column or sorted(c for c, lv in live.survey().column_levels.items() if lv == 0)[0]
        a, b = _two_second_pull(live, column), _two_second_pull(copy, column)
        worst = max(worst, max(math.dist(a[p][0], b[p][0]) * 10 for p in a))
    return {"divergence_mm": round(worst, 4), "copy_ms": round(sorted(copy_ms)[len(copy_ms) // 2], 2)}


def awake_long(layouts_: list[Layout], seconds: float = 30.0) -> dict:
    """Villas of five floors kept awake for `seconds`: the largest drift of any piece, and the
    largest turn of a column about its own axis."""
    drift, spin = 0.0, 0.0
    for layout in layouts_:
        villa = Villa.from_layout(layout)
        villa.run_until_settled(10)
        before = {p: (villa.nodes[p].getPos(), villa.nodes[p].getQuat()) for p in villa.nodes}
        villa.keep_awake()
        villa.advance(seconds)
        drift = max(drift, _drift_mm(villa, {p: pq[0] for p, pq in before.items()}))
        for c in villa.columns:
            turn = before[c][1].conjugate() * villa.nodes[c].getQuat()
            spin = max(spin, math.degrees(2 * math.asin(min(1.0, abs(turn[3])))))
    return {"drift_mm": round(drift, 3), "spin_deg": round(spin, 3)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--random", type=int, default=200, help="random set-up layouts for the rest test")
    parser.add_argument("--tall", type=int, default=50, help="random villas of 2 to 5 floors for the rest test")
    parser.add_argument("--seconds", type=float, default=60.0, help="simulated seconds each layout stands")
    parser.add_argument("--fidelity", type=int, default=300, help="single-floor trials against statics")
    parser.add_argument("--frames", type=int, default=600, help="frames timed for the cost")
    parser.add_argument("--loaded", type=int, default=300, help="loaded-floor trials against statics")
    parser.add_argument("--midfall", type=int, default=60, help="floors let go past their tipping edge")
    parser.add_argument("--quick", action="store_true",
                        help="small counts: 10 random, 5 tall, 10 s, 40 trials, 40 loaded, 12 midfall")
    args = parser.parse_args(argv)
    if args.quick:
        args.random, args.tall, args.seconds, args.fidelity, args.frames = 10, 5, 10.0, 40, 200
        args.loaded, args.midfall = 40, 12

    started = time.perf_counter()
    setups = list(PRESETS.values()) + [random_layout(seed) for seed in range(args.random)]
    rest_setups = rest(setups, args.seconds)
    tall = [random_layout(1000 + seed, 2 + seed % 4) for seed in range(args.tall)]
    rest_tall = rest(tall, args.seconds) if tall else None
    creep_setup = awake_creep(setups[:10], 10.0)
    creep_tall = awake_creep(tall[:10], 10.0)
    measured = costs({"setup": PRESETS["rings"], "tall": random_layout(1003, 5)}, args.frames)
    cost_setup, cost_tall = measured["setup"], measured["tall"]
    census_setup, split_setup = where_it_goes(PRESETS["rings"], args.frames)
    census_tall, split_tall = where_it_goes(random_layout(1003, 5), args.frames)
    cost_pull = pull_cost(args.frames)
    fid = fidelity(args.fidelity)
    free = free_pulls()
    loaded = loaded_pull()
    overhang = overhang_pull()
    slow = slow_pulls()
    edges = tipping_edges()
    falls = midfall(args.midfall)
    loaded_fid = loaded_fidelity(args.loaded)
    copies = restore()
    five = awake_long([random_layout(1000 + seed, 5) for seed in range(3 if args.quick else 6)])

    result = {
        "rest_max_drift_mm": rest_setups["max_drift_mm"],
        "rest_settle_s": rest_setups["settle_s"],
        "rest_layouts": rest_setups["layouts"],
        "rest_collapses": rest_setups["collapses"],
        "rest_unsettled": rest_setups["unsettled"],
        "rest_seconds": args.seconds,
        "rest_tall_layouts": rest_tall["layouts"] if rest_tall else 0,
        "rest_tall_max_drift_mm": rest_tall["max_drift_mm"] if rest_tall else None,
        "rest_tall_settle_s": rest_tall["settle_s"] if rest_tall else None,
        "rest_tall_collapses": rest_tall["collapses"] if rest_tall else None,
        "rest_tall_unsettled": rest_tall["unsettled"] if rest_tall else None,
        "awake_10s_creep_mm": creep_setup,
        "awake_10s_creep_tall_mm": creep_tall,
        "awake_ms_per_frame": round(cost_setup["awake_ms"][0], 3),
        "awake_wall_ms_per_frame": round(cost_setup["awake_ms"][1], 3),
        "awake_bodies": cost_setup["bodies"],
        "asleep_ms_per_frame": round(cost_setup["asleep_ms"][0], 4),
        "awake_tall_ms_per_frame": round(cost_tall["awake_ms"][0], 3),
        "awake_tall_bodies": cost_tall["bodies"],
        "awake_setup_vs_reference": round(cost_setup["vs_reference"], 3),
        "awake_tall_vs_reference": round(cost_tall["vs_reference"], 3),
        "reference_frame_ms": round(measured["reference_frame_ms"], 3),
        "census_setup": census_setup,
        "census_tall": census_tall,
        "cost_split_setup": split_setup,
        "cost_split_tall": split_tall,
        "pull_ms_per_frame": round(cost_pull["ms"], 3),
        "pull_awake_bodies": cost_pull["awake_bodies"],
        "fidelity_agreement": fid["agreement"],
        "fidelity_trials": fid["trials"],
        "fidelity_clear_trials": fid["clear"],
        "fidelity_stood": fid["stood"],
        "fidelity_fell": fid["fell"],
        "fidelity_disagreements": fid["disagreements"],
        "free_pull_max_disturbance_mm": free["max_disturbance_mm"],
        "free_pull_placed_ok": f"{free['placed_ok']}/{free['pulls']}",
        "loaded_pull": loaded,
        "overhang_pull": overhang,
        "slow_pull_floor_drag_mm": slow["worst_mm"],
        "slow_pulls": slow,
        "midfall_freezes": falls["freezes"],
        "midfall": falls,
        "tipping_edge_error_mm": edges["worst_mm"],
        "tipping_edges_mm": edges["edges_mm"],
        "loaded_fidelity_agreement": loaded_fid["agreement"],
        "loaded_fidelity": loaded_fid,
        "restore_divergence_mm": copies["divergence_mm"],
        "copy_ms": copies["copy_ms"],
        "awake_30s_creep_mm": five["drift_mm"],
        "awake_30s_spin_deg": five["spin_deg"],
        "machine_reference_ms": round(machine_reference(), 1),
        "bench_wall_s": round(time.perf_counter() - started, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:32} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
