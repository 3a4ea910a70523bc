"""Everything a screen reads of the villa and of the piece in hand (`villa.match.face`: `VillaInPlay`, `ColumnInHand`,
`FloorInHand` and the `MEASURES`), compared on the hot seat's game and online (`READS`, one comparison for each; the
list is held to what `villa/presentation` reads by `test_screen_reads.py`).

The villa's reads are compared once it rests on both (online: as the window draws it, which is what the screen
asks): the pieces where they are, what a pointer picks over a grid of rays from the game camera's views, the
statics the builder's eye draws. The hand's are compared while both hold the same piece in the same phase, and
those that measure where the piece is, once the window draws it where the hot seat has it (a piece held online is
drawn at the pointer, ahead of the server, and settles where the server's hands put it).

The rays and the statics cost most: they are worked out again only when the villa at rest has changed since they
were last compared, and the camera's views once for each top floor."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from panda3d.core import NodePath, PerspectiveLens, Point2, Point3, Vec3

from villa.match.face import is_floor
from villa.physics import laying, loads
from villa.physics.dimensions import FLOORS
from villa.physics.laying import Laying
from villa.physics.pulling import Grip
from villa.presentation.camera import OrbitCamera
from villa.presentation.view import PLAY_PITCH, VILLA_SHARE, villa_points
from villa.online.server.news import STILL_CM, STILL_QUAT
from villa.rules.pieces import floor_id

CM = 2 * STILL_CM + 1e-4    # a position heard is within what the server leaves unsaid of its last (and a float's)
TURN = 2 * STILL_QUAT + 1e-5
DEG = 0.05                  # a heading or a tilt, in degrees
LOAD = 0.005               # of a load: shared out by where the columns stand, heard within CM
NEWTON = 0.051              # the strain heard is rounded to a tenth of a newton
HEADINGS = (-35.0, 145.0)   # the turn's view as a game starts, and from the other side
GRID = (14, 8)              # pointer rays across the villa in each view: 3 views, 336 rays
WIDE = 16 / 9               # the window's shape


class Seen:
    """What the comparisons keep between the steps of one game: the villa at rest last compared, the views of each top
    floor, the times last read, the hot seat's strain frame by frame; and how often each read was compared."""

    def __init__(self) -> None:
        self.compared: Counter[str] = Counter()
        self.rest: tuple | None = None
        self.views: dict[int, list[tuple[Point3, list[Vec3]]]] = {}
        self.times: tuple | None = None
        self.felt: list[dict] = []      # the hot seat's hand, frame by frame, as far back as a hand's news trails


@dataclass(frozen=True)
class Read:
    """`when` (one or more of): "rest" (the villa rests on both), "moved" (... and has changed since last compared),
    "hand" (both hold the same piece in the same phase), "there" (... and the window draws it where the hot seat has
    it), "pulling" (both pull a column: what only a pull reads), "each" (every step). `differ(here, there, seen)`:
    None when they agree, else what each says."""

    when: str | tuple[str, ...]
    differ: Callable

    @property
    def whens(self) -> frozenset[str]:
        return frozenset((self.when,) if isinstance(self.when, str) else self.when)


def _same(value: Callable) -> Callable:
    def differ(here, there, _seen):
        a, b = value(here), value(there)
        return None if a == b else (a, b)
    return differ


def _near(value: Callable, within: float) -> Callable:
    def differ(here, there, _seen):
        a, b = value(here), value(there)
        return None if _close(a, b, within) else (a, b)
    return differ


def _close(a, b, within: float) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= within
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_close(x, y, within) for x, y in zip(a, b))
    return a == b


# --- the villa ------------------------------------------------------------------------------------------------

def _poses(villa, pieces=None) -> dict:
    return {piece: (tuple(villa.nodes[piece].getPos()), tuple(villa.nodes[piece].getQuat()))
            for piece in (pieces if pieces is not None else villa.nodes)}


