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
  each answer;
- in the soak's middle half, an attack beside the games, every connection of it over TLS as the game speaks: an
  `Enter` flood (16 connections from one address ask 80 times a second each to enter a room of their own with a
  game in play), 16 clients that never read what they are sent once welcomed (each from an address of its own,
  leaving and entering that room 20 times a second, connecting again whenever closed), and room hoarding from 8 addresses
  (16 connections each, opening and sitting in every room they may, and trying again every few seconds).

Each game's two players come from an address of their own (127.2.x.y), as a household would.

    .venv/bin/python scripts/soak_server.py --json                      # 10 minutes, 200 rooms, 2000 cycles
    .venv/bin/python scripts/soak_server.py --json --minutes 1 --rooms 20 --cycles 200
    .venv/bin/python scripts/soak_server.py --json --minutes 1 --rooms 20 --cycles 200 --no-attack

Figures: `rss_growth_mb` (the server's resident memory at the end, every game over, its room closed and the
memory freed handed back by the server's own timer (`--linger`), less
that once the first few games were played: what stays behind), `open_files_growth` (its open files, likewise),
`rooms_open_at_end` (rooms still open once the games ended, but the prober's own, which is still played),
`slowest_answer_ms_p99` (the 99th percentile of the prober's answers asked during the attack; `quiet_answer_ms_p99`
those asked outside it, or all of them with `--no-attack`), `rooms_opened_by_players_during_attack` of
`rooms_asked_by_players_during_attack` (the games' hosts' rooms asked for while it ran), `rss_peak_mb` (the
server's resident memory at its highest, read every few seconds), `rooms_most_during_attack` (the server's rooms at
their most, read likewise), what the attackers got (`attack`), with the
counts of what was done,
`games_broken` (a player's connection lost, or `games_stalled`: nothing happened in a game for a minute, said on
the standard error) and `server_tracebacks` (anything the server logged as broken): none expected.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import logging
import multiprocessing
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
import threading
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa import rules  # noqa: E402
from villa.app.dedicated import raise_open_files, rooms_dir  # noqa: E402
from villa.app.room_files import RoomFiles  # noqa: E402
from villa.match import MatchSetup, Seat, Strength, layout_named  # noqa: E402
from villa.match import requests as rq  # noqa: E402
from villa.match.computer import close_thinking  # noqa: E402
from villa.physics.world import give_back_free_memory  # noqa: E402
from villa.online import protocol  # noqa: E402
from villa.online.client import Player  # noqa: E402
from villa.online.fleet import Fleet  # noqa: E402
from villa.online.server import CATALOGUE, Room, Server  # noqa: E402
from villa.online.server.server import GIVE_BACK_S  # noqa: E402
from villa.online.wire import messages as m  # noqa: E402
from villa.online.wire.door import Tries  # noqa: E402
from villa.online.wire.frames import WireError, frame  # noqa: E402
from villa.online.wire.link import Link  # noqa: E402
from villa.online.wire.tls import client_session  # noqa: E402

LOOPBACK = "127.0.0.1"
TABLES = 3            # games played at once
WARM_GAMES = 3        # games played before the server's memory is first read
SHOVES = 60           # aims through the villa before giving up the column
AIM_S = 0.03          # between two aims (the door allows 90 messages a second)
PROBE_S = 0.1         # between the prober's questions
STALL_S = 60.0        # a game in which nothing happened for this long is given up, and said
DRAIN_S = 100.0       # at most, after the last game, for the rooms to close (a stranger's, a minute after its last)
ATTACK = (0.25, 0.75)     # the attack runs in this part of the soak
FLOODERS, FLOOD_RATE = 16, 80.0         # connections flooding `Enter` from one address, and each one's rate
NON_READERS, NON_READER_RATE = 16, 20.0  # clients that never read, each from an address of its own
HOARDERS, HOARDER_CONNECTIONS = 8, 16    # addresses hoarding rooms, and each one's connections
HOARD_AGAIN_S = 3.0       # a hoarder refused tries again after this long
MEMORY_S = 2.0            # between two readings of the server's memory
ATTACK_POLL_S = 0.01      # between two looks after the attackers (the hoarders every fifth)
SAMPLE_GAMES = 20     # the server's memory is read after every this many games
LINGER_S = GIVE_BACK_S + 1.0   # after the last room closed, before the last reading: the server hands freed memory
                               # back every GIVE_BACK_S, and what stays is read, not what is on its way back


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
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")   # its stderr
    if os.environ.get("VILLA_SOAK_TRACE"):
        tracemalloc.start(int(os.environ["VILLA_SOAK_TRACE"]))
    files = RoomFiles(rooms_dir())
    url = os.environ.get("VILLA_SOAK_REDIS")
    fleet = Fleet(url, f"{LOOPBACK}:1", aside=True) if url else None       # (its public address: never followed)
    server = Server(0, LOOPBACK, store=files, aside=True, fleet=fleet)
    server.plans = Tries(per_minute=10**6)     # every game here is set up from this one machine
    plan = MatchSetup((Seat("Prober"), Seat("Computer", Strength.EASY)), layout_named("random", 7), seed=7)
    probed = server.open(Room(server.place.code_now(set()), plan, keep=server.place, aside=True))
    print(server.port, probed.code, flush=True)

    snapshots = {}
    stalls = Stalls() if os.environ.get("VILLA_SOAK_STALLS") else None

    def asked() -> bool:
        if stalls is not None:
            stalls.beat()
        if not select.select([sys.stdin], [], [], 0)[0]:
            return False
        line = sys.stdin.readline()
        if not line:
            return True
        if line.startswith("trace"):
            print(json.dumps(_trace(snapshots, line.split()[1])), flush=True)
            return False
        if line.startswith("room "):           # one room as it stands (a game the soak saw stall)
            print(json.dumps(_room_facts(server.rooms.get(line.split()[1]))), flush=True)
            return False
        if line.startswith("trim"):            # what the C library holds freed, handed back: the rest is in use
            gc.collect()
            give_back_free_memory()
            print(json.dumps({"trimmed": True}), flush=True)
            return False
        print(json.dumps({"rooms": sorted(server.rooms), "visitors": len(server.visitors),
                          "door": server.door.held(), "refused": server.door.tally.counts}), flush=True)
        return False
    try:
        server.serve(until=asked)
    finally:
        if stalls is not None:
            stalls.say()
        server.close()
        files.flush()
        close_thinking()


class Stalls:
    """Where the server's loop spends the turns that keep a player waiting (`--stalls`): its main thread's stack,
    sampled every few milliseconds while a turn of the loop has run longer than `STALL_MS`, tallied by the game's
    innermost calls and said on the standard error at the end."""

    STALL_MS = 20

    def __init__(self) -> None:
        self.main = threading.main_thread().ident
        self.beat_at = time.perf_counter()
        self.samples: collections.Counter = collections.Counter()
        self.turns: collections.Counter = collections.Counter()
        threading.Thread(target=self._watch, daemon=True, name="stalls").start()

    def beat(self) -> None:
        took = (time.perf_counter() - self.beat_at) * 1000
        if took > self.STALL_MS:
            self.turns[min(int(took // 25) * 25, 500)] += 1
        self.beat_at = time.perf_counter()

    def _watch(self) -> None:
        while True:
            time.sleep(0.004)
            if (time.perf_counter() - self.beat_at) * 1000 > self.STALL_MS:
                frame = sys._current_frames().get(self.main)
                calls = []
                while frame is not None and len(calls) < 6:
                    code = frame.f_code
                    if "villa" in code.co_filename or "soak" in code.co_filename:
                        calls.append(f"{Path(code.co_filename).stem}.{code.co_name}:{frame.f_lineno}")
                    frame = frame.f_back
                self.samples[" < ".join(calls)] += 1

    def say(self) -> None:
        print("turns of the loop over 20 ms, by length (ms, from): " + json.dumps(sorted(self.turns.items())),
              file=sys.stderr)
        for calls, count in self.samples.most_common(25):
            print(f"{count * 4:6d} ms  {calls}", file=sys.stderr)


def _room_facts(room) -> dict:
    """What a room's end depends on: its game over, its record sent and to whom, its villa at rest, a hand."""
    if room is None:
        return {"open": False}
    match = room.match
    facts = {"open": True, "audience": len(room.audience), "ended_at": room.ended_at, "record_had": sorted(
        room.record_had), "sitters": {n: s.client is not None for n, s in room.seating.sitters.items()}}
    if match is not None:
        facts.update(over=match.over, settled=match.villa.settled, still=match.villa.still,
                     hand=type(match.hand).__name__ if match.hand else None, turns=len(match.turns),
                     log=len(match.state.log), collapse=bool(match.villa.collapse), tick=room.tick)
    return facts


def _trace(snapshots: dict, name: str) -> dict:
    """A `tracemalloc` snapshot named `name`; at "end", where the Python heap grew since "warm" (the biggest
    growths by the line that allocated them, with the lines that called it)."""
    gc.collect()
    snapshots[name] = tracemalloc.take_snapshot().filter_traces(
        (tracemalloc.Filter(False, tracemalloc.__file__),))
    if name != "end" or "warm" not in snapshots:
        return {"traced_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 2)}
    grown = snapshots["end"].compare_to(snapshots["warm"], "traceback")
    return {"traced_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 2),
            "grown": [{"kb": round(stat.size_diff / 1024, 1), "count": stat.count_diff,
                       "where": [f"{frame.filename.split('villa-paletti/')[-1]}:{frame.lineno}"
                                 for frame in stat.traceback[-6:]]}
                      for stat in grown[:25] if stat.size_diff > 0]}


# --- what this process does to it ---------------------------------------------------------------------------

class Game:
    """Two players, a room opened in the lobby, played to its fall: whoever's move it is shoves a column through
    the villa (and gives it up if the villa stands), and anything else the rules ask passes as they allow."""

    def __init__(self, port: int, seed: int) -> None:
        self.plan = MatchSetup((Seat("Host"), Seat("Guest")), layout_named("random", seed), seed=seed,
                               deal_colours=True)
        home = f"127.2.{seed // 250 % 250}.{seed % 250 + 1}"
        self.host, self.guest = Player(LOOPBACK, port, source=home), Player(LOOPBACK, port, source=home)
        self.asked_at: float | None = None     # when the host asked for a room
        self.opened: bool | None = None        # whether it got it (None: no answer yet)
        self.players = (self.host, self.guest)
        self.step = self._open
        self.shoves = 0               # aims sent through the villa (0: no column of ours in hand)
        self.aimed_at = 0.0
        self.asked: tuple[int, int, float] | None = None    # the log's and the refusals' length when we asked
        self.done = False
        self.trouble: str | None = None
        self.heard, self.heard_at = None, time.monotonic()     # the last news of the game, and when it came
        self.code: str | None = None  # the room of a game that stalled, to ask the server about

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
            self.code = self.host.room
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
            self.asked_at = time.monotonic()
            self.step = self._sit

    def _sit(self) -> None:
        if self.host.refusals:
            self.opened = False
            self.trouble = f"no room: {self.host.refusals[-1]}"
            print(f"soak: a game was refused its room: {self.host.refusals[-1]}", file=sys.stderr, flush=True)
            self.end()
        elif self.host.room is not None:
            self.opened = True
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
    """A player seated in a room of their own, asking for another's seat each tenth of a second: in a process of its
    own (`start`), so that its answers time the server, not the soak's own loop (its games, cycles and attackers)."""

    def __init__(self, port: int, code: str) -> None:
        self.player, self.code = Player(LOOPBACK, port), code
        self.answers: list[tuple[float, float]] = []     # (when asked, monotonic; ms to the answer)
        self.asked_at: float | None = None
        self.next_at = 0.0
        self.entered = False

    @classmethod
    def start(cls, port: int, code: str) -> "ProberAside":
        stop = multiprocessing.Event()
        ours, theirs = multiprocessing.Pipe()
        process = multiprocessing.Process(target=cls._run, args=(port, code, stop, theirs), daemon=True)
        process.start()
        return ProberAside(process, stop, ours)

    @classmethod
    def _run(cls, port: int, code: str, stop, answers) -> None:
        prober = cls(port, code)
        while not stop.is_set():
            prober.poll()
            time.sleep(0.001)
        answers.send(prober.answers)
        prober.player.close()

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
            self.answers.append((self.asked_mono, (now - self.asked_at) * 1000))
            self.asked_at = None
        if now >= self.next_at:
            player.request(rq.Pass(1))           # not this player's seat: refused at once
            self.asked_at, self.next_at, self.asked_mono = now, now + PROBE_S, time.monotonic()


class ProberAside:
    """The prober's process: its answers once it is stopped."""

    def __init__(self, process, stop, answers) -> None:
        self.process, self._stop, self._answers = process, stop, answers

    def stop(self) -> list[tuple[float, float]]:
        self._stop.set()
        answers = self._answers.recv() if self._answers.poll(30) else []
        self.process.join(10)
        return answers


# --- the attack -----------------------------------------------------------------------------------------------

class Raw:
    """A connection over TLS, as the game speaks (the server's certificate taken unchecked), that says what it is
    told, from an address of this machine, and reads what comes when asked (`hear`, which also carries its
    handshake on: what it is told to say waits for the handshake)."""

    def __init__(self, port: int, source: str, receive_buffer: int = 0) -> None:
        self.sock = socket.socket()
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.bind((source, 0))
        self.sock.settimeout(2.0)
        self.sock.connect((LOOPBACK, port))
        self.link = Link(self.sock, CATALOGUE, tls=client_session(LOOPBACK, None))
        self.link.flush()                      # the handshake's first words
        self.welcomed = False                  # the handshake done, the hello said and answered

    @property
    def closed(self) -> bool:
        return self.link.closed

    def say(self, *messages) -> None:
        for message in messages:
            self.link.send(message)
        self.link.flush()

    def hear(self) -> list:
        """What came since last asked."""
        if self.link.closed:
            return []
        try:
            news = self.link.receive()
        except WireError:                      # (a refusal in the clear, before any handshake: the server full)
            self.link.close()
            return []
        self.link.flush()
        self.welcomed = self.welcomed or any(isinstance(message, m.Welcome) for message in news)
        return news

    def close(self) -> None:
        self.link.close()


def _connected(port: int, source: str, receive_buffer: int = 0) -> Raw | None:
    try:
        raw = Raw(port, source, receive_buffer)
    except OSError:
        return None
    raw.say(m.Hello(m.PROTOCOL, m.GAME))
    return raw


class EnterFlood:
    """A host (127.4.0.2) opens a room (itself and a computer player) and begins its game; then sixteen connections
    from one address (127.4.0.1) ask to enter it, `FLOOD_RATE` times a second each."""

    SOURCE, HOST = "127.4.0.1", "127.4.0.2"

    def __init__(self, port: int) -> None:
        self.port = port
        self.host = _connected(port, self.HOST)
        self.ping_at = time.monotonic() + 10.0
        self.links = [_connected(port, self.SOURCE) for _ in range(FLOODERS)]
        self.code: str | None = None
        self.started = False
        self.began = time.monotonic()
        self.said = 0                   # `Enter`s due from each connection so far
        self.sent = self.entered = self.refused = self.closed = 0
        self.host.say(m.OpenRoom(protocol.pack_plan(MatchSetup(
            (Seat("Flood"), Seat("Computer", Strength.EASY)), layout_named("random", 3), seed=3))))

    def poll(self) -> None:
        now = time.monotonic()
        if now >= self.ping_at:                  # the host sits and says nothing else: a window pings
            self.host.say(m.Ping())
            self.ping_at = now + 10.0
        for message in self.host.hear():
            if isinstance(message, m.Opened):
                self.code = message.code
                self.host.say(m.Enter(message.code), m.Sit("Flood", 0))
            elif isinstance(message, m.Seated) and not self.started:
                self.host.say(m.Begin())
                self.started, self.began = True, now
        for n, raw in enumerate(self.links):
            if raw is None or raw.closed:
                self.closed += raw is not None
                self.links[n] = raw = _connected(self.port, self.SOURCE)
                if raw is None:
                    continue
            for message in raw.hear():
                kind = type(message)
                if kind is m.Entered:
                    self.entered += 1
                elif kind is m.Refused:
                    self.refused += 1
        if not self.started or self.code is None:
            return
        due = int((now - self.began) * FLOOD_RATE)
        self.said = max(self.said, due - int(FLOOD_RATE / 4))     # this process held up: no burst to catch up
        while self.said < due:
            for raw in self.links:
                if raw is not None and not raw.closed and not raw.link.queued:   # (none piled up unsent)
                    raw.say(m.Enter(self.code))
                    self.sent += 1
            self.said += 1

    def close(self) -> None:
        for raw in [self.host, *self.links]:
            if raw is not None:
                raw.close()


class NonReaders:
    """Clients that never read, each from an address of its own: each shakes hands, says its hello and hears the
    server's welcome, then enters the flood's room and asks for it again `NON_READER_RATE` times a second, leaving
    it first each time (the server ignores an `Enter` into the room one is in, and sends a room entered anew whole),
    reading nothing more (whatever the socket does not take at once waits, and nothing more is asked meanwhile); one found
    closed connects again half a second later."""

    def __init__(self, port: int, flood: EnterFlood) -> None:
        self.port, self.flood = port, flood
        self.links: list[Raw | None] = [None] * NON_READERS
        self.entered = [False] * NON_READERS     # each one's connection has asked for the room already
        self.next_at = [0.0] * NON_READERS
        self.closed = 0
        self.sent = 0

    def poll(self) -> None:
        code = self.flood.code
        if code is None:
            return
        now = time.monotonic()
        for n in range(NON_READERS):
            raw = self.links[n]
            if raw is None:
                if now < self.next_at[n]:
                    continue
                raw = self.links[n] = _connected(self.port, f"127.5.0.{n + 1}", receive_buffer=4096)
                self.entered[n] = False
                if raw is None:
                    self.next_at[n] = now + 0.5
                    continue
            if not raw.welcomed:
                raw.hear()                        # the handshake and the hello: the last it reads
            elif now >= self.next_at[n]:
                self.next_at[n] = now + 1 / NON_READER_RATE
                if not raw.link.queued:          # (left first: a room entered again is sent anew, not ignored)
                    if self.entered[n]:
                        raw.link.send(m.Leave())
                    raw.link.send(m.Enter(code))
                    self.entered[n] = True
                    self.sent += 1
                raw.link.flush()                  # (its sending side full: the server stopped reading it)
            if raw.closed:                        # closed by the server: again, a little later
                self.closed += 1
                self.links[n] = None
                self.next_at[n] = now + 0.5

    def close(self) -> None:
        for raw in self.links:
            if raw is not None:
                raw.close()


class Hoarders:
    """`HOARDERS` addresses with `HOARDER_CONNECTIONS` connections each, opening every room they may and sitting in
    each; refused, a connection tries again `HOARD_AGAIN_S` later."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.links = [_connected(port, f"127.6.0.{n // HOARDER_CONNECTIONS + 1}")
                      for n in range(HOARDERS * HOARDER_CONNECTIONS)]
        self.asking = [False] * len(self.links)
        self.next_at = [0.0] * len(self.links)
        self.opened = 0
        self.refusals: dict[str, int] = {}
        self.plan = protocol.pack_plan(MatchSetup((Seat("Hoard"), Seat("Other")), layout_named("random", 4), seed=4))

    def poll(self) -> None:
        now = time.monotonic()
        for n, raw in enumerate(self.links):
            if raw is None or raw.closed:
                continue
            for message in raw.hear():
                if isinstance(message, m.Opened):
                    self.opened += 1
                    raw.say(m.Enter(message.code), m.Sit("Hoard", 0))
                    self.asking[n], self.next_at[n] = False, now + 0.2
                elif isinstance(message, m.Refused) and self.asking[n]:
                    self.refusals[message.code] = self.refusals.get(message.code, 0) + 1
                    self.asking[n], self.next_at[n] = False, now + HOARD_AGAIN_S
            if not self.asking[n] and now >= self.next_at[n]:
                raw.say(m.OpenRoom(self.plan))
                self.asking[n] = True

    def close(self) -> None:
        for raw in self.links:
            if raw is not None:
                raw.close()


class Attack:
    """The three attacks at once (looked after every `ATTACK_POLL_S`: this process's work is not the server's)."""

    def __init__(self, port: int) -> None:
        self.flood = EnterFlood(port)
        self.non_readers = NonReaders(port, self.flood)
        self.hoarders = Hoarders(port)
        self.polled_at, self.polls = 0.0, 0

    def poll(self) -> None:
        now = time.monotonic()
        if now - self.polled_at < ATTACK_POLL_S:
            return
        self.polled_at, self.polls = now, self.polls + 1
        self.flood.poll()
        self.non_readers.poll()
        if self.polls % 5 == 0:
            self.hoarders.poll()

    def close(self) -> None:
        self.flood.close()
        self.non_readers.close()
        self.hoarders.close()

    def figures(self) -> dict:
        flood, hoarders = self.flood, self.hoarders
        return {"flood_enters_sent": flood.sent, "flood_entered": flood.entered,
                "flood_closed": flood.closed, "non_readers_sent": self.non_readers.sent,
                "non_readers_closed": self.non_readers.closed, "hoarded_rooms": hoarders.opened,
                "hoarders_refused": hoarders.refusals}


def _cpu(pid: int) -> float:
    """The process's CPU time so far (s)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory(pid: int) -> tuple[float, int]:
    """The process's resident memory (MB) and open files."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
    return rss / 1024, len(os.listdir(f"/proc/{pid}/fd"))


def _stats(server: subprocess.Popen, ask: str = "stats") -> dict:
    server.stdin.write(ask + "\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())


def _percentile(answers: list[float], share: float = 0.99) -> float | None:
    answers = sorted(answers)
    return round(answers[int(share * (len(answers) - 1))], 2) if answers else None


def soak(minutes: float, rooms: int, cycles: int, seed: int, attacking: bool = True, trace: int = 0,
         fleet: bool = False, tables: int = TABLES, linger: float = LINGER_S) -> dict:
    home = tempfile.mkdtemp(prefix="villa-soak-")
    log = open(Path(home) / "server.err", "w+", encoding="utf-8")
    env = {**os.environ, "VILLA_HOME": home, **({"VILLA_SOAK_TRACE": str(trace)} if trace else {})}
    redis_server = _redis(Path(home)) if fleet else None
    if redis_server is not None:
        env["VILLA_SOAK_REDIS"] = redis_server.url
    server = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=log, text=True, env=env)
    samples: list[tuple[int, float]] = []
    traced: dict = {}
    dice = random.Random(seed)
    try:
        port, code = server.stdout.readline().split()
        port = int(port)
        prober = Prober.start(port, code)
        began = time.monotonic()
        seconds = minutes * 60
        games: list[Game] = []
        started = cycled = 0
        first = _memory(server.pid)
        warm: tuple[float, int] | None = None
        troubles: list[str] = []
        attack: Attack | None = None
        attack_figures: dict = {}
        attack_from, attack_until = (seconds * ATTACK[0], seconds * ATTACK[1]) if attacking else (None, None)
        peak, looked_at, most_rooms = first[0], 0.0, 0
        while time.monotonic() - began < seconds or any(not g.done for g in games) or started < rooms:
            elapsed = time.monotonic() - began
            if attack_from is not None and attack is None and not attack_figures and elapsed >= attack_from:
                attack = Attack(port)
            if attack is not None:
                attack.poll()
                if elapsed >= attack_until:
                    attack_figures = attack.figures()
                    attack.close()
                    attack = None
            if time.monotonic() - looked_at > MEMORY_S:
                looked_at = time.monotonic()
                peak = max(peak, _memory(server.pid)[0])
                if attack is not None:
                    most_rooms = max(most_rooms, len(_stats(server)["rooms"]))
            playing = [g for g in games if not g.done]
            if started < rooms and len(playing) < tables and started <= rooms * elapsed / seconds + tables:
                games.append(Game(port, seed * 1000 + started))
                started += 1
            for game in playing:
                game.poll()
                if game.done and game.trouble:
                    troubles.append(game.trouble)
                    if game.code is not None:        # the server's side of it, for whoever reads the soak's log
                        print(f"soak: room {game.code} as the server has it: "
                              f"{json.dumps(_stats(server, 'room ' + game.code))}", file=sys.stderr, flush=True)
            if cycled < cycles and cycled <= cycles * elapsed / seconds:
                cycle(port, cycled, [g.host.room for g in playing if g.host.room], dice)
                cycled += 1
            finished = sum(g.done for g in games)
            if warm is None and finished >= min(WARM_GAMES, rooms):
                warm = _memory(server.pid)
                if trace:
                    traced["warm"] = _stats(server, "trace warm")
            if warm is not None and (not samples or finished >= samples[-1][0] + SAMPLE_GAMES):
                samples.append((finished, _memory(server.pid)[0]))
            if elapsed > seconds * 6 + 600:      # (a loaded machine, or the heap traced, slows it down)
                raise TimeoutError(f"the games did not end: {[g.step.__name__ for g in playing]}")
            time.sleep(0.001)
        if attack is not None:           # (a soak whose games ended before its attack did)
            attack_figures = attack.figures()
            attack.close()
        end = time.monotonic() + DRAIN_S
        while len(_stats(server)["rooms"]) > 1 and time.monotonic() < end:
            time.sleep(0.05)
        time.sleep(linger)                # goodbyes lingering, the writer's last files (and the memory given back)
        if trace:
            traced["end"] = _stats(server, "trace end")
        last, stats, server_cpu = _memory(server.pid), _stats(server), _cpu(server.pid)
        _stats(server, "trim")
        trimmed = _memory(server.pid)
        warm = warm or first
        probed = prober.stop()
    finally:
        server.stdin.close()
        server.wait(60)
        if redis_server is not None:
            redis_server.stop()
        log.seek(0)
        said = log.read()
        log.close()
    answers = [(at - began, ms) for at, ms in probed]

    def during(at: float) -> bool:
        return attacking and attack_from <= at <= attack_until
    quiet = [ms for at, ms in answers if not during(at)]
    attacked = [ms for at, ms in answers if during(at)]
    asked = [g for g in games if g.asked_at is not None and during(g.asked_at - began)]
    return {"minutes": round((time.monotonic() - began) / 60, 2),
            "rooms_played": sum(g.done and not g.trouble for g in games),
            "games_broken": len(troubles), "cycles": cycled,
            "rss_first_mb": round(first[0], 1), "rss_warm_mb": round(warm[0], 1), "rss_end_mb": round(last[0], 1),
            "rss_growth_mb": round(last[0] - warm[0], 1), "rss_end_trimmed_mb": round(trimmed[0], 1),
            "open_files_warm": warm[1], "open_files_end": last[1], "open_files_growth": last[1] - warm[1],
            "rooms_open_at_end": len([c for c in stats["rooms"] if c != code]), "rooms_still_played": 1,
            "games_stalled": sum("stalled" in t for t in troubles),
            "visitors_at_end": stats["visitors"], "door_at_end": stats["door"], "refused": stats["refused"],
            "slowest_answer_ms_p99": _percentile(attacked) if attacking else _percentile(quiet),
            "quiet_answer_ms_p99": _percentile(quiet),
            "answer_ms_p50": round(statistics.median(quiet), 2) if quiet else None,
            "attack_answer_ms_p50_p95": [_percentile(attacked, 0.5), _percentile(attacked, 0.95)],
            "answers": len(answers), "answers_during_attack": sum(during(at) for at, _ms in answers),
            "rooms_asked_by_players_during_attack": len(asked), "rooms_opened_by_players_during_attack":
                sum(bool(g.opened) for g in asked),
            "rss_peak_mb": round(max(peak, last[0]), 1), "rooms_most_during_attack": most_rooms,
            "attack": attack_figures,
            "server_cpu_s": round(server_cpu, 1), "soak_cpu_s": round(time.process_time(), 1),
            "server_tracebacks": said.count("Traceback"), "server_log": str(Path(home) / "server.err"),
            "replays_kept": len(list(Path(home, "data", "replays").glob("*.json"))),
            "rss_by_games": [[n, round(mb, 1)] for n, mb in samples + [(len(games), last[0])]],
            **({"traced": traced} if trace else {})}


class _Redis:
    def __init__(self, process: subprocess.Popen, url: str) -> None:
        self.process, self.url = process, url

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def _redis(folder: Path) -> _Redis:
    """A redis-server of the soak's own (`--fleet`), on a free loopback port."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", LOOPBACK, "--save", "", "--appendonly",
                                "yes", "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            with socket.create_connection((LOOPBACK, port), timeout=0.2) as link:
                link.sendall(b"PING\r\n")
                if link.recv(16).startswith(b"+PONG"):
                    return _Redis(process, f"redis://{LOOPBACK}:{port}/0")
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--rooms", type=int, default=200, help="games played to the end")
    parser.add_argument("--cycles", type=int, default=2000, help="connect, enter, leave and abuse cycles")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--no-attack", action="store_true", help="no attack in the soak's middle half")
    parser.add_argument("--trace", type=int, default=0, metavar="FRAMES",
                        help="trace the server's Python heap (tracemalloc, this many frames deep) and say where it grew "
                             "between the warm point and the end")
    parser.add_argument("--tables", type=int, default=TABLES, help=f"games played at once (default {TABLES})")
    parser.add_argument("--fleet", action="store_true",
                        help="the server in a fleet, on a redis-server of the soak's own (needs redis-server)")
    parser.add_argument("--stalls", action="store_true",
                        help="say on the server's log where its loop spends turns over 20 ms (sampled stacks)")
    parser.add_argument("--linger", type=float, default=LINGER_S,
                        help=f"seconds from the last room closed to the last reading (default {LINGER_S:g})")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stalls:
        os.environ["VILLA_SOAK_STALLS"] = "1"
    if args.serve:
        serve()
        return 0
    figures = soak(args.minutes, args.rooms, args.cycles, args.seed, not args.no_attack, args.trace, args.fleet,
                   args.tables, args.linger)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
