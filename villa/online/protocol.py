"""What the server and the players say to each other, besides the messages' own shapes
(`villa.online.wire.messages`): the online refusals' codes, room codes, and the game's data packed
for the wire (the rules' state and moves, the villa's poses, the hand, the events, a plan, a record).

Everything here is codes and data; the words a player reads are the presentation's. Whatever comes
from the other side is read with caps on its size: a zlib'd blob never inflates past its cap.
"""

from __future__ import annotations

import json
import math
import secrets
import struct
import zlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from villa import rules
from villa.match import MatchSetup, RecordError
from villa.match import events as ev
from villa.match import record as records
from villa.match.setup import clean_name
from villa.online.wire.codec import WireError, inflate
from villa.physics.pulling import Grip
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.pieces import ALL_COLUMNS, TOP_FLOOR_LEVEL, floor_id, level_of_floor

PORT = 47170                     # the server's TCP port unless told otherwise
ROOM_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no O or 0, no I or 1: read aloud, typed without doubt
UNUSED_LETTERS = "O, I, 0, 1"    # as the menus say it
ROOM_LENGTH = 5
RECORD_PART = 30000              # bytes of a finished game's record a message carries
MAX_STATE = 4_000_000            # bytes a rules' state or its moves may inflate to
MAX_RECORD = 16_000_000          # and a finished game's record
REACH = 200.0                    # cm from the table's centre: a point further out is not on the table

# every piece that can move, in a fixed order: a pose names its piece by its index here
PIECES: tuple[str, ...] = (*(c.id for c in ALL_COLUMNS), *(floor_id(level) for level in range(1, TOP_FLOOR_LEVEL + 1)))
_POSE = struct.Struct("<B3f4f")
_PIECE_INDEX = {piece: i for i, piece in enumerate(PIECES)}
FACTS = (rules.ColumnPlaced, rules.FloorLaid, rules.ColumnTakenOut, rules.Collapse)   # what the villa reports


