"""A computer player's hand, frame by frame: the same pull, carry and set-down a person makes with
the mouse, driven through the match.

Each move is a generator: the seat calls `next()` on it once per frame (before the villa steps)
until it is done. A pull aims exactly as the trial on the copy did (`trials.aim_point`), so the live
villa sees the pull that was tried. The hand feels as it pulls: when the floors move much more than
the trial foresaw, or the column will not come free, it gives the column up, as a careful person
does. A column set down and a floor lowered are held until they stand (a floor that tips is lifted
and shifted), and only then let go. A move ends when what it did has been judged (the hand is empty
again), the villa fell, or it gave up; nothing is tried for ever.
"""

from __future__ import annotations

import logging
import math
from typing import Iterator

import numpy as np
from panda3d.core import Point3

from villa.match import requests as rq
from villa.match.computer import outlines, reading, trials
from villa.match.computer.plans import Plan
from villa.match.table import Match
from villa.physics.dimensions import column_spec
from villa.physics.laying import FloorLay
from villa.physics.pulling import Grip, Pull
from villa.rules.pieces import TOP_FLOOR_LEVEL, floor_id
from villa.rules.state import Step

log = logging.getLogger(__name__)

CARRY_FRAMES = 360           # to carry a free column over its spot
OVER_SPOT = 0.05             # cm from its spot, and
STILL = 0.5                  # cm/s at most: a column set down while still swinging drifts on as it sinks
ON_FLOOR = 0.1               # cm its foot must lie inside the top floor's edge where it hangs
CLEARANCE = 0.05             # cm its spot must keep from the columns standing on the top floor when it gets there
SET_DOWN_FRAMES = 1200       # for it to come down and be judged
LAY_FRAMES = 240             # to carry the floor over its place
LOWER_FRAMES = 1500          # for the floor to come down and be judged
SIT_FRAMES = 180             # for a held floor to come down and lean no further (or to be lifted, or moved)
STILL_DEG = 0.02             # degrees a held floor may lean further per frame and count as still, for
STILL_FRAMES = 15            # this many frames
LEVEL_DEG = 0.5              # degrees a held floor may lean past the floor below it and count as sitting
LIFT_FRAMES = 10             # more, to come clear of the column tops it leaned on
SHIFT = 1.0                  # cm a tipping floor is moved towards its high side
STAND_FRAMES = 6             # a column set down is held upright this long once it stands, then let go
SET_DOWN_TRIES = 4
FEEL_SHIFT = 0.5             # cm the floors may move beyond what the trial foresaw before the hand lets go
STUCK_S = 20.0               # s a column may resist (no abort in the family edition) before it is left

Move = Iterator[None]


class Watch:
    """What the live villa did during the pulls, against the trials' forecasts (for measuring how well
    a copy predicts the live villa): per pull, the floors' shift foreseen and seen, and how far the
    floors stood from where the trial left them the moment the column came free (cm)."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, float, float]] = []

    def add(self, plan: Plan, floors: dict, shift: float) -> None:
        miss = 0.0
        for name, x, y, z in plan.forecast:
            if name in floors:
                sx, sy, sz = floors[name]
                miss = max(miss, math.sqrt((sx - x) ** 2 + (sy - y) ** 2 + (sz - z) ** 2))
        self.seen.append((plan.predicted_shift, shift, miss))


def pull(match: Match, plan: Plan, watch: Watch | None = None) -> Move:
    """Take the column, draw it out the planned way; then set it on the top floor, or (a penalty) let
    the match take it out of the game. A token pull is given up at once."""
    refusal = rq.ask(match, lambda seat: rq.Take(seat, plan.column, steady=plan.steady)).refusal
    if refusal is not None:
        log.info("%s could not be taken: %s", plan.column, refusal)
        return
    hand = match.hand
    if not isinstance(hand, Pull):
        return
    if plan.give_up and match.state.turn.step is Step.IN_HAND:
        rq.ask(match, rq.GiveUp)   # a token: the villa stays as it is
        return
    villa = match.villa
    before = trials.floor_poses(villa)
    held = hand.steadied
    start = villa.nodes[plan.column].getPos()
    family = not match.state.ruleset.abort_allowed
    if plan.direction is not None and hand.state is Grip.PULLING:
        limit = trials.pull_frames(plan.distance, plan.speed)
        frames = int(STUCK_S / trials.FRAME) if family else limit
        for i in range(frames):
            way = plan.direction if i < limit else _another_way(plan.direction, i // limit)
            _aim(match, trials.aim_point(start, way, plan.speed, i if i < limit else i % limit))
            yield
            if hand.state is not Grip.PULLING or match.collapsed:
                break
            shift = trials.shift_since(villa, before, held)
            if shift > plan.predicted_shift + FEEL_SHIFT and not family and match.state.turn.step is Step.IN_HAND:
                log.info("%s drags the floor %.1f cm: the hand lets go", plan.column, shift)
                rq.ask(match, rq.GiveUp)
                return
        if watch is not None and not match.collapsed and hand.state is Grip.CARRYING and plan.forecast:
            watch.add(plan, trials.floor_poses(villa), trials.shift_since(villa, before, held))
    if match.collapsed:
        return
    if hand.state is Grip.PULLING:
        log.info("%s would not come free: it is given up", plan.column)
        rq.ask(match, rq.GiveUp)
        return
    if match.state.turn.step is Step.TAKE_OUT or hand.state is Grip.TAKEN_OUT:
        for _ in range(SET_DOWN_FRAMES):
            if match.hand is not hand or match.collapsed:
                return
            yield
        return
    yield from set_down(match, hand, plan.landing)


def _aim(match: Match, point: Point3) -> None:
    """The hand moves what it holds toward the point, as a person's pointer does."""
    rq.ask(match, lambda seat: rq.Aim(seat, (point.x, point.y, point.z)))


