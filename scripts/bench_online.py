#!/usr/bin/env python3
"""The online server on one machine, measured: N rooms of computer players on loopback, with a connected
client per seat (watching, in a process of their own), and one person joining and rejoining.

    .venv/bin/python scripts/bench_online.py --json                    # N = 1, 2, 4 (quick)
    .venv/bin/python scripts/bench_online.py --json --max-matches 32 --seconds 20
    .venv/bin/python scripts/bench_online.py --json --shards 2                # the rooms in two processes

Figures:
- `matches_at_60hz`: the most rooms (of those tried, doubling) whose server frames (every room's villa
  and computer players' hands, then the network) keep their 95th percentile at or below 16.7 ms; the
  computer players think in a worker process, as in the window; `frame_p95_ms` gives each N tried. With
  `--shards S` the rooms are played by S authority processes on the same router (`villa.online.shards`),
  and the frames measured are theirs (the bytes sent are then not measured).
- `frame_cpu_ms`: the server process's CPU time per frame for each N tried (its median; the machine's other
  work does not count in it, as it does in the frames' wall time); the thinking worker is not in it.
- `rest_frame_p95_ms`, `rest_frame_cpu_ms`: the server's frames with `--rest-rooms` rooms of people whose
  villas rest (between pulls), no client connected: what a room costs while nobody moves.
- `bytes_per_client_s_moving` and `_rest`: what the server sends each client a second while a room's
  villa moves (a pull, a fall) and while it rests.
- `join_to_first_frame_s`: from connecting to sitting down with the villa as it stands.
- `rejoin_s`: from a dropped player's new connection to their seat again, with the villa.
- `held_follow_s_p95`: with each request held `--lag` seconds (a slow network's round trip, simulated in
  the client), from a pulling player's aim to the first pose of their held column the server made after
  carrying it out, as that player hears it (the round trip, plus the server's frame and pose interval).
- `held_drawn_s_p95`: over the same network, from the aim to the first of the player's own frames (60 a
  second) that draws their held column (`Player.smoothing.pose`) moved at least half the way the pointer
  moved (not all of it: the server's word on the column, blended in, may hold it back at that moment, when
  the column sticks); `held_drawn_gap_cm_p95`: how far that drawn column then is from where the pointer
  puts it (the hand's spring, the column's friction).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa import rules  # noqa: E402
from villa.match import MatchSetup, Seat, Strength, layout_named  # noqa: E402
from villa.match.computer import close_thinking  # noqa: E402
from villa.online import loop, protocol  # noqa: E402
from villa.online.client import Player  # noqa: E402
from villa.online.rooms import Room  # noqa: E402
from villa.online.server import Server  # noqa: E402

LOOPBACK = "127.0.0.1"
BUDGET_MS = 1000.0 / 60.0
SEATS = 3
STARTING = 3      # aims before the column slides (it sticks until the pull overcomes its friction)
FOLLOWED = 0.5    # of the pointer's step: the drawn column has followed it
STEP_CM = 0.5     # each aim of the held column: well above the drawn column's wobble (friction, the spring)
SETTLING = 10     # frames after a villa comes to rest in which its last poses and the verdict still go out


def computers(seed: int) -> MatchSetup:
    seats = tuple(Seat(f"Computer {n + 1}", Strength.EASY) for n in range(SEATS))
    return MatchSetup(seats, layout_named("random", seed), seed=seed, deal_colours=True)


def watch(port: int, codes: list[str], seconds: float) -> None:
    """The clients' process: one client per seat of every room, watching until told to stop."""
    players = []
    for code in codes:
        for _ in range(SEATS):
            player = Player(LOOPBACK, port)
            players.append((player, code))
    print("connecting", flush=True)     # the server answers only once it reads this
    loop.run_until(lambda: all(p.ready for p, _ in players), 30)
    for player, code in players:
        player.enter(code)
    end = time.monotonic() + seconds
    while time.monotonic() < end and not any(p.lost for p, _ in players):
        loop.step()
        time.sleep(0.002)


