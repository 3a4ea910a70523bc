#!/usr/bin/env python3
"""Frame times of the game screen at 1280×720 at each graphics quality: the villa at rest, and collapsing;
and what the game left alone costs the machine.

Starts a virtual screen (Xvfb) itself when no DISPLAY is set. Frames are timed with
gl-finish on (the driver waits for the picture to be done), the physics runs on its
fixed step with a fixed 1/60 s of game time per frame, and the camera keeps turning
slowly, so every frame is really drawn. Each preset gets a fresh villa of the same
layout. Beside wall-clock times it gives the process's CPU time per frame, which
other programs on the machine disturb less. A benchmark: it prints numbers, it
asserts nothing.

    python scripts/bench_render.py --json [--quality low,medium,high]

Keys: `<preset>_rest_p50_ms`, `<preset>_rest_p95_ms`, `<preset>_collapse_p50_ms`,
`<preset>_collapse_p95_ms`, `<preset>_rest_cpu_ms` and `<preset>_collapse_cpu_ms` (mean CPU
time per frame), `renderer`, `software_renderer`, `automatic_quality` (what the game picks
by itself here).

Left alone, the game runs as a player's would (real time, its frame cap, drawn as things change)
in a process of its own, each scene `--idle-runs` times over `--idle-seconds`: the process's CPU
time (all its threads, the renderer's too) as a share of one core, median of the runs, and the
frames it drew a second. Keys: `menu_idle_cpu_pct` (the main menu), `rest_idle_cpu_pct` (the
game screen on Low, the villa at rest, the pointer still), `end_idle_cpu_pct` (the end screen),
`<scene>_idle_cpu_pct_runs`, `<scene>_idle_frames_per_s` (the loop's) and `<scene>_idle_drawn_per_s`.

    python scripts/bench_render.py --json --parts idle --idle-runs 3
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


def measure(stage, quality: str, args) -> dict:
    from villa.match import Match, MatchSetup, Seat, layout_named
    from villa.presentation.game import GameScreen

    seats = (Seat("Anna"), Seat("Ben"))
    match = Match(MatchSetup(seats, layout_named("random", args.seed, args.floors), seed=args.seed, deal_colours=True))
    screen = GameScreen(stage, match)
    screen.view.set_graphics_quality(quality)

    def timed_frames(count: int) -> tuple[list[float], float, int]:
        times, drawn = [], 0
        cpu = time.process_time()
        for _ in range(count):
            screen.view.camera.orbit(0.2, 0.0)
            start = time.perf_counter()
            stage.base.taskMgr.step()
            times.append((time.perf_counter() - start) * 1000)
            drawn += screen.view.shadows.drawn_this_frame
        return times, (time.process_time() - cpu) * 1000 / count, drawn

    villa = match.villa
    villa.run_until_settled(10.0)
    timed_frames(12)   # let the shadows and the table's pictures catch up with the settled villa
    rest, rest_cpu, rest_drawn = timed_frames(args.rest_frames)

    # Knock out every column carrying the blue floor: the whole villa comes down.
    for column in list(villa.columns):
        if villa.nodes[column].getZ() < 1.2 + 8.0:
            villa.remove(column)
    villa.wake()
    collapse, collapse_cpu, collapse_drawn = timed_frames(args.collapse_frames)
    result = {
        f"{quality}_rest_p50_ms": round(statistics.median(rest), 2),
        f"{quality}_rest_p95_ms": round(percentile(rest, 95), 2),
        f"{quality}_collapse_p50_ms": round(statistics.median(collapse), 2),
        f"{quality}_collapse_p95_ms": round(percentile(collapse, 95), 2),
        f"{quality}_rest_cpu_ms": round(rest_cpu, 2),
        f"{quality}_collapse_cpu_ms": round(collapse_cpu, 2),
        f"{quality}_shadow_map": screen.view.shadow_size,
        f"{quality}_multisamples": screen.view.multisampling.samples if screen.view.multisampling else 0,
        f"{quality}_rest_frames_with_light_drawn": rest_drawn,
        f"{quality}_collapse_frames_with_light_drawn": collapse_drawn,
        f"{quality}_collapsed": villa.collapse is not None,
    }
    screen.close()
    return result


IDLE_SCENES = ("menu", "rest", "end")


def idle_scene(scene: str, width: int, height: int, args) -> dict:
    """In a process of its own: `scene` left alone for `args.idle_seconds`, the window as a player's."""
    from villa.app.front import Front
    from villa.match import MatchSetup, Seat, layout_named
    from villa.presentation.menus import EndScreen
    from villa.presentation.preferences import Settings
    from villa.presentation.stage import WindowOptions, close_window, open_window, stage

    open_window(WindowOptions(width=width, height=height, sync_video=False, sound=False))

    def run(seconds: float, until=lambda: False) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end and not until():
            stage.base.taskMgr.step()

    front = Front(stage, Settings(graphics_quality="low"))
    if scene == "menu":
        front.main_menu()
    else:
        front.start(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("random", args.seed, args.floors),
                               seed=args.seed, deal_colours=True))
        villa = front.match.villa
        villa.run_until_settled(10.0)
    if scene == "end":   # every column carrying the blue floor knocked out: the game is over
        for column in list(villa.columns):
            if villa.nodes[column].getZ() < 1.2 + 8.0:
                villa.remove(column)
        villa.wake()
        ended = lambda: isinstance(front.menu, EndScreen)  # noqa: E731
        give_up = time.perf_counter() + 120.0
        while not ended():
            if time.perf_counter() > give_up:
                raise SystemExit("the villa did not fall within two minutes: no end screen to leave alone")
            run(1.0, ended)
            if front.screen is not None and front.screen.mode == "Replay":
                front.screen.escape()   # the fall's replay skipped
    run(3.0)   # the camera arrives, the pieces come to rest
    drawing = stage.drawing
    frames, drawn = drawing.frames, drawing.drawn
    cpu, start = time.process_time(), time.perf_counter()
    run(args.idle_seconds)
    wall = time.perf_counter() - start
    result = {"cpu_pct": round((time.process_time() - cpu) / wall * 100, 1),
              "frames_per_s": round((drawing.frames - frames) / wall, 1),
              "drawn_per_s": round((drawing.drawn - drawn) / wall, 1)}
    close_window()
    return result