def _another_way(direction: tuple[float, float], turn: int) -> tuple[float, float]:
    """A stuck column (the family edition knows no giving up) is drawn another way each time."""
    a = math.atan2(direction[1], direction[0]) + math.radians(50.0 * (turn if turn % 2 else -turn))
    return math.cos(a), math.sin(a)


def set_down(match: Match, hand: Pull, landing: tuple[float, float] | None, tries: int = SET_DOWN_TRIES) -> Move:
    """Carry the free column over its spot on the top floor and set it down; other spots if refused."""
    tried: list[tuple[float, float]] = []
    for _ in range(tries):
        if match.collapsed or match.hand is not hand:
            return
        if hand.state is not Grip.CARRYING:
            break
        if landing is not None and not _clear_of_others(match, hand.column, *landing):
            log.info("%s: the floors moved under its spot while it was pulled: another is found", hand.column)
            landing = None
        if landing is None:
            frame = reading.Frame(match.villa)
            for edge, room in reading.LANDING_TIERS:
                spots = reading.landings(match.villa, hand.column, match.state.top_level, frame,
                                         count=len(tried) + 1, avoid=tuple(tried), edge=edge, room=room)
                spots = [spot for spot in spots if spot not in tried]
                if spots:
                    break
            landing = spots[0] if spots else _stacked(match, frame, tried)
        if landing is None:
            break
        x, y = landing
        tried.append(landing)
        node = match.villa.nodes[hand.column]
        _aim(match, Point3(x, y, 0))
        for _ in range(CARRY_FRAMES):
            if _over_spot(node, x, y) or match.collapsed:
                break
            yield
        if match.collapsed:
            return
        landing = None
        if not _on_floor(match, hand.column):
            log.info("%s did not come over a spot on the floor: another is tried", hand.column)
            continue
        refusal = rq.ask(match, lambda seat: rq.SetDown(seat, hold=True)).refusal
        if refusal is not None:
            log.info("%s may not be set down there: %s", hand.column, refusal)
            continue
        held = 0
        for _ in range(SET_DOWN_FRAMES):
            yield
            if match.hand is not hand or match.collapsed:
                break
            held = held + 1 if match.holding else 0
            if held >= STAND_FRAMES:
                rq.ask(match, rq.LetGo)   # it stands on the floor under its own weight: the hand lets go
        again = match.hand
        if isinstance(again, Pull) and again is not hand and again.column == hand.column:
            hand = again   # the referee refused where it stood: taken up again, to be set down better
            continue
        if match.hand is not hand:
            return
    if match.state.turn.step is Step.IN_HAND and match.hand is hand and not match.collapsed:
        log.info("no spot takes %s: it is given up", hand.column)
        rq.ask(match, rq.GiveUp)


def _stacked(match: Match, frame: reading.Frame, tried: list) -> tuple[float, float] | None:
    """On a full red floor, squarely on top of a column standing there (regulation 8); None elsewhere."""
    level = match.state.top_level
    if level != TOP_FLOOR_LEVEL:
        return None
    tops = [(frame.pieces[c].x, frame.pieces[c].y) for c in sorted(frame.on_level(level))]
    return next((spot for spot in tops if spot not in tried), None)


def _over_spot(node, x: float, y: float) -> bool:
    """Hanging still over its spot: set down now, it sinks straight onto it."""
    velocity = node.node().getLinearVelocity()
    return math.hypot(node.getX() - x, node.getY() - y) < OVER_SPOT and math.hypot(velocity.x, velocity.y) < STILL


def _clear_of_others(match: Match, column: str, x: float, y: float) -> bool:
    """Is the spot, chosen before the pull, still clear of the columns on the top floor? A pull can shift
    the floors and what stands on them, and a column lowered onto a neighbour's top edge tips off it."""
    for other in match.state.columns_on(match.state.top_level):
        node = match.villa.nodes.get(other)
        if other == column or node is None:
            continue
        reach = column_spec(column).radius + column_spec(other).radius + CLEARANCE
        if math.hypot(node.getX() - x, node.getY() - y) < reach:
            return False
    return True


