"""The face of a game in play: what a screen reads of it and how it asks it for anything.

Two games in play have this face: `villa.match.table.Match`, the game itself (at one table, headless, or
the server's), and online a player's view of the server's game (`villa.online.client.play.OnlineMatch`),
which sends the same requests over the wire and hears the same events. A screen is written once against
this face, and plays the same whatever carries the game.

The piece in hand has a face too: a column in hand (`ColumnInHand`: `villa.physics.pulling.Pull` at the
table, the client's view of the server's hand online) or a floor (`FloorInHand`: `villa.physics.laying.FloorLay`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from villa import rules
from villa.match.events import Events
from villa.match.requests import Reply, Request
from villa.match.setup import MatchSetup, Seat
from villa.rules.pieces import level_of_floor


class ColumnInHand(Protocol):
    """A column the hand holds: pulled out from under its floor, carried over the top floor, set down."""

    column: str
    state: str                  # a `villa.physics.pulling.Grip`
    steadied: str | None        # the floor held steady above it while it is pulled
    grab_z: float               # the height at which it was taken hold of (the pull's plane)
    strain: float               # N: the force it resists the hand with while pulled

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

    def columns_under(self) -> frozenset[str]: ...
    def touching(self) -> frozenset[str]: ...
    def tilt_deg(self) -> float: ...


def is_floor(hand) -> bool:
    """Is the piece in hand a floor (else a column, or nothing)?"""
    return hand is not None and level_of_floor(getattr(hand, "piece", "")) is not None


@runtime_checkable
class GameInPlay(Protocol):
    """A game in play, as a screen, a computer player or a test sees it."""

    setup: MatchSetup
    state: rules.GameState
    events: Events
    hand: ColumnInHand | FloorInHand | None

    @property
    def villa(self): ...        # `villa.physics.world.Villa`: its pieces' poses, picking, the hints' measures

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
