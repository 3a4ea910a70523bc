#!/usr/bin/env python3
"""Hundreds of seeded computer games across every player count, layout, rule set and variant: each settled
turn's autosave is loaded back and taken up again, and each game's replay played to its end. Prints one JSON
line: games, turns, refused (saves or replays the game wrote but would not load), and the first problems.

    python scripts/sweep_saves.py --games 300 --turns 12 --json
    python scripts/sweep_saves.py --games 100 --first-seed 201 --strength easy   # quicker
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa.app import sweep  # noqa: E402
from villa.match import Strength  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--turns", type=int, default=12, help="turns of each game at most")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--strength", choices=[s.value for s in Strength],
                        help="every seat this strong (Easy thinks fastest); else they go round")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("VILLA_HOME", "/tmp/villa-sweep")
    started = time.perf_counter()
    problems, games = [], 0
    strength = Strength(args.strength) if args.strength else None
    for setup in sweep.setups(args.games, args.first_seed, strength):
        found = sweep.check(setup, args.turns)
        games += 1
        problems += [f"seed {setup.seed} ({len(setup.seats)} players, {setup.layout.name}, "
                     f"{setup.ruleset.name}): {p}" for p in found]
        if not args.json:
            print(f"game {games}: seed {setup.seed} {'ok' if not found else found}", flush=True)
    result = {"games": games, "refused": len(problems), "problems": problems[:20],
              "seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
