"""The state of a game: frozen records, changed only by `engine.apply`.

Where the columns are: every column id maps to the level it stands on, or None while it
is in hand (`turn.column`) or out of the game (`out`). Nothing else exists, so all twenty
columns are always accounted for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .frozen import FrozenMap
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


class Ending(str, Enum):
    """How a game came to its end."""

    COLLAPSE = "collapse"                  # the villa fell
    NO_MORE_BUILDING = "no more building"  # nobody could build any further
    ROUNDS_PLAYED = "rounds played"        # family edition: the last round is over


@dataclass(frozen=True)
class Result:
    """How the game ended."""

    winner: int | None              # a player index, or None: no Master Builder / a tie
    reason: str                     # in words (English, for logs): `rules.end_reasons` gives the codes
    collapsed_by: int | None = None
    ending: Ending = Ending.COLLAPSE
    tied: tuple[int, ...] = ()

    @property
    def fell(self) -> bool:
        """Did the villa fall at the end (a family game's last round may end so too)?"""
        return self.collapsed_by is not None

    def __post_init__(self) -> None:
        object.__setattr__(self, "ending", Ending(self.ending))   # "collapse" given as text is the same ending


@dataclass(frozen=True)
class GameSetup:
    """What a game starts from: rules, players in clockwise seat order, the blue floor's supports.

    Seat 0 is the youngest player (who rolls the seal for a colour).
    """

    ruleset: RuleSet
    players: tuple[str, ...]
    blue_floor_supports: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "blue_floor_supports", frozenset(self.blue_floor_supports))
        if not all(isinstance(p, str) for p in self.players):
            raise ValueError("players are named by text")
        if not 2 <= len(self.players) <= 4:
            raise ValueError("Villa Paletti is played by 2, 3 or 4 players")
        unknown = set(self.blue_floor_supports) - set(COLUMNS_BY_ID)
        if unknown:
            raise ValueError(f"unknown columns under the blue floor: {sorted(unknown)}")


def initial_levels() -> FrozenMap[str, int | None]:
    return FrozenMap({c.id: 0 for c in ALL_COLUMNS})


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one moment, read-only all the way down: mappings are
    `FrozenMap`s and sequences tuples (whatever is given is frozen on the way in)."""

    setup: GameSetup
    turn: Turn
    colours: tuple[tuple[Colour, ...], ...]         # per player; empty until chosen
    neutral: Colour | None = None                   # 3 players: the fourth colour
    levels: Mapping[str, int | None] = field(default_factory=initial_levels)
    out: frozenset[str] = frozenset()               # out of the game
    blocked: frozenset[str] = frozenset()           # aborted: may not be chosen again
    top_level: int = 1                              # the blue floor is on at the start
    # Each laid floor's level -> the columns it was laid on (its supports now: `floor_supports`).
    floors_laid_on: Mapping[int, frozenset[str]] = field(default_factory=FrozenMap)
    seal: Seal = Seal()
    quiet_turns: int = 0                            # turns in a row in which the villa did not change
    round: int = 1                                  # family edition
    scores: tuple[int, ...] = ()                    # family edition, per player
    result: Result | None = None
    log: tuple[Any, ...] = ()                       # every accepted action, in order

    def __post_init__(self) -> None:
        freeze = object.__setattr__  # the record is frozen: its fields are set once, here
        if type(self.levels) is not FrozenMap:
            freeze(self, "levels", FrozenMap(self.levels))
        if type(self.floors_laid_on) is not FrozenMap:
            freeze(self, "floors_laid_on", FrozenMap({lv: frozenset(cs) for lv, cs in self.floors_laid_on.items()}))
        for name in ("out", "blocked"):
            if type(getattr(self, name)) is not frozenset:
                freeze(self, name, frozenset(getattr(self, name)))
        if type(self.colours) is not tuple or any(type(cs) is not tuple for cs in self.colours):
            freeze(self, "colours", tuple(tuple(cs) for cs in self.colours))
        for name in ("scores", "log"):
            if type(getattr(self, name)) is not tuple:
                freeze(self, name, tuple(getattr(self, name)))

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

    @property
    def floor_supports(self) -> FrozenMap[int, frozenset[str]]:
        """Each laid floor's level -> the columns carrying it now: those it was laid on that
        still stand on the level below (a column moved up or out carries it no more)."""
        return FrozenMap({lv: frozenset(c for c in laid if self.levels.get(c) == lv - 1)
                          for lv, laid in self.floors_laid_on.items()})

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
