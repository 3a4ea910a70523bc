#!/usr/bin/env python3
"""A person's hand in numbers: laying the next floor with one click, and held in the hands.

    .venv/bin/python scripts/bench_hand.py --json               # 200 villas, one JSON line
    .venv/bin/python scripts/bench_hand.py --json --villas 20 --jobs 1

Each seeded villa is a random layout of two to five floors with its top floor taken away
(and what stood on it): statics say that floor stands where the layout had it, at least
`RANDOM_MARGIN` inside its columns (seeds whose villa would not stand without it are passed over). A model of a person lays it there, aiming the floor's
centre off by a normal error of `AIM_ERROR` cm in x and in y, with a tremor of `TREMOR` cm at
`TREMOR_HZ` on the pointer and a reaction time of `REACTION` s (the turn is aimed exactly):
- one click, as today: once the floor has arrived over the aim, a reaction later, `lower()`;
- held: `lower(hold=True)`; a reaction after the floor touches, then half a second more, the
  person looks: within `LEVEL_DEG` of level, they let go (a reaction later); else they lift it,
  move the aim 1 cm towards the side that stayed up and lower it again, up to `MOVES` times
  (after the last move they let go whatever it does).

Figures: `one_click_laid_rate` and `held_laid_rate` (laid: let go, settled, no collapse),
`held_attempts_median` (lowerings per held floor), `held_villa_knocked_rate` (the villa
collapsed while the floor was in the hands).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from panda3d.core import Point3  # noqa: E402

from villa.physics import PlacementError, Villa, random_layout  # noqa: E402
from villa.physics.dimensions import FloorSpot, Layout  # noqa: E402
from villa.physics.layouts import problems  # noqa: E402

FRAME = 1 / 60
AIM_ERROR = 1.0     # cm, standard deviation in x and in y
TREMOR = 0.2        # cm, amplitude
TREMOR_HZ = 8.0
REACTION = 0.25     # s
LOOK = 0.5          # s the person waits with the floor on the columns before judging it
LEVEL_DEG = 0.5
MOVES = 5
NUDGE = 1.0         # cm towards the side that stayed up
ARRIVED = 0.05      # cm: the floor is over the aim


class Person:
    """The pointer of a person aiming at (x, y): off by a fixed error, trembling."""

    def __init__(self, rng: random.Random, x: float, y: float) -> None:
        self.x, self.y = x + rng.gauss(0, AIM_ERROR), y + rng.gauss(0, AIM_ERROR)
        self.phase = rng.uniform(0, 2 * math.pi)
        self.way = rng.uniform(0, 2 * math.pi)
        self.t = 0.0

    def pointer(self) -> Point3:
        shake = TREMOR * math.sin(2 * math.pi * TREMOR_HZ * self.t + self.phase)
        return Point3(self.x + shake * math.cos(self.way), self.y + shake * math.sin(self.way), 0)


def _frames(villa: Villa, person: Person, lay, seconds: float, until=None) -> bool:
    """Step frames for up to `seconds`, the hand following the person's pointer; True if `until()` came true."""
    for _ in range(round(seconds / FRAME)):
        person.t += FRAME
        lay.aim(person.pointer())
        villa.step(FRAME)
        if until is not None and until():
            return True
    return False


def layout_for(seed: int) -> tuple[Layout, FloorSpot]:
    """The random layout of this seed without its top floor and what stood on it, and that floor's spot."""
    laid = 1 + seed % 4
    full = random_layout(seed, floors=laid + 1)
    spot = next(f for f in full.floors if f.level == laid + 1)
    return Layout(f"hand {seed}", tuple(c for c in full.columns if c.level <= laid),
                  tuple(f for f in full.floors if f.level <= laid)), spot


def standing_seeds(first: int, count: int) -> list[int]:
    """The first `count` seeds from `first` whose villa stands without its top floor (statics): taken
    away, what it carried no longer weighs on the floors below, and some of them would tip."""
    seeds, seed = [], first
    while len(seeds) < count:
        if not problems(layout_for(seed)[0]):
            seeds.append(seed)
        seed += 1
    return seeds


