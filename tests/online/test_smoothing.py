"""Smooth at a distance: a client draws each moving piece between the poses it heard, a little in the past,
whatever order and rhythm they arrived in."""

from __future__ import annotations

import math

import pytest

from villa.match import FRAME
from villa.online.smoothing import Smoothing

STILL = (1.0, 0.0, 0.0, 0.0)
TURNED = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))   # 90 degrees about z


def test_a_piece_is_drawn_between_the_two_poses_heard_around_the_moment_shown():
    smooth = Smoothing(delay=0.1)
    smooth.heard(60, {"red-hex": ((0.0, 0.0, 0.0), STILL)}, now=10.0)
    smooth.heard(66, {"red-hex": ((6.0, 0.0, 0.0), TURNED)}, now=10.1)
    (x, _y, _z), quat = smooth.pose("red-hex", now=10.05 + 0.1)   # half way, shown 0.1 s behind
    assert x == pytest.approx(3.0, abs=0.01)
    assert math.degrees(2 * math.atan2(quat[3], quat[0])) == pytest.approx(45.0, abs=1.0)
    assert smooth.pose("red-hex", now=20.0)[0] == (6.0, 0.0, 0.0)     # nothing newer: where it was last seen
    assert smooth.pose("blue-hex", now=10.0) is None


def test_a_pose_that_arrives_late_is_not_drawn_backwards():
    smooth = Smoothing(delay=0.0)
    smooth.heard(2, {"red-hex": ((2.0, 0.0, 0.0), STILL)}, now=1.0)
    smooth.heard(4, {"red-hex": ((4.0, 0.0, 0.0), STILL)}, now=1.0 + 2 * FRAME)
    smooth.heard(3, {"red-hex": ((9.0, 0.0, 0.0), STILL)}, now=1.0 + 3 * FRAME)   # overtaken on the way
    positions = [smooth.pose("red-hex", now=1.0 + n * FRAME / 2)[0][0] for n in range(6)]
    assert positions == sorted(positions) and 9.0 not in positions
