"""Facts: what the physics layer observed, as plain data the referee judges.

The rules engine never simulates. The physics layer (`villa.physics`) watches the
wooden villa and reports what happened in exactly these records; the rules engine
reads them and gives its verdict. Every fact is a small frozen record that
round-trips through plain JSON (`fact_to_json` / `fact_from_json`).

Conventions shared by both layers:
- Columns are named by id (`villa.rules.pieces.Column.id`, e.g. "red-thin-2").
- Levels count from the ground: 0 is the base plate, 1 the blue floor ... 5 the red floor.
- A floor is named by the level it forms (1..5).
- Times are simulated seconds since the villa was built (physics clock, not wall clock).
- A fact about a placement or a floor is reported only once the villa has settled
  (every piece at rest), so a slow collapse is never blamed on the next player.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Union


@dataclass(frozen=True)
class ColumnPlaced:
    """A column has been set down and the villa has settled.

    `level`: the surface it rests on (for a build this should be the top level).
    `footprint_inside`: its whole foot lies on that floor, none overhanging its edge
    (building regulation 3).
    `on_column`: the id of the column it stands on, if it stands on another column
    rather than on the floor (regulation 8; allowed only on the red floor), else None.
    """

    column: str
    level: int
    footprint_inside: bool
    on_column: str | None = None


@dataclass(frozen=True)
class FloorLaid:
    """A floor has been laid on the top columns and the villa has settled.

    `level`: the level this floor forms (1..5; the rules demand the next in order).
    `resting_on`: ids of the columns whose tops carry it (touch its underside).
    `inside_base`: seen from above, its outline lies wholly within the base plate
    (matters only for the house variant "floors may not overhang the base plate").
    """

    level: int
    resting_on: frozenset[str]
    inside_base: bool = True


@dataclass(frozen=True)
class ColumnTakenOut:
    """A column was pulled out of the villa altogether and the villa has settled.

    Used when an objection fails: the proposer pulls one of the objector's columns
    out of the game.
    """

    column: str


class CollapseCause(str, Enum):
    FLOOR_TILTED = "floor tilted"          # a floor tilted beyond the threshold
    FLOOR_DROPPED = "floor dropped"        # a floor dropped below where it stood
    COLUMN_TOPPLED = "column toppled"      # a standing column fell over
    PIECE_ON_TABLE = "piece on table"      # a piece (other than the one in hand) reached the table


@dataclass(frozen=True)
class Collapse:
    """The villa collapsed at simulated time `at_s`; `piece` gave way first.

    The physics layer reports the moment; the rules engine knows whose action was
    under way then, and so who brought the villa down.
    `piece`: a column id, or "floor-<level>" for a floor.
    """

    at_s: float
    cause: CollapseCause
    piece: str


@dataclass(frozen=True)
class VillaSurvey:
    """Where everything stands once the villa has settled.

    `column_levels`: every column id to the level it stands on, or None when it is not
    in the villa (in hand, or out of the game).
    `floor_supports`: every laid floor's level to the ids of the columns carrying it.
    `top_level`: the highest laid floor (0 only before the blue floor is on).
    """

    column_levels: dict[str, int | None]
    floor_supports: dict[int, frozenset[str]] = field(default_factory=dict)
    top_level: int = 0

    def columns_on(self, level: int) -> frozenset[str]:
        return frozenset(c for c, lv in self.column_levels.items() if lv == level)


Fact = Union[ColumnPlaced, FloorLaid, ColumnTakenOut, Collapse, VillaSurvey]
_FACT_TYPES: dict[str, type] = {t.__name__: t for t in (ColumnPlaced, FloorLaid, ColumnTakenOut, Collapse, VillaSurvey)}


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def fact_to_json(fact: Fact) -> dict[str, Any]:
    """A plain JSON-ready dict: {"fact": type name, ...fields}."""
    return {"fact": type(fact).__name__, **_plain(asdict(fact))}


def fact_from_json(data: dict[str, Any]) -> Fact:
    """Inverse of `fact_to_json`; raises ValueError on anything malformed."""
    try:
        data = dict(data)
        kind = _FACT_TYPES[data.pop("fact")]
        if kind is ColumnPlaced:
            return ColumnPlaced(str(data["column"]), int(data["level"]), bool(data["footprint_inside"]),
                                None if data.get("on_column") is None else str(data["on_column"]))
        if kind is FloorLaid:
            return FloorLaid(int(data["level"]), frozenset(map(str, data["resting_on"])),
                             bool(data.get("inside_base", True)))
        if kind is ColumnTakenOut:
            return ColumnTakenOut(str(data["column"]))
        if kind is Collapse:
            return Collapse(float(data["at_s"]), CollapseCause(data["cause"]), str(data["piece"]))
        return VillaSurvey(
            {str(c): None if lv is None else int(lv) for c, lv in data["column_levels"].items()},
            {int(lv): frozenset(map(str, cs)) for lv, cs in data.get("floor_supports", {}).items()},
            int(data.get("top_level", 0)),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValueError(f"not a valid fact record: {error}") from error
