"""The menus' look: a warm wood-and-paper palette, fonts, and themed DirectGUI widgets.

Every widget here is an ordinary DirectGUI object parented to the node given, so a
screen destroys them all by destroying its root (see `base.Screen`). Rounded shapes are
textures drawn once per size with numpy and cached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence

import numpy as np
from direct.gui import DirectGuiGlobals as DGG
from direct.gui.DirectGui import DirectButton, DirectEntry, DirectFrame, DirectLabel, DirectSlider
from panda3d.core import (Filename, SamplerState, TextNode, Texture, TexturePool, TextureStage,
                          TransparencyAttrib)

from villa.presentation import assets
from villa.presentation.fonts import drawable, fitted_scale, font, font_for
from villa.presentation.palette import PAINT
from villa.rules.pieces import Colour

# --- palette (RGBA, 0..1) ---------------------------------------------------------------------
PAPER = (0.97, 0.93, 0.84, 1)
PAPER_SHADE = (0.91, 0.85, 0.73, 1)
PAPER_EDGE = (0.55, 0.38, 0.22, 1)
INK = (0.23, 0.15, 0.09, 1)
INK_SOFT = (0.45, 0.34, 0.24, 1)
INK_FAINT = (0.62, 0.53, 0.43, 1)
LABEL_MARGIN = 0.04           # kept free at either end of a button's label
WOOD = (0.56, 0.34, 0.17, 1)
WOOD_HOVER = (0.69, 0.45, 0.24, 1)
WOOD_PRESS = (0.40, 0.23, 0.11, 1)
TERRACOTTA = (0.74, 0.30, 0.16, 1)
TERRACOTTA_HOVER = (0.86, 0.40, 0.22, 1)
TERRACOTTA_PRESS = (0.55, 0.20, 0.10, 1)
DISABLED = (0.70, 0.64, 0.56, 1)
CREAM = (1.0, 0.97, 0.90, 1)
SELECTED = (0.36, 0.47, 0.26, 1)        # olive: the chosen option of a row
SELECTED_HOVER = (0.44, 0.56, 0.32, 1)
DIM = (0.08, 0.05, 0.03, 0.62)          # over the villa, behind an in-game screen

TEXTURES = assets.TEXTURES

# sizes in aspect2d units (the window is 2 units high)
TITLE_SCALE = 0.105
HEADING_SCALE = 0.052
TEXT_SCALE = 0.042
BUTTON_HEIGHT = 0.105
PX_PER_UNIT = 360  # texture pixels per aspect2d unit: one per screen pixel at 720 rows


# --- rounded shapes ---------------------------------------------------------------------------

def _rgba_texture(name: str, pixels: np.ndarray) -> Texture:
    """A texture from a float RGBA array (rows top to bottom)."""
    height, width, _ = pixels.shape
    data = (np.clip(pixels[::-1], 0, 1) * 255).astype(np.uint8)  # Panda's images start at the bottom
    bgra = data[:, :, [2, 1, 0, 3]].copy()
    texture = Texture(name)
    texture.setup2dTexture(width, height, Texture.T_unsigned_byte, Texture.F_rgba8)
    texture.setRamImage(bgra.tobytes())
    texture.setMinfilter(SamplerState.FT_linear)
    texture.setMagfilter(SamplerState.FT_linear)
    texture.setWrapU(SamplerState.WM_clamp)
    texture.setWrapV(SamplerState.WM_clamp)
    return texture


@lru_cache(maxsize=64)
def rounded(width: float, height: float, radius: float = 0.022, fill=(1, 1, 1, 1), shade=(0.86, 0.86, 0.86, 1),
            border=(0.55, 0.55, 0.55, 1), border_width: float = 0.004) -> Texture:
    """A rounded rectangle `width` × `height` units: a vertical gradient fill → shade, a border, soft edges."""
    w, h = max(8, round(width * PX_PER_UNIT)), max(8, round(height * PX_PER_UNIT))
    r, b = radius * PX_PER_UNIT, max(1.0, border_width * PX_PER_UNIT)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) + 0.5
    # signed distance to the rounded rectangle's outline (positive inside)
    qx = np.abs(xs - w / 2) - (w / 2 - r)
    qy = np.abs(ys - h / 2) - (h / 2 - r)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r
    inside = -outside
    alpha = np.clip(inside, 0, 1)
    t = (ys / h)[..., None]
    fill_rgb = np.array(fill[:3]) * (1 - t) + np.array(shade[:3]) * t
    edge = np.clip(b + 0.5 - inside, 0, 1)[..., None]
    rgb = fill_rgb * (1 - edge) + np.array(border[:3]) * edge
    a = alpha * (fill[3] * (1 - edge[..., 0]) + border[3] * edge[..., 0])
    return _rgba_texture(f"rounded-{w}x{h}", np.dstack([rgb, a]))


def _apply_texture(widget, texture: Texture) -> None:
    widget.setTransparency(TransparencyAttrib.M_alpha)
    widget["frameTexture"] = texture


# --- widgets ----------------------------------------------------------------------------------

def panel(parent, frame: tuple[float, float, float, float], *, fill=PAPER, shade=PAPER_SHADE, border=PAPER_EDGE,
          radius: float = 0.035, shadow: bool = True, pos=(0, 0, 0)) -> DirectFrame:
    """A paper card with a wooden edge and a soft shadow."""
    left, right, bottom, top = frame
    holder = DirectFrame(parent=parent, relief=None, pos=pos)
    if shadow:
        s = DirectFrame(parent=holder, frameSize=(left + 0.012, right + 0.012, bottom - 0.016, top - 0.016),
                        frameColor=(1, 1, 1, 1))
        _apply_texture(s, rounded(right - left, top - bottom, radius, (0, 0, 0, 0.35), (0, 0, 0, 0.35),
                                  (0, 0, 0, 0.35), 0.002))
    card = DirectFrame(parent=holder, frameSize=frame, frameColor=(1, 1, 1, 1))
    _apply_texture(card, rounded(right - left, top - bottom, radius, fill, shade, border, 0.006))
    return holder


def backdrop(parent, kind: str = "wood") -> DirectFrame:
    """A full-window background: the wooden table ("wood") or a dark veil over the villa ("dim")."""
    frame = (-2.4, 2.4, -1.0, 1.0)  # wider than any window, so nothing shows at its sides
    if kind == "wood" and (TEXTURES / "wood_table.jpg").exists():
        texture = TexturePool.loadTexture(Filename.fromOsSpecific(str(TEXTURES / "wood_table.jpg")))
        texture.setWrapU(SamplerState.WM_repeat)
        texture.setWrapV(SamplerState.WM_repeat)
        texture.setMinfilter(SamplerState.FT_linear_mipmap_linear)
        back = DirectFrame(parent=parent, frameSize=frame, frameColor=(0.9, 0.8, 0.7, 1),
                           frameTexture=texture, state=DGG.NORMAL)  # NORMAL: clicks stop here
        back.setTexScale(TextureStage.getDefault(), 2.4, 1.0)
        vignette = DirectFrame(parent=back, frameSize=frame, frameColor=(1, 1, 1, 1))
        vignette.setTransparency(TransparencyAttrib.M_alpha)
        vignette["frameTexture"] = _vignette()
        return back
    return DirectFrame(parent=parent, frameSize=frame, frameColor=DIM if kind != "wood" else WOOD_PRESS,
                       state=DGG.NORMAL)


@lru_cache(maxsize=1)
def _vignette() -> Texture:
    h, w = 180, 432
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.hypot((xs / w - 0.5) * 1.6, (ys / h - 0.5) * 1.1)
    a = np.clip((d - 0.3) * 1.0, 0, 0.6)
    return _rgba_texture("vignette", np.dstack([np.full((h, w), 0.10), np.full((h, w), 0.06),
                                                np.full((h, w), 0.03), a]))


def text(parent, words: str, *, pos=(0, 0), scale: float = TEXT_SCALE, fg=INK, align: str = "center",
         kind: str = "body", wordwrap: float | None = None, shadow=None) -> DirectLabel:
    """A line or paragraph of text (wordwrap in units of its own size)."""
    aligns = {"center": TextNode.ACenter, "left": TextNode.ALeft, "right": TextNode.ARight}
    return DirectLabel(parent=parent, text=drawable(words, kind), text_font=font(kind), text_fg=fg,
                       text_align=aligns[align], text_wordwrap=wordwrap, text_shadow=shadow, relief=None, scale=scale,
                       pos=(pos[0], 0, pos[1]))


def title(parent, words: str, *, pos=(0, 0.78), scale: float = TITLE_SCALE, fg=INK) -> DirectLabel:
    return text(parent, words, pos=pos, scale=scale, fg=fg, kind="title")


_BUTTON_COLOURS = {
    # ready, pressed, hover, disabled
    "primary": (TERRACOTTA, TERRACOTTA_PRESS, TERRACOTTA_HOVER, DISABLED),
    "wood": (WOOD, WOOD_PRESS, WOOD_HOVER, DISABLED),
    "quiet": ((0.88, 0.80, 0.66, 1), (0.78, 0.68, 0.52, 1), (0.94, 0.88, 0.76, 1), (0.88, 0.84, 0.78, 1)),
    "selected": (SELECTED, WOOD_PRESS, SELECTED_HOVER, DISABLED),
}


def button(parent, words: str, command: Callable[[], None] | None, *, pos=(0, 0), width: float = 0.62,
           height: float = BUTTON_HEIGHT, kind: str = "wood", enabled: bool = True,
           text_scale: float = 0.048, fill=None) -> DirectButton:
    """A rounded wooden button that lights up under the mouse; `kind` primary is terracotta, quiet is paper."""
    ready, pressed, hover, disabled = _BUTTON_COLOURS[kind]
    if fill is not None:
        ready, pressed, hover = fill, tuple(c * 0.8 for c in fill[:3]) + (1,), tuple(
            min(1, c * 1.12 + 0.04) for c in fill[:3]) + (1,)
    ink = INK if kind == "quiet" or (fill is not None and sum(fill[:3]) > 2.0) else CREAM
    frame = (-width / 2, width / 2, -height / 2, height / 2)
    text_scale = fitted_scale(words, font("bold"), width - 2 * LABEL_MARGIN, text_scale)
    widget = DirectButton(
        parent=parent, text=drawable(words, "bold"), command=command, pos=(pos[0], 0, pos[1]), frameSize=frame,
        frameColor=(ready, pressed, hover, disabled), relief=DGG.FLAT, pressEffect=False,
        text_font=font("bold"), text_scale=text_scale, text_fg=ink,
        text_pos=(0, -text_scale * 0.33), text_shadow=(0, 0, 0, 0.25) if ink == CREAM else None,
        text3_fg=(1, 1, 1, 0.85) if ink == CREAM else INK_SOFT,
        state=DGG.NORMAL if enabled else DGG.DISABLED)
    _apply_texture(widget, rounded(width, height, min(0.028, height / 3), (1, 1, 1, 1), (0.84, 0.84, 0.84, 1),
                                   (0.62, 0.62, 0.62, 1), 0.003))
    return widget


def set_enabled(widget: DirectButton, enabled: bool) -> None:
    widget["state"] = DGG.NORMAL if enabled else DGG.DISABLED


class Choice:
    """A row of buttons of which exactly one is chosen (olive); `on_change(value)` when another is clicked."""

    def __init__(self, parent, options: Sequence[tuple[object, str]], value, on_change: Callable[[object], None],
                 *, pos=(0, 0), width: float = 0.9, height: float = 0.085, gap: float = 0.012,
                 text_scale: float = 0.036) -> None:
        self.value = value
        self.on_change = on_change
        self.frame = DirectFrame(parent=parent, relief=None, pos=(pos[0], 0, pos[1]))
        each = (width - gap * (len(options) - 1)) / len(options)
        self.buttons: dict[object, DirectButton] = {}
        for i, (option, words) in enumerate(options):
            x = -width / 2 + each / 2 + i * (each + gap)
            self.buttons[option] = button(self.frame, words, lambda o=option: self.choose(o), pos=(x, 0),
                                          width=each, height=height, kind="quiet", text_scale=text_scale)
        self._paint()

    def choose(self, value, notify: bool = True) -> None:
        changed = value != self.value
        self.value = value
        self._paint()
        if changed and notify:
            self.on_change(value)

    def _paint(self) -> None:
        for option, widget in self.buttons.items():
            kind = "selected" if option == self.value else "quiet"
            ready, pressed, hover, disabled = _BUTTON_COLOURS[kind]
            widget["frameColor"] = (ready, pressed, hover, disabled)
            ink = CREAM if kind == "selected" else INK
            for i in range(4):
                widget.component(f"text{i}").setFg(ink if i != 3 else INK_FAINT)


class Toggle:
    """A box that is ticked or not, with its label; `on_change(bool)` at each click."""

    def __init__(self, parent, words: str, value: bool, on_change: Callable[[bool], None], *, pos=(0, 0),
                 width: float = 1.2, text_scale: float = 0.038) -> None:
        self.value = value
        self.on_change = on_change
        text_scale = fitted_scale(words, font("body"), width - 0.05 - LABEL_MARGIN, text_scale)   # after the box
        self.button = DirectButton(
            parent=parent, command=self.flip, pos=(pos[0], 0, pos[1]), relief=DGG.FLAT, pressEffect=False,
            frameSize=(-0.04, width, -0.035, 0.035),
            frameColor=((0, 0, 0, 0), (0.55, 0.38, 0.22, 0.18), (0.55, 0.38, 0.22, 0.10), (0, 0, 0, 0)),
            text=words, text_font=font("body"), text_scale=text_scale, text_fg=INK, text_align=TextNode.ALeft,
            text_pos=(0.05, -text_scale * 0.33))
        self.box = DirectFrame(parent=self.button, frameSize=(-0.026, 0.026, -0.026, 0.026), frameColor=(1, 1, 1, 1),
                               pos=(0, 0, 0))
        _apply_texture(self.box, rounded(0.052, 0.052, 0.01, CREAM, PAPER_SHADE, PAPER_EDGE, 0.005))
        self.tick = DirectLabel(parent=self.box, text="✓", text_font=font("bold"), text_fg=SELECTED, relief=None,
                                scale=0.05, pos=(0, 0, -0.017))
        self._paint()

    def flip(self) -> None:
        self.set(not self.value)
        self.on_change(self.value)

    def set(self, value: bool) -> None:
        self.value = value
        self._paint()

    def _paint(self) -> None:
        if self.value:
            self.tick.show()
        else:
            self.tick.hide()


class Stepper:
    """A number with − and + buttons, kept within [low, high]."""

    def __init__(self, parent, value: int, low: int, high: int, on_change: Callable[[int], None], *, pos=(0, 0),
                 label: Callable[[int], str] = str) -> None:
        self.value, self.low, self.high, self.on_change, self.label = value, low, high, on_change, label
        self.frame = DirectFrame(parent=parent, relief=None, pos=(pos[0], 0, pos[1]))
        self.minus = button(self.frame, "−", lambda: self.step(-1), pos=(-0.17, 0), width=0.085, height=0.085,
                            kind="wood", text_scale=0.055)
        self.plus = button(self.frame, "+", lambda: self.step(1), pos=(0.17, 0), width=0.085, height=0.085,
                           kind="wood", text_scale=0.055)
        self.shown = text(self.frame, label(value), pos=(0, -0.016), scale=0.045, kind="bold")
        self._paint()

    def step(self, by: int) -> None:
        value = min(self.high, max(self.low, self.value + by))
        if value != self.value:
            self.value = value
            self._paint()
            self.on_change(value)

    def _paint(self) -> None:
        self.shown["text"] = self.label(self.value)
        set_enabled(self.minus, self.value > self.low)
        set_enabled(self.plus, self.value < self.high)


def slider(parent, value: float, low: float, high: float, on_change: Callable[[float], None], *, pos=(0, 0),
           width: float = 0.7) -> DirectSlider:
    """A wooden track with a terracotta knob."""
    widget = DirectSlider(parent=parent, range=(low, high), value=value, pageSize=(high - low) / 10,
                          pos=(pos[0], 0, pos[1]), frameSize=(-width / 2, width / 2, -0.012, 0.012),
                          frameColor=WOOD, relief=DGG.FLAT,
                          thumb_frameSize=(-0.022, 0.022, -0.038, 0.038), thumb_relief=DGG.FLAT,
                          thumb_frameColor=(TERRACOTTA, TERRACOTTA_PRESS, TERRACOTTA_HOVER, DISABLED))
    _apply_texture(widget, rounded(width, 0.024, 0.012, WOOD_HOVER, WOOD, WOOD_PRESS, 0.002))
    _apply_texture(widget.thumb, rounded(0.044, 0.076, 0.012, (1, 1, 1, 1), (0.85, 0.85, 0.85, 1),
                                         (0.6, 0.6, 0.6, 1), 0.003))
    widget["command"] = lambda: on_change(float(widget["value"]))
    return widget


def entry(parent, value: str, *, pos=(0, 0), width: float = 0.62, on_change: Callable[[str], None] | None = None,
          max_chars: int = 16, overflow: bool = False, scale: float = 0.042) -> DirectEntry:
    """A one-line text field on cream paper; `overflow`: text longer than the field scrolls in it."""
    widget = DirectEntry(parent=parent, initialText=value, pos=(pos[0] - width / 2 + 0.025, 0, pos[1] - 0.014),
                         scale=scale, width=(width - 0.05) / scale, numLines=1, focus=0, relief=DGG.FLAT,
                         overflow=int(overflow),
                         frameColor=(1, 1, 1, 1), frameSize=(-0.6, (width - 0.025) / scale, -0.65, 1.35),
                         text_font=font("body"), text_fg=INK, cursorKeys=1, autoCapitalize=0,
                         focusOutCommand=None)
    _apply_texture(widget, rounded(width, 2.0 * scale, 0.012, CREAM, (0.99, 0.96, 0.90, 1), PAPER_EDGE, 0.004))
    widget.guiItem.setBlinkRate(0)   # a steady caret: a menu left alone is drawn only once a second
    widget.max_chars = max_chars
    widget.guiItem.setMaxChars(max_chars)   # the field stops where what is typed would be cut: nothing cut silently

    def changed(*_args) -> None:
        typed = widget.get()
        if len(typed) > max_chars:
            widget.enterText(typed[:max_chars])
            typed = typed[:max_chars]
        _field_font(widget, font_for(typed, "body"))     # a script the game's font cannot draw: the fallback's
        if on_change is not None:
            on_change(typed)
    widget["command"] = changed
    widget.bind(DGG.TYPE, changed)
    widget.bind(DGG.ERASE, changed)
    _field_font(widget, font_for(value, "body"))
    return widget


def _field_font(widget: DirectEntry, typeface) -> None:
    """The text field drawn in `typeface` from now on, what it holds drawn again in it (a field keeps the glyphs it
    drew until told its font changed)."""
    text_node = widget.onscreenText.textNode
    if typeface is None or text_node.getFont() is not None and text_node.getFont().this == typeface.this:
        return
    typed, cursor = widget.get(), widget.guiItem.getCursorPosition()
    widget["text_font"] = typeface
    for state in range(widget["numStates"]):
        widget.guiItem.setTextDef(state, text_node)
    widget.setup()
    widget.set(typed)
    widget.setCursorPosition(cursor)


def swatch(parent, colour: Colour, *, pos=(0, 0), size: float = 0.05) -> DirectFrame:
    """A small rounded square in a player colour."""
    widget = DirectFrame(parent=parent, frameSize=(-size / 2, size / 2, -size / 2, size / 2), frameColor=(1, 1, 1, 1),
                         pos=(pos[0], 0, pos[1]))
    fill = PAINT[colour]
    _apply_texture(widget, rounded(size, size, size / 5, fill, tuple(c * 0.8 for c in fill[:3]) + (1,),
                                   tuple(c * 0.55 for c in fill[:3]) + (1,), 0.004))
    return widget
