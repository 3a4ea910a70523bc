"""The face of a game in play: what a screen reads of it and how it asks it for anything.

Two games in play have this face: `villa.match.table.Match`, the game itself (at one table, headless, or
the server's), and online a player's view of the server's game (`villa.online.client.play.OnlineMatch`),
which sends the same requests over the wire and hears the same events. A screen is written once against
this face, and plays the same whatever carries the game.

The villa has a face (`VillaInPlay`: `villa.physics.world.Villa` at the table, online the villa as the window draws
it), and so has the piece in hand: a column in hand (`ColumnInHand`: `villa.physics.pulling.Pull` at the table, the
client's view of the server's hand online) or a floor (`FloorInHand`: `villa.physics.laying.FloorLay`). What a screen
reads of the villa and of the piece in hand is their members and the `MEASURES` taken of them, no more
(`tests/conformance/test_screen_reads.py` reads `villa/presentation` to hold it to that, and the conformance suite
compares every one of them on the hot seat and online).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from villa import rules
from villa.match.events import Events
from villa.match.requests import Reply, Request
from villa.match.setup import MatchSetup, Seat
from villa.physics import laying, loads
from villa.rules.pieces import level_of_floor

if TYPE_CHECKING:
    from panda3d.core import NodePath, Point3, Vec3
    from villa.physics.pieces import Pose


class VillaInPlay(Protocol):
    """The villa as a screen reads it: where each piece is (its node), which one a pointer's ray meets first, its
    time and whether it lies still."""

    nodes: Mapping[str, NodePath]   # every piece's node (the table and the base plate too), where it is drawn
    columns: list[str]              # the columns in the villa
    in_hand: set[str]               # the piece in anyone's hands (online: as the server's hands hold it)
    time: float                     # s: the villa's simulated time, as it goes on (a fall is followed by it)
    settled: bool                   # everything not in hand lies still

    def poses(self) -> dict[str, Pose]: ...
    def pick(self, origin: Point3, direction: Vec3) -> tuple[str, Point3] | None: ...


class ColumnInHand(Protocol):
    """A column the hand holds: pulled out from under its floor, carried over the top floor, set down."""

    column: str
    state: str                  # a `villa.physics.pulling.Grip`
    steadied: str | None        # the floor held steady above it while it is pulled
    grab_z: float               # the height at which it was taken hold of (the pull's plane)
    strain: float               # N: the force it resists the hand with while pulled
    taken_up: bool              # taken up where another's hands held it (online: a window back in the middle of a move)

    def is_free(self) -> bool: ...
    def carry_z(self) -> float: ...
    def surface_below(self) -> tuple[int, str | None, float] | None: ...


class FloorInHand(Protocol):
    """The next floor in the builder's hands: carried over the top columns, lowered, held, let go."""

    piece: str
    level: int
    state: str                  # a `villa.physics.laying.Laying`
    x: float
    y: float
    yaw: float
    rest_z: float               # the height of the column tops it is carried over
    taken_up: bool              # taken up where another's hands held it (online: a window back in the middle of a move)

    def columns_under(self) -> frozenset[str]: ...
    def touching(self) -> frozenset[str]: ...
    def tilt_deg(self) -> float: ...


def is_floor(hand) -> bool:
    """Is the piece in hand a floor (else a column, or nothing)?"""
    return hand is not None and level_of_floor(getattr(hand, "piece", "")) is not None


# taken of the villa or the piece in hand by a screen: which piece is in hand, the statics the builder's eye draws,
# and what a floor in another's hands would rest on and how high
MEASURES = (is_floor, loads.resting, laying.columns_under, laying.rest_height)


@runtime_checkable
class GameInPlay(Protocol):
    """A game in play, as a screen, a computer player or a test sees it."""

    setup: MatchSetup
    state: rules.GameState
    events: Events
    hand: ColumnInHand | FloorInHand | None

    @property
    def villa(self) -> VillaInPlay: ...

    @property
    def over(self) -> bool: ...

    @property
    def actor(self) -> int | None: ...

    @property
    def turn(self) -> int: ...

    @property
    def collapsed(self) -> bool: ...

    @property
    def busy(self) -> bool: ...

    @property
    def holding(self) -> bool: ...

    @property
    def strain(self) -> float: ...

    def seat(self, player: int | None) -> Seat | None: ...
    def away(self, player: int) -> bool: ...
    def next_roll(self) -> rules.SealRoll | None: ...
    def can_lay_floor(self) -> bool: ...
    def landing_refusal(self) -> Exception | None: ...
    def request(self, request: Request) -> Reply: ...
    def advance(self, seconds: float) -> int: ...
    def close(self) -> None: ...
