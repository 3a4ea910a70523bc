"""Every message that crosses the wire, as a small frozen value; the catalogue gives each its number.

A player's requests in the game are the match's own values (`villa.match.requests`): the wire carries
them as they are, so the game has one set of commands whatever carries them. The rest is the door's
(hello, ping, goodbye), the lobby's and the room's (open, enter, sit, rejoin, the host's choices), and the
news the server sends of a room (its table, the rules' state, the villa's poses, the hand, the game's
events, the finished game's record).

Every field has the bounds a message from outside is held to (`Bounds`): a message that breaks them is
refused whole by the codec (`villa.online.wire.codec`), before anything reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from villa import __version__
from villa.match.requests import REQUESTS, Bounds, SeatNumber, Word
from villa.match.setup import Strength

PROTOCOL = 3                 # the wire's own version: a client and server of other versions do not talk
GAME = __version__           # and the game's: both must play the same game

Code = Annotated[str, Bounds(0, 16)]              # a room code as typed (checked by the server, not here)
Name = Annotated[str, Bounds(0, 96)]              # a name as typed (cleaned by the server)
Token = Annotated[str, Bounds(0, 64)]
Text = Annotated[str, Bounds(0, 1024)]            # a refusal's values (JSON)
Plan = Annotated[bytes, Bounds(0, 4096)]          # a room's game (JSON of `villa.match.record.plan_to_json`)
Blob = Annotated[bytes, Bounds(0, 60000)]         # the rules' state, the poses, a part of a record
Address = Annotated[str, Bounds(0, 330)]          # host:port, and #fingerprint (its certificate's) with TLS
Tick = Annotated[int, Bounds(0, 2**32 - 1)]
Count = Annotated[int, Bounds(0, 2**32 - 1)]
Holder = Annotated[int, Bounds(-1, 3)]            # a seat whose hand holds a piece (-1: none, or a computer's)


# --- the door: both ways --------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """A client's first message, within `HELLO_S` of connecting: the wire's and the game's versions."""

    protocol: Annotated[int, Bounds(0, 2**16 - 1)]
    game: Word


@dataclass(frozen=True)
class Welcome:
    """The server's answer to a hello it accepts."""

    protocol: Annotated[int, Bounds(0, 2**16 - 1)]
    game: Word


@dataclass(frozen=True)
class Ping:
    """Still here (either way): a connection silent for too long is closed."""


@dataclass(frozen=True)
class Goodbye:
    """The server closes this connection, and says why (`code`: an `Online` refusal's code)."""

    code: Word
    values: Text


# --- the lobby and the room: a client asks -----------------------------------------------------------

@dataclass(frozen=True)
class OpenRoom:
    """Open a room for this game; the server answers `Opened` with its code (the opener enters it)."""

    plan: Plan


@dataclass(frozen=True)
class Enter:
    """Enter the room with this code: the server answers `Entered`, or refuses (a wrong code costs a try)."""

    code: Code


@dataclass(frozen=True)
class Sit:
    """Sit down at a seat of the room entered, by this name."""

    name: Name
    seat: SeatNumber


@dataclass(frozen=True)
class Rejoin:
    """Take a seat back with the token it was left with (the room's code enters the room too)."""

    code: Code
    token: Token


@dataclass(frozen=True)
class SetPlan:
    """The host, before the game: seats, rules, variants, layout."""

    plan: Plan


@dataclass(frozen=True)
class Begin:
    """The host: start the game, every person's seat sat or given to a computer."""


@dataclass(frozen=True)
class GiveToComputer:
    """The host: a seat nobody is at, or whose player stalls, to a computer player."""

    seat: SeatNumber
    strength: Strength


@dataclass(frozen=True)
class SendAway:
    """The host, before the game: a player out of their seat (and out of the room)."""

    seat: SeatNumber


@dataclass(frozen=True)
class SetClock:
    """The host, before the game: the turn clock, seconds a move (0: none)."""

    seconds: Annotated[int, Bounds(0, 3600)]


@dataclass(frozen=True)
class Leave:
    """The player leaves the room (their seat waits for their token, as after a lost connection)."""