def _on_floor(match: Match, column: str) -> bool:
    """Would the column, set down where it hangs, stand wholly on the top floor (regulation 3)?"""
    level = match.state.top_level
    floor = match.villa.nodes.get(floor_id(level))
    if floor is None:
        return True   # the base plate: the referee judges
    node = match.villa.nodes[column]
    local = outlines.to_local(np.array([[node.getX(), node.getY()]]), floor.getX(), floor.getY(), floor.getH())
    return float(outlines.signed_distance(level, local)[0]) >= column_spec(column).radius + ON_FLOOR


def carry_on(match: Match) -> Move:
    """A column still in hand that may not be given up (the family edition): draw it on outward from
    the villa's middle until it comes free, then set it down wherever the top floor takes it."""
    hand = match.hand
    if not isinstance(hand, Pull):
        return
    if hand.state is Grip.PULLING:
        start = match.villa.nodes[hand.column].getPos()
        way = _outward(start.x, start.y)
        for i in range(int(STUCK_S / trials.FRAME)):
            _aim(match, trials.aim_point(start, way, trials.PULL_SPEED, i))
            yield
            if hand.state is not Grip.PULLING or match.collapsed:
                break
    if hand.state is Grip.CARRYING and not match.collapsed:
        yield from set_down(match, hand, None, tries=3 * SET_DOWN_TRIES)


def _outward(x: float, y: float) -> tuple[float, float]:
    length = math.hypot(x, y) or 1.0
    return (x / length, y / length) if length > 1e-6 else (1.0, 0.0)


def lay_floor(match: Match, plan: Plan) -> Move:
    """Carry the next floor over its planned place, turn it, lower it onto its columns and hold it; let go
    once it sits level, else lift it, shift it towards the side that stayed up and lower it again. A floor
    that will not sit is given up (or, a slip the plan may hold, let go all the same)."""
    x, y, yaw = plan.floor
    if not rq.ask(match, rq.LayFloor).accepted:
        rq.ask(match, rq.GiveUp)
        return
    lay = match.hand
    _aim(match, Point3(x, y, 0))
    rq.ask(match, lambda seat: rq.TurnFloor(seat, yaw))
    for _ in range(LAY_FRAMES):
        if abs(lay.x - x) < 1e-6 and abs(lay.y - y) < 1e-6 and abs(lay.yaw - lay.aim_yaw) < 1e-6:
            break
        yield
    for shift in range(plan.shifts + 1):
        if not rq.ask(match, lambda seat: rq.Lower(seat, hold=True)).accepted:
            rq.ask(match, rq.GiveUp)
            return
        yield from _until_it_sits(match, lay)
        if match.hand is not lay or match.collapsed:
            return
        if _sits(match, lay) or shift == plan.shifts:
            break
        log.info("floor-%d tips %.1f°: lifted and shifted", lay.level, lay.tilt_deg())
        yield from _shifted(match, lay)
        if match.hand is not lay or match.collapsed:
            return
    if not _sits(match, lay) and not plan.rash:
        log.info("floor-%d will not sit: it is given up", lay.level)
        if rq.ask(match, rq.GiveUp).accepted:
            return   # (where the rules forbid giving it up, it is let go as it lies)
    rq.ask(match, rq.LetGo)
    for _ in range(LOWER_FRAMES):
        yield
        if match.hand is not lay or match.collapsed:
            break
    if match.state.turn.step is Step.LAY_FLOOR and not match.collapsed and match.hand is None:
        rq.ask(match, rq.GiveUp)   # the floor was refused where it came to rest


def _sits(match: Match, lay: FloorLay) -> bool:
    """Does the held floor sit on its columns, as level as the floor below it?"""
    below = match.villa.tilt_deg(floor_id(lay.level - 1))
    return bool(lay.touching()) and lay.tilt_deg() <= below + LEVEL_DEG


def _until_it_sits(match: Match, lay: FloorLay) -> Move:
    """Wait until the held floor has come down onto its columns and leans no further."""
    last, still = None, 0
    for _ in range(SIT_FRAMES):
        yield
        if match.hand is not lay or match.collapsed:
            return
        tilt = lay.tilt_deg()
        still = still + 1 if last is not None and abs(tilt - last) < STILL_DEG and lay.touching() else 0
        last = tilt
        if still >= STILL_FRAMES:
            return


def _shifted(match: Match, lay: FloorLay) -> Move:
    """Lift the floor clear and carry it `SHIFT` towards its high side."""
    high_x, high_y = lay.high_side()
    rq.ask(match, rq.Lift)
    for _ in range(SIT_FRAMES):
        yield
        if match.hand is not lay or match.collapsed or not lay.touching():
            break
    for _ in range(LIFT_FRAMES):
        yield
    grip = lay.grip_point()
    goal = Point3(grip.x + SHIFT * high_x, grip.y + SHIFT * high_y, 0)
    _aim(match, goal)
    for _ in range(SIT_FRAMES):
        yield
        grip = lay.grip_point()
        if match.hand is not lay or match.collapsed or math.hypot(grip.x - goal.x, grip.y - goal.y) < 0.05:
            return
