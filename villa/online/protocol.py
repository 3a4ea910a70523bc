"""What travels between the server's authority and the clients, besides the `.dc` file's types:
the online refusals' codes, the answers' words, the rules' state and the moving pieces' poses as
bytes, and the room code.

Everything here is codes and data; the words a player reads are the presentation's.
"""

from __future__ import annotations

import json
import math
import secrets
import struct
import sys
import zlib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from panda3d.core import Filename

from villa import rules
from villa.match import MatchSetup, RecordError
from villa.match import record as records
from villa.match.setup import clean_name
from villa.physics.laying import FloorLay
from villa.physics.pulling import Grip, Pull
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.pieces import ALL_COLUMNS, TOP_FLOOR_LEVEL, floor_id, level_of_floor

PORT = 47170                     # the server's TCP port unless told otherwise
ROOM_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read aloud, typed without doubt
ROOM_LENGTH = 5
FIRST_ROOM_ZONE = 1000           # the zone of a room is its code as a number, above the lobby's zones
LOBBY_ZONE = 1                   # where the server's lobby is: a client opens a room there
RECORD_PART = 30000              # bytes of a finished game's record a datagram carries (a datagram holds 64 kB)
MAX_PLAN = 4096                  # bytes of a plan's JSON (the .dc's bound: a layout of twenty columns is about 1.9 k)
REACH = 200.0                    # cm from the table's centre: a point further out is not on the table

# every piece that can move, in a fixed order: a pose names its piece by its index here
PIECES: tuple[str, ...] = (*(c.id for c in ALL_COLUMNS), *(floor_id(level) for level in range(1, TOP_FLOOR_LEVEL + 1)))
_POSE = struct.Struct("<B3f4f")
_COLUMN_INDEX = {c.id: i for i, c in enumerate(ALL_COLUMNS)}    # a column's bit in `setHand`'s touching


class Online(StrEnum):
    """Why the server refused a request that the rules never saw."""

    WRONG_ROOM = "wrong room"            # the room code does not name this room
    NO_SUCH_SEAT = "no such seat"        # the seat is not at this table
    SEAT_TAKEN = "seat taken"            # someone else sits there (or a computer player)
    NOT_SEATED = "not seated"            # sit down first
    NOT_YOUR_SEAT = "not your seat"      # a request for a seat this connection does not hold
    UNKNOWN_TOKEN = "unknown token"      # no seat waits for this token (or it waited too long)
    NO_NAME = "no name"                  # a name with nothing printable in it
    NAME_TAKEN = "name taken"            # someone at the table has that name already
    NOT_ON_TABLE = "not on the table"    # a point that is not a finite point over the table
    UNKNOWN_WORD = "unknown word"        # an answer or colour the game does not know
    NOT_STARTED = "not started"          # the game waits for its players
    NOT_HOST = "not host"                # only the host gives seats to computer players, sets the plan, begins
    STARTED = "started"                  # the game has begun: its plan stays as it is
    EMPTY_SEATS = "empty seats"          # someone's seat is still empty: sit there, or give it to a computer
    BAD_PLAN = "bad plan"                # a plan that is not a game this server plays (`why` says what is wrong)
    SERVER_FULL = "server full"          # the server holds as many rooms as it may (or this connection opened its share)


class OnlineError(ValueError):
    """A request the server refused before the rules saw it; `code` says why, `values` what the words need."""

    def __init__(self, code: Online, **values: Any) -> None:
        super().__init__(code.value)
        self.code = code
        self.values = values


# the answers a player gives with a word (the rest of a turn is the hand's)
ANSWERS = {
    "propose": rules.ProposeFloor, "object": rules.Object, "challenge": rules.Challenge,
    "decline": rules.Decline, "forgo": rules.ForgoPenalty, "pass": rules.Pass,
}


def dc_file() -> str:
    """The `.dc` file's path, as Panda3D reads it: in the package (pyproject.toml ships it), or in the built
    game beside the executable in the same folders (setup.py), where modules have no files of their own."""
    if getattr(sys, "frozen", False):
        folder = Path(sys.executable).resolve().parent
        if folder.name == "MacOS" and (folder.parent / "Resources").is_dir():
            folder = folder.parent / "Resources"
        path = folder / "villa" / "online" / "villa.dc"
    else:
        path = Path(__file__).with_name("villa.dc")
    return Filename.fromOsSpecific(str(path)).getFullpath()


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_LETTERS) for _ in range(ROOM_LENGTH))


def zone_of(code: str) -> int | None:
    """The zone a room lives in (only who knows the code finds it); None: not a room code."""
    code = code.strip().upper()
    if len(code) != ROOM_LENGTH or any(ch not in ROOM_LETTERS for ch in code):
        return None
    number = 0
    for ch in code:
        number = number * len(ROOM_LETTERS) + ROOM_LETTERS.index(ch)
    return FIRST_ROOM_ZONE + number


def on_table(*values: float) -> bool:
    return all(math.isfinite(v) and abs(v) <= REACH for v in values)


# --- refusals as (kind, code, values) -----------------------------------------------------------

def refusal_parts(error: Exception) -> tuple[str, str, str]:
    if isinstance(error, rules.RuleError):
        return "rules", error.rule, json.dumps(error.params, default=str)
    if isinstance(error, PlacementError):
        return "wood", error.code.value, json.dumps(error.values, default=str)
    if isinstance(error, OnlineError):
        return "online", error.code.value, json.dumps(error.values, default=str)
    raise TypeError(f"not a refusal: {error!r}")


