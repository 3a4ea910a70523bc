"""A player's moves as script steps (`tests.conformance.lockstep`): each the requests a person's mouse and keys
would send, with the frames they take, made from the hot seat's game as it stands."""

from __future__ import annotations

from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import requests as rq
from villa.match.face import is_floor
from villa.physics.pulling import Grip
from villa.rules.pieces import floor_id

from tests.conformance.lockstep import Ask, Check, Frames, Repeat, Step, Then, Until, ask

DRAWN_EACH = 1.5      # cm the pointer leads a column drawn out, every three frames
OVER_SPOT = 0.05      # cm from the spot a carried column is set down at


def at_rest(game) -> bool:
    """Nothing in hand and the villa lying still (online: as heard), the last move judged."""
    return not game.busy


def over_and_still(game) -> bool:
    return game.over and game.villa.settled


def _middle(game, piece: str) -> Point3:
    return game.villa.nodes[piece].getPos()


def take(column: str, steady: bool = False, refused: str | None = None) -> Ask:
    """A press on the middle of `column`."""
    return Ask(lambda seat, game: rq.Take(seat, column, tuple(_middle(game, column)), steady), refused)


def _outward(column: str):
    def make(seat: int, game) -> rq.Aim:
        at = _middle(game, column)
        away = Vec3(at.x, at.y, 0)
        away = away / away.length() if away.length() > 0.5 else Vec3(1, 0, 0)
        return rq.Aim(seat, tuple(Point3(at.x, at.y, game.hand.grab_z) + away * DRAWN_EACH))
    return make


def _pulled(game) -> bool:
    return game.hand is None or is_floor(game.hand) or game.hand.state != Grip.PULLING


def pull_out(column: str, steady: bool = False) -> tuple[Step, ...]:
    """Take `column` and draw it straight away from the villa's middle until it comes free (a penalty pull: out)."""
    return (take(column, steady), Frames(2),
            Repeat((Ask(_outward(column)), Frames(3)), _pulled, why=f"{column} never came free"))


def _spot(game, dx: float, dy: float) -> Point3:
    top = game.state.top_level
    return _middle(game, floor_id(top)) + Vec3(dx, dy, 0)


def carry_to(dx: float, dy: float) -> tuple[Step, ...]:
    """Carry the free column over the top floor, (dx, dy) from its middle."""
    def there(game) -> bool:
        spot, at = _spot(game, dx, dy), _middle(game, game.hand.column)
        return abs(at.x - spot.x) < OVER_SPOT and abs(at.y - spot.y) < OVER_SPOT
    return (Ask(lambda seat, game: rq.Aim(seat, tuple(_spot(game, dx, dy)))), Until(there, 600, "over the spot"),
            Frames(10))


def set_down_held() -> tuple[Step, ...]:
    """Set the carried column down into the builder's hands, which hold it upright once it stands."""
    return ask(lambda seat: rq.SetDown(seat, hold=True)), Until(lambda game: game.holding, 600, "held"), Frames(10)


def slide_to(dx: float, dy: float) -> tuple[Step, ...]:
    """Slide the held column across the top floor, (dx, dy) from its middle."""
    return Ask(lambda seat, game: rq.Aim(seat, tuple(_spot(game, dx, dy)))), Frames(120)


def set_down(hold: bool = False) -> tuple[Step, ...]:
    """Set the carried column down; held, the hands keep it upright a moment once it stands, then let go."""
    if not hold:
        return ask(rq.SetDown), Until(at_rest, 1500, "judged", both=True)
    return *set_down_held(), ask(rq.LetGo), Until(at_rest, 1500, "judged", both=True)


def build(column: str, dx: float, dy: float, hold: bool = False, steady: bool = False) -> tuple[Step, ...]:
    """Pull `column` out, carry it over the top floor and set it down there."""
    return (*pull_out(column, steady), *carry_to(dx, dy), *set_down(hold))


def give_up_at_once(column: str) -> tuple[Step, ...]:
    """Take `column` and give it up again (an abort: it goes back, blocked)."""
    return take(column), Frames(5), ask(rq.GiveUp), Until(at_rest, 900, "back", both=True)


