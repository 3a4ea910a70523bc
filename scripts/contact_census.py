"""Where Bullet's time goes in a villa: a census of its contacts, and its own profiler's split.

    from contact_census import census, cost_split

`census(villa, frames)` counts, per 1/60 s frame, the contact manifolds Bullet keeps, their points
and the points at a positive distance (near misses kept for the solver), grouped by what touches
what: a column's core, top or foot, a floor's slab, the base plate, the table. A manifold holds
the contacts of one pair of child shapes (a compound against a compound has one per overlapping
pair of children); one with no points is a pair of shapes whose bounds overlap but which do not
touch, tested every step all the same.

`cost_split(villa, frames)` reads Bullet's built-in profiler (compiled into Panda3D's Bullet and
reached through ctypes): milliseconds per frame in the broadphase (bounds and overlapping pairs),
the narrowphase (the contacts of each overlapping pair), the solver (setting up the contacts and
constraints, and iterating over them), the rest of Bullet's step, and everything outside it
(Panda3D copying poses, the villa's own Python). Its clock is wall time: on a busy machine take
the shares, not the figures.
"""

from __future__ import annotations

import collections
import ctypes
import glob
import os
import re
import sys
import tempfile
import time

import panda3d

from villa.rules.pieces import level_of_floor

FRAME = 1 / 60


def _kind(name: str) -> str:
    if name in ("base", "table"):
        return name
    return "floor" if level_of_floor(name) is not None else "column"


def _part(villa, name: str, child: int) -> str:
    """What part of a piece a contact point lies on, from its child shape's index."""
    kind = _kind(name)
    if kind == "base":
        return "base"
    if kind != "column":
        return {"floor": "floor slab", "table": "table"}[kind]
    if child <= 0:
        return "column core"
    return "column top" if villa.body(name).getShapeTransform(child).getPos().z > 0 else "column foot"


def census(villa, frames: int = 60) -> dict:
    """{"what / touches what": {"manifolds", "points", "positive"} per frame, ..., "total": ...}."""
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for _ in range(frames):
        villa.step(FRAME)
        for manifold in villa.world.getManifolds():
            a, b = manifold.getNode0().getName(), manifold.getNode1().getName()
            n = manifold.getNumManifoldPoints()
            if n == 0:
                key = " / ".join(sorted((_kind(a), _kind(b)))) + " (no points)"
            else:
                first = manifold.getManifoldPoint(0)
                key = " / ".join(sorted((_part(villa, a, first.getIndex0()), _part(villa, b, first.getIndex1()))))
            row = counts[key]
            row["manifolds"] += 1
            for i in range(n):
                row["points"] += 1
                row["positive"] += manifold.getManifoldPoint(i).getDistance() > 0
    table = {key: {k: round(row[k] / frames, 1) for k in ("manifolds", "points", "positive")}
             for key, row in sorted(counts.items(), key=lambda kv: -kv[1]["points"])}
    table["total"] = {k: round(sum(row[k] for row in counts.values()) / frames, 1)
                      for k in ("manifolds", "points", "positive")}
    return table


# --- Bullet's own profiler ---

_LINE = re.compile(r"^(\.*)\d+ -- (.+) \(([\d.]+) %\) :: ([\d.]+) ms / frame \((\d+) calls\)")
_TOTAL = re.compile(r"^(\.*)Profiling: (.+) \(total running time: ([\d.]+) ms\)")


def _profiler():
    """(reset, dump) of Bullet's CProfileManager, or None where the library does not export them."""
    try:
        path = glob.glob(os.path.join(os.path.dirname(panda3d.__file__), "libpandabullet.so*"))[0]
        lib = ctypes.CDLL(path)
        return lib._ZN15CProfileManager5ResetEv, lib._ZN15CProfileManager7dumpAllEv
    except (IndexError, OSError, AttributeError):
        return None


def _dump(dump) -> str:
    """What the profiler prints (with printf, to the process's standard output), caught in a file."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+") as caught:
        os.dup2(caught.fileno(), 1)
        try:
            dump()
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        caught.seek(0)
        return caught.read()


def _parse(text: str) -> dict[str, float]:
    """{"stepSimulation/internalSingleStepSimulation/...": ms} of one dump (one call of Bullet's step:
    the profiler starts afresh at every `stepSimulation`)."""
    times: dict[str, float] = {}
    node = {0: ""}   # depth -> the node whose children are listed at that depth
    for line in text.splitlines():
        if m := _TOTAL.match(line):
            depth, name = len(m.group(1)) // 3, m.group(2)
            if depth:
                node[depth] = f"{node[depth - 1]}/{name}".lstrip("/")
        elif m := _LINE.match(line):
            depth, name = len(m.group(1)) // 3, m.group(2)
            times[f"{node.get(depth, '')}/{name}".lstrip("/")] = float(m.group(4))
    return times


def cost_split(villa, frames: int = 300) -> dict | None:
    """Shares of a frame's time (summing to 1): broadphase, narrowphase, solver (its setup, its
    iterations, the rest), the rest of Bullet's step, and outside Bullet's step (Panda3D copying
    poses, the villa's Python). None where the profiler cannot be reached."""
    profiler = _profiler()
    if profiler is None:
        return None
    reset, dump = profiler
    step = "stepSimulation/internalSingleStepSimulation"
    collide, solve = f"{step}/performDiscreteCollisionDetection", f"{step}/solveConstraints"
    sums: collections.Counter = collections.Counter()
    frame_ms = 0.0
    for _ in range(frames):
        reset()
        started = time.perf_counter()
        villa.step(FRAME)
        frame_ms += (time.perf_counter() - started) * 1000
        sums.update(_parse(_dump(dump)))
    if not sums["stepSimulation"] or frame_ms <= 0:
        return None
    def solving(part: str) -> float:
        """A part of the solver's work, island by island or for small islands batched together."""
        return sum(ms for path, ms in sums.items() if path.startswith(solve) and path.endswith(f"solveGroup/{part}"))

    split = {
        "broadphase": sums[f"{collide}/updateAabbs"] + sums[f"{collide}/calculateOverlappingPairs"],
        "narrowphase": sums[f"{collide}/dispatchAllCollisionPairs"],
        "solver_setup": solving("solveGroupCacheFriendlySetup"),
        "solver_iterations": solving("solveGroupCacheFriendlyIterations"),
    }
    split["solver_other"] = sums[solve] - split["solver_setup"] - split["solver_iterations"]
    split["step_other"] = sums["stepSimulation"] - sums[collide] - sums[solve]
    split["outside_step"] = max(0.0, frame_ms - sums["stepSimulation"])
    total = sum(split.values())
    return {k: round(v / total, 3) for k, v in split.items()}
