"""The settings' graphics quality sets the sun's shadow map: none, 512² or 1024²."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def _brightness(stage) -> float:
    from panda3d.core import PNMImage
    image = PNMImage()
    stage.win.getScreenshot(image)
    w, h = image.getXSize(), image.getYSize()
    return sum(image.getBright(x, y) for x in range(0, w, 16) for y in range(h // 3, h, 16))


def test_low_quality_draws_no_shadows_and_high_a_finer_map(stage, game, frames, snapshot):
    screen = game(layout="rings", seed=1)
    screen.hud.controls.hide()
    frames(5)
    shaded = _brightness(stage)
    snapshot("quality-medium")
    screen.view.set_graphics_quality("low")
    screen.view.shadows.refresh()
    frames(5)
    assert screen.view.shadow_size is None
    snapshot("quality-low")
    assert _brightness(stage) > shaded * 1.01, "without shadows the table round the villa is brighter"
    screen.view.set_graphics_quality("high")
    frames(5)
    assert screen.view.shadows.sun.size == 1024
    assert abs(_brightness(stage) - shaded) < shaded * 0.01
