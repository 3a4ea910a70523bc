"""The dedicated server: `villa-paletti-server --port N`, on a machine with no display.

    villa-paletti-server --port 47170                       # a room for two people
    villa-paletti-server --people 2 --computers 1 --strength easy --layout random --seed 5

It first takes up every room whose game was under way (their autosaves in the data folder's
`online/`), then opens a new room if asked to or if none was taken up, and prints a line per
room with its code, which friends type to sit down. Every settled turn is autosaved in the
same record format as the hot-seat game (`online/CODE.json`, beside it who sits where and their
tokens, `online/CODE.seats.json`); a finished game is kept as a replay. A write that fails never
ends a game. Ended from outside (Ctrl+C, `kill`), the autosaves of the last settled turns stay.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from villa.app import ends, frozen, saves
from villa.app.logs import PlayerError, run_guarded
from villa.app.storage import data_dir, shown_path, write_atomically
from villa.match import LAYOUT_NAMES, MatchSetup, Seat, Strength, layout_named
from villa.online import protocol
from villa.online.rooms import Room
from villa.online.server import Server

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
    parser.add_argument("--shards", type=int, default=0,
                        help="processes that play the rooms, one a core (default 0: the server's own process)")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"a port is a number from 1 to 65535, not {args.port}")
    if not 0 <= args.shards <= 64:
        parser.error(f"a server has 0 to 64 processes playing its rooms, not {args.shards}")
    if not 2 <= args.people + args.computers <= 4 or args.people < 1 or args.computers < 0:
        parser.error("a room has 2 to 4 seats, at least one of them for a person")
    return args


def new_plan(args) -> MatchSetup:
    seats = [Seat(f"Seat {n + 1}") for n in range(args.people)]
    seats += [Seat(f"Computer {n + 1}", Strength(args.strength)) for n in range(args.computers)]
    return MatchSetup(tuple(seats), layout_named(args.layout, args.seed), seed=args.seed)


class RoomFiles:
    """A room's autosave (the record format of every save) and its seats, written after each settled turn."""

    def __init__(self, folder: Path, replays: bool = True) -> None:
        """`replays`: keep a finished game's replay here (a server hosted in the game leaves that to its player's
        own window, which keeps it as every player's does)."""
        self.folder, self.replays = folder, replays
        self._autosavers: dict[str, saves.Autosaver] = {}
        self._replays: set[str] = set()

    def __call__(self, room: Room) -> None:
        record = room.match.record
        saver = self._autosavers.setdefault(room.code, saves.Autosaver(self.folder / f"{room.code}.json"))
        saver.save(record)
        write_atomically(self.folder / f"{room.code}.seats.json", json.dumps(room.seats_json(), indent=1))
        if self.replays and record.state.over and room.code not in self._replays:
            saves.save_replay(record)
            self._replays.add(room.code)

    def taken_up(self, **options) -> list[Room]:
        """Every room whose game was under way; a file that does not load is named and left as it is."""
        rooms = []
        for seats_path in sorted(self.folder.glob("*.seats.json")):
            code = seats_path.name.removesuffix(".seats.json")
            try:
                record = saves.load(self.folder / f"{code}.json")
                seats = json.loads(seats_path.read_text(encoding="utf-8"))
                if record.state.over:
                    continue
                rooms.append(Room.taken_up(record, seats, keep=self, **options))
            except (saves.SaveError, OSError, ValueError, KeyError, TypeError, AttributeError) as error:
                print(f"villa-paletti-server: the room {code} was not taken up: {error}", file=sys.stderr, flush=True)
        return rooms


def main(argv: list[str] | None = None) -> int:
    frozen.serve_if_asked()
    args = parse(argv)
    return run_guarded(lambda: _serve(args))


def _serve(args) -> int:
    files = RoomFiles(rooms_dir())
    with ends.listening():
        try:
            server = Server(args.port, args.address, keep=files, aside=True,   # computers think off the frames
                            shards=args.shards)
        except OSError as error:
            raise PlayerError(f"no server could start on port {args.port}: {error}") from None
        rooms = files.taken_up(aside=True)
        if args.new_room or not rooms:
            rooms.append(Room(protocol.new_room_code(), new_plan(args), keep=files, aside=True))
        for room in rooms:
            how = "taken up at turn " + str(room.match.turn) if room.match else "open"
            server.open(room)
            print(f"room {room.code} on port {args.port}: {how} ({', '.join(s.name for s in room.seats)})",
                  flush=True)
        print(f"autosaves go to {shown_path(files.folder)}", flush=True)
        try:
            server.serve()
        finally:
            server.close()
    return 0


if __name__ == "__main__":   # the standalone build's console program
    sys.exit(main())