class Online(StrEnum):
    """Why the server refused a request that the rules never saw, or closed a connection; and how a connection
    ended that closed without a goodbye."""

    WRONG_ROOM = "wrong room"            # no room has this code (a try spent)
    TOO_MANY_TRIES = "too many tries"    # too many wrong codes from this address: wait (`seconds`)
    TOO_MANY_PLANS = "too many plans"    # too many games set up from this address: wait (`seconds`)
    NO_SUCH_SEAT = "no such seat"        # the seat is not at this table
    SEAT_TAKEN = "seat taken"            # someone else sits there (or a computer player)
    NOT_SEATED = "not seated"            # sit down first
    NOT_IN_ROOM = "not in room"          # enter a room first
    NOT_YOUR_SEAT = "not your seat"      # a request for a seat this connection does not hold
    UNKNOWN_TOKEN = "unknown token"      # no seat waits for this token (or it waited too long)
    NO_NAME = "no name"                  # a name with nothing printable in it
    NAME_TAKEN = "name taken"            # someone at the table has that name already
    NOT_ON_TABLE = "not on the table"    # a point that is not a finite point over the table
    NOT_STARTED = "not started"          # the game waits for its players
    NOT_HOST = "not host"                # only the host gives seats away, sets the plan and the clock, begins
    STARTED = "started"                  # the game has begun: its plan stays as it is
    EMPTY_SEATS = "empty seats"          # someone's seat is still empty: sit there, or give it to a computer
    BAD_PLAN = "bad plan"                # a plan that is not a game this server plays (`why` says what is wrong)
    SERVER_FULL = "server full"          # the server holds as many rooms as it may (or this connection opened its share)
    ROOMS_HERE = "rooms here"            # this address (network) holds its share of the server's rooms (`rooms`)
    ROOMS_WAITING = "rooms waiting"      # rooms opened from this address that nobody sat in yet: as many as it may
    ONE_WATCHED = "one watched"          # a room of computer players only, opened from this address, is open already
    OWN_SEAT = "own seat"                # the host gives away their own seat: leave instead
    FLEET_BUSY = "fleet busy"            # the fleet cannot take a new game now (its Redis is away or full)
    ROOM_MOVING = "room moving"          # the room is between servers of a fleet: ask again in a moment (no try spent)
    PAUSED = "paused"                    # the room's server lost touch with the fleet (`seconds` ago): the game waits
    MOVE_LOST = "move lost"              # a move sent as the room's server went never reached the game: make it again
    # why a connection is closed (`Goodbye`)
    VERSION = "version"                  # another version of the game or of the wire (`protocol`, `game`)
    HELLO_FIRST = "hello first"          # a connection must say hello first
    TOO_SLOW = "too slow"                # no hello in time
    FULL = "full"                        # too many connections (from this address, or in all)
    SILENT = "silent"                    # nothing heard for too long
    MALFORMED = "malformed"              # a message that is not one, or that a player may not send
    TOO_FAST = "too fast"                # more messages than a player sends
    NOT_READING = "not reading"          # what the server sent waited unread too long, or was the most of all
    ROOM_FAILED = "room failed"          # the room broke down: its game is saved, the others play on
    SENT_AWAY = "sent away"              # the host took this player out of the room
    SEAT_GIVEN = "seat given"            # the host gave this player's seat to a computer player
    CLOSING = "closing"                  # the server is stopping
    MOVED = "moved"                      # another server of the fleet plays the room now: find it there
    HOST_LEFT = "host left"              # the window that hosted the room closed (`host`: its person's name)
    TLS_NEEDED = "tls needed"            # a hello in the clear to a server that speaks TLS (the window's --insecure)
    # how a connection ended with no goodbye, as the player's side saw it
    HUNG_UP = "hung up"                  # the other side closed the connection without a word
    RESET = "reset"                      # the connection was reset (the other side's process gone, a network fault)
    UNREACHABLE = "unreachable"          # no connection came (`why`: refused, unreachable, timed out, unknown host)
    # why a player did not speak to the server it reached (its TLS, and its check of the server's certificate)
    NOT_TLS = "not tls"                  # the server speaks in the clear (it was started with --insecure)
    TLS_FAILED = "tls failed"            # the TLS handshake failed (`why`: OpenSSL's words)
    NOT_INVITED = "not invited"          # the certificate is not the one the invite (or the fleet) names
    CERT_CHANGED = "certificate changed"     # not the one this address showed before (`was`, `shown`)
    CERT_UNVOUCHED = "certificate unvouched"  # no CA vouches for it, where one did before


class OnlineError(ValueError):
    """A request the server refused before the rules saw it; `code` says why, `values` what the words need."""

    def __init__(self, code: Online, **values: Any) -> None:
        super().__init__(code.value)
        self.code = code
        self.values = values


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_LETTERS) for _ in range(ROOM_LENGTH))


def typed_code(text: str) -> str:
    """A room code as typed, in capitals, without the spaces and dashes it may be read out or pasted with."""
    return "".join(ch for ch in text.upper() if not ch.isspace() and ch not in "-‐‑–—")


def room_code(text: str) -> str | None:
    """A room code as typed (spaces and dashes left out), in capitals; None: it cannot be one (wrong length, or a
    letter codes never use)."""
    code = typed_code(text)
    if len(code) != ROOM_LENGTH or any(ch not in ROOM_LETTERS for ch in code):
        return None
    return code


def on_table(*values: float) -> bool:
    return all(math.isfinite(v) and abs(v) <= REACH for v in values)


# --- refusals as (kind, code, values) -----------------------------------------------------------

def refusal_parts(error: Exception) -> tuple[str, str, str]:
    if isinstance(error, rules.RuleError):
        return "rules", error.rule, _json(error.params)
    if isinstance(error, PlacementError):
        return "wood", error.code.value, _json(error.values)
    if isinstance(error, OnlineError):
        return "online", error.code.value, _json(error.values)
    raise TypeError(f"not a refusal: {error!r}")


