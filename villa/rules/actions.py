"""Actions: everything that can change a game, as small frozen records.

Four kinds reach `engine.apply`:
- setup actions, taken before play by whoever starts the game (a seeded deal of colours, a
  villa set up higher),
- player actions (a choice made by the player whose move it is, or by the player asked),
- chance actions (a roll of the Master Builder Seal with its result written down, so a
  game replays exactly),
- facts from the physics layer (`villa.rules.facts`): what the wooden villa did.
No action names its player: the state knows whose move it is (`whose_move`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Union

from .facts import Collapse, ColumnPlaced, ColumnTakenOut, FloorLaid
from .pieces import Colour


# --- setup -----------------------------------------------------------------

@dataclass(frozen=True)
class SealRoll:
    """Chance: the seal was rolled and shows `colour`; None is an end face (family: free choice)."""

    colour: Colour | None


@dataclass(frozen=True)
class ChooseColour:
    colour: Colour


@dataclass(frozen=True)
class AssignColoursAtRandom:
    """Skip the roll and the choices: colours dealt by a seeded shuffle (same seed, same deal)."""

    seed: int


@dataclass(frozen=True)
class SetUpHigher:
    """Start from a villa already built higher (a picture of later play), before the first move.

    `levels`: (column id, level) for every column in the villa; the columns left out are out
    of the game. `floor_supports`: (floor level, the ids of the columns it rests on) for every
    floor, 1 up to the top. Build one from mappings with `SetUpHigher.of`.
    """

    levels: tuple[tuple[str, int], ...]
    floor_supports: tuple[tuple[int, tuple[str, ...]], ...]

    @classmethod
    def of(cls, levels: Mapping[str, int | None], floor_supports: Mapping[int, Iterable[str]]) -> "SetUpHigher":
        """From {column: level} (None: out of the game) and {floor level: columns under it}."""
        return cls(tuple(sorted((c, lv) for c, lv in levels.items() if lv is not None)),
                   tuple((lv, tuple(sorted(cs))) for lv, cs in sorted(floor_supports.items())))


# --- a turn ----------------------------------------------------------------

@dataclass(frozen=True)
class TakeColumn:
    """The column is chosen and touched (regulation 6): from now on it is the only one."""

    column: str


@dataclass(frozen=True)
class Abort:
    """Give up the build under way: the column goes back and is blocked for the rest of the game."""


@dataclass(frozen=True)
class ProposeFloor:
    """At the start of a turn: claim no column can be moved up, and ask to lay the next floor."""


@dataclass(frozen=True)
class Object:
    """The asked player objects to a floor proposal (or, family tournament, challenges the claim)."""


@dataclass(frozen=True)
class Challenge:
    """Three players: the asked player claims another neutral column could have been moved."""


@dataclass(frozen=True)
class Decline:
    """The asked player neither objects nor challenges."""


@dataclass(frozen=True)
class ForgoPenalty:
    """After a failed objection: the proposer does not pull out one of the objector's columns
    (a right, not a duty: 004 "darf ... entfernen") and goes on to lay the floor."""


@dataclass(frozen=True)
class GiveUpFloor:
    """The proposer cannot lay the floor on enough columns and gives it up."""


@dataclass(frozen=True)
class Pass:
    """Nothing can be built and no floor proposed: the turn passes."""


SetupAction = Union[AssignColoursAtRandom, SetUpHigher]
PlayerAction = Union[ChooseColour, TakeColumn, Abort, ProposeFloor, Object,
                     Challenge, Decline, ForgoPenalty, GiveUpFloor, Pass]
ChanceAction = SealRoll
PhysicsFact = Union[ColumnPlaced, FloorLaid, ColumnTakenOut, Collapse]
Action = Union[SetupAction, PlayerAction, ChanceAction, PhysicsFact]

ACTION_TYPES: dict[str, type] = {
    t.__name__: t
    for t in (SealRoll, ChooseColour, AssignColoursAtRandom, SetUpHigher, TakeColumn, Abort, ProposeFloor, Object,
              Challenge, Decline, ForgoPenalty, GiveUpFloor, Pass)
}
FACT_TYPES: tuple[type, ...] = (ColumnPlaced, FloorLaid, ColumnTakenOut, Collapse)
