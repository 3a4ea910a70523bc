"""The state of a game: frozen records, changed only by `engine.apply`.

Where the columns are: every column id maps to the level it stands on, or None while it
is in hand (`turn.column`) or out of the game (`out`). Nothing else exists, so all twenty
columns are always accounted for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .pieces import ALL_COLUMNS, COLUMNS_BY_ID, Colour, TOP_FLOOR_LEVEL
from .rulesets import RuleSet


class Step(str, Enum):
    """Where in the game we are; `Turn.actor` is who must act."""

    COLOUR_ROLL = "colour roll"      # chance: the youngest player rolls the seal for a colour
    COLOUR_CHOICE = "colour choice"  # the actor chooses a colour
    FAMILY_ROLL = "family roll"      # chance: family random mode, the seal decides the colour
    START = "start"                  # start of a turn: build, propose a floor, or pass
    TAKE = "take"                    # the actor must take a column for `turn.role`
    IN_HAND = "in hand"              # a column is out; await its placement (or an abort)
    ASK = "ask"                      # the actor is asked whether they object / challenge
    TAKE_OUT = "take out"            # the proposer pulls one of the objector's columns out
    LAY_FLOOR = "lay floor"          # the proposer lays the next floor (or gives it up)
    OVER = "over"                    # the game has ended: see `GameState.result`


class Role(str, Enum):
    """What the column taken, or the question asked, is for."""

    BUILD = "build"                        # the turn's own build (3 players: maybe the neutral one)
    OWN = "own"                            # the own-column move after the neutral one, or after a floor
    PROOF = "proof"                        # the objector moves one of the proposer's columns
    CHALLENGE = "challenge"                # 3 players: another neutral column could have been moved
    FAMILY_CHALLENGE = "family challenge"  # family tournament: a column could still be moved


@dataclass(frozen=True)
class Turn:
    player: int                     # whose turn it is
    step: Step
    actor: int                      # who must act now (the player, an asked player, the objector ...)
    role: Role = Role.BUILD
    column: str | None = None       # the column in hand
    origin: int | None = None       # the level it came from (an abort puts it back there)
    objector: int | None = None
    challenger: int | None = None
    neutral_done: bool = False      # 3 players: the neutral column is up (or was attempted)
    colours: tuple[Colour, ...] | None = None  # family: the colours allowed this turn (None = not rolled)


@dataclass(frozen=True)
class Seal:
    """The Master Builder Seal: who holds it, whose colour it shows (the previous holder), and
    on which floor level it was last claimed."""

    holder: int | None = None
    shows: int | None = None
    level: int | None = None


@dataclass(frozen=True)
class Result:
    """How the game ended."""

    winner: int | None              # a player index, or None: no Master Builder / a tie
    reason: str                     # in words
    collapsed_by: int | None = None
    ending: str = "collapse"        # "collapse", "no more building" or "rounds played"
    tied: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameSetup:
    """What a game starts from: rules, players in clockwise seat order, the blue floor's supports.

    Seat 0 is the youngest player (who rolls the seal for a colour).
    """

    ruleset: RuleSet
    players: tuple[str, ...]
    blue_floor_supports: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:
            raise ValueError("Villa Paletti is played by 2, 3 or 4 players")
        unknown = set(self.blue_floor_supports) - set(COLUMNS_BY_ID)
        if unknown:
            raise ValueError(f"unknown columns under the blue floor: {sorted(unknown)}")


def initial_levels() -> dict[str, int | None]:
    return {c.id: 0 for c in ALL_COLUMNS}


@dataclass(frozen=True)
class GameState:
    setup: GameSetup
    turn: Turn
    colours: tuple[tuple[Colour, ...], ...]         # per player; empty until chosen
    neutral: Colour | None = None                   # 3 players: the fourth colour
    levels: dict[str, int | None] = field(default_factory=initial_levels)
    out: frozenset[str] = frozenset()               # out of the game
    blocked: frozenset[str] = frozenset()           # aborted: may not be chosen again
    top_level: int = 1                              # the blue floor is on at the start
    floor_supports: dict[int, frozenset[str]] = field(default_factory=dict)
    seal: Seal = Seal()
    quiet_turns: int = 0                            # turns in a row in which the villa did not change
    round: int = 1                                  # family edition
    scores: tuple[int, ...] = ()                    # family edition, per player
    result: Result | None = None
    log: tuple[Any, ...] = ()                       # every accepted action, in order

    # --- queries -------------------------------------------------------------

    @property
    def ruleset(self) -> RuleSet:
        return self.setup.ruleset

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def n(self) -> int:
        return len(self.setup.players)

    @property
    def over(self) -> bool:
        return self.turn.step is Step.OVER

    def columns_on(self, level: int) -> frozenset[str]:
        return frozenset(c for c, lv in self.levels.items() if lv == level)

    def in_villa(self, column_id: str) -> bool:
        return self.levels[column_id] is not None

    def points(self, player: int) -> int:
        """Points on the current top level: the player's own columns standing there."""
        own = self.colours[player] if player < len(self.colours) else ()
        return sum(COLUMNS_BY_ID[c].points for c in self.columns_on(self.top_level)
                   if COLUMNS_BY_ID[c].colour in own)

    def floors_left(self) -> int:
        return TOP_FLOOR_LEVEL - self.top_level

    def colour_name(self, player: int | None) -> str:
        if player is None:
            return "nobody"
        colours = self.colours[player] if player < len(self.colours) else ()
        if not colours:
            return self.players[player]
        return f"{self.players[player]} ({'/'.join(c.value for c in colours)})"
