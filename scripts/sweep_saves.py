#!/usr/bin/env python3
"""Hundreds of seeded computer games across every player count, layout, rule set and variant: each settled
turn's autosave is loaded back and taken up again, and each game's replay played to its end. Prints one JSON
line: games, autosaves and replays loaded, refused (saves or replays the game wrote but would not load), and
the first problems.

    python scripts/sweep_saves.py --games 300 --turns 12 --json
    python scripts/sweep_saves.py --games 100 --first-seed 201 --strength easy   # quicker
    python scripts/sweep_saves.py --endings --json   # every ending under every rule set of the menu
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
    parser.add_argument("--endings", action="store_true",
                        help="instead: a game brought down at each moment of a turn, under every rule set of the menu")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("VILLA_HOME", "/tmp/villa-sweep")
    started = time.perf_counter()
    problems, counts = [], sweep.Counts()
    strength = Strength(args.strength) if args.strength else None
    if args.endings:
        games = ((game.setup(), game.ending) for game in sweep.ending_games(args.first_seed))
    else:
        games = ((setup, None) for setup in sweep.setups(args.games, args.first_seed, strength))
    for setup, ending in games:
        found = sweep.check(setup, args.turns, ending, counts)
        how = f", {ending.value}" if ending else ""
        problems += [f"seed {setup.seed} ({len(setup.seats)} players, {setup.layout.name}, "
                     f"{setup.ruleset.name}{how}): {p}" for p in found]
        if not args.json:
            print(f"game {counts.games}: seed {setup.seed}{how} {'ok' if not found else found}", flush=True)
    result = {"games": counts.games, "autosaves_loaded": counts.autosaves, "replays_loaded": counts.replays,
              "refused": counts.refused, "problems": len(problems), "first_problems": problems[:20],
              "seconds": round(time.perf_counter() - started, 1)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
