"""Graphics quality: what each preset draws, and the one the game picks when it is left to choose.

A software renderer (Mesa's llvmpipe on a machine without a GPU) pays for every pixel
on the CPU: there the game picks Low, the cheapest. At 1280×720 on two quiet cores Low
draws a frame at rest in 12-14 ms (95th percentile 13.5-16.5 ms, scripts/bench_render.py):
60 frames a second. Medium and High take about 40 ms there (their shadow maps and
multisampling are meant for a GPU). Timings on a machine busy with other work run two
to three times longer.
"""

from __future__ import annotations

from dataclasses import dataclass

from villa.presentation.preferences import AUTOMATIC_QUALITY as AUTOMATIC   # the settings' value: the game chooses
from villa.presentation.preferences import GRAPHICS_QUALITIES as QUALITIES


@dataclass(frozen=True)
class Preset:
    name: str
    shadow_map: int | None    # the sun's shadow map, texels a side (None: no shadow map)
    shadow_taps: int          # filtered look-ups into it per pixel, each a 2×2 comparison
    table_light: int          # the light map on the table round the villa, texels a side
    per_pixel: bool           # lit per pixel with the normal maps (else per vertex, no relief)
    occlusion: bool           # ambient occlusion from the pieces nearby, per pixel
    contact_rings: bool       # shade baked round each column's foot instead
    multisamples: int         # anti-aliasing samples per pixel, where the driver offers them (0: none)


PRESETS = {
    # software rendering: no shadow map; the villa's shadow on the table worked out in its light
    # map, only when something moved; baked contact shadows
    "low": Preset("low", shadow_map=None, shadow_taps=0, table_light=256, per_pixel=False, occlusion=False,
                  contact_rings=True, multisamples=0),
    "medium": Preset("medium", shadow_map=1024, shadow_taps=4, table_light=512, per_pixel=True, occlusion=True,
                     contact_rings=False, multisamples=4),
    "high": Preset("high", shadow_map=2048, shadow_taps=8, table_light=1024, per_pixel=True, occlusion=True,
                   contact_rings=False, multisamples=8),
}
HARDWARE_DEFAULT = "medium"

# Names the drivers give their software renderers (GL_RENDERER), in lower case.
SOFTWARE_RENDERERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader", "lavapipe",
                      "gdi generic", "microsoft basic render")


def is_software(renderer: str) -> bool:
    """Whether the renderer named (the driver's GL_RENDERER string) draws on the CPU."""
    name = renderer.lower()
    return any(word in name for word in SOFTWARE_RENDERERS)


def automatic(renderer: str) -> str:
    """The preset the game picks by itself for a renderer: Low for a software one."""
    return "low" if is_software(renderer) else HARDWARE_DEFAULT


def resolve(quality: str, renderer: str) -> str:
    """A settings value ("auto", "low", "medium", "high") as the preset to draw with."""
    return quality if quality in PRESETS else automatic(renderer)


def renderer_of(stage) -> str:
    """The name of the renderer drawing the stage's window ("" before it has one)."""
    gsg = stage.win.getGsg() if stage.win is not None else None
    return gsg.getDriverRenderer() if gsg is not None else ""


@dataclass(frozen=True)
class AutomaticChoice:
    """What the game picks by itself on this machine, and why (for the settings screen)."""

    quality: str          # "low", "medium" or "high"
    software: bool        # the renderer draws on the CPU
    renderer: str


def automatic_choice(stage) -> AutomaticChoice:
    renderer = renderer_of(stage)
    return AutomaticChoice(automatic(renderer), is_software(renderer), renderer)
