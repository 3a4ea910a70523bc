"""How a fleet of servers on one Redis carries rooms, and how fast a room comes back when its server dies.

    python scripts/bench_fleet.py --json              # one Redis, three servers, rooms of computer players

All on loopback: a `redis-server` of its own, three `villa-paletti-server --redis ... --public ...` processes,
and in this process the players who watch the rooms. Printed:

- `rooms_at_60hz`: the most rooms the three servers together play with every server's frame p95 within a
  1/60 s frame (the median of its per-second p95s; the rooms opened in equal shares, rooms of two Easy computer
  players, each watched by a window of this process, as such a room plays only while watched; each step run
  `--seconds` once every window sees its villa);
- `takeover_s_p95`: a server killed (SIGKILL) to every window that watched its rooms in the room again on another
  server, by itself, with the room's state and whole villa heard there (`--kills` times, two rooms each);
- `games_lost`: rooms whose game did not go on after its server was killed (aim 0);
- `redirect_join_s`: a player who asks a server that does not play the room, to its first poses (median);
- `actions_lost`: actions a watcher heard accepted before a kill that are not in the room's log after it (aim 0);
- `split_rooms`: rooms whose watchers heard two different logs, or whose log went on under an older fencing number
  after a newer one was heard (aim 0);
- `directory_rooms`: rooms kept in the fleet's Redis in the directory step (`--directory`, 10 000): the three
  servers' games (watched, so played), idle rooms held by stand-in servers in this process (renewing their leases as a server does:
  a room in its lobby, or whose people think), and the rest dormant (closed with their game under way);
- `fleet_loop_share`: at that size, the largest share of a real server's frame loop spent on fleet work (the
  median over its seconds; aim at most 0.02);
- `redis_ops_per_room_s`: commands Redis ran (those inside the fleet's scripts included) per held room per
  second, and `redis_cpu_share`: the share of a core Redis used, at that size.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from villa.online.client import Player  # noqa: E402  (after the path: this checkout's villa)
from villa.online.fleet import Fleet, Timings  # noqa: E402
from villa.online.fleet import redis_keys as keys  # noqa: E402

LOOPBACK = "127.0.0.1"
FRAME_MS = 1000 / 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def start_redis(folder: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", LOOPBACK, "--save", "",
                                "--appendonly", "yes", "--dir", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            with socket.create_connection((LOOPBACK, port), timeout=0.2) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return process, f"redis://{LOOPBACK}:{port}"
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


class Server:
    def __init__(self, redis_url: str, folder: Path, rooms: int, lease: float, computers: str = "2") -> None:
        self.port = free_port()
        env = {**os.environ, "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder),
               "PYTHONPATH": str(ROOT)}
        extra = ["--new-room", "--rooms", str(rooms)] if rooms else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "villa.app.dedicated", "--port", str(self.port), "--address", LOOPBACK,
             "--redis", redis_url, "--public", f"{LOOPBACK}:{self.port}", "--lease", str(lease), "--people", "0",
             "--computers", computers, "--strength", "easy", "--stats", "1", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
        os.set_blocking(self.process.stdout.fileno(), False)
        self.codes: list[str] = []
        self.stats: list[dict] = []
        self._buffer = ""
        end = time.monotonic() + 60
        while not any(line.startswith("in the fleet") for line in self._lines()):
            if time.monotonic() > end or self.process.poll() is not None:
                raise SystemExit("a server did not start")
            time.sleep(0.05)

    def _lines(self) -> list[str]:
        try:
            self._buffer += self.process.stdout.read() or ""
        except (BlockingIOError, TypeError):
            pass
        *lines, self._buffer = self._buffer.split("\n")
        for line in lines:
            if line.startswith("room "):
                self.codes.append(line.split()[1])
            elif line.startswith("{"):
                self.stats.append(json.loads(line))
        return lines

    def read(self) -> None:
        self._lines()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


def poll_until(players: list[Player], done, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        for player in players:
            player.poll()
        time.sleep(0.002)
    return True


def rooms_at_60hz(redis_url: str, folder: Path, steps: list[int], seconds: float) -> tuple[int, dict]:
    """`redis_url` without its database: each step has one of its own (1, 2 ...), so that the rooms of the last
    step's servers, stopped by a kill, are not taken over by the next step's."""
    best, seen = 0, {}
    for step, total in enumerate(steps, 1):
        servers = [Server(f"{redis_url}/{step}", folder / f"load-{total}-{n}", total // 3, 3.0) for n in range(3)]
        watchers = watch(servers)
        first = [len(server.stats) for server in servers]
        poll_until(watchers, lambda: False, seconds)
        for server in servers:
            server.read()
            server.stop()
        for watcher in watchers:
            watcher.close()
        p95 = [statistics.median([s["frame_ms_p95"] for s in server.stats[start + 1:]] or [0.0])
               for server, start in zip(servers, first)]
        cpu = [statistics.median([s["frame_cpu_ms"] for s in server.stats[start + 1:]] or [0.0])
               for server, start in zip(servers, first)]
        seen[total] = {"frame_p95_ms": [round(v, 2) for v in p95], "frame_cpu_ms": [round(v, 2) for v in cpu]}
        if all(v <= FRAME_MS for v in p95):
            best = total
        else:
            break
    return best, seen


_sources = iter(f"127.4.{n // 250}.{n % 250 + 1}" for n in range(250 * 250))


def watch(servers: list[Server]) -> list[Player]:
    """A window watching each room of `servers`, each from an address of its own (a room of computer players plays
    only while someone watches it), once every one of them sees its villa; the servers' lines read meanwhile."""
    watchers = []
    for server in servers:
        for code in server.codes:
            watcher = Player(LOOPBACK, server.port, source=next(_sources))
            watcher.enter(code)
            watchers.append(watcher)
    poll_until(watchers, lambda: all(p.room is not None and p.poses for p in watchers), 30)
    for server in servers:
        server.read()
    return watchers


