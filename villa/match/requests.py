"""What a seat asks of the game in play: every way a player acts, as a small frozen value.

    reply = match.request(Take(seat, "red-thin-2", point))     # the hand takes hold of a column
    reply = match.request(Answer(seat, objects=True))           # "I object" (or challenge)
    if not reply.accepted: say(reply.refusal)                   # the referee's or the wood's code

The window, the computer players, the lessons' scripts and the server all send these values to
`request`, the one way in (`villa.match.table.Match.request`, and online the client's match, which
sends the same values to the server's). Each names the seat it is asked for: the match refuses a
seat that the rules do not ask now, and online the server refuses a seat its sender does not hold.
The wire's messages are made from these classes (`villa.online.wire`), so their fields are plain:
seats, words, numbers and points, each with the bounds a message from outside is held to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Callable

from villa import rules
from villa.rules.pieces import Colour


@dataclass(frozen=True)
class Bounds:
    """What a field may hold (a message read from outside is refused beyond it): numbers from `low` to
    `high`, text and bytes up to `high` long; `finite`: no infinity and no NaN."""

    low: float = 0
    high: float = 0
    finite: bool = False


SeatNumber = Annotated[int, Bounds(0, 3)]
Word = Annotated[str, Bounds(0, 32)]
Coordinate = Annotated[float, Bounds(-1e9, 1e9, finite=True)]
Point = tuple[Coordinate, Coordinate, Coordinate]     # a world point, in cm


@dataclass(frozen=True)
class Take:
    """Take hold of `column` at a point on it (None: its middle); `steady`: the floor above is held steady.
    A penalty pull takes one of the objector's columns out of the game the same way."""

    seat: SeatNumber
    column: Word
    point: Point | None = None
    steady: bool = False


@dataclass(frozen=True)
class Aim:
    """Move what is in hand toward a world point: the grabbed point of a pulled column, the spot over the
    top floor of a carried one, the middle of a floor."""

    seat: SeatNumber
    point: Point


@dataclass(frozen=True)
class Steady:
    """Hold the floor above the pulled column steady (Space), or let it be."""

    seat: SeatNumber
    on: bool


@dataclass(frozen=True)
class TurnFloor:
    """Turn the floor in hand about its middle."""

    seat: SeatNumber
    degrees: Annotated[float, Bounds(-360, 360, finite=True)]


@dataclass(frozen=True)
class SetDown:
    """Set the carried column down straight below it; `hold`: the hand keeps it upright until let go."""

    seat: SeatNumber
    hold: bool = False


@dataclass(frozen=True)
class LayFloor:
    """Bring the next floor (proposed and granted) over the top columns, to be carried, turned and lowered."""

    seat: SeatNumber


@dataclass(frozen=True)
class Lower:
    """Lower the carried floor onto the columns beneath; `hold`: keep it in the hands (at `grip`, a world
    point on it; its middle if None) until let go."""

    seat: SeatNumber
    hold: bool = False
    grip: Point | None = None


@dataclass(frozen=True)
class Lift:
    """Lift the held floor or column clear again."""

    seat: SeatNumber


@dataclass(frozen=True)
class LetGo:
    """Let go of the held floor or column: judged once the villa settles."""

    seat: SeatNumber


@dataclass(frozen=True)
class GiveUp:
    """Give up what is in hand (the column goes back, blocked; the floor goes back in the box), or a floor
    granted that cannot be laid."""

    seat: SeatNumber


@dataclass(frozen=True)
class Propose:
    """Claim that no column can be moved up, and ask to lay the next floor."""

    seat: SeatNumber


@dataclass(frozen=True)
class Answer:
    """The asked player's answer: `objects` (object to the floor, or challenge), or not."""

    seat: SeatNumber
    objects: bool


@dataclass(frozen=True)
class Forgo:
    """After a failed objection: the proposer does not take one of the objector's columns out."""

    seat: SeatNumber


@dataclass(frozen=True)
class Pass:
    """Nothing can be built and no floor proposed: the turn passes."""

    seat: SeatNumber


