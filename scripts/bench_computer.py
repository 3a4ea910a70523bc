#!/usr/bin/env python3
"""How well the computer players play, and how long they think: computer-only games, headless.

    .venv/bin/python scripts/bench_computer.py --json                 # 120 games, one JSON line
    .venv/bin/python scripts/bench_computer.py --json --games 24 --jobs 3 --keep games.jsonl
    .venv/bin/python scripts/bench_computer.py --json --summarize games.jsonl
    .venv/bin/python scripts/bench_computer.py --json --frames       # frame times at rest, thinking or not
    .venv/bin/python scripts/bench_computer.py --json --kinds medium_vs_easy --games 40   # the ladder's first rung

The games go round five kinds: Hard at all four seats (how high the villa gets, how often a Master
Builder is found), two players Hard against Easy, Medium against Easy and Hard against Medium
(seats swapped every other game), and three- and four-player games of mixed strengths under every
rule set of the menu (legality); `--kinds` plays only some of them. Every layout preset and random
layouts come round. Each game's figures are written as one line to `--keep` as soon as it ends, so a
long run can be summed up from what it finished.

Figures: `illegal_actions` (actions and facts the referee refused), thinking per decision in wall
and CPU seconds (Hard), floors reached and Master Builders in Hard's four-player games, win rates
of the head-to-head games (`medium_beats_easy_rate`: Medium against Easy, given only over 40 games or
more; target 0.65), and how well the trials on copies of the villa foresaw the live pulls
(`copy_miss_*`: how far the floors stood from where the copy left them the moment the column came
free, cm).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa import rules  # noqa: E402
from villa.match import LAYOUT_NAMES, Match, MatchSetup, Refused, Seat, Strength, layout_named  # noqa: E402
from villa.match.computer import hands, seat_computers  # noqa: E402

KINDS = ("hard4", "hard_vs_easy", "medium_vs_easy", "hard_vs_medium", "mixed")
HEAD_TO_HEAD = {"hard_vs_easy": (Strength.HARD, Strength.EASY), "medium_vs_easy": (Strength.MEDIUM, Strength.EASY),
                "hard_vs_medium": (Strength.HARD, Strength.MEDIUM)}
MAX_FRAMES = 60 * 60 * 40      # 40 minutes of simulated time: a game that long has stalled
LADDER_GAMES = 40              # Medium against Easy: fewer games say too little to quote


def game_setup(number: int, first_seed: int, kinds: tuple[str, ...] = KINDS
               ) -> tuple[str, MatchSetup, tuple[Strength, ...]]:
    kind = kinds[number % len(kinds)]
    seed = first_seed + number
    turn = number // len(kinds)   # the round of kinds: the layout, and which strength sits first
    layout = layout_named(LAYOUT_NAMES[turn % len(LAYOUT_NAMES)], seed)
    ruleset = rules.PUBLISHER
    if kind == "hard4":
        strengths = (Strength.HARD,) * 4
    elif kind in HEAD_TO_HEAD:
        first, second = HEAD_TO_HEAD[kind]
        strengths = (first, second) if turn % 2 == 0 else (second, first)
    else:
        names = sorted(rules.RULE_SETS)
        ruleset = rules.RULE_SETS[names[turn % len(names)]]
        players = 3 + turn % 2
        strengths = tuple((Strength.EASY, Strength.MEDIUM, Strength.HARD)[(seed + i) % 3] for i in range(players))
    seats = tuple(Seat(f"Computer {i + 1} ({s.value})", s) for i, s in enumerate(strengths))
    return kind, MatchSetup(seats, layout, ruleset, seed), strengths


def play(number: int, first_seed: int = 1, kinds: tuple[str, ...] = KINDS) -> dict:
    kind, setup, strengths = game_setup(number, first_seed, kinds)
    started, cpu = time.time(), time.process_time()
    match = Match(setup)
    refused: list = []
    match.events.subscribe(Refused, lambda e: refused.append(f"{type(e.action).__name__}: {e.error}"))
    watch = hands.Watch()
    seats = seat_computers(match)
    for seat in seats:
        seat.watch = watch
    top = match.state.top_level
    frames = 0
    error = None
    try:
        while not (match.over and match.turns[-1].actions == len(match.state.log)) and frames < MAX_FRAMES:
            match.frame()
            frames += 1
            top = max(top, match.state.top_level)
    except RuntimeError as failure:   # a seat's action the referee refused
        error = str(failure)
        refused.append(error)
    state = match.state
    result = state.result
    winner = None if result is None else result.winner
    return {
        "game": number, "kind": kind, "seed": setup.seed, "layout": setup.layout.name, "rules": setup.ruleset.name,
        "strengths": [s.value for s in strengths], "players": len(strengths),
        "over": state.over, "ending": None if result is None else result.ending,
        "winner": winner, "winner_strength": None if winner is None else strengths[winner].value,
        "collapsed_by_strength": None if result is None or result.collapsed_by is None
        else strengths[result.collapsed_by].value,
        "top_level": top, "turns": match.turn, "frames": frames, "refused": refused,
        "think": [(s.strength.value, wall, cpu_s) for s in seats for wall, cpu_s in s.thinking],
        "copy": watch.seen, "wall_s": time.time() - started, "cpu_s": time.process_time() - cpu,
    }


def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def _rate(hits: int, total: int) -> float | None:
    return None if total == 0 else round(hits / total, 3)


def summarize(games: list[dict]) -> dict:
    hard4 = [g for g in games if g["kind"] == "hard4"]
    hard_think = [t for g in games for t in g["think"] if t[0] == "hard"]
    copies = [c for g in games for c in g["copy"]]
    summary: dict = {
        "games": len(games),
        "illegal_actions": sum(len(g["refused"]) for g in games),
        "unfinished_games": sum(not g["over"] for g in games),
        "hard_think_p50_s": _round(_percentile([t[1] for t in hard_think], 0.5)),
        "hard_think_p95_s": _round(_percentile([t[1] for t in hard_think], 0.95)),
        "hard_think_cpu_p50_s": _round(_percentile([t[2] for t in hard_think], 0.5)),
        "hard_think_cpu_p95_s": _round(_percentile([t[2] for t in hard_think], 0.95)),
        "hard_decisions": len(hard_think),
        "hard4_games": len(hard4),
        "hard_reached_green_rate": _rate(sum(g["top_level"] >= 2 for g in hard4), len(hard4)),
        "hard_reached_yellow_rate": _rate(sum(g["top_level"] >= 3 for g in hard4), len(hard4)),
        "hard_reached_orange_rate": _rate(sum(g["top_level"] >= 4 for g in hard4), len(hard4)),
        "hard_master_builder_rate": _rate(sum(g["winner"] is not None for g in hard4), len(hard4)),
        "hard_median_turns": statistics.median([g["turns"] for g in hard4]) if hard4 else None,
    }
    for kind, (first, _second) in HEAD_TO_HEAD.items():
        played = [g for g in games if g["kind"] == kind]
        summary[f"{kind}_win_rate"] = _rate(sum(g["winner_strength"] == first.value for g in played), len(played))
        summary[f"{kind}_games"] = len(played)
        summary[f"{kind}_no_winner"] = sum(g["winner"] is None for g in played)
    ladder = [g for g in games if g["kind"] == "medium_vs_easy"]
    summary["medium_beats_easy_rate"] = summary["medium_vs_easy_win_rate"] if len(ladder) >= LADDER_GAMES else None
    summary["copy_pulls"] = len(copies)
    summary["copy_miss_p50_cm"] = _round(_percentile([c[2] for c in copies], 0.5), 4)
    summary["copy_miss_p95_cm"] = _round(_percentile([c[2] for c in copies], 0.95), 4)
    summary["copy_miss_max_cm"] = _round(max((c[2] for c in copies), default=None), 4)
    summary["copy_shift_error_p95_cm"] = _round(_percentile([abs(c[1] - c[0]) for c in copies], 0.95), 4)
    summary["rule_sets"] = sorted({g["rules"] for g in games})
    summary["player_counts"] = sorted({g["players"] for g in games})
    summary["wall_s"] = round(sum(g["wall_s"] for g in games), 1)
    summary["cpu_s"] = round(sum(g["cpu_s"] for g in games), 1)
    return summary


def _round(value, digits: int = 3):
    return None if value is None else round(value, digits)


def frame_times(rounds: int = 6, rest_frames: int = 240) -> dict:
    """The game screen's frame time at rest (1280x720, shadows, gl-finish, the camera turning so every
    frame is drawn): with nobody thinking, and while a Hard computer player thinks in its worker
    process about the very same villa (the request sent again each round)."""
    from villa.match.computer.plans import Request
    from villa.match.computer.worker import Aside
    from villa.presentation.xvfb import display_available
    with display_available(1280, 720) as display:
        from villa.presentation.game import GameScreen
        from villa.presentation.stage import WindowOptions, close_window, open_window, stage
        open_window(WindowOptions(width=1280, height=720, gl_finish=True, sync_video=False, fixed_frame_rate=60,
                                  sound=False))
        seats = (Seat("Anna"), Seat("Ben"), Seat("Cleo"), Seat("Dario"))
        match = Match(MatchSetup(seats, layout_named("rings", 3), seed=3, deal_colours=True))
        screen = GameScreen(stage, match)
        thinker = Aside()

        def timed() -> float:
            screen.view.camera.orbit(0.2, 0.0)
            start = time.perf_counter()
            stage.base.taskMgr.step()
            return (time.perf_counter() - start) * 1000

        for _ in range(30):
            timed()
        thinker.submit(Request(rules.state_to_json(match.state), match.villa.snapshot(), match.actor, "hard",
                               1)).result()   # the worker has started and imported everything
        rest, thinking, decisions = [], [], []
        for number in range(rounds):
            rest += [timed() for _ in range(rest_frames // rounds)]
            request = Request(rules.state_to_json(match.state), match.villa.snapshot(), match.actor, "hard", number)
            started = time.perf_counter()
            future = thinker.submit(request)
            while not future.done():
                thinking.append(timed())
            decisions.append(time.perf_counter() - started)
        screen.close()
        close_window()
        Aside.close()
    return {
        "rest_frame_p50_ms": round(statistics.median(rest), 2),
        "rest_frame_p95_ms": round(_percentile(rest, 0.95), 2),
        "thinking_frame_p50_ms": round(statistics.median(thinking), 2),
        "thinking_frame_p95_ms": round(_percentile(thinking, 0.95), 2),
        "rest_frames": len(rest), "thinking_frames": len(thinking),
        "decisions": len(decisions), "decision_wall_p50_s": round(statistics.median(decisions), 2),
        "display": display,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--first", type=int, default=0, help="the first game's number (to go on with a run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", type=lambda text: tuple(text.split(",")), default=KINDS,
                        help=f"play only these kinds of game, comma-separated ({', '.join(KINDS)})")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--keep", type=Path, help="append each game's figures to this file as it ends")
    parser.add_argument("--summarize", type=Path, help="sum up the games kept in this file; play none")
    parser.add_argument("--frames", action="store_true",
                        help="time the window's frames at rest, with and without a computer player thinking")
    args = parser.parse_args()
    unknown = [kind for kind in args.kinds if kind not in KINDS]
    if unknown:
        parser.error(f"no such kind of game: {', '.join(unknown)} (the kinds: {', '.join(KINDS)})")
    if args.frames:
        summary = frame_times()
        summary["load_average"] = [round(x, 1) for x in os.getloadavg()]
        print(json.dumps(summary) if args.json else json.dumps(summary, indent=2))
        return 0
    if args.summarize:
        games = [json.loads(line) for line in args.summarize.read_text().splitlines() if line.strip()]
    else:
        games = []
        numbers = range(args.first, args.first + args.games)
        with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=4) as pool:
            for game in pool.imap_unordered(_play_one, [(n, args.seed, args.kinds) for n in numbers]):
                games.append(game)
                if args.keep:
                    with args.keep.open("a") as out:
                        out.write(json.dumps(game) + "\n")
                if not args.json:
                    print(f"game {game['game']} ({game['kind']}): top {game['top_level']}, "
                          f"{game['turns']} turns, winner {game['winner_strength']}, {game['wall_s']:.0f} s",
                          file=sys.stderr, flush=True)
    summary = summarize(games)
    summary["load_average"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(summary) if args.json else json.dumps(summary, indent=2))
    return 0


def _play_one(job: tuple[int, int, tuple[str, ...]]) -> dict:
    return play(*job)


if __name__ == "__main__":
    sys.exit(main())
