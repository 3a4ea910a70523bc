"""Helpers for driving the villa as the GUI would: one call per 1/60 s frame."""

from __future__ import annotations

import pytest
from panda3d.core import Point3

from villa.physics import Villa, preset

FRAME = 1 / 60


def frames(villa: Villa, count: int, until=None) -> int:
    """Step `count` frames, or fewer if `until()` comes true; returns the frames stepped."""
    for i in range(count):
        villa.step(FRAME)
        if until is not None and until():
            return i + 1
    return count


def set_down(villa: Villa, pull, x: float, y: float) -> None:
    """Carry a free column over (x, y), set it down and let the villa settle."""
    pull.aim(Point3(x, y, 0))
    frames(villa, 240, lambda: abs(villa.nodes[pull.column].getX() - x) < 0.02
           and abs(villa.nodes[pull.column].getY() - y) < 0.02)
    pull.place()
    frames(villa, 600, lambda: pull.state == "placed")
    assert villa.run_until_settled(10)


def settled_villa(name: str) -> Villa:
    villa = Villa.from_layout(preset(name), setup=True)
    assert villa.run_until_settled(5)
    return villa


@pytest.fixture
def rings() -> Villa:
    return settled_villa("rings")


@pytest.fixture
def free_corners() -> Villa:
    return settled_villa("free corners")
