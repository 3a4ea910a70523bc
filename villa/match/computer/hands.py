"""A computer player's hand, frame by frame: the same pull, carry and set-down a person makes with
the mouse, driven through the match.

Each move is a generator: the seat calls `next()` on it once per frame (before the villa steps)
until it is done. A move ends when what it did has been judged (the hand is empty again),
the villa fell, or it gave up.
"""

from __future__ import annotations

import logging
import math
from typing import Iterator

from panda3d.core import Point3

from villa import rules
from villa.match.computer.brain import ComputerPlayer, pull_plan
from villa.match.table import FRAME, Match
from villa.physics.pulling import Pull
from villa.rules.state import Step

log = logging.getLogger(__name__)

PULL_SPEED = 3.0             # cm/s outward
PULL_FRAMES = 900            # 15 s of pulling before the column is given up
CARRY_FRAMES = 360           # to carry a free column over its spot
SET_DOWN_FRAMES = 1200       # for it to come down and be judged
LAY_FRAMES = 240             # to carry the floor over its place
LOWER_FRAMES = 1500          # for the floor to come down and be judged
SET_DOWN_TRIES = 4

Move = Iterator[None]


def _outward(pos) -> tuple[float, float]:
    length = math.hypot(pos.x, pos.y) or 1.0
    return pos.x / length, pos.y / length


def _draw_out(match: Match, column: str) -> Iterator[None]:
    """Take the column and draw it out from under its floor; done when it is free (or not)."""
    plan = pull_plan(match.villa, column)
    loaded = plan is None or plan.direction is not None
    refusal = match.take(column, steady=loaded)
    if refusal is not None:
        log.info("%s could not be taken: %s", column, refusal)
        return
    pull = match.hand
    if pull.state != "pulling":
        return
    start = match.villa.nodes[column].getPos()
    dx, dy = plan.direction if plan is not None else _outward(start)
    for i in range(PULL_FRAMES):
        pull.aim(start + Point3(dx, dy, 0) * (1.0 + i * PULL_SPEED * FRAME))
        yield
        if pull.state != "pulling" or match.collapsed:
            return


def build(match: Match, brain: ComputerPlayer, column: str) -> Move:
    """Take `column`, draw it out, carry it over a spot on the top floor and set it down."""
    yield from _draw_out(match, column)
    for _ in range(SET_DOWN_TRIES):
        pull = match.hand
        if match.collapsed or not isinstance(pull, Pull):
            return
        if pull.state != "carrying":
            log.info("%s would not come free: the build is given up", column)
            match.give_up()
            return
        spot = brain.landing(match.villa, column, match.state.top_level, match.state)
        if spot is None:
            log.info("there is no room for %s on the top floor: the build is given up", column)
            match.give_up()
            return
        x, y = spot
        node = match.villa.nodes[column]
        pull.aim(Point3(x, y, 0))
        for _ in range(CARRY_FRAMES):
            if math.hypot(node.getX() - x, node.getY() - y) < 0.05 or match.collapsed:
                break
            yield
        if match.collapsed:
            return
        refusal = match.set_down()
        if refusal is not None:
            log.info("%s may not be set down there: %s", column, refusal)
            continue
        for _ in range(SET_DOWN_FRAMES):
            yield
            if match.hand is not pull:
                break
    if match.state.turn.step is Step.IN_HAND and isinstance(match.hand, Pull) and not match.collapsed:
        match.give_up()


def take_out(match: Match, column: str) -> Move:
    """A failed objection's penalty: draw one of the objector's columns out of the villa."""
    yield from _draw_out(match, column)
    pull = match.hand
    if isinstance(pull, Pull) and pull.state == "pulling" and not match.collapsed:
        match.give_up()   # it would not come free: another may be tried
        return
    for _ in range(SET_DOWN_FRAMES):
        if match.hand is not pull or match.collapsed:
            return
        yield


def lay_floor(match: Match, brain: ComputerPlayer) -> Move:
    """Carry the next floor over the place the brain chose, turn it, lower it onto its columns."""
    spot = brain.floor_spot(match.villa, match.state)
    if spot is None or match.start_laying() is not None:
        match.give_up()
        return
    lay = match.hand
    lay.aim(Point3(spot.x, spot.y, 0))
    lay.turn(spot.yaw)
    for _ in range(LAY_FRAMES):
        if abs(lay.x - spot.x) < 1e-6 and abs(lay.y - spot.y) < 1e-6 and abs(lay.yaw - lay.aim_yaw) < 1e-6:
            break
        yield
    if match.lower_floor() is not None:
        match.give_up()
        return
    for _ in range(LOWER_FRAMES):
        yield
        if match.hand is not lay or match.collapsed:
            break
    if match.state.turn.step is Step.LAY_FLOOR and not match.collapsed and match.hand is None:
        match.act(rules.GiveUpFloor())   # the floor was refused where it came to rest
