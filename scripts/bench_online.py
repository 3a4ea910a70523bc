#!/usr/bin/env python3
"""The online server on one machine, measured: N rooms of computer players on loopback, with a connected client
per seat (watching, in a process of their own), one person joining and rejoining, a held column over a slow
network, and a player's round trips through a server whose door holds a hundred half-sent frames.

    .venv/bin/python scripts/bench_online.py --json                    # N = 1, 2, 4 (quick)
    .venv/bin/python scripts/bench_online.py --json --max-matches 16 --seconds 10

Figures:
- `matches_at_60hz`: the most rooms (of those tried, doubling) whose server frames (`Server.frame`: the network,
  every room's villa and computer players' hands, the network again) keep their 95th percentile at or below
  16.7 ms; the computer players think in a worker process, as on a dedicated server; `frame_p95_ms` gives each N
  tried.
- `frame_cpu_ms`: the server process's CPU time per frame for each N tried (its median; the machine's other work
  does not count in it, as it does in the frames' wall time); the thinking worker is not in it.
- `rest_frame_p95_ms`, `rest_frame_cpu_ms`: the server's frames with `--rest-rooms` rooms of people whose villas
  rest (between pulls), no client connected: what a room costs while nobody moves.
- `bytes_per_client_s_moving` and `_rest`: what the server sends each client a second while a room's villa moves
  (a pull, a fall) and while it rests.
- `join_to_first_frame_s`: from a new connection to sitting down with the villa as it stands.
- `rejoin_s`: from a dropped player's new connection to their seat again, with the villa.
- `held_follow_s_p95`: with each request held `--lag` seconds (a slow network's round trip, simulated in the
  client), from a pulling player's aim to the first pose of their held column the server made after carrying it
  out, as that player hears it (the round trip, plus the server's frame and pose interval).
- `held_drawn_s_p95`: over the same network, from the aim to the first of the player's own frames (60 a second)
  that draws their held column (`Player.smoothing.pose`) moved at least half the way the pointer moved;
  `held_drawn_gap_cm_p95`: how far that drawn column then is from where the pointer puts it.
- `trips_p99_ms_alone`, `trips_p99_ms_holders`, `trips_p99_ratio`: a seated player's requests (60 a second, each
  refused at once by its room: a round trip through the door, the handlers and the room) to a server serving in
  a process of its own (`Server.serve`, with `--load-rooms` rooms of computer players moving), first alone, then
  with `--holders` connections each holding a TLS handshake half done; `trips` has the p50, p99 and max of each
  phase.

Everything above speaks TLS, as the game does. What TLS costs, against the same in the clear (`--insecure` on
both sides):
- `trips_p99_ms_clear`, `tls_trips_p99_ratio`: the round trips alone to a server started insecure, and TLS's p99
  over the clear one's (target: 1.2 at most); `trips` has its p50, p99 and max as `clear`.
- `bytes_per_client_s_moving_clear`, `tls_bytes_ratio`: one room's bytes to each client a second while its villa
  moves, in the clear, and TLS's over them (the same room of one, over TLS, first in the doubling above).
- `handshake_ms_p50`, `handshake_ms_p99`, `connect_clear_ms_p50`: from a player dialling the serving process to
  its welcome (connect, TLS 1.3 handshake and the certificate's check, hello), `--handshakes` times; and the same
  in the clear. `handshake_cpu_ms_server`, `_player`: the CPU a handshake costs each side, in memory (medians).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import select
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa import rules  # noqa: E402
from villa.match import MatchSetup, Seat, Strength, layout_named  # noqa: E402
from villa.match import requests as rq  # noqa: E402
from villa.match.computer import close_thinking  # noqa: E402
from villa.online import protocol  # noqa: E402
from villa.online.client import Player  # noqa: E402
from villa.online.client import player as hearing  # noqa: E402
from villa.online.server import CATALOGUE, Room, Server  # noqa: E402
from villa.online.wire import messages as m  # noqa: E402
from villa.online.wire.door import Limits  # noqa: E402
from villa.online.wire.frames import frame  # noqa: E402
from villa.online.client.trust import Trust  # noqa: E402
from villa.online.wire.certificates import make_identity  # noqa: E402
from villa.online.wire.tls import ServerTls, client_session  # noqa: E402

LOOPBACK = "127.0.0.1"
BUDGET_MS = 1000.0 / 60.0
SEATS = 3
STARTING = 3      # aims before the column slides (it sticks until the pull overcomes its friction)
FOLLOWED = 0.5    # of the pointer's step: the drawn column has followed it
STEP_CM = 0.5     # each aim of the held column: well above the drawn column's wobble (friction, the spring)
SETTLING = 10     # frames after a villa comes to rest in which its last poses and the verdict still go out
PACE = 60         # a player's requests a second (the door allows 90)
WARM = 30         # round trips not timed first (the server's rooms and worker starting up)


def computers(seed: int) -> MatchSetup:
    seats = tuple(Seat(f"Computer {n + 1}", Strength.EASY) for n in range(SEATS))
    return MatchSetup(seats, layout_named("random", seed), seed=seed, deal_colours=True)


def until(players, done, seconds: float = 30.0, server: Server | None = None) -> bool:
    """The players polled (and the server's frames, when it is here) until `done()`."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        if server is not None:
            server.frame()
        for player in players:
            player.poll()
        time.sleep(0.001)
    return True


def watch(port: int, codes: list[str], seconds: float, insecure: bool = False) -> None:
    """The clients' process: one client per seat of every room, watching until told to stop."""
    players = [(Player(LOOPBACK, port, insecure=insecure), code) for code in codes for _ in range(SEATS)]
    print("connecting", flush=True)
    until([p for p, _ in players], lambda: all(p.ready for p, _ in players))
    for player, code in players:
        player.enter(code)
    end = time.monotonic() + seconds
    while time.monotonic() < end and not any(p.lost for p, _ in players):
        for player, _code in players:
            player.poll()
        time.sleep(0.002)


def _sent(server: Server) -> int:
    """Bytes the server has written to its connections so far (the door's links count them)."""
    return sum(known.link.bytes_out for known in server.door._connections.values())


def _at_rest(room: Room) -> bool:
    return not room.match.busy and room.match.villa.settled


def measure(count: int, seconds: float, insecure: bool = False) -> dict:
    """The server's frames with `count` rooms of computer players, each seat watched by a client."""
    server = Server(0, LOOPBACK, aside=True, limits=Limits(per_address=count * SEATS + 16), insecure=insecure)
    rooms = [server.open(Room(protocol.new_room_code(), computers(seed), aside=True)) for seed in range(1, count + 1)]
    watchers = subprocess.Popen([sys.executable, __file__, "--watch", str(server.port), str(seconds + 30),
                                 "clear" if insecure else "tls", *(r.code for r in rooms)], stdout=subprocess.PIPE,
                                text=True)
    try:
        assert watchers.stdout.readline().startswith("connecting")
        end = time.monotonic() + 30
        while sum(len(r.audience) for r in rooms) < count * SEATS and time.monotonic() < end:
            server.poll(0.01)
        clients = count * SEATS
        times, cpu, sent = [], [], {"moving": [0, 0], "rest": [0, 0]}
        resting = 0          # frames every room has lain still
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            began, used, before = time.perf_counter(), time.process_time(), _sent(server)
            server.frame()
            spent = time.perf_counter() - began
            cpu.append((time.process_time() - used) * 1000)
            resting = resting + 1 if all(_at_rest(r) for r in rooms) else 0
            times.append(spent * 1000)
            kind = sent["moving" if resting < SETTLING else "rest"]     # the last poses of a move: not yet rest
            kind[0] += _sent(server) - before
            kind[1] += 1
            time.sleep(max(0.0, 1 / 60 - spent))
        times.sort()
        per_s = {k: (b / clients) / (f / 60) if f else None for k, (b, f) in sent.items()}
        return {"p95_ms": times[int(0.95 * (len(times) - 1))], "cpu_ms": statistics.median(cpu),
                "per_client_s": per_s}
    finally:
        watchers.kill()
        watchers.wait()
        server.close()
        close_thinking()


def at_rest(count: int, frames: int = 300) -> tuple[float, float]:
    """The server's frames (p95 wall ms, median CPU ms) with `count` rooms of two people between pulls."""
    server = Server(0, LOOPBACK)
    seats = (Seat("Seat 1"), Seat("Seat 2"))
    try:
        for n in range(count):
            room = server.open(Room(protocol.new_room_code(), MatchSetup(seats, layout_named("rings"), seed=n,
                                                                         deal_colours=True)))
            for seat in range(2):
                room.sit(-1 - seat, f"Player {seat + 1}", seat)      # nobody's connection: nothing is sent
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


def join_and_rejoin() -> tuple[float, float]:
    server = Server(0, LOOPBACK)
    seats = (Seat("Seat 1"), Seat("Computer", Strength.EASY))
    room = server.open(Room(protocol.new_room_code(), MatchSetup(seats, layout_named("random", 1), seed=1,
                                                                 deal_colours=True)))
    try:
        began = time.perf_counter()
        anna = Player(LOOPBACK, server.port)
        until([anna], lambda: anna.ready, server=server)
        anna.enter(room.code)
        anna.sit("Anna", 0)                  # (asked at once: the server carries them out in order)
        until([anna], lambda: anna.seats and anna.poses, server=server)
        joined = time.perf_counter() - began
        token = anna.seats[0]
        anna.link.close()                    # the window killed
        until([], lambda: room.seating.connection(0) is None, server=server)
        began = time.perf_counter()
        back = Player(LOOPBACK, server.port)
        until([back], lambda: back.ready, server=server)
        back.rejoin(token, room.code)
        until([back], lambda: back.seats and back.poses, server=server)
        return joined, time.perf_counter() - began
    finally:
        server.close()


def held_follow(lag: float, aims: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds from a player's aim (sent over a network `lag` seconds slow) to the pose of their held column that
    shows it, as that player hears it: the round trip, the server's frame and the pose interval; and to the first
    frame of theirs that draws it there, with how far (cm) it is drawn from the pointer."""
    server = Server(0, LOOPBACK)
    plan = MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("random", 3), seed=3, deal_colours=True)
    room = server.open(Room(protocol.new_room_code(), plan))
    applied: dict[int, int] = {}          # aim number -> the server's frame that carried it out
    request = room.request

    def counted(client, asked):
        refusal = request(client, asked)
        if isinstance(asked, rq.Aim):
            applied[len(applied)] = room.tick
        return refusal
    room.request = counted
    due = [time.monotonic()]

    def serving(players, done, seconds: float = 30) -> bool:
        """The server as `Server.serve` runs it: a frame every 1/60 s, the network polled in between."""
        def step() -> bool:
            now = time.monotonic()
            if now >= due[0]:
                server.frames(1)
                due[0] = max(due[0] + 1 / 60, now - 0.1)
            server.poll()
            return done()
        return until(players, step, seconds)

    poses = hearing._HEARD[m.Poses]
    try:
        players = [Player(LOOPBACK, server.port), Player(LOOPBACK, server.port)]
        serving(players, lambda: all(p.ready for p in players))
        for seat, player in enumerate(players):
            player.enter(room.code)
            player.sit(f"Player {seat + 1}", seat)
        serving(players, lambda: room.match is not None and all(p.state == room.match.state and p.poses
                                                                 for p in players))
        seat = room.match.actor
        mover = players[seat]
        column = sorted(rules.grabbable_columns(mover.state))[0]
        (x, y, z), _quat = mover.poses[column]
        mover.request(rq.Take(seat, column, (x, y, z)))
        serving(players, lambda: room.match.hand is not None)
        applied.clear()
        mover.lag = lag
        last: dict[str, float] = {}

        def heard_poses(player, message):
            poses(player, message)
            if player is mover and column in protocol.unpack_poses(message.poses):
                last["tick"], last["at"] = message.tick, time.monotonic()
        hearing._HEARD[m.Poses] = heard_poses
        followed, drawn, gaps = [], [], []
        pointer = (x, y)
        for number in range(aims + STARTING):
            out = STEP_CM * (number + 1) / math.hypot(x, y)     # a steady pull outwards
            before, aim = mover.smoothing.pose(column, time.monotonic())[0], (x * (1 + out), y * (1 + out))
            step = (aim[0] - pointer[0], aim[1] - pointer[1])
            pointer = aim
            sent = time.monotonic()
            mover.request(rq.Aim(seat, (*aim, z)))
            shown = {"due": sent + 1 / 60, "drawn": None}

            def drawn_there() -> bool:
                """The player's frames, 1/60 s apart: is the held column drawn where the pointer moved it?"""
                now = time.monotonic()
                if shown["drawn"] is None and now >= shown["due"]:
                    (px, py, _pz), _q = mover.smoothing.pose(column, shown["due"])
                    moved = ((px - before[0]) * step[0] + (py - before[1]) * step[1]) / (step[0] ** 2 + step[1] ** 2)
                    if moved >= FOLLOWED:
                        shown["drawn"] = shown["due"] - sent
                        if number >= STARTING:
                            gaps.append(((px - aim[0]) ** 2 + (py - aim[1]) ** 2) ** 0.5)
                    shown["due"] += 1 / 60
                return shown["drawn"] is not None

            if not serving(players, lambda: (drawn_there() or time.monotonic() > sent + 2 * lag + 0.2)
                           and number in applied and last.get("tick", -1) >= applied[number], 5):
                break
            if number >= STARTING:     # (before, the column sticks: the server's word holds it back, rightly)
                followed.append(last["at"] - sent)
                drawn.append(math.inf if shown["drawn"] is None else shown["drawn"])
            if room.match.hand is None or room.match.collapsed:
                break
        return followed, drawn, gaps
    finally:
        hearing._HEARD[m.Poses] = poses
        server.close()


# --- a player's round trips through a server serving in its own process ---------------------------------

def serve(load_rooms: int, connections: int, insecure: bool) -> None:
    """The server's process: a room for the player (seat 1 a computer's) and `load_rooms` rooms of computer
    players, served until its standard input closes."""
    server = Server(0, LOOPBACK, aside=True, limits=Limits(per_address=connections, total=connections),
                    insecure=insecure)
    plan = MatchSetup((Seat("Seat 1"), Seat("Computer", Strength.EASY)), layout_named("random", 2), seed=2)
    room = server.open(Room(protocol.new_room_code(), plan, aside=True))
    for seed in range(1, load_rooms + 1):
        server.open(Room(protocol.new_room_code(), computers(seed), aside=True))
    print(server.port, room.code, flush=True)
    began, spent = time.monotonic(), time.process_time()
    try:
        server.serve(until=lambda: bool(select.select([sys.stdin], [], [], 0)[0]))
    finally:
        server.close()
        close_thinking()
    print((time.process_time() - spent) / (time.monotonic() - began), flush=True)     # the server's share of a core


def _holding(port: int, holders: int, insecure: bool) -> list[socket.socket]:
    """Connections each holding a TLS handshake half done (in the clear: half a frame, half of them after their
    hello)."""
    hello = frame(CATALOGUE.encode(m.Hello(m.PROTOCOL, m.GAME)))
    half = frame(CATALOGUE.encode(m.OpenRoom(b"{" * 3000)))[:1500]
    client_hello = client_session("localhost", None).sealed()
    held = []
    for n in range(holders):
        sock = socket.create_connection((LOOPBACK, port))
        sock.sendall(((hello if n % 2 else b"") + half) if insecure else client_hello[:len(client_hello) // 2])
        held.append(sock)
    return held


def _serving(holders: int, load_rooms: int, insecure: bool) -> tuple[subprocess.Popen, int, str]:
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(load_rooms), str(holders + 80),
                               "clear" if insecure else "tls"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    port, code = server.stdout.readline().split()
    return server, int(port), code


def _stopped(server: subprocess.Popen) -> float:
    """The serving process stopped; its share of a core while it served."""
    server.stdin.close()
    share = float(server.stdout.read().strip() or "nan")
    server.wait(30)
    return share


def handshakes(count: int, load_rooms: int, insecure: bool = False) -> list[float]:
    """Milliseconds from dialling a server serving in its own process to its welcome, `count` times."""
    server, port, _code = _serving(0, load_rooms, insecure)
    times = []
    try:
        for _ in range(count):
            began = time.perf_counter()
            player = Player(LOOPBACK, port, insecure=insecure)
            until([player], lambda: player.ready or player.lost)
            assert player.ready, player.trouble
            times.append((time.perf_counter() - began) * 1000)
            player.close()
    finally:
        _stopped(server)
    return sorted(times)


def handshake_cpu(count: int) -> tuple[float, float]:
    """CPU milliseconds of a TLS handshake in memory (no network, no waiting): the server's side, the player's
    (its check of the certificate included), each the median of `count`."""
    server, theirs, ours = ServerTls(make_identity()), [], []
    for _ in range(count):
        player = client_session("localhost", lambda chain: Trust().check("localhost", 1, None, chain))
        session, spent = server.session(), [0.0, 0.0]
        hello = player.sealed()
        while not (player.established and session.established):
            began = time.process_time()
            session.take_in(hello)
            answer = session.sealed()
            spent[0] += time.process_time() - began
            began = time.process_time()
            player.take_in(answer)
            hello = player.sealed()
            spent[1] += time.process_time() - began
        theirs.append(spent[0] * 1000)
        ours.append(spent[1] * 1000)
    return statistics.median(theirs), statistics.median(ours)


def trips(count: int, holders: int, load_rooms: int, insecure: bool = False) -> dict:
    server, port, code = _serving(holders, load_rooms, insecure)
    held = _holding(port, holders, insecure)
    anna = Player(LOOPBACK, port, insecure=insecure)
    try:
        until([anna], lambda: anna.ready)
        anna.enter(code)
        anna.sit("Anna", 0)
        until([anna], lambda: anna.seats)
        times, sent = [], 0.0
        for trip in range(WARM + count):
            time.sleep(max(0.0, 1 / PACE - (time.perf_counter() - sent)) if trip else 0)
            sent, refused = time.perf_counter(), len(anna.refusals)
            anna.request(rq.Pass(1))                      # not this player's seat: refused at once
            while len(anna.refusals) == refused and not anna.lost:
                anna.poll()
            if trip >= WARM:
                times.append((time.perf_counter() - sent) * 1000)
        assert not anna.lost, anna.trouble
    finally:
        anna.close()
        for sock in held:
            sock.close()
        server_cpu = _stopped(server)
    times.sort()
    return {"p50_ms": round(statistics.median(times), 3), "p99_ms": round(times[int(len(times) * 0.99) - 1], 3),
            "max_ms": round(times[-1], 3), "server_cpu": round(server_cpu, 3)}


def _p95(values: list[float]) -> float | None:
    return values[int(0.95 * (len(values) - 1))] if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--max-matches", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0, help="of play per number of rooms")
    parser.add_argument("--lag", type=float, default=0.1, help="s of simulated round trip for the held column")
    parser.add_argument("--aims", type=int, default=30, help="aims of the held column measured")
    parser.add_argument("--rest-rooms", type=int, default=50, help="rooms whose villas rest, measured together")
    parser.add_argument("--trips", type=int, default=480, help="round trips timed in each phase (60 a second)")
    parser.add_argument("--holders", type=int, default=100, help="connections holding half a frame open")
    parser.add_argument("--load-rooms", type=int, default=2, help="rooms of computer players beside the player's")
    parser.add_argument("--handshakes", type=int, default=100, help="connections timed to their welcome")
    parser.add_argument("--watch", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--serve", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watch:
        watch(int(args.watch[0]), args.watch[3:], float(args.watch[1]), insecure=args.watch[2] == "clear")
        return 0
    if args.serve:
        serve(int(args.serve[0]), int(args.serve[1]), insecure=args.serve[2] == "clear")
        return 0
    tried, cpu, best, moving, rest = {}, {}, 0, [], []
    count = 1
    while count <= args.max_matches:
        found = measure(count, args.seconds)
        tried[count], cpu[count] = round(found["p95_ms"], 2), round(found["cpu_ms"], 2)
        for kind, kept in (("moving", moving), ("rest", rest)):
            if found["per_client_s"][kind] is not None:
                kept.append(found["per_client_s"][kind])
        if found["p95_ms"] > BUDGET_MS:
            break
        best = count
        count *= 2
    rest_p95, rest_cpu = at_rest(args.rest_rooms)
    joined, rejoined = join_and_rejoin()
    followed, drawn, gaps = (sorted(figures) for figures in held_follow(args.lag, args.aims))
    alone, holding = trips(args.trips, 0, args.load_rooms), trips(args.trips, args.holders, args.load_rooms)
    clear = trips(args.trips, 0, args.load_rooms, insecure=True)
    clear_moving = measure(1, args.seconds, insecure=True)["per_client_s"]["moving"]
    shaken, connected = handshakes(args.handshakes, args.load_rooms), handshakes(args.handshakes, args.load_rooms,
                                                                                 insecure=True)
    server_cpu, player_cpu = handshake_cpu(args.handshakes)
    figures = {"matches_at_60hz": best, "frame_p95_ms": tried, "frame_cpu_ms": cpu,
               "rest_rooms": args.rest_rooms, "rest_frame_p95_ms": round(rest_p95, 2),
               "rest_frame_cpu_ms": round(rest_cpu, 2),
               "bytes_per_client_s_moving": round(statistics.median(moving)) if moving else None,
               "bytes_per_client_s_rest": round(statistics.median(rest)) if rest else None,
               "join_to_first_frame_s": round(joined, 3), "rejoin_s": round(rejoined, 3),
               "held_follow_s_p95": round(_p95(followed), 3) if followed else None,
               "held_drawn_s_p95": round(_p95(drawn), 4) if drawn else None,
               "held_drawn_gap_cm_p95": round(_p95(gaps), 2) if gaps else None,
               "held_follow_aims": len(followed), "simulated_rtt_s": args.lag,
               "trips_p99_ms_alone": alone["p99_ms"], "trips_p99_ms_holders": holding["p99_ms"],
               "trips_p99_ratio": round(holding["p99_ms"] / alone["p99_ms"], 2),
               "trips_p99_ms_clear": clear["p99_ms"],
               "tls_trips_p99_ratio": round(alone["p99_ms"] / clear["p99_ms"], 2),
               "bytes_per_client_s_moving_clear": round(clear_moving) if clear_moving else None,
               "tls_bytes_ratio": round(moving[0] / clear_moving, 3) if moving and clear_moving else None,
               "handshake_ms_p50": round(statistics.median(shaken), 2),
               "handshake_ms_p99": round(shaken[int(len(shaken) * 0.99) - 1], 2),
               "connect_clear_ms_p50": round(statistics.median(connected), 2),
               "handshake_cpu_ms_server": round(server_cpu, 3), "handshake_cpu_ms_player": round(player_cpu, 3),
               "trips": {"alone": alone, "holders": holding, "clear": clear}, "holders": args.holders,
               "load_rooms": args.load_rooms,
               "max_matches_tried": args.max_matches, "seconds_each": args.seconds, "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
