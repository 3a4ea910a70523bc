"""A villa let go is freed at once by its reference count: a Bullet world is megabytes, and
computer players plan on copies by the dozen."""

import gc
import weakref

import pytest
from panda3d.core import Point3, TransformState

from villa.physics import PRESETS, Villa

from .conftest import frames


@pytest.fixture
def no_cyclic_collector():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_a_villa_dropped_is_freed_without_the_cyclic_collector(no_cyclic_collector):
    villa = Villa.from_layout(PRESETS["rings"])
    villa.run_until_settled(5)
    copy = villa.copy()
    dropped, copied = weakref.ref(villa), weakref.ref(copy)
    del villa, copy
    assert dropped() is None and copied() is None


def test_a_villa_dropped_with_a_column_in_hand_is_freed_too(no_cyclic_collector):
    villa = Villa.from_layout(PRESETS["rings"])
    villa.run_until_settled(5)
    pull = villa.grab("red-thick")
    frames(villa, 3)
    copy = villa.copy()
    lay = copy.lay_floor()
    dropped, laid_on = weakref.ref(villa), weakref.ref(copy)
    del villa, pull, copy, lay
    assert dropped() is None and laid_on() is None


def test_the_poses_of_a_villa_stepped_without_a_window_are_let_go():
    """Panda3D keeps every transform made (a pose of each body after each call to Bullet) until asked to let
    go of the unused ones; nothing draws here to ask. Poses that never repeat must not pile up."""
    villa = Villa.from_layout(PRESETS["rings"])
    villa.run_until_settled(5)
    kept = TransformState.getNumStates()
    villa.keep_awake()
    pull = villa.grab("red-thin-1")
    for second in range(1, 6):   # the hand moves the column: every frame new poses
        pull.aim(Point3(second, 0.0, 5.0))
        frames(villa, 60)
        assert TransformState.getNumStates() < kept + 400, second
