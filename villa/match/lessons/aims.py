"""A lesson's aim and its mistakes, as tests on the match's events: what the referee accepted, the villa
falling, the end. No words here: each mistake carries a code the screen words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from villa.match.events import Accepted, Collapsed
from villa.rules.pieces import COLUMNS_BY_ID
from villa.rules.state import Role


class Who(str, Enum):
    """A seat, as a lesson sees it."""

    LEARNER = "learner"
    OTHER = "other"          # any seat but the learner's
    ANYONE = "anyone"


class Seal(str, Enum):
    """What a placement did to the Master Builder Seal, as the learner sees it."""

    TAKEN = "taken"          # the learner holds it now, and did not before
    NOT_TAKEN = "not taken"  # the learner did not come to hold it


@dataclass(frozen=True)
class Did:
    """The referee accepted `action` (a rules action or fact type) from `by`, in one of `roles` (the turn's
    role before it; empty: any); `neutral`: the column was (True) or was not (False) the neutral colour;
    `seal`: what it did to the seal; `holder`: who held the seal before it; `winner`: who is Master Builder
    after it (a `rules.Collapse` ends the game)."""

    action: type
    by: Who = Who.LEARNER
    roles: tuple[Role, ...] = ()
    neutral: bool | None = None
    seal: Seal | None = None
    holder: Who | None = None
    winner: Who | None = None

    def met(self, event, learner: int) -> bool:
        if not isinstance(event, Accepted) or not isinstance(event.action, self.action):
            return False
        before, after = event.before, event.after
        actor = before.turn.actor
        if not _is(self.by, actor, learner) or (self.roles and before.turn.role not in self.roles):
            return False
        if self.neutral is not None:
            column = getattr(event.action, "column", None) or before.turn.column
            colour = COLUMNS_BY_ID[column].colour if column in COLUMNS_BY_ID else None
            if (colour is not None and colour is before.neutral) is not self.neutral:
                return False
        if self.holder is not None and not _is(self.holder, before.seal.holder, learner):
            return False
        if self.winner is not None and not (after.result and _is(self.winner, after.result.winner, learner)):
            return False
        if self.seal is Seal.TAKEN:
            return after.seal.holder == learner and before.seal.holder != learner
        if self.seal is Seal.NOT_TAKEN:
            return after.seal.holder != learner
        return True


@dataclass(frozen=True)
class Fell:
    """The villa fell (`Did(rules.Collapse, ...)` asks who brought it down and who won)."""

    def met(self, event, learner: int) -> bool:
        return isinstance(event, Collapsed)


Aim = Did | Fell


def _is(who: Who, player: int | None, learner: int) -> bool:
    if who is Who.ANYONE:
        return True
    return (player == learner) if who is Who.LEARNER else (player is not None and player != learner)