def refusal_from(kind: str, code: str, values: str) -> Exception:
    """The refusal again, as the hot-seat game has it (the screen words it the same way); a `WireError` if it is
    none the game knows."""
    try:
        params = json.loads(values or "{}")
        if not isinstance(params, dict):
            raise ValueError("not an object")
        if kind == "rules":
            return rules.RuleError(code, params)
        if kind == "wood":
            return PlacementError(Refusal(code), **params)
        if kind == "online":
            return OnlineError(Online(code), **params)
    except (ValueError, TypeError, RecursionError) as error:
        raise WireError(f"a refusal that is none: {kind} {code[:40]!r}: {error}") from None
    raise WireError(f"a refusal of no kind the game knows: {kind[:20]!r}")


def _json(value: Any) -> str:
    return json.dumps(value, default=str, separators=(",", ":"))


def _read_json(data: bytes | str, what: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise WireError(f"{what} is not JSON") from None


# --- the rules' state and its moves ---------------------------------------------------------------

def pack_state(state: rules.GameState) -> bytes:
    return zlib.compress(_json(rules.state_to_json(state)).encode(), 6)


def unpack_state(data: bytes) -> rules.GameState:
    try:
        return rules.state_from_json(_read_json(inflate(data, MAX_STATE), "a state"))
    except (rules.DocumentError, ValueError, TypeError, KeyError) as error:
        raise WireError(f"a state that does not read: {error}") from None


def pack_moves(moves) -> bytes:
    return zlib.compress(_json(rules.moves_to_json(moves)).encode(), 6)


def unpack_moves(data: bytes) -> tuple:
    try:
        return rules.moves_from_json(_read_json(inflate(data, MAX_STATE), "moves"))
    except (rules.DocumentError, ValueError, TypeError, KeyError) as error:
        raise WireError(f"moves that do not read: {error}") from None


# --- the room's table and plan --------------------------------------------------------------------

def pack_table(table: dict) -> bytes:
    return _json(table).encode()


def unpack_table(data: bytes) -> dict:
    table = _read_json(data, "a table")
    if not isinstance(table, dict):
        raise WireError("a table that is not one")
    return table


def pack_plan(setup: MatchSetup) -> bytes:
    """The game a room is to play (seats, rules, variants, layout), as a save's match writes it."""
    return _json(records.plan_to_json(setup)).encode()


def plan_json(setup: MatchSetup) -> dict:
    return records.plan_to_json(setup)


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


# --- a finished game's record, in parts -------------------------------------------------------------

def record_parts(record: records.Record) -> list[bytes]:
    """The game as its replay file holds it, zlib'd and cut into parts a message carries."""
    data = zlib.compress(records.dumps(record, "replay").encode(), 6)
    return [data[at:at + RECORD_PART] for at in range(0, len(data), RECORD_PART)]


def unpack_record(data: bytes) -> records.Record:
    """The record the server sent, read as any save is read (a `RecordError`, `ValueError` or `WireError` if it
    is not one)."""
    return records.from_document(_read_json(inflate(data, MAX_RECORD), "a record"))


# --- the villa's poses ------------------------------------------------------------------------------

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]


def poses_of(villa) -> dict[str, Pose]:
    """The poses of the villa's pieces that can move (not the base plate, nor the table)."""
    every = villa.poses()
    return {piece: every[piece] for piece in PIECES if piece in every}


def pack_poses(poses: dict[str, Pose]) -> bytes:
    return b"".join(_POSE.pack(_PIECE_INDEX[piece], *pos, *quat) for piece, (pos, quat) in sorted(poses.items()))


def unpack_poses(data: bytes) -> dict[str, Pose]:
    """Poses as sent; pieces no villa has, and numbers that are no pose, are left out."""
    poses = {}
    for offset in range(0, len(data) - len(data) % _POSE.size, _POSE.size):
        index, *numbers = _POSE.unpack_from(data, offset)
        if index < len(PIECES) and all(math.isfinite(n) and abs(n) < 1e4 for n in numbers):
            poses[PIECES[index]] = (tuple(numbers[:3]), tuple(numbers[3:]))
    return poses


# --- the hand as the screen shows it -----------------------------------------------------------------