def lay_floor(dx: float = 0.0, dy: float = 0.0, hold: bool = True) -> tuple[Step, ...]:
    """Bring the granted floor over the top columns (dx, dy from the top floor's middle), lower it and let go."""
    def lower(seat: int, _game) -> rq.Lower:
        return rq.Lower(seat, hold=hold)
    steps: tuple[Step, ...] = (ask(rq.LayFloor), Frames(2),
                               Ask(lambda seat, game: rq.Aim(seat, tuple(_spot(game, dx, dy)))), Frames(90),
                               Ask(lower))
    if hold:
        steps += (Until(lambda game: game.holding and bool(game.hand.touching()), 600, "held on its columns"),
                  Frames(30), ask(rq.LetGo))
    return steps + (Until(at_rest, 1800, "judged", both=True),)


def _sideways(column: str):
    def make(seat: int, game) -> rq.Aim:
        at = _middle(game, column)
        away = Vec3(at.x, at.y, 0)
        away = away / away.length() if away.length() > 0.5 else Vec3(1, 0, 0)
        return rq.Aim(seat, tuple(at + Vec3(-away.y, away.x, 0) * 30 + Vec3(0, 0, 3)))
    return make


def yank(column: str) -> tuple[Step, ...]:
    """Take `column` and tear it sideways out of the villa: the floor it carries may come down."""
    return take(column), Frames(1), Ask(_sideways(column)), Until(lambda game: game.collapsed or _pulled(game), 300)


def knock_down(tries: int = 8) -> Repeat:
    """Yank columns sideways, turn after turn, until the villa falls: each time the grabbable thin column nearest
    the middle of the villa; one that comes out whole is given up (the family edition: set down on top)."""
    def attempt(game) -> tuple[Step, ...]:
        if game.next_roll() is not None:
            return *roll(), Then(attempt)       # the family edition: the turn's colour first
        grabbable = rules.grabbable_columns(game.state)
        column = min([c for c in grabbable if "thin" in c] or grabbable,
                     key=lambda c: _middle(game, c).getXy().length())
        return (*yank(column), Frames(30), Then(_put_away))
    return Repeat((Then(attempt),), lambda game: game.collapsed, tries, "the villa never fell")


def _put_away(game) -> tuple[Step, ...]:
    if game.collapsed:
        return ()
    if rules.Abort() in rules.legal_actions(game.state):
        return ask(rq.GiveUp), Until(at_rest, 900, "given up", both=True)
    return set_down_somewhere()


def set_down_somewhere(spots=None) -> tuple[Step, ...]:
    """Carry the column over the free spots of the top floor in turn, and set it down on the first the referee
    would accept it on."""
    def next_spot(game) -> tuple[Step, ...]:
        left = free_spots(game) if spots is None else spots
        assert left, "no room left on the top floor"
        return *carry_to(*left[0]), Then(lambda g: set_down() if g.landing_refusal() is None
                                         else set_down_somewhere(left[1:]))
    return (Then(next_spot),)


def free_spots(game) -> tuple[tuple[float, float], ...]:
    """Spots on the top floor, from its middle, clear of the columns standing there."""
    top = game.state.top_level
    middle = _middle(game, floor_id(top))
    standing = [_middle(game, c) for c, level in game.state.levels.items()
                if level == top and c in game.villa.nodes and c not in game.villa.in_hand]
    return tuple((dx, dy) for dx, dy in SPOTS
                 if all((Vec3(middle.x + dx, middle.y + dy, 0) - Vec3(at.x, at.y, 0)).length() > CLEAR
                        for at in standing))


SPOTS = ((0.0, 0.0), (2.5, 0.0), (-2.5, 0.0), (0.0, 2.5), (0.0, -2.5), (2.5, 2.5), (-2.5, -2.5), (2.5, -2.5),
         (-2.5, 2.5), (4.5, 0.0), (-4.5, 0.0), (0.0, 4.5), (0.0, -4.5), (4.5, 2.5), (-4.5, -2.5), (4.5, -2.5),
         (-4.5, 2.5))
CLEAR = 3.6     # cm between two columns' middles on a floor: two thick ones, and room for the hand


def roll() -> tuple[Step, ...]:
    return Until(at_rest, 300, "ready to roll", both=True), ask(rq.Roll)


def check(holds, why: str) -> Check:
    return Check(holds, why)
