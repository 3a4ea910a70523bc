"""Rule sets as data: the publisher's rules, the house variants as toggles, the family edition.

A menu offers `RULE_SETS`; a rule set is a frozen record, so a game's rules are saved
with the game and can never change under it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from .pieces import TOP_FLOOR_LEVEL


class Edition(str, Enum):
    PUBLISHER = "publisher"  # Zoch 2001: colours, objections, the Master Builder Seal
    FAMILY = "family"        # the North-American family edition: modes, rounds, scores


class FamilyMode(str, Enum):
    """How the family edition decides which colour a player must move."""

    FREESTYLE = "freestyle"  # any colour
    RANDOM = "random"        # roll the seal every turn; an end face means free choice
    ASSIGNED = "assigned"    # each player keeps one colour for the whole game


class Scoring(str, Enum):
    BASIC = "basic"            # toppling the villa costs a point; fewest points wins
    TOURNAMENT = "tournament"  # points for columns moved once the green floor is on; most wins


ORANGE_LEVEL = 4


@dataclass(frozen=True)
class RuleSet:
    name: str = "publisher"
    edition: Edition = Edition.PUBLISHER
    # A new floor must rest on at least this many columns ...
    min_floor_support: int = 3
    # ... except from the orange floor on, when the house variant lowers it.
    orange_min_support: int | None = None
    # House variant: a floor must lie wholly within the base plate (English 000's reading).
    floors_inside_base: bool = False
    # House variant: after laying a floor, the proposer also moves one column up.
    proposer_moves_column: bool = False
    # House variant (the later English edition 001): every player rolls the seal for a colour.
    everyone_rolls: bool = False
    # Family edition only.
    mode: FamilyMode | None = None
    scoring: Scoring | None = None
    rounds: int = 1

    def __post_init__(self) -> None:
        if self.edition is Edition.FAMILY and (self.mode is None or self.scoring is None):
            raise ValueError("the family edition needs a mode and a scoring")
        if self.rounds < 1:
            raise ValueError("a game has at least one round")
        if self.everyone_rolls and self.edition is not Edition.PUBLISHER:
            raise ValueError("everyone rolls for a colour only under the publisher's rules")

    @property
    def family(self) -> bool:
        return self.edition is Edition.FAMILY

    @property
    def abort_allowed(self) -> bool:
        # Only the publisher's rules know the aborted build; the family edition does not.
        return self.edition is Edition.PUBLISHER

    def min_support(self, level: int) -> int:
        """How many columns must carry the floor that forms `level`."""
        if self.orange_min_support is not None and level >= ORANGE_LEVEL:
            return self.orange_min_support
        return self.min_floor_support

    @property
    def summary(self) -> str:
        """One line for a menu."""
        if self.family:
            return (f"Family edition: {self.mode.value} colours, {self.scoring.value} scoring, "
                    f"{self.rounds} rounds")
        parts = ["Publisher's rules"]
        if self.orange_min_support is not None:
            parts.append(f"{self.orange_min_support} columns carry a floor from orange on")
        if self.floors_inside_base:
            parts.append("floors may not overhang the base plate")
        if self.proposer_moves_column:
            parts.append("the proposer also moves a column")
        if self.everyone_rolls:
            parts.append("everyone rolls the seal for a colour")
        return "; ".join(parts)

    def with_variants(self, *, two_supports_from_orange: bool = False, floors_inside_base: bool = False,
                      proposer_moves_column: bool = False, everyone_rolls: bool = False) -> "RuleSet":
        """This rule set with house variants switched on (name records which)."""
        parts = [self.name]
        changes: dict = {}
        if two_supports_from_orange:
            parts.append("two-supports-from-orange")
            changes["orange_min_support"] = 2
        if floors_inside_base:
            parts.append("floors-inside-base")
            changes["floors_inside_base"] = True
        if proposer_moves_column:
            parts.append("proposer-moves-column")
            changes["proposer_moves_column"] = True
        if everyone_rolls:
            parts.append("everyone-rolls")
            changes["everyone_rolls"] = True
        return replace(self, name="+".join(parts), **changes)


PUBLISHER = RuleSet()


def family(mode: FamilyMode, scoring: Scoring, rounds: int = 3) -> RuleSet:
    """The family edition with a mode, a scoring and the number of rounds agreed in advance."""
    return RuleSet(name=f"family-{mode.value}-{scoring.value}", edition=Edition.FAMILY,
                   min_floor_support=1, mode=mode, scoring=scoring, rounds=rounds)


RULE_SETS: dict[str, RuleSet] = {
    rs.name: rs
    for rs in (
        PUBLISHER,
        PUBLISHER.with_variants(two_supports_from_orange=True),
        PUBLISHER.with_variants(floors_inside_base=True),
        PUBLISHER.with_variants(proposer_moves_column=True),
        PUBLISHER.with_variants(everyone_rolls=True),
        PUBLISHER.with_variants(two_supports_from_orange=True, floors_inside_base=True,
                                proposer_moves_column=True),
        *(family(m, s) for m in FamilyMode for s in Scoring),
    )
}
assert all(1 <= rs.min_support(TOP_FLOOR_LEVEL) for rs in RULE_SETS.values())
