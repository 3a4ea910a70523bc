#!/usr/bin/env python3
"""Memory over a long evening: games played one after another in one process, headless through the game's
own entry point (`villa-paletti --autoplay 6 --headless`, two to four computer players, every layout) and on
the window's game screen, and how much the process grows per game once it is warm.

A benchmark: it prints numbers, it asserts nothing.

    python scripts/bench_memory.py --json [--games 50] [--turns N] [--only headless|window]

For each way: the resident size after the warm-up games and after the last, the growth per game between
them, the least-squares slope through every game's size (plateaus and steps averaged out) and the median
step from one game to the next.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa.app import main as entry  # noqa: E402
from villa.match import LAYOUT_NAMES, Match, MatchSetup, Seat, Strength, layout_named  # noqa: E402
from villa.match.computer import seat_computers  # noqa: E402
from villa.presentation.xvfb import display_available  # noqa: E402

WARM_UP = 12       # games before the measuring starts: every player count on every layout once (pools, caches,
                   # fonts and the renderer's buffers fill up for each kind of game first)


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _players(game: int) -> int:
    return 2 + game % 3


def _layout(game: int) -> str:
    return LAYOUT_NAMES[game % len(LAYOUT_NAMES)]


def _setup(game: int) -> MatchSetup:
    seats = tuple(Seat(f"Computer {i + 1}", Strength.EASY) for i in range(_players(game)))
    return MatchSetup(seats, layout_named(_layout(game), game), seed=game)


@contextmanager
def _quiet() -> Iterator[None]:
    """The game's own lines (a line a turn) go nowhere while it plays: only the benchmark's JSON is printed."""
    sys.stdout.flush()
    kept = os.dup(1)
    with open(os.devnull, "w") as nowhere:
        os.dup2(nowhere.fileno(), 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(kept, 1)
        os.close(kept)


def headless_game(game: int, turns: int) -> None:
    """A game as `villa-paletti --autoplay TURNS --headless` plays it, computer players at every seat."""
    argv = ["--autoplay", str(turns), "--headless", "--players", str(_players(game)), "--layout", _layout(game),
            "--seed", str(game + 1)]
    with _quiet():
        code = entry.main(argv)
    if code != 0:
        raise SystemExit(f"bench_memory: the game {' '.join(argv)} ended with code {code}")


def window_game(stage, game: int, turns: int) -> None:
    from villa.presentation.game import GameScreen
    match = Match(_setup(game))
    seat_computers(match)
    screen = GameScreen(stage, match)
    screen.computer_speed = 4.0   # the settings' fastest hands: the same code, a quarter of the frames
    goal = turns
    for _ in range(60 * 60 * 3):
        if match.turn >= goal or (match.over and match.turns[-1].actions == len(match.state.log)):
            break
        stage.base.taskMgr.step()
    screen.close()
    match.close()


def growth(play, games: int) -> dict:
    sizes = []
    for game in range(games + WARM_UP):
        play(game)
        gc.collect()
        if game >= WARM_UP - 1:
            sizes.append(rss_mb())
    steps = [b - a for a, b in zip(sizes, sizes[1:])]
    return {"rss_start_mb": round(sizes[0], 1), "rss_end_mb": round(sizes[-1], 1),
            "rss_max_mb": round(max(sizes), 1),
            "rss_growth_mb_per_game": round((sizes[-1] - sizes[0]) / games, 3),
            "rss_slope_mb_per_game": round(statistics.linear_regression(range(len(sizes)), sizes).slope, 3),
            "rss_step_median_mb": round(statistics.median(steps), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=None,
                        help="turns of each game, fewer if it ends sooner (default: 6 headless, 4 on the screen, "
                             "which draws every frame)")
    parser.add_argument("--only", choices=("headless", "window"), default=None)
    args = parser.parse_args()
    os.environ.setdefault("VILLA_HOME", "/tmp/villa-bench-memory")
    started = time.perf_counter()
    result: dict = {"games": args.games, "warm_up_games": WARM_UP}
    if args.only in (None, "headless"):
        turns = args.turns or 6
        result["headless"] = {"turns_per_game": turns, **growth(lambda g: headless_game(g, turns), args.games)}
    if args.only in (None, "window"):
        with display_available():
            from villa.presentation.stage import WindowOptions, open_window, stage
            open_window(WindowOptions(sync_video=False, fixed_frame_rate=60, sound=False))
            turns = args.turns or 4
            result["window"] = {"turns_per_game": turns, **growth(lambda g: window_game(stage, g, turns), args.games)}
    result["rss_growth_mb_per_game"] = max(v["rss_growth_mb_per_game"] for k, v in result.items()
                                           if isinstance(v, dict))
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
