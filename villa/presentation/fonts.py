"""The one font loader: DejaVu in four cuts, from the game's own fonts folder or the system's.

`font(kind)` is loaded once per process (a font's size is fixed once it has drawn); None means
Panda3D's built-in font is used, which the game never needs where DejaVu is installed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from panda3d.core import DynamicTextFont, Filename, SamplerState

ROOT = Path(__file__).resolve().parents[2]
FONT_DIRS = (ROOT / "fonts", Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"),
             Path("/usr/share/fonts/TTF"))
FONT_FILES = {"body": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "title": "DejaVuSerif-Bold.ttf",
              "serif": "DejaVuSerif.ttf"}


@lru_cache(maxsize=None)
def font(kind: str = "body") -> DynamicTextFont | None:
    """A DejaVu font (body, bold, title, serif), or None: Panda3D's default font is used then."""
    for folder in FONT_DIRS:
        path = folder / FONT_FILES[kind]
        if path.exists():
            loaded = DynamicTextFont(Filename.fromOsSpecific(str(path)))
            if loaded.isValid():
                loaded.setPixelsPerUnit(64)
                loaded.setPageSize(512, 512)
                loaded.setTextureMargin(8)  # room between glyphs, so mipmaps do not bleed
                loaded.setMinfilter(SamplerState.FT_linear_mipmap_linear)
                return loaded
    return None