@dataclass(frozen=True)
class Roll:
    """Roll the Master Builder Seal (what it shows is the game's chance, `Match.next_roll`)."""

    seat: SeatNumber


@dataclass(frozen=True)
class ChooseColour:
    """Take a colour, when the seal or the order of the table lets this player choose."""

    seat: SeatNumber
    colour: Colour


Request = (Take | Aim | Steady | TurnFloor | SetDown | LayFloor | Lower | Lift | LetGo | GiveUp | Propose | Answer
           | Forgo | Pass | Roll | ChooseColour)
REQUESTS: tuple[type, ...] = (Take, Aim, Steady, TurnFloor, SetDown, LayFloor, Lower, Lift, LetGo, GiveUp, Propose,
                              Answer, Forgo, Pass, Roll, ChooseColour)
HAND_REQUESTS: frozenset[type] = frozenset({Take, Aim, Steady, TurnFloor, SetDown, LayFloor, Lower, Lift, LetGo,
                                            GiveUp})


@dataclass(frozen=True)
class Reply:
    """The game's answer to a request: accepted, or refused with the referee's or the wood's code
    (`refusal`: a `RuleError` or a `PlacementError`; online also an `OnlineError`). `sent`: online, the
    request went to the server, whose verdict comes as the game's events."""

    refusal: Exception | None = None
    sent: bool = False

    @property
    def accepted(self) -> bool:
        return self.refusal is None

    @property
    def code(self) -> str | None:
        """The refusal's code (a rule's, the wood's or the server's), None when accepted."""
        if self.refusal is None:
            return None
        code: Any = getattr(self.refusal, "code", None) or getattr(self.refusal, "rule", None)
        return str(getattr(code, "value", code))


ACCEPTED = Reply()
SENT = Reply(sent=True)


def refused(refusal: Exception) -> Reply:
    return Reply(refusal)


def rules_action(state: rules.GameState, request) -> Any | None:
    """The referee's action a choice request stands for now (None: it is not such a request, or none fits):
    an answer is an objection or a challenge, whichever the rules ask of this player."""
    if isinstance(request, Propose):
        return rules.ProposeFloor()
    if isinstance(request, Forgo):
        return rules.ForgoPenalty()
    if isinstance(request, Pass):
        return rules.Pass()
    if isinstance(request, ChooseColour):
        return rules.ChooseColour(request.colour)
    if isinstance(request, Answer):
        return rules.answer_for(state, request.objects)
    return None


def request_for(seat: int, action) -> Request:
    """The request a seat makes for a referee's choice (a computer's plan, a lesson's script): the inverse of
    `rules_action`, with a given-up build or floor as `GiveUp` and the seal's roll as `Roll`."""
    kind = type(action)
    if kind is rules.ProposeFloor:
        return Propose(seat)
    if kind in (rules.Object, rules.Challenge, rules.Decline):
        return Answer(seat, objects=kind is not rules.Decline)
    if kind is rules.ForgoPenalty:
        return Forgo(seat)
    if kind is rules.Pass:
        return Pass(seat)
    if kind is rules.ChooseColour:
        return ChooseColour(seat, action.colour)
    if kind in (rules.Abort, rules.GiveUpFloor):
        return GiveUp(seat)
    if kind is rules.SealRoll:
        return Roll(seat)
    if kind is rules.TakeColumn:
        return Take(seat, action.column)
    raise TypeError(f"no seat asks for {action!r}: it is the villa's or the game's own")


def ask(game, make: Callable[[int], Request]) -> Reply:
    """Send `make(seat)` for the seat the rules ask now (who rolls, at a roll) to a game in play; refused as out of
    turn when nobody is asked (the game is over)."""
    seat = rules.acting_player(game.state)
    return Reply(not_now(game.state, "acting")) if seat is None else game.request(make(seat))


def not_now(state: rules.GameState, what: str) -> rules.RuleError:
    """The referee's refusal of something asked out of turn (its words name who is asked now)."""
    turn = state.turn
    return rules.Rule.NOT_NOW.refuse(action=what, step=turn.step.value, role=turn.role.value, actor=turn.actor)
