"""A player's moves as script steps (`tests.conformance.lockstep`): each the requests a person's mouse and keys
would send, with the frames they take, made from the hot seat's game as it stands."""

from __future__ import annotations

import math

from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import requests as rq
from villa.match.face import is_floor
from villa.physics import geometry
from villa.physics.dimensions import FLOORS, column_spec
from villa.physics.pulling import Grip
from villa.rules.pieces import floor_id

from tests.conformance.lockstep import Ask, Check, Frames, Repeat, Step, Then, Until, ask

AIM_FRAMES = 3        # frames between two aims at the least: a window sends one every 1/30 s
DRAWN_FIRST = 2.0     # cm the pointer is drawn out from where the column stood, at first
DRAWN_EACH = 0.05     # cm further each frame
DRAWN_MOST = 20.0
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


def _outward(column: str, start: dict):
    """Aims drawing the column straight away from the villa's middle, the pointer leading it further and further
    (a loaded column needs the pull to grow)."""
    def make(seat: int, game) -> rq.Aim:
        at, frames = start["at"], round((game.villa.time - start["time"]) * 60)
        away = Vec3(at.x, at.y, 0)
        away = away / away.length() if away.length() > 0.5 else Vec3(1, 0, 0)
        return rq.Aim(seat, tuple(at + away * min(DRAWN_FIRST + DRAWN_EACH * frames, DRAWN_MOST)))
    return make


def _pulled(game) -> bool:
    return game.hand is None or is_floor(game.hand) or game.hand.state != Grip.PULLING


def pull_out(column: str, steady: bool = False) -> tuple[Step, ...]:
    """Take `column` and draw it straight away from the villa's middle until it comes free (a penalty pull: out)."""
    start: dict = {}

    def taken(seat: int, game) -> rq.Take:
        start.update(at=_middle(game, column), time=game.villa.time)
        return rq.Take(seat, column, tuple(start["at"]), steady)
    return (Ask(taken), Frames(2),
            Repeat((Ask(_outward(column, start)), Frames(AIM_FRAMES)), _pulled, why=f"{column} never came free"))


def _carrying(game) -> bool:
    return game.hand is not None and not is_floor(game.hand) and game.hand.state == Grip.CARRYING \
        and not game.collapsed


def _spot(game, dx: float, dy: float) -> Point3:
    top = game.state.top_level
    return _middle(game, floor_id(top)) + Vec3(dx, dy, 0)


def carry_to(dx: float, dy: float) -> tuple[Step, ...]:
    """Carry the free column over the top floor, (dx, dy) from its middle, until it is there (online: drawn there,
    the server's word on it blended in, as a person sees it before setting it down)."""
    def there(game) -> bool:
        if not _carrying(game):
            return True      # nothing left to carry: the villa fell
        spot, at = _spot(game, dx, dy), _middle(game, game.hand.column)
        return abs(at.x - spot.x) < OVER_SPOT and abs(at.y - spot.y) < OVER_SPOT
    return (Ask(lambda seat, game: rq.Aim(seat, tuple(_spot(game, dx, dy)))),
            Until(there, 600, "over the spot", both=True, must=False), Frames(10))


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
    return (take(column), Frames(AIM_FRAMES), Ask(_sideways(column)), Frames(AIM_FRAMES),
            Until(lambda game: game.collapsed or _pulled(game), 300, "torn out, or the villa down"))


def knock_down(tries: int = 8) -> Repeat:
    """Yank columns sideways, turn after turn, until the villa falls: each time the grabbable thin column nearest
    the middle of the villa; one that comes out whole is given up (the family edition: set down on top)."""
    def attempt(game) -> tuple[Step, ...]:
        if game.next_roll() is not None:
            return *roll(), Then(attempt)       # the family edition: the turn's colour first
        grabbable = rules.grabbable_columns(game.state)
        column = min([c for c in grabbable if "thin" in c] or grabbable,
                     key=lambda c: _middle(game, c).getXy().length())
        return (*yank(column), Frames(30), Then(put_away))
    return Repeat((Then(attempt),), lambda game: game.collapsed, tries, "the villa never fell")


def put_away(game) -> tuple[Step, ...]:
    """What is left in hand after a yank that brought nothing down: given up, or (the family edition, which gives
    nothing up) set down on top."""
    if game.collapsed:
        return ()
    if rules.Abort() in rules.legal_actions(game.state):
        return ask(rq.GiveUp), Until(at_rest, 900, "given up", both=True)
    return set_down_somewhere()


def set_down_somewhere(spots=None) -> tuple[Step, ...]:
    """Carry the column over the free spots of the top floor in turn, and set it down on the first the referee
    would accept it on."""
    def next_spot(game) -> tuple[Step, ...]:
        if not _carrying(game):
            return ()
        left = free_spots(game, game.hand.column) if spots is None else spots
        assert left, "no room left on the top floor"
        return *carry_to(*left[0]), Then(lambda g: () if not _carrying(g) else set_down()
                                         if g.landing_refusal() is None else set_down_somewhere(left[1:]))
    return (Then(next_spot),)


def free_spots(game, column: str = "green-thick") -> tuple[tuple[float, float], ...]:
    """Spots on the top floor for `column`, from the floor's middle, nearest first: its foot inside the floor's
    edge and clear of the columns standing there."""
    top = game.state.top_level
    if top == 0:
        return ((0.0, 0.0),)
    floor = game.villa.nodes[floor_id(top)]
    middle, room = floor.getPos(), column_spec(column).radius + EDGE
    standing = [(game.villa.nodes[c].getPos(), column_spec(c).radius) for c, level in game.state.levels.items()
                if level == top and c in game.villa.nodes and c not in game.villa.in_hand]
    spots = []
    for dx, dy in GRID:
        x, y = middle.x + dx, middle.y + dy
        local = floor.getRelativePoint(game.villa.root, Point3(x, y, middle.z))
        if geometry.signed_distance(FLOORS[top].outline, local.x, local.y) < room:
            continue
        if all(math.hypot(x - at.x, y - at.y) > room + radius + EDGE for at, radius in standing):
            spots.append((dx, dy))
    return tuple(spots)


EDGE = 0.4      # cm kept from a floor's edge, and between two columns (and the hand's fingers)
GRID = tuple(sorted(((x * 1.5, y * 1.5) for x in range(-5, 6) for y in range(-5, 6)),
                    key=lambda spot: (math.hypot(*spot), spot)))


def roll() -> tuple[Step, ...]:
    return Until(at_rest, 300, "ready to roll", both=True), ask(rq.Roll)


def check(holds, why: str) -> Check:
    return Check(holds, why)
