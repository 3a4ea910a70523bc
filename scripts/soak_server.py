#!/usr/bin/env python3
"""The server left running under load, to see that nothing grows without end: a server in a process of its own
(its rooms kept on disk, its computer players thinking aside, as `villa-paletti-server` runs), and from this one,
over loopback, for `--minutes`:

- `--rooms` games played to the end: a host opens a room in the lobby, a guest enters with its code, both sit,
  the host begins, and whoever's move it is shoves a column through the villa (a question is declined) until it
  falls; each player has the record, and leaves;
- `--cycles` connect, enter, leave and abuse cycles (every other one over TLS, the others in the clear, which the
  server refuses), each from an address of its own (127.3.x.y): a hello, a room
  entered (a right code, or a wrong one), left, then one of: garbage, a frame too long, another version's hello,
  half a frame left hanging, a flood of pings, a request for a seat not held, or a window killed;
- a player seated in a room of their own asking something each tenth of a second (refused at once): the time to
  each answer.

    .venv/bin/python scripts/soak_server.py --json                      # 10 minutes, 200 rooms, 2000 cycles
    .venv/bin/python scripts/soak_server.py --json --minutes 1 --rooms 20 --cycles 200

Figures: `rss_growth_mb` (the server's resident memory at the end, every game over and its room closed, less
that once the first few games were played: what stays behind), `open_files_growth` (its open files, likewise),
`rooms_open_at_end` (rooms still open once the games ended, but the prober's own, which is still played),
`slowest_answer_ms_p99` (the 99th percentile of the prober's answers), with the counts of what was done,
`games_broken` (a player's connection lost, or `games_stalled`: nothing happened in a game for a minute, said on
the standard error) and `server_tracebacks` (anything the server logged as broken): none expected.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import socket
import ssl
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa import rules  # noqa: E402
from villa.app.dedicated import raise_open_files, rooms_dir  # noqa: E402
from villa.app.room_files import RoomFiles  # noqa: E402
from villa.match import MatchSetup, Seat, Strength, layout_named  # noqa: E402
from villa.match import requests as rq  # noqa: E402
from villa.match.computer import close_thinking  # noqa: E402
from villa.online import protocol  # noqa: E402
from villa.online.client import Player  # noqa: E402
from villa.online.server import CATALOGUE, Room, Server  # noqa: E402
from villa.online.wire import messages as m  # noqa: E402
from villa.online.wire.door import Tries  # noqa: E402
from villa.online.wire.frames import frame  # noqa: E402

LOOPBACK = "127.0.0.1"
TABLES = 3            # games played at once
WARM_GAMES = 3        # games played before the server's memory is first read
SHOVES = 60           # aims through the villa before giving up the column
AIM_S = 0.03          # between two aims (the door allows 90 messages a second)
PROBE_S = 0.1         # between the prober's questions
STALL_S = 60.0        # a game in which nothing happened for this long is given up, and said
DRAIN_S = 30.0        # at most, after the last game, for its room to close


def _payload(message) -> bytes:
    return frame(CATALOGUE.encode(message))


HELLO = _payload(m.Hello(m.PROTOCOL, m.GAME))
UNCHECKED = ssl.create_default_context()       # the abuse's TLS: whatever certificate the server shows
UNCHECKED.check_hostname, UNCHECKED.verify_mode = False, ssl.CERT_NONE


# --- the server's process ---------------------------------------------------------------------------------

def serve() -> None:
    """The server, its rooms kept in the data folder (`VILLA_HOME`), until its standard input closes; a line
    "stats" asks it for its rooms and connections."""
    raise_open_files()
    files = RoomFiles(rooms_dir())
    server = Server(0, LOOPBACK, store=files, aside=True)
    server.plans = Tries(per_minute=10**6)     # every game here is set up from this one machine
    plan = MatchSetup((Seat("Prober"), Seat("Computer", Strength.EASY)), layout_named("random", 7), seed=7)
    probed = server.open(Room(protocol.new_room_code(), plan, keep=files, aside=True))
    print(server.port, probed.code, flush=True)

    def asked() -> bool:
        if not select.select([sys.stdin], [], [], 0)[0]:
            return False
        if not sys.stdin.readline():
            return True
        print(json.dumps({"rooms": sorted(server.rooms), "visitors": len(server.visitors),
                          "door": server.door.held()}), flush=True)
        return False
    try:
        server.serve(until=asked)
    finally:
        server.close()
        files.flush()
        close_thinking()


# --- what this process does to it ---------------------------------------------------------------------------

class Game:
    """Two players, a room opened in the lobby, played to its fall: whoever's move it is shoves a column through
    the villa (and gives it up if the villa stands), and anything else the rules ask passes as they allow."""

    def __init__(self, port: int, seed: int) -> None:
        self.plan = MatchSetup((Seat("Host"), Seat("Guest")), layout_named("random", seed), seed=seed,
                               deal_colours=True)
        self.host, self.guest = Player(LOOPBACK, port), Player(LOOPBACK, port)
        self.players = (self.host, self.guest)
        self.step = self._open
        self.shoves = 0               # aims sent through the villa (0: no column of ours in hand)
        self.aimed_at = 0.0
        self.asked: tuple[int, int, float] | None = None    # the log's and the refusals' length when we asked
        self.done = False
        self.trouble: str | None = None
        self.heard, self.heard_at = None, time.monotonic()     # the last news of the game, and when it came

    def poll(self) -> None:
        for player in self.players:
            player.poll()
        news = (self.step.__name__, len(self.host.state.log) if self.host.state else 0, len(self.host.refusals))
        if news != self.heard:
            self.heard, self.heard_at = news, time.monotonic()
        if any(p.lost for p in self.players):
            self.trouble = str(next(p.trouble for p in self.players if p.lost))
            self.end()
        elif time.monotonic() - self.heard_at > STALL_S:
            self.trouble = f"stalled at {self.step.__name__}: {self._where()}"
            print(f"soak: a game {self.trouble}", file=sys.stderr, flush=True)
            self.end()
        elif not self.done:
            self.step()

    def _where(self) -> str:
        state = self.host.state
        if state is None:
            return f"no state; rooms {self.host.room} {self.guest.room}, refusals {self.host.refusals[-2:]}"
        return (f"{state.turn}, task {rules.task(state).value}, passing {rules.passing_moves(state)}, refusals "
                f"{[p.refusals[-2:] for p in self.players]}, same state {self.guest.state == state}")

    def end(self) -> None:
        for player in self.players:
            player.close()
        self.done = True

    def _open(self) -> None:
        if self.host.ready and self.guest.ready:
            self.host.open_room(self.plan)
            self.step = self._sit

    def _sit(self) -> None:
        if self.host.room is not None:
            self.host.sit("Host", 0)
            self.guest.enter(self.host.room)
            self.step = self._guest_sits

    def _guest_sits(self) -> None:
        if self.guest.room is not None and self.host.seats:
            self.guest.sit("Guest", 1)
            self.step = self._begin

    def _begin(self) -> None:
        if self.guest.seats:
            self.host.begin()
            self.step = self._play

    def _play(self) -> None:
        state = self.host.state
        if not self.host.table.get("started") or state is None or self.guest.state != state:
            return
        if state.over:
            self.step = self._record
            return
        seat = rules.acting_player(state)
        player, now = self.players[seat], time.monotonic()
        if self.asked is not None:            # the answer first: a move in the log, or a refusal
            logged, refused, at = self.asked
            if len(state.log) == logged and len(player.refusals) == refused and now - at < 2.0:
                return
            self.asked = None
        if self.shoves and state.turn.column == self.column:
            if now - self.aimed_at >= AIM_S:
                self.aimed_at = now
                if self.shoves < SHOVES:
                    player.request(rq.Aim(seat, (-3 * self.x, -3 * self.y, self.z + 40)))
                    self.shoves += 1
                else:
                    self._ask(player, rq.GiveUp(seat), state)
            return
        self.shoves = 0
        moves = rules.passing_moves(state)
        if moves and isinstance(moves[0], rules.TakeColumn):
            self.column = moves[0].column
            (self.x, self.y, self.z), _quat = player.poses[self.column]
            self.shoves = 1
            self._ask(player, rq.Take(seat, self.column, (self.x, self.y, self.z)), state)
        elif moves:
            for move in moves:
                self._ask(player, rq.request_for(seat, move), state)

    def _ask(self, player: Player, request, state) -> None:
        player.request(request)
        self.asked = (len(state.log), len(player.refusals), time.monotonic())

    def _record(self) -> None:
        if self.host.finished is not None and self.guest.finished is not None:
            self.end()


def cycle(port: int, number: int, codes: list[str], dice: random.Random) -> None:
    """A connection from an address of its own: hello, a room entered and left, then one abuse, and gone."""
    source = f"127.3.{number // 250 % 250}.{number % 250 + 1}"
    code = dice.choice(codes) if codes and dice.random() < 0.7 else protocol.new_room_code()
    said = HELLO + _payload(m.Enter(code)) + _payload(m.Leave())
    abuse = number % 7
    if abuse == 0:
        said += b"\x00\x00\x00\x09" + dice.randbytes(9)                      # garbage
    elif abuse == 1:
        said += b"\x7f\xff\xff\xff"                                          # a frame too long
    elif abuse == 2:
        said = _payload(m.Hello(m.PROTOCOL, "0.0.0-another"))              # another version
    elif abuse == 3:
        said += _payload(m.OpenRoom(b"{" * 2000))[:1000]                    # half a frame, left hanging
    elif abuse == 4:
        said += _payload(m.Ping()) * 200                                     # a flood
    elif abuse == 5:
        said += _payload(rq.Take(0, "red-hex", (1.0, 2.0, 3.0)))             # a seat not held
    try:
        with socket.socket() as raw:
            raw.bind((source, 0))
            raw.settimeout(2.0)
            raw.connect((LOOPBACK, port))
            # every other one over TLS, as the game speaks; the others in the clear (refused: tls needed)
            sock = UNCHECKED.wrap_socket(raw) if number % 2 else raw
            sock.sendall(said)
            if abuse == 6:                                                   # a window killed: no goodbye
                raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass                         # refused, or hung up on already: the server's right


class Prober:
    """A player seated in a room of their own, asking for another's seat each tenth of a second."""

    def __init__(self, port: int, code: str) -> None:
        self.player, self.code = Player(LOOPBACK, port), code
        self.answers: list[float] = []
        self.asked_at: float | None = None
        self.next_at = 0.0
        self.entered = False

    def poll(self) -> None:
        player = self.player
        player.poll()
        if player.ready and not self.entered:
            player.enter(self.code)
            player.sit("Prober", 0)
            self.entered = True
        if not player.seats:
            return
        now = time.perf_counter()
        if self.asked_at is not None:
            if len(player.refusals) == len(self.answers):
                return
            self.answers.append((now - self.asked_at) * 1000)
            self.asked_at = None
        if now >= self.next_at:
            player.request(rq.Pass(1))           # not this player's seat: refused at once
            self.asked_at, self.next_at = now, now + PROBE_S


