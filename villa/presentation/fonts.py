"""The one font loader: the bundled DejaVu fonts in four cuts (`assets.FONTS`), and a fallback for the scripts
DejaVu cannot draw (Chinese and Japanese, in players' names).

`font(kind)` is loaded once per process (a font's size is fixed once it has drawn); None means
Panda3D's built-in font is used, which only a broken installation would need.

Panda3D's text has no fallback of its own: `drawable(text, kind)` sets each run of characters the kind's font
has no glyph for in the fallback font, through an embedded text property (`\1fallback\1 … \2`); every label,
button and line of the HUD goes through it. A text field cannot hold such marks: `font_for(text, kind)` is the
font a whole field is drawn in.
"""

from __future__ import annotations

from functools import lru_cache

from panda3d.core import (DynamicTextFont, Filename, SamplerState, TextNode, TextProperties,
                          TextPropertiesManager)

from villa.presentation import assets


def font(kind: str = "body") -> DynamicTextFont | None:
    """A DejaVu font (body, bold, title, serif), or the fallback; None: Panda3D's default font is used then."""
    return _font(kind)      # (one cache for `font()` and `font("body")`: the one font, loaded once)


@lru_cache(maxsize=None)
def _font(kind: str) -> DynamicTextFont | None:
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


FALLBACK = "fallback"        # the embedded text property that draws in the fallback font


def _drawn_by(kind: str, character: str) -> bool:
    """Whether the kind's font has a glyph for the character (asked once per character and kind)."""
    known = _GLYPHS.setdefault(kind, {})
    if character not in known:
        typeface = font(kind)
        # a glyph the font has is drawn into its pages; one it lacks is Panda3D's empty stand-in
        known[character] = typeface is None or character.isspace() or character in "\1\2" or \
            type(typeface.getGlyph(ord(character))).__name__ == "DynamicTextGlyph"
    return known[character]


_GLYPHS: dict[str, dict[str, bool]] = {}


@lru_cache(maxsize=None)
def _fallback_registered() -> bool:
    """The text property `FALLBACK` known to every text node (False: no fallback font here)."""
    typeface = font("fallback")
    if typeface is None:
        return False
    properties = TextProperties()
    properties.setFont(typeface)
    TextPropertiesManager.getGlobalPtr().setProperties(FALLBACK, properties)
    return True


def drawable(text: str, kind: str = "body") -> str:
    """`text` with each run of characters the kind's font cannot draw set in the fallback font (as it is, when
    every character is drawn, or there is no fallback font)."""
    if text.isascii() or not text or all(_drawn_by(kind, ch) for ch in text) or not _fallback_registered():
        return text
    out, run = [], []
    for ch in text:
        if _drawn_by(kind, ch):
            if run:
                out.append(f"\1{FALLBACK}\1{''.join(run)}\2")
                run = []
            out.append(ch)
        else:
            run.append(ch)
    if run:
        out.append(f"\1{FALLBACK}\1{''.join(run)}\2")
    return "".join(out)


def font_for(text: str, kind: str = "body") -> DynamicTextFont | None:
    """The font a whole line is drawn in where it cannot hold marks (a text field): the kind's, or the fallback when
    it draws more of it (the fallback has no Latin letters: a name mostly in them stays in the kind's font)."""
    if text.isascii() or all(_drawn_by(kind, ch) for ch in text) or font("fallback") is None:
        return font(kind)
    theirs = sum(not _drawn_by(kind, ch) and _drawn_by("fallback", ch) for ch in text)
    ours = sum(_drawn_by(kind, ch) and not ch.isspace() for ch in text)
    return font("fallback") if theirs > ours else font(kind)


def text_width(words: str, typeface: DynamicTextFont | None) -> float:
    """How wide `words` run (their widest line), at text scale 1."""
    measure = TextNode("villa-measure")
    if typeface is not None:
        measure.setFont(typeface)
    widest = 0.0
    for line in words.split("\n"):
        measure.setText(line)        # laid out as drawn: a run in the fallback font measured in it
        widest = max(widest, measure.getWidth() if line else 0.0)
    return widest


def fitted_scale(words: str, typeface: DynamicTextFont | None, room: float, scale: float) -> float:
    """The text scale at which `words` (their widest line) fit `room` across: `scale`, or smaller where a
    language's words run longer than the button they label."""
    width = text_width(words, typeface)
    return scale if width * scale <= room else room / width