@dataclass(frozen=True)
class HandNews:
    """The hand in play: its state's word ("" when nothing is in hand, or it was let go), the force the pulled
    column resists with (N; 0 unless a column is pulled), the floor held steady above it (or None), the columns a
    held floor touches and how far it leans (degrees)."""

    grip: str = ""
    strain: float = 0.0
    steadied: str | None = None
    touching: frozenset[str] = frozenset()
    tilt: float = 0.0


GRIPS = ("", "pulling", "carrying", "lowering", "held")    # a hand's state as sent (a Grip's or Laying's word)


def hand_news(hand) -> HandNews:
    """What the screens show of a match's hand (a `Pull`, a `FloorLay` or None). The strain counts only while a
    column is pulled, so a carried or held piece sends nothing as it hangs; what a floor touches, and its lean,
    only while it is held."""
    grip = str(getattr(hand, "state", ""))
    if grip not in GRIPS:
        return HandNews()
    if level_of_floor(getattr(hand, "piece", "")) is not None:
        held = grip == "held"
        return HandNews(grip, touching=hand.touching() if held else frozenset(),
                        tilt=round(hand.tilt_deg(), 2) if held else 0.0)
    pulling = grip == Grip.PULLING
    return HandNews(grip, round(hand.strain, 1) if pulling else 0.0, hand.steadied if pulling else None)


def pack_touching(columns: frozenset[str]) -> bytes:
    return bytes(sorted(_PIECE_INDEX[c] for c in columns if c in _PIECE_INDEX))


def unpack_touching(data: bytes) -> frozenset[str]:
    return frozenset(PIECES[i] for i in data if i < len(ALL_COLUMNS))


# --- the game's events that the log does not tell -----------------------------------------------------

def pack_event(event) -> bytes | None:
    """A match's event as the players hear it (None: one they work out from the moves themselves)."""
    if isinstance(event, ev.Refused) and isinstance(event.action, FACTS):
        kind, code, values = refusal_parts(event.error)
        body = {"event": "refused", "fact": rules.moves_to_json([event.action])[0], "refusal": [kind, code, values]}
    elif isinstance(event, ev.Collapsed):
        body = {"event": "collapsed", "collapse": rules.moves_to_json([event.collapse])[0]}
    elif isinstance(event, ev.RoundStarted):
        body = {"event": "round", "round": event.round}
    elif isinstance(event, ev.TurnSettled):
        body = {"event": "settled", "turn": event.record.turn, "actions": event.record.actions}
    elif isinstance(event, ev.Touched):
        body = {"event": "touched", "piece": event.piece}
    elif isinstance(event, ev.LetGo):
        body = {"event": "let go", "piece": event.piece}
    elif isinstance(event, ev.TimeUp):
        body = {"event": "time up", "player": event.player}
    else:
        return None
    return _json(body).encode()


def unpack_event(data: bytes):
    """The event again, as the match had it; a `WireError` for anything else."""
    body = _read_json(data, "an event")
    try:
        kind = body["event"]
        if kind == "refused":
            fact = rules.moves_from_json([body["fact"]])[0]
            return ev.Refused(fact, refusal_from(*(str(part) for part in body["refusal"])))
        if kind == "collapsed":
            return ev.Collapsed(rules.moves_from_json([body["collapse"]])[0])
        if kind == "round":
            return ev.RoundStarted(_whole(body["round"]))
        if kind == "settled":
            return ev.TurnSettled(records.TurnRecord(_whole(body["turn"]), _whole(body["actions"]), {}))
        if kind == "touched":
            return ev.Touched(_piece(body["piece"]))
        if kind == "let go":
            return ev.LetGo(_piece(body["piece"]))
        if kind == "time up":
            return ev.TimeUp(_seat(body["player"]))
    except (KeyError, TypeError, ValueError, rules.DocumentError) as error:
        raise WireError(f"an event that does not read: {error}") from None
    raise WireError(f"an event of no kind the game knows: {str(kind)[:20]!r}")


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2 ** 31:
        raise ValueError(f"not a count: {value!r}")
    return value


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ValueError(f"no such seat: {value!r}")
    return value


def _piece(value: Any) -> str:
    if value not in _PIECE_INDEX:
        raise ValueError(f"no such piece: {str(value)[:20]!r}")
    return value