def refusal_from(kind: str, code: str, values: str) -> Exception:
    """The refusal again, as the hot-seat game has it (the screen words it the same way)."""
    params = json.loads(values or "{}")
    if kind == "rules":
        return rules.RuleError(code, params)
    if kind == "wood":
        return PlacementError(Refusal(code), **params)
    return OnlineError(Online(code), **params)


# --- state and poses as bytes -------------------------------------------------------------------------

def pack_state(state: rules.GameState) -> bytes:
    return zlib.compress(json.dumps(rules.state_to_json(state), separators=(",", ":")).encode(), 6)


def unpack_state(data: bytes) -> rules.GameState:
    return rules.state_from_json(json.loads(zlib.decompress(data)))


def pack_table(table: dict) -> bytes:
    return json.dumps(table, separators=(",", ":")).encode()


def unpack_table(data: bytes) -> dict:
    return json.loads(data)


def pack_plan(setup: MatchSetup) -> bytes:
    """The game a room is to play (seats, rules, variants, layout), as a save's match writes it."""
    return json.dumps(records.plan_to_json(setup), separators=(",", ":")).encode()


def unpack_plan(data: bytes) -> MatchSetup:
    """A plan a client sent, its names cleaned as in the menu; an `OnlineError` saying why it is not a game."""
    try:
        plan = json.loads(data)
    except (ValueError, RecursionError):
        raise OnlineError(Online.BAD_PLAN, why="not JSON") from None
    seats = plan.get("seats") if isinstance(plan, dict) else None
    if isinstance(seats, list):
        for seat in seats:
            if isinstance(seat, dict) and isinstance(seat.get("name"), str):
                seat["name"] = clean_name(seat["name"])
                if not seat["name"]:
                    raise OnlineError(Online.NO_NAME)
        names = [s.get("name") for s in seats if isinstance(s, dict)]
        taken = [name for name in names if names.count(name) > 1]
        if taken:
            raise OnlineError(Online.NAME_TAKEN, name=taken[0])
    try:
        return records.plan_from_json(plan)
    except RecordError as error:
        raise OnlineError(Online.BAD_PLAN, why=str(error)) from None


def plan_json(setup: MatchSetup) -> dict:
    return records.plan_to_json(setup)


# --- a finished game's record, in parts -------------------------------------------------------------

def record_parts(record: records.Record) -> list[bytes]:
    """The game as its replay file holds it, zlib'd and cut into parts a datagram carries."""
    data = zlib.compress(records.dumps(record, "replay").encode(), 6)
    return [data[at:at + RECORD_PART] for at in range(0, len(data), RECORD_PART)]


def unpack_record(data: bytes) -> records.Record:
    """The record the server sent, read as any save is read (a `RecordError` or `ValueError` if it is not one)."""
    return records.from_document(json.loads(zlib.decompress(data)))


Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]

# --- the hand as the screen shows it (`setHand`) ---------------------------------------------------

GRIPS = ("", "pulling", "carrying", "lowering", "held")   # a hand's state as sent (a Grip's or Laying's word)
STRAIN_UNIT = 0.1        # N: the strain is sent in tenths of a newton (what the gauge prints)
STRAIN_MOST = 65535      # the .dc's uint16


@dataclass(frozen=True)
class HandNews:
    """The hand in play: its state's word ("" when nothing is in hand, or it was let go), the force the pulled
    column resists with (N; 0 unless a column is pulled), the floor held steady above it (or None), and the
    columns a held floor touches."""

    grip: str = ""
    strain: float = 0.0
    steadied: str | None = None
    touching: frozenset[str] = frozenset()


def hand_parts(hand) -> tuple[int, int, int, int]:
    """The `.dc` numbers of a match's hand (a `Pull`, a `FloorLay` or None): (grip, strain, steadied level,
    touching). The strain counts only while a column is pulled, so a carried or held piece sends nothing as
    it hangs; the columns a floor touches, only while it is held (a puppet villa's bodies feel no contact)."""
    grip = getattr(hand, "state", "")
    if grip not in GRIPS:
        return 0, 0, 0, 0
    pulling = isinstance(hand, Pull) and grip == Grip.PULLING
    strain = min(STRAIN_MOST, round(hand.strain / STRAIN_UNIT)) if pulling else 0
    steadied = getattr(hand, "steadied", None) if pulling else None
    touching = hand.touching() if isinstance(hand, FloorLay) else ()
    return (GRIPS.index(grip), strain, (level_of_floor(steadied) or 0) if steadied else 0,
            sum(1 << _COLUMN_INDEX[c] for c in touching if c in _COLUMN_INDEX))


def hand_news(grip: int, strain: int, steadied: int, touching: int) -> HandNews:
    return HandNews(GRIPS[grip] if 0 <= grip < len(GRIPS) else "", strain * STRAIN_UNIT,
                    floor_id(steadied) if 1 <= steadied <= TOP_FLOOR_LEVEL else None,
                    frozenset(c for c, i in _COLUMN_INDEX.items() if touching >> i & 1))


def pack_poses(poses: dict[str, Pose]) -> bytes:
    return b"".join(_POSE.pack(PIECES.index(piece), *pos, *quat) for piece, (pos, quat) in sorted(poses.items()))


def unpack_poses(data: bytes) -> dict[str, Pose]:
    poses = {}
    for offset in range(0, len(data) - len(data) % _POSE.size, _POSE.size):
        index, *numbers = _POSE.unpack_from(data, offset)
        if index < len(PIECES):
            poses[PIECES[index]] = (tuple(numbers[:3]), tuple(numbers[3:]))
    return poses