def idle(args) -> dict:
    """Each scene left alone, `args.idle_runs` times, each in a fresh process with a home of its own."""
    import subprocess
    import tempfile
    result = {}
    for scene in IDLE_SCENES:
        runs = []
        for _ in range(args.idle_runs):
            with tempfile.TemporaryDirectory() as home:
                done = subprocess.run([sys.executable, __file__, "--idle-scene", scene, "--size", args.size,
                                       "--idle-seconds", str(args.idle_seconds), "--seed", str(args.seed),
                                       "--floors", str(args.floors)],
                                      env={**os.environ, "VILLA_HOME": home}, capture_output=True, text=True,
                                      check=True)
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
        result[f"{scene}_idle_cpu_pct"] = statistics.median(run["cpu_pct"] for run in runs)
        result[f"{scene}_idle_cpu_pct_runs"] = [run["cpu_pct"] for run in runs]
        result[f"{scene}_idle_frames_per_s"] = statistics.median(run["frames_per_s"] for run in runs)
        result[f"{scene}_idle_drawn_per_s"] = statistics.median(run["drawn_per_s"] for run in runs)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quality", default="low,medium,high", help="presets to time, in order")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--rest-frames", type=int, default=300)
    parser.add_argument("--collapse-frames", type=int, default=180)
    parser.add_argument("--floors", type=int, default=5, help="build a random villa this high")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--parts", default="frames,idle", help="frames (the frame times), idle (the game left alone)")
    parser.add_argument("--idle-runs", type=int, default=3, help="runs of each scene left alone (the median counts)")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--idle-scene", choices=IDLE_SCENES, help=argparse.SUPPRESS)   # one run, in its own process
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    parts = args.parts.split(",")
    if args.idle_scene:
        from villa.presentation.xvfb import display_available
        with display_available(width, height):
            print(json.dumps(idle_scene(args.idle_scene, width, height, args)))
        return

    from villa.presentation.xvfb import display_available
    with display_available(width, height) as display:
        from villa.presentation import quality
        from villa.presentation.stage import WindowOptions, close_window, open_window, stage

        open_window(WindowOptions(width=width, height=height, gl_finish=True, sync_video=False,
                                  fixed_frame_rate=60, sound=False))
        renderer = quality.renderer_of(stage)
        result = {"start_to_window_s": round(time.perf_counter() - STARTED, 2)}
        for preset in args.quality.split(",") if "frames" in parts else ():
            result.update(measure(stage, preset, args))
        result.update({
            "width": width,
            "height": height,
            "renderer": renderer,
            "software_renderer": quality.is_software(renderer),
            "automatic_quality": quality.automatic(renderer),
            "llvmpipe_threads": int(os.environ.get("LP_NUM_THREADS", "0")) or None,
            "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
            "load_average": round(os.getloadavg()[0], 2),
            "display": display,
        })
        close_window()
        if "idle" in parts:   # with this process's window closed
            result.update(idle(args))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>42}: {value}")


if __name__ == "__main__":
    main()
