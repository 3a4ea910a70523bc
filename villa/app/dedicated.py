"""The dedicated server: `villa-paletti-server --port N`, on a machine with no display.

    villa-paletti-server --port 47170                       # a room for two people
    villa-paletti-server --people 2 --computers 1 --strength easy --layout random --seed 5

It speaks TLS: with the certificate and key of `--cert`/`--key` (a CA's), or else its own, made at first start
and kept in the data folder (`tls/`, readable by its user alone); it prints the certificate's fingerprint, which
an invite carries. `--insecure` speaks in the clear instead (players' windows must be started so too).

It first prunes room files older than `--keep-days`, takes up every room whose game was under way (kept in
the data folder's `online/`), then opens a new room if asked to or if none was taken up, and prints a line
per room with its code, which friends type to sit down. Players may also open rooms of their own from the
game's menu. Every settled turn is kept on disk (`villa.app.room_files`) by a writer thread; a finished game is
kept as a replay. A write that fails never ends a game. Stopped from outside (Ctrl+C, `kill`), the server
keeps every room and tells its players.

Each connection is a file open in the process: the soft limit on open files is raised to the hard one (best
effort; the usual soft limit of 1024 would hold fewer connections than the door lets in), and the server says
so when even the hard limit is short of them.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

try:
    import resource                 # POSIX: the process's limits
except ImportError:                 # Windows: no such limit to raise
    resource = None

from villa.app import ends, frozen
from villa.app.logs import PlayerError, run_guarded
from villa.app.room_files import KEEP_DAYS, RoomFiles
from villa.app.server_identity import given_identity, own_identity
from villa.app.storage import data_dir, shown_path
from villa.match import LAYOUT_NAMES, MatchSetup, Seat, Strength, layout_named
from villa.online import protocol
from villa.online.fleet import Fleet, Timings
from villa.online.server import Room, Server
from villa.online.wire.door import Limits
from villa.presentation import words

log = logging.getLogger(__name__)

FILES_BESIDE = 64          # files open besides the connections: the listener, room files, the log, the worker's pipes


def rooms_dir() -> Path:
    return data_dir() / "online"


def tls_dir() -> Path:
    """Where a server's own certificate and key are kept (the game hosting in its window keeps them there too)."""
    return data_dir() / "tls"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="villa-paletti-server",
                                     description="A server for online games of Villa Paletti (no display needed).")
    parser.add_argument("--port", type=int, default=protocol.PORT, help=f"TCP port (default {protocol.PORT})")
    parser.add_argument("--address", default="", help="the address to listen on (default: every one)")
    parser.add_argument("--people", type=int, default=2,
                        help="people's seats in a new room (default 2; 0: computer players only, to watch)")
    parser.add_argument("--computers", type=int, default=0, help="computer players' seats in a new room")
    parser.add_argument("--strength", choices=[s.value for s in Strength], default=Strength.MEDIUM.value)
    parser.add_argument("--layout", choices=LAYOUT_NAMES, default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--new-room", action="store_true", help="open a new room even when games were taken up")
    parser.add_argument("--rooms", type=int, default=1, help="how many new rooms to open (default 1)")
    parser.add_argument("--stats", type=float, default=0.0, metavar="SECONDS",
                        help="print a line of JSON this often: rooms, frames, frame times (for measuring)")
    parser.add_argument("--keep-days", type=float, default=KEEP_DAYS,
                        help=f"room files and replays not written for this many days are pruned at start and every "
                             f"hour (default {KEEP_DAYS}); in a fleet, rooms left in Redis expire after as long")
    tls = parser.add_argument_group("TLS (docs/online.md): by default the server's own certificate, made at first "
                                    "start and kept in its data folder")
    tls.add_argument("--cert", metavar="FILE", type=Path, help="a CA's certificate (PEM, its chain after it) instead")
    tls.add_argument("--key", metavar="FILE", type=Path, help="that certificate's private key (PEM)")
    tls.add_argument("--insecure", action="store_true",
                     help="no TLS: everything in the clear, and only windows started with --insecure can play here")
    fleet = parser.add_argument_group("a fleet of servers sharing their rooms (docs/online.md)")
    fleet.add_argument("--redis", metavar="URL", help="join the fleet whose rooms are kept in this Redis, such as "
                                                      "redis://10.0.0.5:6379/0")
    fleet.add_argument("--public", metavar="HOST:PORT", help="where players reach this server (needed with --redis)")
    fleet.add_argument("--lease", type=float, default=3.0, metavar="SECONDS",
                       help="how long this server's hold on a room lasts unrenewed: a room of a server that died is "
                            "taken up elsewhere after about this long (default 3)")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"a port is a number from 1 to 65535, not {args.port}")
    if not 2 <= args.people + args.computers <= 4 or args.people < 0 or args.computers < 0:
        parser.error("a room has 2 to 4 seats")
    if not 0 <= args.rooms <= 200:
        parser.error(f"a server opens 0 to 200 rooms at start, not {args.rooms}")
    if not args.keep_days > 0:
        parser.error(f"--keep-days is a number of days above 0, not {args.keep_days}")
    if args.redis is not None:
        if not args.redis.startswith(("redis://", "rediss://", "unix://", "redis+sentinel://", "redis+cluster://")):
            parser.error(f"--redis takes a Redis URL such as redis://10.0.0.5:6379/0, not {args.redis}")
        host, _colon, port = (args.public or "").rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            parser.error("--redis needs --public HOST:PORT, the address at which players reach this server")
    if (args.cert is None) != (args.key is None):
        parser.error("--cert and --key go together: the certificate and its key")
    if args.insecure and args.cert is not None:
        parser.error("--insecure speaks without TLS: it takes no --cert")
    if not 0.2 <= args.lease <= 60:
        parser.error(f"--lease is from 0.2 to 60 seconds, not {args.lease}")
    return args