# --- the server tells --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Refused:
    """A request refused: `kind` whose code it is (rules, wood, online), `values` what its words need (JSON)."""

    kind: Word
    code: Annotated[str, Bounds(0, 64)]
    values: Text


@dataclass(frozen=True)
class Opened:
    """The room this client asked for is open: its code (to pass on to friends)."""

    code: Code


@dataclass(frozen=True)
class Entered:
    """This client is in the room: what the room is follows (`Table`, `State`, `Villa`, `Hand`)."""

    code: Code


@dataclass(frozen=True)
class Redirect:
    """The room is played by another server: ask there (`address`: host:port#fingerprint with TLS, the certificate
    the player holds that server to)."""

    address: Address
    code: Code


@dataclass(frozen=True)
class Seated:
    """This client sits at `seat`; `token` takes the seat back after a lost connection."""

    seat: SeatNumber
    token: Token


@dataclass(frozen=True)
class Table:
    """Who sits where, the host, the plan, the clock (JSON)."""

    table: Annotated[bytes, Bounds(0, 8192)]


@dataclass(frozen=True)
class State:
    """The rules' state (JSON, zlib'd), whole: on entering, and when what was heard of it is not enough."""

    state: Blob


@dataclass(frozen=True)
class Moves:
    """The referee's new log entries from `at` on (JSON, zlib'd): every player applies them to the state it has."""

    at: Count
    moves: Blob


@dataclass(frozen=True)
class Villa:
    """Every piece's pose: on entering, at the start, and each villa built anew."""

    tick: Tick
    poses: Blob


@dataclass(frozen=True)
class Poses:
    """The pieces that moved since the last poses; `holder` the seat whose hand holds a piece and `done` how many
    of its connection's requests the room has carried out (its own piece's echo)."""

    tick: Tick
    holder: Holder
    done: Count
    poses: Blob


@dataclass(frozen=True)
class Hand:
    """The hand as the screen shows it, sent when it changes."""

    tick: Tick
    holder: Holder
    done: Count
    grip: Word
    strain: Annotated[float, Bounds(0, 1e6, finite=True)]
    steadied: Annotated[int, Bounds(0, 8)]
    touching: Annotated[bytes, Bounds(0, 512)]
    tilt: Annotated[float, Bounds(0, 180, finite=True)]


@dataclass(frozen=True)
class Event:
    """One of the game's events that the rules' log does not tell (a fact refused, a fall, a round begun, a turn
    settled, a piece touching down or let go), in the order the server's game had them (JSON)."""

    event: Annotated[bytes, Bounds(0, 8192)]


@dataclass(frozen=True)
class Record:
    """Part of the finished game, as its replay holds it (zlib'd)."""

    part: Annotated[int, Bounds(0, 255)]
    parts: Annotated[int, Bounds(1, 255)]
    data: Blob


@dataclass(frozen=True)
class Servers:
    """The servers of the fleet this room's server plays in (host:port each, with #fingerprint under TLS; JSON):
    where a window looks for its room when its server is gone."""

    addresses: Text


@dataclass(frozen=True)
class Paused:
    """The room's server lost touch with the rest of its fleet `seconds` ago: the game waits until it is back (or
    the room is sent on to the server that holds it); 0 seconds with `paused` false: the game goes on."""

    paused: bool
    seconds: Annotated[int, Bounds(0, 2**31 - 1)]


@dataclass(frozen=True)
class GiveUpSeat:
    """The player leaves the room and gives up their seats for good: everyone is told, and the host may give them
    to computer players (no token takes them back)."""


DOOR = (Hello, Welcome, Ping, Goodbye)
ASKED = (OpenRoom, Enter, Sit, Rejoin, SetPlan, Begin, GiveToComputer, SendAway, SetClock, Leave)
TOLD = (Refused, Opened, Entered, Redirect, Seated, Table, State, Moves, Villa, Poses, Hand, Event, Record)
# the catalogue's order is the wire's numbering: add new kinds at the end
KINDS: tuple[type, ...] = (*DOOR, *ASKED, *TOLD, *REQUESTS, Servers, Paused, GiveUpSeat)
FROM_CLIENTS: frozenset[type] = frozenset({Hello, Ping, *ASKED, *REQUESTS, GiveUpSeat})