def takeovers(redis_url: str, folder: Path, kills: int, lease: float, history: dict
              ) -> tuple[list[float], int, list[float]]:
    servers = [Server(redis_url, folder / f"kill-{n}", 2, lease) for n in range(3)]
    times, lost, redirects = [], 0, []
    try:
        for kill in range(kills):
            victim = servers[kill % 3]
            others = [s for s in servers if s is not victim]
            watchers = []
            for code in victim.codes:
                asked = time.monotonic()
                player = Watcher(LOOPBACK, others[0].port)    # the wrong server: sent on to the victim
                player.enter(code)
                if poll_until([player], lambda p=player, c=code: p.room == c and bool(p.poses), 20):
                    redirects.append(time.monotonic() - asked)
                    watchers.append(player)
            poll_until(watchers, lambda: False, 1.0)
            before = {id(p): list(p.state.log) for p in watchers}
            victim.process.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            heard = {id(p): p.villas for p in watchers}
            for player in watchers:     # back: in the room again on another server, its whole villa heard there
                back = poll_until(watchers, lambda p=player: p.came_back and p.villas > heard[id(p)], 60)
                if back:
                    times.append(time.monotonic() - killed)
            for player in watchers:     # and its game goes on
                moves = len(player.state.log)
                if not poll_until(watchers, lambda p=player, n=moves: len(p.state.log) > n, 60):
                    lost += 1
            for player in watchers:     # with every action heard before the kill, and one log
                heard, now = before[id(player)], list(player.state.log)
                same = next((n for n, (a, b) in enumerate(zip(heard, now)) if a != b), min(len(heard), len(now)))
                history["actions_lost"] += len(heard) - same
                history["split_rooms"] += same < min(len(heard), len(now)) or player.fences_broken
            for player in watchers:
                player.close()
            victim.stop()
            replacement = Server(redis_url, folder / f"kill-again-{kill}", 2, lease)
            servers[servers.index(victim)] = replacement
    finally:
        for server in servers:
            server.stop()
    return times, lost, redirects


class Watcher(Player):
    """A player that notes the fencing numbers it heard a room held by: one older than one heard before is a room
    played by two servers at once (the player itself leaves such a server)."""

    fences_broken = False

    def poll(self) -> None:
        fence = self.table.get("fence")
        super().poll()
        now = self.table.get("fence")
        if isinstance(fence, int) and isinstance(now, int) and now < fence:
            self.fences_broken = True