def new_plan(args, number: int = 0) -> MatchSetup:
    """The game of a new room (the `number`th opened at start: its seed one on from the one before)."""
    seats = [Seat(f"Seat {n + 1}") for n in range(args.people)]
    seats += [Seat(f"Computer {n + 1}", Strength(args.strength)) for n in range(args.computers)]
    seed = args.seed + number
    return MatchSetup(tuple(seats), layout_named(args.layout, seed), seed=seed, deal_colours=args.people == 0)


def raise_open_files(wanted: int = Limits().total + FILES_BESIDE) -> int | None:
    """The soft limit on open files raised to the hard one (best effort); returns the limit now (None: no such
    limit here, or no limit at all)."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted) if hard == resource.RLIM_INFINITY
                                                        else hard, hard))
        except (ValueError, OSError):
            pass
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else soft


def main(argv: list[str] | None = None) -> int:
    frozen.serve_if_asked()
    args = parse(argv)
    return run_guarded(lambda: _serve(args))


def _serve(args) -> int:
    files_open = raise_open_files()
    if files_open is not None and files_open < Limits().total + FILES_BESIDE:
        print(f"only {files_open} files may be open: fewer than {Limits().total} connections fit", flush=True)
    files = RoomFiles(rooms_dir(), keep_days=args.keep_days)
    pruned = files.prune(args.keep_days)
    if pruned:
        print(f"pruned {pruned} room files and replays older than {args.keep_days:g} days", flush=True)
    identity = None if args.insecure else \
        given_identity(args.cert, args.key) if args.cert is not None else own_identity(tls_dir())
    fleet = _fleet(args, identity.fingerprint if identity else None) if args.redis else None
    asked = ends.Held()
    with ends.listening(asked, (*ends.ASKING, signal.SIGINT)):     # Ctrl+C in its terminal too
        try:   # computers think off the frames (`aside`)
            server = Server(args.port, args.address, store=files, aside=True, fleet=fleet, identity=identity,
                            insecure=args.insecure)
        except OSError as error:
            raise PlayerError(f"no server could start on port {args.port}: {error}") from None
        if server.fingerprint is None:
            print("without TLS (--insecure): everything goes in the clear", flush=True)
        else:
            print(f"TLS certificate {server.fingerprint} ({'a CA' if args.cert else 'its own'})", flush=True)
        try:
            rooms = files.under_way(aside=True) if fleet is None else []
            if args.new_room or (not rooms and fleet is None):
                for number in range(args.rooms):
                    code = server.place.code_now({room.code for room in rooms})
                    if code is None:
                        raise PlayerError(f"no room could be opened: the fleet's Redis at {args.redis} does not answer")
                    rooms.append(Room(code, new_plan(args, number), keep=server.place, aside=True))
            for room in rooms:
                how = f"taken up at turn {room.match.turn}" if room.match else "open"
                server.open(room)
                names = ", ".join(seat.name for seat in room.seating.seats)
                print(f"room {room.code} on port {server.port}: {how} ({names})", flush=True)
            if fleet is None:
                print(f"autosaves go to {shown_path(files.folder)}", flush=True)
            else:
                fleet.presence.now()
                for code, values in fleet.warnings():
                    said = words.fleet_warning(code, values)
                    log.warning(said)
                    print(said, flush=True)
                print(f"in the fleet of {args.redis} as {args.public} (server {fleet.id})", flush=True)
            asked.held = True      # from now on the loop stops between two turns, and closing is not cut short
            server.serve(until=lambda: bool(asked), stats=args.stats)
        finally:
            asked.held = True
            server.close()
            files.flush()
    if asked:
        raise ends.Ended(asked.number)
    return 0


def _fleet(args, fingerprint: str | None) -> Fleet:
    lease = args.lease
    return Fleet(args.redis, args.public, Timings(refresh_s=lease / 3, presence_s=lease, lease_s=lease, reap_s=lease / 3,
                                                  redis_s=min(0.25, lease / 4), dormant_s=args.keep_days * 86400),
                 aside=True, fingerprint=fingerprint)


if __name__ == "__main__":   # the standalone build's console program
    sys.exit(main())