def villa_for(seed: int) -> tuple[Villa, tuple[float, float, float]] | None:
    """The settled villa of this seed without its top floor, and where that floor stood (x, y, yaw)."""
    layout, spot = layout_for(seed)
    villa = Villa.from_layout(layout)
    if not villa.run_until_settled(10) or villa.collapse is not None:
        return None
    return villa, (spot.x, spot.y, spot.yaw)


def _carry(villa: Villa, person: Person, spot) -> object:
    lay = villa.lay_floor()
    lay.turn((spot[2] + 180.0) % 360.0 - 180.0)
    _frames(villa, person, lay, 3.0, lambda: math.hypot(lay.x - person.x, lay.y - person.y) < ARRIVED + 0.3
            and abs((lay.aim_yaw - lay.yaw)) < 0.01)
    _frames(villa, person, lay, REACTION)
    return lay


def one_click(villa: Villa, rng: random.Random, spot) -> bool:
    person = Person(rng, spot[0], spot[1])
    lay = _carry(villa, person, spot)
    try:
        lay.lower()
    except PlacementError:
        lay.cancel()
        return False
    _frames(villa, person, lay, 5.0, lambda: lay.state == "laid")
    villa.run_until_settled(10)
    return villa.collapse is None and lay.result() is not None


def held(villa: Villa, rng: random.Random, spot) -> dict:
    person = Person(rng, spot[0], spot[1])
    lay = _carry(villa, person, spot)
    attempts = 0
    try:
        while True:
            attempts += 1
            lay.lower(hold=True)
            _frames(villa, person, lay, 3.0, lambda: bool(lay.touching()) or lay.state != "held")
            _frames(villa, person, lay, REACTION + LOOK)
            if lay.state != "held":
                break
            level = lay.tilt_deg() <= LEVEL_DEG
            high_x, high_y = lay.high_side()
            _frames(villa, person, lay, REACTION)
            if level or attempts > MOVES or lay.state != "held":
                lay.let_go()
                break
            lay.lift()
            person.x, person.y = person.x + NUDGE * high_x, person.y + NUDGE * high_y
            _frames(villa, person, lay, 1.0)
    except PlacementError:
        lay.cancel()
        return {"laid": False, "attempts": attempts, "knocked": False}
    knocked = villa.collapse is not None
    villa.run_until_settled(10)
    return {"laid": villa.collapse is None and lay.result() is not None, "attempts": attempts, "knocked": knocked}


def trial(seed: int) -> dict | None:
    built = villa_for(seed)
    if built is None:
        return None
    villa, spot = built
    rng = random.Random(seed * 7919 + 1)
    clicked = one_click(villa.copy(), random.Random(rng.random()), spot)
    return {"seed": seed, "one_click_laid": clicked, **held(villa.copy(), random.Random(rng.random()), spot)}


def summary(results: list[dict]) -> dict:
    n = len(results)
    return {
        "villas": n,
        "one_click_laid_rate": round(sum(r["one_click_laid"] for r in results) / n, 3),
        "held_laid_rate": round(sum(r["laid"] for r in results) / n, 3),
        "held_attempts_median": statistics.median(r["attempts"] for r in results),
        "held_villa_knocked_rate": round(sum(r["knocked"] for r in results) / n, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    parser.add_argument("--villas", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0, help="the first villa's seed")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    seeds = standing_seeds(args.seed, args.villas)
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=10) as pool:
            results = pool.map(trial, seeds, chunksize=1)
    else:
        results = [trial(s) for s in seeds]
    done = [r for r in results if r is not None]
    figures = {**summary(done), "unsettled_villas": len(results) - len(done), "last_seed": seeds[-1],
               "wall_s": round(time.perf_counter() - started, 1)}
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