def directory(url: str, folder: Path, rooms: int, seconds: float, lease: float) -> dict:
    """The fleet at `rooms` rooms in Redis, most of them idle: three servers playing four rooms of computer players
    each, stand-in servers in this process holding idle rooms (a quarter of them) and the rest dormant. Measured:
    each real server's share of its loop on fleet work, and Redis' commands and CPU per held room."""
    redis_cli = redis.Redis.from_url(url)
    redis_cli.flushdb()
    timings = Timings(refresh_s=lease / 3, presence_s=lease, lease_s=lease, reap_s=lease / 3, redis_s=2.0)
    idle = [Fleet(url, f"{LOOPBACK}:{9000 + n}", timings) for n in range(3)]
    held_idle = rooms // 4
    for n in range(held_idle):                        # rooms in their lobbies, held and renewed
        idle[n % 3].new_code(set(), lambda code: None)
        if n % 200 == 199:
            _tick_until(idle, lambda: all(not f.waiting for f in idle))
    _tick_until(idle, lambda: all(not f.waiting for f in idle))
    ticking = threading.Event()
    ticker = threading.Thread(target=_tick_until, args=(idle, ticking.is_set, 3600.0), daemon=True)
    ticker.start()                                    # the stand-ins renew their leases all along, as servers do
    dormant = rooms - held_idle - 12
    pipe = redis_cli.pipeline(transaction=False)
    for n in range(dormant):                          # closed with their game under way: no lease, kept a while
        code = f"D{n:04d}"
        pipe.hset(keys.room(code), mapping={"owner": "gone", "address": "10.0.0.9:47170", "fence": 1,
                                            "state": "dormant", "seq": 0, "base": 0, "turns": 1})
        pipe.set(keys.fence(code), 1)
        pipe.set(keys.part(code, "game"), b"{}", px=30 * 86400 * 1000)
        if n % 1000 == 999:
            pipe.execute()
    pipe.execute()
    servers, watchers = [], []
    try:
        servers += [Server(url, folder / f"directory-{n}", 4, lease) for n in range(3)]
        watchers += watch(servers)
        poll_until(watchers, lambda: False, 3.0)
        for server in servers:
            server.read()
        first = [len(server.stats) for server in servers]
        stats, cpu, began = redis_cli.info("stats"), redis_cli.info("cpu"), time.monotonic()
        poll_until(watchers, lambda: False, seconds)
        stats2, cpu2, took = redis_cli.info("stats"), redis_cli.info("cpu"), time.monotonic() - began
        in_redis = sum(1 for _ in redis_cli.scan_iter(match="villa:{*}:room", count=1000))
        for server in servers:
            server.read()
        shares = []
        for server, start in zip(servers, first):
            lines = server.stats[start:]
            steps = [(b["fleet_loop_ms"] - a["fleet_loop_ms"]) / 1000 for a, b in zip(lines, lines[1:])]
            shares.append(statistics.median(steps) if steps else None)
        held = sum(len(f.held) for f in idle) + 12
        ops = stats2["total_commands_processed"] - stats["total_commands_processed"]
        used = (cpu2["used_cpu_sys"] + cpu2["used_cpu_user"]) - (cpu["used_cpu_sys"] + cpu["used_cpu_user"])
        return {"directory_rooms": in_redis, "held_rooms": held,
                "fleet_loop_share": round(max(s for s in shares if s is not None), 4) if any(shares) else None,
                "fleet_loop_shares": [None if s is None else round(s, 4) for s in shares],
                "redis_ops_per_room_s": round(ops / held / took, 2), "redis_cpu_share": round(used / took, 3)}
    finally:
        ticking.set()
        ticker.join(5)
        for watcher in watchers:
            watcher.close()
        for server in servers:
            server.stop()
        for fleet in idle:
            fleet.line.close()


def _tick_until(fleets: list, done, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        for fleet in fleets:
            fleet.tick()
        time.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--steps", default="3,6,9,12,18,24,30,36", help="rooms in all, tried in turn")
    parser.add_argument("--seconds", type=float, default=8.0, help="each load step runs this long")
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--lease", type=float, default=1.0, help="the servers' lease in the takeover runs")
    parser.add_argument("--directory", type=int, default=10_000, help="rooms in Redis in the directory step")
    parser.add_argument("--directory-seconds", type=float, default=20.0)
    args = parser.parse_args()
    history = {"actions_lost": 0, "split_rooms": 0}
    with tempfile.TemporaryDirectory() as folder:
        redis_process, url = start_redis(Path(folder))
        try:
            steps = [int(n) for n in args.steps.split(",")][:14]    # (Redis has 16 databases: one each, and 0)
            best, seen = rooms_at_60hz(url, Path(folder), steps, args.seconds)
            times, lost, redirects = takeovers(f"{url}/0", Path(folder), args.kills, args.lease, history)
            at_size = directory(f"{url}/15", Path(folder), args.directory, args.directory_seconds, 3.0)
        finally:
            redis_process.terminate()
            redis_process.wait(10)
    times.sort()
    result = {"rooms_at_60hz": best, "load": seen, "lease_s": args.lease,
              "takeover_s_p95": round(times[int(0.95 * (len(times) - 1))], 2) if times else None,
              "takeover_s_median": round(statistics.median(times), 2) if times else None,
              "takeovers": len(times), "games_lost": lost,
              "redirect_join_s": round(statistics.median(redirects), 3) if redirects else None,
              **history, **at_size}
    print(json.dumps(result) if args.json else json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