def _at_rest(room: Room) -> bool:
    return not room.match.busy and room.match.villa.settled


def measure(count: int, seconds: float, port: int, shards: int = 0) -> dict:
    """The server's frames with `count` rooms of computer players; with `shards`, the rooms are played by that
    many authority processes (the frames measured are theirs; this process routes)."""
    server = Server(port, LOOPBACK, shards=shards)
    rooms = [Room(protocol.new_room_code(), computers(seed), aside=True) for seed in range(1, count + 1)]
    for room in rooms:
        server.open(room)
    watchers = subprocess.Popen([sys.executable, __file__, "--watch", str(port), str(seconds + 30),
                                 *(r.code for r in rooms)], stdout=subprocess.PIPE, text=True)
    try:
        assert watchers.stdout.readline().startswith("connecting")
        loop.run_until(lambda: sum(len(c) for c in server.router.zonesToClients.values()) >= count * (SEATS + 1), 30)
        clients = count * SEATS
        times, cpu, sent = [], [], {"moving": [0, 0], "rest": [0, 0]}
        resting = 0          # frames every room has lain still
        end = time.monotonic() + seconds
        for shard in server.shards:
            shard.frame_times()      # from now on
        while shards and time.monotonic() < end:
            loop.step()              # the router, while the shards play in real time
            time.sleep(0.002)
        for shard in server.shards:
            for wall, used, frames in shard.frame_times() if shard.rooms else ():   # (a shard with no room idles)
                times.extend([wall * 1000 / frames] * frames)
                cpu.extend([used * 1000 / frames] * frames)
        while time.monotonic() < end:
            began, used = time.perf_counter(), time.process_time()
            before = sum(server.router.bytes_out.values())
            server.frame()
            spent = time.perf_counter() - began
            cpu.append((time.process_time() - used) * 1000)
            resting = resting + 1 if all(_at_rest(r) for r in rooms) else 0
            moving = resting < SETTLING     # the last poses of a move, a verdict: not yet rest
            times.append(spent * 1000)
            kind = sent["moving" if moving else "rest"]
            kind[0] += sum(server.router.bytes_out.values()) - before
            kind[1] += 1
            time.sleep(max(0.0, 1 / 60 - spent))
        times.sort()
        per_s = {k: (b / clients) / (f / 60) if f else None for k, (b, f) in sent.items()}
        return {"p95_ms": times[int(0.95 * (len(times) - 1))], "median_ms": statistics.median(times),
                "cpu_ms": statistics.median(cpu), "frames": len(times), "per_client_s": per_s}
    finally:
        watchers.kill()
        watchers.wait()
        server.close()
        close_thinking()


def at_rest(count: int, port: int, frames: int = 300) -> tuple[float, float]:
    """The server's frames (p95 wall ms, median CPU ms) with `count` rooms of two people between pulls."""
    server = Server(port, LOOPBACK)
    seats = (Seat("Seat 1"), Seat("Seat 2"))
    try:
        for n in range(count):
            room = Room(protocol.new_room_code(), MatchSetup(seats, layout_named("rings"), seed=n, deal_colours=True))
            server.open(room)
            for seat in range(2):
                room.request(-1 - seat, "sit", (room.code, f"Player {seat + 1}", seat))   # nobody's connection
        while not all(r.match.villa.still for r in server.rooms.values()):
            server.frame()
        times, cpu = [], []
        for _ in range(frames):
            began, used = time.perf_counter(), time.process_time()
            server.frame()
            times.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - used) * 1000)
        return sorted(times)[int(0.95 * (frames - 1))], statistics.median(cpu)
    finally:
        server.close()


