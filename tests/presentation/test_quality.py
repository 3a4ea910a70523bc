"""Which graphics quality the game picks by itself: Low on a software renderer."""

from __future__ import annotations

import pytest

from villa.presentation.preferences import AUTOMATIC_QUALITY, Settings
from villa.presentation import quality


@pytest.mark.parametrize("renderer", ["llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer",
                                      "Google SwiftShader", "GDI Generic", "Microsoft Basic Render Driver"])
def test_software_renderers_get_low(renderer):
    assert quality.is_software(renderer)
    assert quality.automatic(renderer) == "low"
    assert quality.resolve(quality.AUTOMATIC, renderer) == "low"


@pytest.mark.parametrize("renderer", ["NVIDIA GeForce RTX 3060/PCIe/SSE2", "AMD Radeon RX 6600 (radeonsi, navi23)",
                                      "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", "Apple M1"])
def test_graphics_chips_get_the_usual_preset(renderer):
    assert not quality.is_software(renderer)
    assert quality.resolve(quality.AUTOMATIC, renderer) == quality.HARDWARE_DEFAULT


def test_a_preset_the_player_chose_is_kept_whatever_the_renderer():
    for name in quality.QUALITIES:
        assert quality.resolve(name, "llvmpipe") == name


def test_the_settings_leave_it_to_the_game_unless_the_player_chooses():
    assert Settings().graphics_quality == AUTOMATIC_QUALITY == quality.AUTOMATIC
    assert Settings(graphics_quality="high").validated().graphics_quality == "high"


def test_each_preset_adds_to_the_one_below():
    low, medium, high = (quality.PRESETS[name] for name in quality.QUALITIES)
    assert low.shadow_map is None and low.contact_rings and not low.multisamples
    assert (medium.shadow_map, high.shadow_map) == (1024, 2048)
    assert medium.occlusion and high.occlusion and medium.multisamples and high.multisamples >= medium.multisamples
