"""What happens in a game in play, as records the screens, the autosave, the sound and the computer
players subscribe to.

    match.events.subscribe(TurnSettled, autosave)     # called with each TurnSettled
    match.events.subscribe(None, every_event)         # called with every event

Events are queued while the match is at work and handed out once it is done, in order: a
subscriber may act on the match (answer, take a column) without finding it half-way through
a change.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from villa import rules
from villa.rules.state import Role, Step


@dataclass(frozen=True)
class Accepted:
    """The referee accepted an action or a fact: the state went from `before` to `after`."""

    before: rules.GameState
    action: Any
    after: rules.GameState


@dataclass(frozen=True)
class Refused:
    """An action the referee (or the wood) refused; `error` is a `RuleError` or a `PlacementError`."""

    action: Any
    error: Exception


@dataclass(frozen=True)
class AnswerNeeded:
    """`player` is asked: object to a floor, challenge a neutral abort, or challenge a family claim."""

    player: int
    role: Role


@dataclass(frozen=True)
class TurnSettled:
    """A turn is over and the villa has come to rest: `record` holds the villa as it stands."""

    record: Any   # villa.match.record.TurnRecord


@dataclass(frozen=True)
class Collapsed:
    """The villa fell (the fact as the physics saw it)."""

    collapse: rules.Collapse


@dataclass(frozen=True)
class RoundStarted:
    """Family edition: a new round begins on a villa built anew."""

    round: int


@dataclass(frozen=True)
class Touched:
    """The floor or column held in the hands has touched down (its columns, or the top floor)."""

    piece: str


@dataclass(frozen=True)
class LetGo:
    """The hands let go of the held floor or column: it is judged once the villa settles."""

    piece: str


@dataclass(frozen=True)
class TimeUp:
    """Online, with a turn clock: `player`'s time for the move ran out, and the turn passes as the rules allow."""

    player: int


@dataclass(frozen=True)
class GameOver:
    result: rules.Result


def of_change(before: rules.GameState, action, after: rules.GameState) -> list:
    """The events of one action the referee accepted: the change itself, a question put to a player, the
    game's end. The match and the online player's game in play both tell a change by this one function."""
    events: list = [Accepted(before, action, after)]
    if after.turn.step is Step.ASK and not after.over:
        events.append(AnswerNeeded(after.turn.actor, after.turn.role))
    if after.over and not before.over:
        events.append(GameOver(after.result))
    return events


Event = (Accepted | Refused | AnswerNeeded | TurnSettled | Collapsed | RoundStarted | Touched | LetGo | TimeUp
         | GameOver)
Subscriber = Callable[[Any], None]


class Events:
    def __init__(self) -> None:
        self._subscribers: list[tuple[type | None, Subscriber]] = []
        self._queue: deque = deque()
        self._handing_out = False

    def subscribe(self, kind: type | None, subscriber: Subscriber) -> Callable[[], None]:
        """Call `subscriber(event)` for every event of `kind` (None: every event); returns how to stop."""
        entry = (kind, subscriber)
        self._subscribers.append(entry)

        def stop() -> None:
            if entry in self._subscribers:
                self._subscribers.remove(entry)
        return stop

    def emit(self, event) -> None:
        self._queue.append(event)

    def hand_out(self) -> None:
        """Give every queued event to its subscribers (events they cause join the queue)."""
        if self._handing_out:
            return
        self._handing_out = True
        try:
            while self._queue:
                event = self._queue.popleft()
                for kind, subscriber in list(self._subscribers):
                    if kind is None or isinstance(event, kind):
                        subscriber(event)
        finally:
            self._handing_out = False

    def clear(self) -> None:
        self._subscribers.clear()
        self._queue.clear()