def join_and_rejoin(port: int) -> tuple[float, float]:
    server = Server(port, LOOPBACK)
    seats = (Seat("Seat 1"), Seat("Computer", Strength.EASY))
    room = Room(protocol.new_room_code(), MatchSetup(seats, layout_named("random", 1), seed=1, deal_colours=True))
    server.open(room)
    try:
        def until(done) -> None:
            end = time.monotonic() + 30
            while not done() and time.monotonic() < end:
                server.frame()
                time.sleep(0.001)

        began = time.perf_counter()
        anna = Player(LOOPBACK, port)
        until(lambda: anna.ready)
        anna.enter(room.code)
        until(lambda: anna.room is not None)
        anna.sit("Anna", 0)
        until(lambda: anna.seats and anna.poses)
        joined = time.perf_counter() - began
        token = anna.seats[0]
        anna.disconnect()
        until(lambda: room.sitters[0].client is None)
        began = time.perf_counter()
        back = Player(LOOPBACK, port)
        until(lambda: back.ready)
        back.enter(room.code)
        until(lambda: back.room is not None)
        back.rejoin(token)
        until(lambda: back.seats and back.poses)
        return joined, time.perf_counter() - began
    finally:
        server.close()


def held_follow(port: int, lag: float, aims: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds from a player's aim (sent over a network `lag` seconds slow) to the pose of their held column
    that shows it, as that player hears it: the round trip, the server's frame and the pose interval; and
    to the first frame of theirs that draws it there, with how far (cm) it is drawn from the pointer."""
    server = Server(port, LOOPBACK)
    plan = MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("random", 3), seed=3, deal_colours=True)
    room = Room(protocol.new_room_code(), plan)
    server.open(room)
    applied: dict[int, int] = {}          # aim number -> the server's frame that carried it out
    heard = room.request

    def request(client, name, args):
        heard(client, name, args)
        if name == "aim":
            applied[len(applied)] = room.tick
    room.request = request
    try:
        due = [time.monotonic()]

        def until(done, seconds: float = 30) -> bool:
            """The server as `Server.serve` runs it: a frame every 1/60 s, the network polled in between."""
            end = time.monotonic() + seconds
            while not done():
                now = time.monotonic()
                if now > end:
                    return False
                if now >= due[0]:
                    server.authority.frames(1)
                    due[0] = max(due[0] + 1 / 60, now - 0.1)
                loop.step()
                time.sleep(0.002)
            return True

        players = [Player(LOOPBACK, port), Player(LOOPBACK, port)]
        until(lambda: all(p.ready for p in players))
        for player in players:
            player.enter(room.code)
        until(lambda: all(p.room is not None for p in players))
        for seat, player in enumerate(players):
            player.sit(f"Player {seat + 1}", seat)
        until(lambda: room.match is not None and all(p.state == room.match.state and p.poses for p in players))
        seat = room.match.actor
        mover = players[seat]
        column = sorted(rules.grabbable_columns(mover.state))[0]
        (x, y, z), _quat = mover.poses[column]
        mover.take(seat, column, (x, y, z))
        until(lambda: room.match.hand is not None)
        mover.lag = lag
        last: dict[str, float] = {}
        followed, drawn, gaps = [], [], []
        pointer = (x, y)
        original = mover.heard

        def hearing(what, value):
            original(what, value)
            if what == "poses" and column in protocol.unpack_poses(value[1]):
                last["tick"], last["at"] = value[0], time.monotonic()
        mover.heard = hearing
        for number in range(aims + STARTING):
            out = STEP_CM * (number + 1) / math.hypot(x, y)     # a steady pull outwards
            before, aim = mover.smoothing.pose(column, time.monotonic())[0], (x * (1 + out), y * (1 + out))
            step = (aim[0] - pointer[0], aim[1] - pointer[1])
            pointer = aim
            sent = time.monotonic()
            mover.aim((*aim, z))
            frame = {"due": sent + 1 / 60, "drawn": None}

            def drawn_there() -> bool:
                """The player's frames, 1/60 s apart: is the held column drawn where the pointer moved it?"""
                now = time.monotonic()
                if frame["drawn"] is None and now >= frame["due"]:
                    (px, py, _pz), _q = mover.smoothing.pose(column, frame["due"])
                    moved = ((px - before[0]) * step[0] + (py - before[1]) * step[1]) / (step[0] ** 2 + step[1] ** 2)
                    if moved >= FOLLOWED:
                        frame["drawn"] = frame["due"] - sent
                        if number >= STARTING:
                            gaps.append(((px - aim[0]) ** 2 + (py - aim[1]) ** 2) ** 0.5)
                    frame["due"] += 1 / 60
                return frame["drawn"] is not None

            if not until(lambda: (drawn_there() or time.monotonic() > sent + 2 * lag + 0.2)
                         and number in applied and last.get("tick", -1) >= applied[number], 5):
                break
            if number >= STARTING:     # (before, the column sticks: the server's word holds it back, rightly)
                followed.append(last["at"] - sent)
                drawn.append(math.inf if frame["drawn"] is None else frame["drawn"])
            if room.match.hand is None or room.match.collapsed:
                break
        return followed, drawn, gaps
    finally:
        server.close()


def _p95(values: list[float]) -> float:
    return values[int(0.95 * (len(values) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--max-matches", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0, help="of play per number of rooms")
    parser.add_argument("--port", type=int, default=47190)
    parser.add_argument("--lag", type=float, default=0.1, help="s of simulated round trip for the held column")
    parser.add_argument("--aims", type=int, default=30, help="aims of the held column measured")
    parser.add_argument("--rest-rooms", type=int, default=50, help="rooms whose villas rest, measured together")
    parser.add_argument("--shards", type=int, default=0,
                        help="authority processes that play the rooms (0: the server's own process plays them)")
    parser.add_argument("--watch", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watch:
        watch(int(args.watch[0]), args.watch[2:], float(args.watch[1]))
        return 0
    tried, cpu, best, moving, rest = {}, {}, 0, [], []
    count = 1
    while count <= args.max_matches:
        found = measure(count, args.seconds, args.port, args.shards)
        tried[count] = round(found["p95_ms"], 2)
        cpu[count] = round(found["cpu_ms"], 2)
        if found["per_client_s"]["moving"] is not None:
            moving.append(found["per_client_s"]["moving"])
        if found["per_client_s"]["rest"] is not None:
            rest.append(found["per_client_s"]["rest"])
        if found["p95_ms"] > BUDGET_MS:
            break
        best = count
        count *= 2
    rest_p95, rest_cpu = at_rest(args.rest_rooms, args.port)
    joined, rejoined = join_and_rejoin(args.port)
    followed, drawn, gaps = (sorted(figures) for figures in held_follow(args.port, args.lag, args.aims))
    figures = {"matches_at_60hz": best, "frame_p95_ms": tried, "frame_cpu_ms": cpu,
               "rest_rooms": args.rest_rooms, "rest_frame_p95_ms": round(rest_p95, 2),
               "rest_frame_cpu_ms": round(rest_cpu, 2),
               "bytes_per_client_s_moving": round(statistics.median(moving)) if moving else None,
               "bytes_per_client_s_rest": round(statistics.median(rest)) if rest else None,
               "join_to_first_frame_s": round(joined, 3), "rejoin_s": round(rejoined, 3),
               "held_follow_s_p95": round(followed[int(0.95 * (len(followed) - 1))], 3) if followed else None,
               "held_drawn_s_p95": round(_p95(drawn), 4) if drawn else None,
               "held_drawn_gap_cm_p95": round(_p95(gaps), 2) if gaps else None,
               "held_follow_aims": len(followed), "simulated_rtt_s": args.lag,
               "shards": args.shards, "max_matches_tried": args.max_matches, "seconds_each": args.seconds, "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