def _poses_differ(a: dict, b: dict) -> dict | None:
    if set(a) != set(b):
        return {"pieces": (sorted(set(a) - set(b)), sorted(set(b) - set(a)))}
    far = {piece: (a[piece], b[piece]) for piece in a
           if not _close(a[piece][0], b[piece][0], CM) or not _same_turn(a[piece][1], b[piece][1])}
    return far or None


def _same_turn(p, q) -> bool:
    return all(abs(x - y) <= TURN for x, y in zip(p, q)) or all(abs(x + y) <= TURN for x, y in zip(p, q))


def _nodes(here, there, _seen):
    return _poses_differ(_poses(here.villa), _poses(there.villa))


def _poses_read(here, there, _seen):
    return _poses_differ(here.villa.poses(), there.villa.poses())


def _time(here, there, seen: Seen):
    """The villa's time goes on as the frames go, on both: the time since the last step (a villa built anew starts its
    own time again)."""
    now = (here.villa, here.villa.time, there.villa, there.villa.time)
    before, seen.times = seen.times, now
    if before is None or before[0] is not now[0] or before[2] is not now[2]:
        return None
    a, b = now[1] - before[1], now[3] - before[3]
    return None if abs(a - b) < 1e-6 else (a, b)


def views(villa, top: int) -> list[tuple[Point3, list[Vec3]]]:
    """The game camera's views of the villa as a turn begins (from two sides) and looking straight down on the top
    floor (T), each with a grid of pointer rays over the villa in it: (the camera's place, the rays' directions)."""
    root = NodePath("views")
    camera = root.attachNewNode("camera")
    lens = PerspectiveLens()
    lens.setAspectRatio(WIDE)
    orbit = OrbitCamera(camera, lens, lambda: [])
    points = villa_points(villa.root, villa.nodes)
    shown = []
    for heading in HEADINGS:
        orbit.goal.heading, orbit.goal.pitch = heading, PLAY_PITCH
        orbit.frame(points, VILLA_SHARE)
        orbit.snap()
        shown.append(_rays(root, camera, lens, points))
    middle = villa.nodes[floor_id(top)].getPos() if top else Point3(0, 0, 0)
    orbit.look_down(middle)
    orbit.snap()
    shown.append(_rays(root, camera, lens, points))
    return shown


def _rays(root, camera, lens, points) -> tuple[Point3, list[Vec3]]:
    film = []
    for point in points:
        at = Point2()
        if lens.project(camera.getRelativePoint(root, point), at):
            film.append(at)
    (x0, x1), (y0, y1) = ((min(p[i] for p in film), max(p[i] for p in film)) for i in (0, 1))
    columns, rows = GRID
    origin, directions = camera.getPos(root), []
    for i in range(columns):
        for j in range(rows):
            mouse = Point2(x0 + (x1 - x0) * (i + 0.5) / columns, y0 + (y1 - y0) * (j + 0.5) / rows)
            near, far = Point3(), Point3()
            lens.extrude(mouse, near, far)
            direction = root.getRelativePoint(camera, far) - root.getRelativePoint(camera, near)
            direction.normalize()
            directions.append(direction)
    return origin, directions


def _pick(here, there, seen: Seen):
    """A grid of pointer rays from the game camera's views: each picks the same piece on both (where on it may differ
    by more than the poses do, where a ray grazes a rim)."""
    top = here.state.top_level
    if top not in seen.views:
        seen.views[top] = views(here.villa, top)
    wrong = []
    for origin, directions in seen.views[top]:
        for direction in directions:
            a, b = here.villa.pick(origin, direction), there.villa.pick(origin, direction)
            if (a and a[0]) != (b and b[0]):
                wrong.append((tuple(direction), a, b))
    return wrong or None


def rays_compared(seen: Seen) -> int:
    return sum(len(directions) for shown in seen.views.values() for _, directions in shown)