def _memory(pid: int) -> tuple[float, int]:
    """The process's resident memory (MB) and open files."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return rss / 1024, len(os.listdir(f"/proc/{pid}/fd"))


def _stats(server: subprocess.Popen) -> dict:
    server.stdin.write("stats\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())


def soak(minutes: float, rooms: int, cycles: int, seed: int) -> dict:
    home = tempfile.mkdtemp(prefix="villa-soak-")
    log = open(Path(home) / "server.err", "w+", encoding="utf-8")
    server = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=log, text=True, env={**os.environ, "VILLA_HOME": home})
    dice = random.Random(seed)
    try:
        port, code = server.stdout.readline().split()
        port = int(port)
        prober = Prober(port, code)
        began = time.monotonic()
        seconds = minutes * 60
        games: list[Game] = []
        started = cycled = 0
        first = _memory(server.pid)
        warm: tuple[float, int] | None = None
        troubles: list[str] = []
        while time.monotonic() - began < seconds or any(not g.done for g in games) or started < rooms:
            elapsed = time.monotonic() - began
            playing = [g for g in games if not g.done]
            if started < rooms and len(playing) < TABLES and started <= rooms * elapsed / seconds + TABLES:
                games.append(Game(port, seed * 1000 + started))
                started += 1
            for game in playing:
                game.poll()
                if game.done and game.trouble:
                    troubles.append(game.trouble)
            if cycled < cycles and cycled <= cycles * elapsed / seconds:
                cycle(port, cycled, [g.host.room for g in playing if g.host.room], dice)
                cycled += 1
            prober.poll()
            if warm is None and sum(g.done for g in games) >= min(WARM_GAMES, rooms):
                warm = _memory(server.pid)
            if elapsed > seconds * 3 + 120:
                raise TimeoutError(f"the games did not end: {[g.step.__name__ for g in playing]}")
            time.sleep(0.001)
        end = time.monotonic() + DRAIN_S
        while len(_stats(server)["rooms"]) > 1 and time.monotonic() < end:
            prober.poll()
            time.sleep(0.05)
        time.sleep(3.0)                   # goodbyes lingering, the writer's last files
        last, stats = _memory(server.pid), _stats(server)
        warm = warm or first
        answers = sorted(prober.answers)
        prober.player.close()
    finally:
        server.stdin.close()
        server.wait(60)
        log.seek(0)
        said = log.read()
        log.close()
    return {"minutes": round((time.monotonic() - began) / 60, 2),
            "rooms_played": sum(g.done and not g.trouble for g in games),
            "games_broken": len(troubles), "cycles": cycled,
            "rss_first_mb": round(first[0], 1), "rss_warm_mb": round(warm[0], 1), "rss_end_mb": round(last[0], 1),
            "rss_growth_mb": round(last[0] - warm[0], 1),
            "open_files_warm": warm[1], "open_files_end": last[1], "open_files_growth": last[1] - warm[1],
            "rooms_open_at_end": len([c for c in stats["rooms"] if c != code]), "rooms_still_played": 1,
            "games_stalled": sum("stalled" in t for t in troubles),
            "visitors_at_end": stats["visitors"], "door_at_end": stats["door"],
            "slowest_answer_ms_p99": round(answers[int(0.99 * (len(answers) - 1))], 2) if answers else None,
            "answer_ms_p50": round(statistics.median(answers), 2) if answers else None, "answers": len(answers),
            "server_tracebacks": said.count("Traceback"), "replays_kept": len(list(Path(home, "data",
                                                                                        "replays").glob("*.json")))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rooms", type=int, default=200, help="games played to the end")
    parser.add_argument("--cycles", type=int, default=2000, help="connect, enter, leave and abuse cycles")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return 0
    figures = soak(args.minutes, args.rooms, args.cycles, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
