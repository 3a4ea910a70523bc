"""The dedicated server: `villa-paletti-server --port N`, on a machine with no display.

    villa-paletti-server --port 47170                       # a room for two people
    villa-paletti-server --people 2 --computers 1 --strength easy --layout random --seed 5

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
import sys
from pathlib import Path

try:
    import resource                 # POSIX: the process's limits
except ImportError:                 # Windows: no such limit to raise
    resource = None

from villa.app import ends, frozen
from villa.app.logs import PlayerError, run_guarded
from villa.app.room_files import KEEP_DAYS, RoomFiles
from villa.app.storage import data_dir, shown_path
from villa.match import LAYOUT_NAMES, MatchSetup, Seat, Strength, layout_named
from villa.online import protocol
from villa.online.server import Room, Server
from villa.online.wire.door import Limits

FILES_BESIDE = 64          # files open besides the connections: the listener, room files, the log, the worker's pipes


def rooms_dir() -> Path:
    return data_dir() / "online"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="villa-paletti-server",
                                     description="A server for online games of Villa Paletti (no display needed).")
    parser.add_argument("--port", type=int, default=protocol.PORT, help=f"TCP port (default {protocol.PORT})")
    parser.add_argument("--address", default="", help="the address to listen on (default: every one)")
    parser.add_argument("--people", type=int, default=2, help="people's seats in a new room (default 2)")
    parser.add_argument("--computers", type=int, default=0, help="computer players' seats in a new room")
    parser.add_argument("--strength", choices=[s.value for s in Strength], default=Strength.MEDIUM.value)
    parser.add_argument("--layout", choices=LAYOUT_NAMES, default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--new-room", action="store_true", help="open a new room even when games were taken up")
    parser.add_argument("--keep-days", type=float, default=KEEP_DAYS,
                        help=f"room files not written for this many days are pruned at start (default {KEEP_DAYS})")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"a port is a number from 1 to 65535, not {args.port}")
    if not 2 <= args.people + args.computers <= 4 or args.people < 1 or args.computers < 0:
        parser.error("a room has 2 to 4 seats, at least one of them for a person")
    if not args.keep_days > 0:
        parser.error(f"--keep-days is a number of days above 0, not {args.keep_days}")
    return args


def new_plan(args) -> MatchSetup:
    seats = [Seat(f"Seat {n + 1}") for n in range(args.people)]
    seats += [Seat(f"Computer {n + 1}", Strength(args.strength)) for n in range(args.computers)]
    return MatchSetup(tuple(seats), layout_named(args.layout, args.seed), seed=args.seed)


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
    files = RoomFiles(rooms_dir())
    pruned = files.prune(args.keep_days)
    if pruned:
        print(f"pruned {pruned} room files older than {args.keep_days:g} days", flush=True)
    with ends.listening():
        try:
            server = Server(args.port, args.address, store=files, aside=True)   # computers think off the frames
        except OSError as error:
            raise PlayerError(f"no server could start on port {args.port}: {error}") from None
        try:
            rooms = files.under_way(aside=True)
            if args.new_room or not rooms:
                rooms.append(Room(protocol.new_room_code(), new_plan(args), keep=files, aside=True))
            for room in rooms:
                how = f"taken up at turn {room.match.turn}" if room.match else "open"
                server.open(room)
                names = ", ".join(seat.name for seat in room.seating.seats)
                print(f"room {room.code} on port {server.port}: {how} ({names})", flush=True)
            print(f"autosaves go to {shown_path(files.folder)}", flush=True)
            server.serve()
        finally:
            server.close()
            files.flush()
    return 0


if __name__ == "__main__":   # the standalone build's console program
    sys.exit(main())