def _resting(here, there, _seen):
    """The builder's eye's statics: what stands on what, which columns carry each floor and where, each floor's load
    and where it acts."""
    a, b = loads.resting(here.villa), loads.resting(there.villa)
    if a.stands_on != b.stands_on:
        return a.stands_on, b.stands_on
    for floor in a.supports.keys() | b.supports.keys():
        sa, sb = a.supports.get(floor, ()), b.supports.get(floor, ())
        if [s.column for s in sa] != [s.column for s in sb] or not _close(
                [(s.x, s.y) for s in sa], [(s.x, s.y) for s in sb], CM):
            return floor, sa, sb
        (load_a, *at_a), (load_b, *at_b) = a.loads[floor], b.loads[floor]
        if abs(load_a - load_b) > LOAD * load_a or not _close(tuple(at_a), tuple(at_b), CM):
            return floor, a.loads[floor], b.loads[floor]
    for column in a.foot_loads.keys() | b.foot_loads.keys():
        if abs(a.foot_loads.get(column, 0.0) - b.foot_loads.get(column, 0.0)) > LOAD * a.foot_loads.get(column, 1.0):
            return column, a.foot_loads.get(column), b.foot_loads.get(column)
    return None


# --- the piece in hand ------------------------------------------------------------------------------------------

def _hand(read: Callable) -> Callable:
    return lambda game: read(game.hand)


FELT = {"strain": lambda hand: float(hand.strain), "touching": lambda hand: hand.touching(),
        "tilt_deg": lambda hand: float(hand.tilt_deg())}     # what the server's hands feel: told with its news


def felt(game) -> dict | None:
    """What the hot seat's hands feel this frame (for `Seen.felt`)."""
    hand = game.hand
    if hand is None:
        return None
    return {name: read(hand) for name, read in FELT.items()
            if (name == "strain") != is_floor(hand) and (name != "strain" or hand.state == Grip.PULLING)}


def _trailing(name: str, within: float | None) -> Callable:
    """What the server's hands feel, as heard: told with the hand's news, a frame or two after the hot seat's (and a
    strain rounded to a tenth of a newton)."""
    def differ(here, there, seen: Seen):
        heard = FELT[name](there.hand)
        past = [frame[name] for frame in (*seen.felt, felt(here)) if frame and name in frame]
        if any(heard == each if within is None else abs(heard - each) <= within for each in past):
            return None
        return past, heard
    return differ


def _next_floor(game, measure: Callable):
    """A measure of where the next floor would be laid, at rest (None: every floor is laid)."""
    level = game.state.top_level + 1
    return None if level not in FLOORS else measure(game.villa, level)


def _under_the_middle(villa, level: int) -> tuple:
    """The columns the next floor would rest on, held over the middle of the top floor (and a little to each side)."""
    below = villa.nodes[floor_id(level - 1)].getPos() if level > 1 else Point3(0, 0, 0)
    return tuple(laying.columns_under(villa, level, below.x + dx, below.y, 0.0) for dx in (-3.0, 0.0, 3.0))


def _surface(hand):
    below = hand.surface_below()
    return below if below is None else (below[0], below[1], float(below[2]))


def _landing(game):
    refusal = game.landing_refusal()
    return None if refusal is None else (type(refusal).__name__, getattr(refusal, "code", None))


