#!/usr/bin/env python3
"""Frame times of the game screen at 1280×720 with shadows: the villa at rest, and collapsing.

Starts a virtual screen (Xvfb) itself when no DISPLAY is set. Frames are timed with
gl-finish on (the driver waits for the picture to be done), the physics runs on its
fixed step with a fixed 1/60 s of game time per frame, and the camera keeps turning
slowly, so every frame is really drawn. A benchmark: it prints numbers, it asserts
nothing.

    python scripts/bench_render.py --json
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--rest-frames", type=int, default=300)
    parser.add_argument("--collapse-frames", type=int, default=180)
    parser.add_argument("--floors", type=int, default=5, help="build a random villa this high")
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    from villa.presentation.xvfb import display_available
    with display_available(width, height) as display:
        from villa.app.match import MatchOptions, new_match
        from villa.presentation.game import GameScreen
        from villa.presentation.stage import WindowOptions, close_window, open_window, stage

        open_window(WindowOptions(width=width, height=height, gl_finish=True, sync_video=False,
                                  fixed_frame_rate=60))
        match = new_match(MatchOptions(floors=args.floors, seed=args.seed), settle_seconds=0.0)
        screen = GameScreen(stage, match)
        stage.base.taskMgr.step()
        first_frame = time.perf_counter() - STARTED

        def timed_frame(turn: float) -> tuple[float, bool]:
            screen.view.camera.orbit(turn, 0.0)
            start = time.perf_counter()
            stage.base.taskMgr.step()
            elapsed = (time.perf_counter() - start) * 1000
            return elapsed, screen.view.shadows.drawn_this_frame

        villa = match.villa
        villa.run_until_settled(10.0)
        for _ in range(10):  # let the shadows catch up with the settled villa
            timed_frame(0.2)
        rest, rest_shadow_frames = [], 0
        for _ in range(args.rest_frames):
            elapsed, shadowed = timed_frame(0.2)
            rest.append(elapsed)
            rest_shadow_frames += shadowed

        # Knock out every column carrying the blue floor: the whole villa comes down.
        for column in list(villa.columns):
            if villa.nodes[column].getZ() < 1.2 + 8.0:
                villa.remove(column)
        villa.wake()
        collapse, shadow_frames = [], 0
        for _ in range(args.collapse_frames):
            elapsed, shadowed = timed_frame(0.2)
            collapse.append(elapsed)
            shadow_frames += shadowed
        result = {
            "rest_p50_ms": round(statistics.median(rest), 2),
            "rest_p95_ms": round(percentile(rest, 95), 2),
            "collapse_p50_ms": round(statistics.median(collapse), 2),
            "collapse_p95_ms": round(percentile(collapse, 95), 2),
            "start_to_first_frame_s": round(first_frame, 2),
            "width": width,
            "height": height,
            "shadows": True,
            "shadow_map": screen.view.shadows.sun.size,
            "rest_frames": len(rest),
            "collapse_frames": len(collapse),
            "rest_frames_with_shadow_drawn": rest_shadow_frames,
            "collapse_frames_with_shadow_drawn": shadow_frames,
            "collapsed": villa.collapse is not None,
            "renderer": stage.win.getGsg().getDriverRenderer(),
            "llvmpipe_threads": int(os.environ.get("LP_NUM_THREADS", "0")) or None,
            "display": display,
        }
        close_window()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>36}: {value}")


if __name__ == "__main__":
    main()
