"""Where the game's files are: textures, models, sounds, fonts, translations and the icon.

Two layouts hold them:
- a checkout (or an editable install): the folders at the top of the project, the
  translations in villa/locale;
- the built game (Panda3D's build_apps): the same folders beside the executable, or in
  the app bundle's Contents/Resources on macOS. Its modules are frozen into the
  executable, so no path may be taken from a module's `__file__` there.

Every asset path in the game comes from here. No Panda3D: this module is usable anywhere.
"""

from __future__ import annotations

import sys
from pathlib import Path

APP_NAME = "villa-paletti"
WINDOW_TITLE = "Villa Paletti"
LOCALE_PATH = Path("villa", "locale")   # the same place in both layouts
# WOFF: the fonts' own tables, deflated (scripts/pack_fonts.py makes them)
FONT_FILES = {"body": "DejaVuSans.woff", "bold": "DejaVuSans-Bold.woff", "title": "DejaVuSerif-Bold.woff",
              "serif": "DejaVuSerif.woff",
              # Chinese and Japanese, which DejaVu does not draw (names): Droid Sans Fallback, cut down to the
              # characters of GB 2312, JIS X 0208 and Big5's first level
              "fallback": "DroidSansFallback-CJK.woff"}


def is_built() -> bool:
    """True in the built game: build_apps' startup code marks the interpreter as frozen."""
    return bool(getattr(sys, "frozen", False))


def root(frozen: bool | None = None, executable: str | None = None) -> Path:
    """The folder holding textures/, models/, sounds/, fonts/, icons/ and villa/locale/."""
    if not (is_built() if frozen is None else frozen):
        return Path(__file__).resolve().parents[2]
    folder = Path(executable or sys.executable).resolve().parent
    resources = folder.parent / "Resources"
    if folder.name == "MacOS" and folder.parent.name == "Contents" and resources.is_dir():
        return resources
    return folder


ROOT = root()
TEXTURES = ROOT / "textures"
MODELS = ROOT / "models"
SOUNDS = ROOT / "sounds"
FONTS = ROOT / "fonts"
ICONS = ROOT / "icons"
LOCALE = ROOT / LOCALE_PATH


def font_file(kind: str = "body") -> Path:
    """The bundled font for a kind of text: body, bold, title or serif (DejaVu); fallback, for what DejaVu cannot
    draw."""
    return FONTS / FONT_FILES[kind]


def panda_path(path: Path | str, platform: str | None = None) -> str:
    """`path` as Panda3D's configuration spells it: forward slashes, and a Windows drive as /c/."""
    text = str(path)
    if (sys.platform if platform is None else platform).startswith("win"):
        text = text.replace("\\", "/")
        if len(text) > 1 and text[1] == ":":
            text = "/" + text[0].lower() + text[2:]
    return text


def window_icon(platform: str | None = None) -> Path:
    """The window's icon: Windows takes only .ico files, the others a picture."""
    platform = sys.platform if platform is None else platform
    return ICONS / (f"{APP_NAME}.ico" if platform.startswith("win") else f"{APP_NAME}-128.png")
