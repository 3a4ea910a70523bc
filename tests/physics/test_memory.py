"""A villa let go is freed at once by its reference count: a Bullet world is megabytes, and
computer players plan on copies by the dozen."""

import gc
import weakref

import pytest

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
