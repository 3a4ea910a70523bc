#!/usr/bin/env python3
"""The door under a slow-loris load, measured: a client's round trips (a request, and its answer) through a door
serving in a process of its own, on loopback.

    .venv/bin/python scripts/bench_door.py --json
    .venv/bin/python scripts/bench_door.py --json --holders 500 --trips 1200 --flood 400

Each phase starts a door of its own (`villa.online.wire.door.Door`, answering each `Enter` with `Entered`,
polled with a 10 ms timeout as a dedicated server would between its rooms' frames), then times `--trips`
round trips of one welcomed client, 60 a second (a player's aims while pulling; the door allows 90):
- `alone`: nobody else connected.
- `holders`: `--holders` connections (half of them welcomed) have each sent a length prefix and half a frame,
  and hold it open: the door must go on serving without waiting for the rest.
- `flood`: the holders, and another process opening `--flood` connections a second, each sending one frame of
  random kind and body (before or after a hello) and hanging up: what hostile traffic costs a player.
Figures per phase: `p50_ms`, `p99_ms`, `max_ms` of the round trips, `door_cpu` (the door process's CPU time
over its wall time), and in the flood `flooded_per_s` (the hostile connections made a second). At the top:
`p99_ms_holders`, and `p99_ratio_holders`, the holders' p99 over the lone client's, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import select
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa.online.wire import messages  # noqa: E402
from villa.online.wire.codec import Catalogue  # noqa: E402
from villa.online.wire.door import Door, Limits  # noqa: E402
from villa.online.wire.frames import frame  # noqa: E402
from villa.online.wire.link import Link  # noqa: E402

LOOPBACK = "127.0.0.1"
CATALOGUE = Catalogue(messages.KINDS)
PACE = 60          # requests a second, as a player's aims while pulling (the door allows 90)
HELLO = frame(CATALOGUE.encode(messages.Hello(messages.PROTOCOL, messages.GAME)))


def serve(connections: int) -> None:
    """The door's process: an echo server until it is told to stop (its standard input closes)."""
    door: Door

    def answer(connection: int, message) -> None:
        if isinstance(message, messages.Enter):
            door.send(connection, messages.Entered(message.code))

    door = Door(LOOPBACK, 0, CATALOGUE, lambda connection: None, answer, lambda connection: None,
                Limits(per_address=connections, total=connections))
    print(door.port, flush=True)
    began, spent = time.monotonic(), time.process_time()
    while not select.select([sys.stdin], [], [], 0)[0]:
        door.poll(0.01)
    door.shut()
    print((time.process_time() - spent) / (time.monotonic() - began), flush=True)      # the door's share of a core


def flood(port: int, per_second: float, seed: int) -> None:
    """The flooder's process: connections, each sending one random frame (after a hello, or not) and hanging up."""
    dice = random.Random(seed)
    start = time.monotonic()
    sent = 0
    while not select.select([sys.stdin], [], [], 0)[0]:
        if sent > (time.monotonic() - start) * per_second:
            time.sleep(0.001)
            continue
        body = bytes([dice.randrange(256)]) + dice.randbytes(dice.randrange(65))
        with socket.socket() as sock:
            sock.bind((f"127.2.{sent // 250 % 250}.{sent % 250 + 1}", 0))
            sock.connect((LOOPBACK, port))
            sock.sendall((HELLO if dice.random() < 0.5 else b"") + frame(body))
        sent += 1
    print(sent / (time.monotonic() - start), flush=True)


def child(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)


def stop(process: subprocess.Popen) -> str:
    """What the child said last, once it stopped."""
    process.stdin.close()
    said = process.stdout.read()
    process.wait(30)
    return said.strip()


def heard(link: Link, kind: type, seconds: float = 5.0):
    """The next message of this kind the link hears (others passed over)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if link.closed:
            raise ConnectionError(f"the door closed the link: {link.why}")
        select.select([link.sock], [], [], 0.5)
        for message in link.receive():
            if isinstance(message, kind):
                return message
    raise TimeoutError(f"no {kind.__name__} in {seconds} s")


def phase(trips: int, holders: int, flooding: float) -> dict:
    door = child("--serve", str(holders + 16))
    port = int(door.stdout.readline())
    held = []
    for n in range(holders):
        sock = socket.create_connection((LOOPBACK, port))
        half = frame(CATALOGUE.encode(messages.OpenRoom(b"{" * 3000)))[:1500]
        sock.sendall((HELLO if n % 2 else b"") + half)
        held.append(sock)
    flooder = child("--flood-at", str(port), str(flooding)) if flooding else None
    link = Link(socket.create_connection((LOOPBACK, port)), CATALOGUE)
    link.sock.sendall(HELLO)
    heard(link, messages.Welcome)
    times = []
    for trip in range(trips):
        time.sleep(max(0.0, 1 / PACE - (time.perf_counter() - sent)) if trip else 0)
        sent = time.perf_counter()
        link.send(messages.Enter(f"R{trip % 1000}"))
        link.flush()
        heard(link, messages.Entered)
        times.append((time.perf_counter() - sent) * 1000)
    flooded = float(stop(flooder)) if flooder else 0.0
    link.close()
    for sock in held:
        sock.close()
    door_cpu = float(stop(door))
    times.sort()
    return {"p50_ms": round(statistics.median(times), 3), "p99_ms": round(times[int(len(times) * 0.99) - 1], 3),
            "max_ms": round(times[-1], 3), "door_cpu": round(door_cpu, 3),
            **({"flooded_per_s": round(flooded, 1)} if flooder else {})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--trips", type=int, default=600, help="round trips timed in each phase (60 a second)")
    parser.add_argument("--holders", type=int, default=100, help="connections holding half a frame open")
    parser.add_argument("--flood", type=float, default=200.0, help="hostile connections a second (0: no flood phase)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)              # the door's process
    parser.add_argument("--flood-at", nargs=2, type=float, help=argparse.SUPPRESS)  # the flooder's: port, rate
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return
    if args.flood_at:
        flood(int(args.flood_at[0]), args.flood_at[1], seed=35)
        return
    phases = {"alone": phase(args.trips, 0, 0), "holders": phase(args.trips, args.holders, 0)}
    if args.flood:
        phases["flood"] = phase(args.trips, args.holders, args.flood)
    figures = {"trips": args.trips, "holding": args.holders, "p99_ms_holders": phases["holders"]["p99_ms"],
               "p99_ratio_holders": round(phases["holders"]["p99_ms"] / phases["alone"]["p99_ms"], 2),
               "phases": phases}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for name, value in figures.items():
            print(f"{name}: {value}")


if __name__ == "__main__":
    main()