READS: dict[str, Read] = {
    "villa.nodes": Read("rest", _nodes),
    "villa.poses": Read("rest", _poses_read),
    "villa.columns": Read("rest", _same(lambda game: frozenset(game.villa.columns))),
    "villa.settled": Read("rest", _same(lambda game: game.villa.settled)),
    "villa.time": Read("each", _time),
    "villa.pick": Read("moved", _pick),
    "measure.resting": Read("moved", _resting),
    "measure.is_floor": Read("each", _same(lambda game: is_floor(game.hand))),
    "measure.rest_height": Read("moved", _near(lambda game: _next_floor(game, laying.rest_height), CM)),
    "measure.columns_under": Read("moved", _same(lambda game: _next_floor(game, _under_the_middle))),
    "villa.in_hand": Read(("rest", "hand"), _same(lambda game: frozenset(game.villa.in_hand))),
    "hand.column": Read("hand", _same(_hand(lambda hand: hand.column))),
    "hand.state": Read("hand", _same(_hand(lambda hand: str(hand.state)))),
    "hand.steadied": Read("hand", _same(_hand(lambda hand: hand.steadied))),
    "hand.grab_z": Read("pulling", _near(_hand(lambda hand: float(hand.grab_z)), CM)),
    "hand.strain": Read("pulling", _trailing("strain", NEWTON)),
    "hand.is_free": Read("pulling", _same(_hand(lambda hand: hand.is_free()))),
    "hand.taken_up": Read("hand", _same(_hand(lambda hand: hand.taken_up))),
    "hand.carry_z": Read("there", _near(_hand(lambda hand: float(hand.carry_z())), CM)),
    "hand.surface_below": Read("there", _near(_hand(_surface), CM)),
    "hand.piece": Read("hand", _same(_hand(lambda hand: hand.piece))),
    "hand.level": Read("hand", _same(_hand(lambda hand: hand.level))),
    "hand.x": Read("there", _near(_hand(lambda hand: float(hand.x)), CM)),
    "hand.y": Read("there", _near(_hand(lambda hand: float(hand.y)), CM)),
    "hand.yaw": Read("there", _near(_hand(lambda hand: float(hand.yaw)), DEG)),
    "hand.rest_z": Read("there", _near(_hand(lambda hand: float(hand.rest_z)), CM)),
    "hand.columns_under": Read("there", _same(_hand(lambda hand: hand.columns_under()))),
    "hand.touching": Read("there", _trailing("touching", None)),
    "hand.tilt_deg": Read("there", _trailing("tilt_deg", DEG)),
    "game.landing_refusal": Read("there", _same(_landing)),    # the carried column's ghost, and its words
}
COLUMN_ONLY = {"hand.column", "hand.steadied", "hand.grab_z", "hand.strain", "hand.is_free", "hand.carry_z",
               "hand.surface_below", "game.landing_refusal"}
FLOOR_ONLY = {"hand.piece", "hand.level", "hand.x", "hand.y", "hand.yaw", "hand.rest_z", "hand.columns_under",
              "hand.touching", "hand.tilt_deg"}
CARRIED = {"game.landing_refusal"}      # asked of a column carried, not one set down


def compare(here, there, seen: Seen, at_rest: bool) -> dict:
    """Every read that can be compared now, compared; what differs, by name."""
    when = {"each"}
    if at_rest:
        when.add("rest")
        key = _rest_key(here)
        if key != seen.rest:
            seen.rest = key
            when.add("moved")
    hands = here.hand is not None and there.hand is not None and is_floor(here.hand) == is_floor(there.hand) \
        and str(here.hand.state) == str(there.hand.state)
    floor = hands and is_floor(here.hand)
    if hands:
        when.add("hand")
        if here.hand.state == Grip.PULLING:
            when.add("pulling")
        if _drawn_there(here, there):
            when.add("there")
    differ = {}
    for name, read in READS.items():
        if not when & read.whens:
            continue
        if (floor and name in COLUMN_ONLY) or (hands and not floor and name in FLOOR_ONLY):
            continue
        if name in CARRIED and (floor or here.hand.state != Grip.CARRYING):
            continue
        seen.compared[name] += 1
        found = read.differ(here, there, seen)
        if found:
            differ[name] = found
    return differ


def _rest_key(game) -> tuple:
    return game.state.top_level, tuple(sorted((piece, tuple(round(v, 4) for v in pos))
                                              for piece, (pos, _quat) in game.villa.poses().items()))


def _drawn_there(here, there) -> bool:
    """Is the piece in hand drawn online where the hot seat has it (and lying still there)?"""
    piece = here.hand.piece if is_floor(here.hand) else here.hand.column
    if piece not in there.villa.nodes or piece not in here.villa.nodes:
        return False
    a, b = _poses(here.villa, [piece])[piece], _poses(there.villa, [piece])[piece]
    return _close(a[0], b[0], CM) and _same_turn(a[1], b[1]) and here.hand.state in (
        Grip.PULLING, Grip.CARRYING, Grip.HELD, Laying.CARRYING, Laying.HELD)



