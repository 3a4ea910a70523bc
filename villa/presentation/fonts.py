"""The one font loader: the bundled DejaVu fonts in four cuts (`assets.FONTS`).

`font(kind)` is loaded once per process (a font's size is fixed once it has drawn); None means
Panda3D's built-in font is used, which only a broken installation would need.
"""

from __future__ import annotations

from functools import lru_cache

from panda3d.core import DynamicTextFont, Filename, SamplerState, TextNode

from villa.presentation import assets


@lru_cache(maxsize=None)
def font(kind: str = "body") -> DynamicTextFont | None:
    """A DejaVu font (body, bold, title, serif), or None: Panda3D's default font is used then."""
    path = assets.font_file(kind)
    if not path.exists():
        return None
    loaded = DynamicTextFont(Filename.fromOsSpecific(str(path)))
    if not loaded.isValid():
        return None
    loaded.setPixelsPerUnit(64)
    loaded.setPageSize(512, 512)
    loaded.setTextureMargin(8)  # room between glyphs, so mipmaps do not bleed
    loaded.setMinfilter(SamplerState.FT_linear_mipmap_linear)
    return loaded


def text_width(words: str, typeface: DynamicTextFont | None) -> float:
    """How wide `words` run (their widest line), at text scale 1."""
    measure = TextNode("villa-measure")
    if typeface is not None:
        measure.setFont(typeface)
    return max((measure.calcWidth(line) for line in words.split("\n")), default=0.0)


def fitted_scale(words: str, typeface: DynamicTextFont | None, room: float, scale: float) -> float:
    """The text scale at which `words` (their widest line) fit `room` across: `scale`, or smaller where a
    language's words run longer than the button they label."""
    width = text_width(words, typeface)
    return scale if width * scale <= room else room / width
