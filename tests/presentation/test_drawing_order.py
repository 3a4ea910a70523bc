"""What is drawn in which order: the table after the opaque pieces (its hidden pixels cost
nothing), but before anything see-through, which writes no depth for the table to respect."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def _picture(stage):
    from panda3d.core import PNMImage
    image = PNMImage()
    stage.win.getScreenshot(image)
    return image


def _changed(a, b) -> int:
    return sum(1 for y in range(0, a.getYSize(), 2) for x in range(0, a.getXSize(), 2)
               if (a.getXel(x, y) - b.getXel(x, y)).length() > 0.05)


def test_a_ghost_over_the_bare_table_is_seen(stage, game, frames):
    screen = game(layout="rings", seed=1)
    screen.hud.controls.hide()
    frames(5)
    stage.base.graphicsEngine.renderFrame()   # a frame without the game's hints, which hide the ghost
    bare = _picture(stage)
    column = sorted(screen.villa.columns)[0]
    screen.ghost.show(column, screen.view.scene.pieces[column], 25.0, 15.0, 4.0, 0.0, allowed=True)
    stage.base.graphicsEngine.renderFrame()
    assert _changed(bare, _picture(stage)) > 100, "the ghost shows over the table"
