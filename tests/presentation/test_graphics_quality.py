"""The graphics quality presets: each draws without errors, Low is what the game picks on a
software renderer, and what each adds (shadow map, multisampling) is there."""

from __future__ import annotations

import pytest

from villa.presentation import quality

pytestmark = pytest.mark.gui


def _picture(stage):
    from panda3d.core import PNMImage
    image = PNMImage()
    stage.base.graphicsEngine.renderFrame()
    stage.win.getScreenshot(image)
    return image


def _brightness(image, rows=(0.5, 1.0)) -> float:
    w, h = image.getXSize(), image.getYSize()
    return sum(image.getBright(x, y) for x in range(0, w, 16) for y in range(int(h * rows[0]), int(h * rows[1]), 16))


@pytest.fixture
def notices():
    """What Panda3D reports while the test runs (a shader that does not compile, a GL error)."""
    from panda3d.core import LineStream, Notify
    stream = LineStream()
    Notify.ptr().setOstreamPtr(stream, False)
    lines: list[str] = []

    def read() -> list[str]:
        while stream.isTextAvailable():
            lines.append(stream.getLine())
        return lines
    yield read
    Notify.ptr().setOstreamPtr(None, False)


def test_the_game_picks_low_by_itself_on_a_software_renderer(stage, game, frames):
    screen = game(layout="rings", seed=1)
    frames(2)
    renderer = quality.renderer_of(stage)
    choice = quality.automatic_choice(stage)
    assert choice.renderer == renderer
    if quality.is_software(renderer):   # the machines the tests run on have no GPU: Mesa's llvmpipe
        assert choice.software and choice.quality == "low"
        assert screen.view.quality == "low" and screen.view.software_renderer
    else:
        assert not choice.software and screen.view.quality == quality.HARDWARE_DEFAULT
    screen.view.set_graphics_quality("high")
    screen.view.set_graphics_quality(quality.AUTOMATIC)
    assert screen.view.quality == choice.quality


@pytest.mark.parametrize("preset", quality.QUALITIES)
def test_each_preset_draws_the_villa_and_its_shadow_without_errors(stage, game, frames, snapshot, notices, preset):
    """Low has no shadow map: its shadows are drawn straight into the table's light map."""
    from panda3d.core import PNMImage
    screen = game(layout="rings", seed=1)
    screen.hud.controls.hide()
    screen.view.set_graphics_quality(preset)
    frames(8)
    snapshot(f"quality-{preset}")
    assert not [line for line in notices() if ":error" in line or "error" in line.lower()]
    settings = quality.PRESETS[preset]
    assert screen.view.quality == preset
    assert screen.view.shadow_size == settings.shadow_map
    assert (screen.view.shadows.sun is None) == (settings.shadow_map is None)
    if settings.multisamples:   # Mesa's software renderer offers them offscreen, as graphics chips do
        assert screen.view.multisampling is not None and screen.view.multisampling.samples > 1
    else:
        assert screen.view.multisampling is None
    picture = _picture(stage)
    w, h = picture.getXSize(), picture.getYSize()
    middle = [picture.getXel(x, y) for x in range(w // 4, 3 * w // 4, 8) for y in range(h // 4, 3 * h // 4, 8)]
    saturated = sum(1 for c in middle if max(c) - min(c) > 0.25)   # the paint and the stains
    assert saturated > len(middle) // 20, "the villa is drawn in the middle of the picture"
    assert sum(sum(c) for c in middle) / len(middle) > 0.4, "and lit"
    shade = screen.view.shadows.table.shade_buffer.getTexture()
    assert stage.base.graphicsEngine.extractTextureData(shade, stage.win.getGsg())
    image = PNMImage()
    shade.store(image)
    sunlit = [image.getRed(x, y) for x in range(0, image.getXSize(), 4) for y in range(0, image.getYSize(), 4)]
    assert min(sunlit) < 0.4, "the villa's shadow"
    assert max(sunlit) > 0.95, "open table round it"


def test_a_view_is_drawn_at_the_chosen_quality_from_its_first_frame(stage, game, monkeypatch):
    """The settings' quality reaches the view as it is made: its shadow buffers are made once."""
    from villa.presentation import view
    made = []
    real = view.Shadows

    def shadows(*args, **kwargs):
        made.append(args[2].name)
        return real(*args, **kwargs)
    monkeypatch.setattr(view, "Shadows", shadows)
    monkeypatch.setattr(stage, "graphics_quality", "medium")
    screen = game(layout="rings", seed=1)
    assert screen.view.quality == "medium" and made == ["medium"]
