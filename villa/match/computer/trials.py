"""Trying a pull on a copy of the villa before touching the live one.

The copy is built from the live villa's snapshot, and the very hand a person uses (`Pull`) draws
the column out along the way and at the speed the plan says, frame by frame as the match would;
once it is free the column is lifted out of the copy and the rest left to settle. What the copy
did is the outcome: whether anything fell, how far the floors moved, and how firmly the villa
stands afterwards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from panda3d.core import Point3

from villa.match.computer import reading
from villa.physics.pulling import Grip, PlacementError
from villa.physics.world import Villa
from villa.rules.pieces import level_of_floor

FRAME = 1.0 / 60.0          # the match's frame (villa.match.table.FRAME)
PULL_SPEED = 5.0            # cm/s: a careful person's pull
SLACK = 1.0                 # cm the hand starts ahead of the column's centre
EXTRA_S = 1.0               # s a pull may take beyond what its distance needs before it is given up: by
                            # then the hand, running ahead, pulls with all its force; a column still in
                            # place is held fast
SETTLE_S = 0.75             # s the copy is left to settle once the column is out (a floor that tips is
                            # well on its way by then)


@dataclass(frozen=True)
class Outcome:
    """What a pull did to a copy of the villa."""

    fell: bool
    free: bool                  # the column came out
    shift: float                # cm the floors moved at most (not the one held steady)
    shift_free: float           # cm they had moved the moment the column came free
    firm: float                 # cm: the weakest floor's statics margin afterwards
    frames: int                 # frames the pull took until the column was free
    forecast: tuple = ()        # (floor, x, y, z) of every floor the moment the column came free


def aim_point(start, direction, speed: float, frame: int) -> Point3:
    """Where the hand aims on `frame` of a pull: ahead of the column, moving out at `speed`."""
    dx, dy = direction
    reach = SLACK + frame * speed * FRAME
    return Point3(start.x + dx * reach, start.y + dy * reach, start.z)


def pull_frames(distance: float, speed: float) -> int:
    return int((distance / max(speed, 0.5) + EXTRA_S) / FRAME)


def floor_poses(villa) -> dict[str, tuple[float, float, float]]:
    return {p: tuple(villa.nodes[p].getPos()) for p in villa.nodes if level_of_floor(p) is not None}


def shift_since(villa, before: dict[str, tuple[float, float, float]], skip: str | None = None) -> float:
    moved = 0.0
    for piece, (x, y, z) in before.items():
        if piece == skip or piece not in villa.nodes:
            continue
        p = villa.nodes[piece].getPos()
        moved = max(moved, math.sqrt((p.x - x) ** 2 + (p.y - y) ** 2 + (p.z - z) ** 2))
    return moved


def try_pull(snapshot: dict, column: str, direction: tuple[float, float] | None, steady: bool,
             speed: float = PULL_SPEED, distance: float = 0.0) -> Outcome:
    """Draw `column` out of a copy of the villa and let the rest settle."""
    villa = Villa.from_snapshot(snapshot)
    before = floor_poses(villa)
    try:
        pull = villa.grab(column, None, steady)
    except PlacementError:
        return Outcome(True, False, math.inf, math.inf, -math.inf, 0)
    held = pull.steadied
    start = villa.nodes[column].getPos()
    frames = 0
    if direction is not None:
        for frames in range(1, pull_frames(distance, speed) + 1):
            if pull.state is not Grip.PULLING:
                break
            pull.aim(aim_point(start, direction, speed, frames - 1))
            villa.step(FRAME)
            if villa.collapse is not None:
                break
    shift = shift_since(villa, before, held)
    forecast = tuple((p, *xyz) for p, xyz in sorted(floor_poses(villa).items()))
    if villa.collapse is not None or pull.state is not Grip.CARRYING:
        free = pull.state is Grip.CARRYING
        return Outcome(villa.collapse is not None, free, shift, shift, -math.inf, frames)
    shift_free = shift
    pull.take_out()
    for _ in range(int(SETTLE_S / FRAME)):
        villa.step(FRAME)
        if villa.collapse is not None or villa.settled:
            break
    fell = villa.collapse is not None
    shift = max(shift, shift_since(villa, before))
    firm = -math.inf if fell else reading.Frame(villa).weakest()
    return Outcome(fell, True, shift, shift_free, firm, frames, forecast)
