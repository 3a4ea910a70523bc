"""Smooth at a distance: a client draws each moving piece between the poses it heard, a little in the past,
whatever order and rhythm they arrived in."""

from __future__ import annotations

import math

import pytest

from villa.match import FRAME
from villa.online.client.smoothing import BLEND_S, Smoothing

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


def test_the_own_held_piece_is_drawn_at_the_pointer_at_once_and_settles_where_the_server_has_it():
    smooth = Smoothing(delay=0.1)
    smooth.heard(10, {"red-hex": ((10.0, 0.0, 5.0), STILL), "blue-hex": ((0.0, 10.0, 5.0), STILL)}, now=1.0)
    smooth.hold("red-hex", (9.0, 0.0, 5.0), number=1, now=1.0)      # grabbed 1 cm short of its centre
    smooth.aim((15.0, 2.0, 5.0), number=2)
    assert smooth.pose("red-hex", now=1.0)[0] == (16.0, 2.0, 5.0)     # before any word from the server
    assert smooth.pose("blue-hex", now=1.0)[0] == (0.0, 10.0, 5.0)
    smooth.heard(20, {"red-hex": ((10.0, 0.0, 5.0), STILL)}, now=1.1, done=1)   # the aim not carried out yet
    assert smooth.pose("red-hex", now=1.1)[0] == (16.0, 2.0, 5.0)
    smooth.heard(30, {"red-hex": ((14.0, 2.0, 5.0), TURNED)}, now=1.2, done=2)  # carried out: it stuck 2 cm short
    assert smooth.pose("red-hex", now=1.2)[0][0] == pytest.approx(16.0)          # blended in, not jumped
    assert smooth.pose("red-hex", now=1.2 + BLEND_S / 2)[0][0] == pytest.approx(15.0)
    (x, y, _z), quat = smooth.pose("red-hex", now=1.2 + BLEND_S)
    assert (x, y) == pytest.approx((14.0, 2.0)) and quat == TURNED


def test_a_piece_let_go_blends_back_into_the_poses_heard():
    smooth = Smoothing(delay=0.0)
    smooth.heard(10, {"red-hex": ((10.0, 0.0, 5.0), STILL)}, now=1.0)
    smooth.hold("red-hex", (10.0, 0.0, 5.0), number=1, now=1.0)
    smooth.aim((20.0, 0.0, 5.0), number=2)
    smooth.let_go(now=1.0)                             # refused: it never moved on the server
    assert smooth.pose("red-hex", now=1.0)[0][0] == pytest.approx(20.0)
    assert 10.0 < smooth.pose("red-hex", now=1.0 + BLEND_S / 2)[0][0] < 20.0
    assert smooth.pose("red-hex", now=1.0 + BLEND_S)[0] == pytest.approx((10.0, 0.0, 5.0))


def test_a_piece_lowered_and_held_is_drawn_as_the_server_has_it_now_and_blends_back_once_let_go():
    smooth = Smoothing(delay=0.1)
    smooth.heard(10, {"floor-2": ((0.0, 0.0, 20.0), STILL)}, now=1.0)
    smooth.hold("floor-2", None, number=1, now=1.0)
    smooth.aim((2.0, 0.0, 20.0), number=2)
    smooth.rests_in_hand(now=1.05)                    # lowered onto the columns, the hands holding on
    smooth.heard(12, {"floor-2": ((2.0, 0.0, 18.0), STILL)}, now=1.1)
    assert smooth.pose("floor-2", now=1.05)[0] == (2.0, 0.0, 20.0), "no jump from the pointer at lowering"
    later = 1.05 + BLEND_S + 0.01
    smooth.heard(14, {"floor-2": ((2.5, 0.0, 17.9), TURNED)}, now=later)    # it tips as it sits
    assert smooth.pose("floor-2", now=later) == ((2.5, 0.0, 17.9), TURNED), "the newest the server said, not the past"
    smooth.let_go(now=later)
    assert smooth.pose("floor-2", now=later) == ((2.5, 0.0, 17.9), TURNED)   # no jump at letting go ...
    smooth.heard(30, {"floor-2": ((2.5, 0.0, 17.9), TURNED)}, now=later + 0.3)
    assert smooth.pose("floor-2", now=later + 0.3 + BLEND_S) == ((2.5, 0.0, 17.9), TURNED)   # ... then as heard


def test_a_villa_heard_whole_is_drawn_where_it_stands_at_once_and_no_piece_ahead_of_it():
    """A villa built anew (the next round): its pieces are not glided there from where the fallen ones lay, and the
    column that was in hand when it fell is not drawn at the pointer any more."""
    smooth = Smoothing(delay=0.1)
    smooth.heard(10, {"red-hex": ((30.0, 0.0, 1.0), TURNED), "blue-hex": ((20.0, 5.0, 1.0), TURNED)}, now=1.0)
    smooth.hold("red-hex", (30.0, 0.0, 1.0), number=1, now=1.0)
    smooth.aim((40.0, 0.0, 1.0), number=2)
    smooth.anew()
    smooth.heard(12, {"red-hex": ((2.0, 0.0, 5.2), STILL), "blue-hex": ((-2.0, 0.0, 5.2), STILL)}, now=1.02)
    assert smooth.pose("red-hex", now=1.02) == ((2.0, 0.0, 5.2), STILL)
    assert smooth.pose("blue-hex", now=1.02) == ((-2.0, 0.0, 5.2), STILL)
