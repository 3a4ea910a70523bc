"""Words on the screen: whose move it is and what to do, the players with their colours' marks and
points, the seal, blocked and removed columns, floors left, the command buttons, a tooltip, the controls."""

from __future__ import annotations

import math

from direct.gui.DirectGui import DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode, TextProperties, TextPropertiesManager, TransparencyAttrib

from villa.presentation import palette
from villa.presentation.fonts import drawable, fitted_scale, font, text_width
from villa.presentation.i18n import N_, _
from villa.presentation.palette import DIM_INK, LIGHT_INK
from villa.presentation.panels import CommandBar
from villa.presentation.words import COLOUR_MARKS, Guidance, column_name, computer_marked
from villa.rules.pieces import Colour
CONTROLS = N_("drag a glowing column: pull it   ·   press: lower and hold   ·   release: let go   ·   "
               "Esc / right click: give up\n"
               "right drag or arrows: turn   ·   wheel or +/-: zoom   ·   middle drag or WASD: pan   ·   "
               "F: top floor   ·   T: look down   ·   hold Space: steady the floor above   ·   P: propose a floor   ·   "
               "H: hide this")
CONTROLS_SHOWN_FOR = 30.0  # seconds at the start of a game; H brings them back
TOOLTIP_SCALE = 0.042
STATUS_SCALE = 0.05
CONTROLS_SCALE = 0.03
STATUS_PAD = 0.08          # the status panel's room at either end of its words
STATUS_HEIGHT = 0.13       # the status panel, down from the window's top
EDGE = 0.03                # kept free between a tooltip and the window's edge
CLEAR = 0.02               # kept free between a tooltip and the lines it must not cover
MESSAGE_Y = 0.18           # the line that tells what happened, up from the window's bottom
MESSAGE_SCALE = 0.045


def _register_inks() -> None:
    """Text properties named after the colours, for `\\1blue\\1 ... \\2` in the HUD's text."""
    manager = TextPropertiesManager.getGlobalPtr()
    for colour in Colour:
        ink = TextProperties()
        ink.setTextColor(*palette.ink(colour))
        manager.setProperties(colour.value, ink)


def _balanced_wrap(text: str, widest: float) -> float:
    """A wrap width for `text` of at most `widest` that gives its lines even lengths, not one long line
    and a last word alone."""
    width = text_width(text, font())
    if width <= widest:
        return widest
    lines = math.ceil(width / widest)
    return min(widest, width / lines * 1.15)   # the words break where they can, a little past an even share


class Hud:
    def __init__(self, stage) -> None:
        self.stage = stage
        _register_inks()
        common = dict(font=font(), mayChange=True, shadow=(0, 0, 0, 0.6), shadowOffset=(0.06, 0.06))
        self.status_panel = DirectFrame(parent=stage.base.a2dTopCenter, frameColor=(0.06, 0.05, 0.04, 0.55),
                                        frameSize=(-1.2, 1.2, -STATUS_HEIGHT, 0))
        self.status_panel.setTransparency(TransparencyAttrib.M_alpha)
        self.status = OnscreenText(parent=stage.base.a2dTopCenter, pos=(0, -0.085), scale=STATUS_SCALE, fg=LIGHT_INK,
                                   align=TextNode.ACenter, **common)
        self.players = OnscreenText(parent=stage.base.a2dTopLeft, pos=(0.06, -0.22), scale=0.045, fg=DIM_INK,
                                    align=TextNode.ALeft, **common)
        self.tooltip = OnscreenText(parent=stage.aspect2d, pos=(0, 0), scale=TOOLTIP_SCALE, fg=LIGHT_INK,
                                    align=TextNode.ALeft, bg=(0.08, 0.06, 0.05, 0.8), **common)
        self.tooltip.hide()
        self._tooltip_shown = None
        self._tooltip_aspect = 0.0      # the window's shape the tooltip was wrapped for
        self.info = OnscreenText(parent=stage.base.a2dTopRight, pos=(-0.06, -0.22), scale=0.04, fg=DIM_INK,
                                 align=TextNode.ARight, wordwrap=24, **common)
        # below the villa (framed in the middle three fifths of the view), between the command bar and the
        # keys' line: the story of the last move never covers the pieces
        self.message = OnscreenText(parent=stage.base.a2dBottomCenter, pos=(0, MESSAGE_Y), scale=MESSAGE_SCALE,
                                    fg=(1.0, 0.85, 0.55, 1), bg=(0.08, 0.06, 0.05, 0.6), align=TextNode.ACenter,
                                    wordwrap=60, **common)
        self.commands = CommandBar(stage.base.a2dBottomCenter, font())
        room = 2 * (stage.base.getAspectRatio() - EDGE)   # the keys' line: smaller in a language that runs long
        self.controls = OnscreenText(parent=stage.base.a2dBottomCenter, text=_(CONTROLS), pos=(0, 0.08),
                                     scale=fitted_scale(_(CONTROLS), font(), room, CONTROLS_SCALE), fg=DIM_INK,
                                     align=TextNode.ACenter, **common)
        self._flashed_until = 0.0
        self._flashed = ""                  # the last flash, shown under an announcement that still stands
        self._announced = ""                # news that stays on top of the flashes for a while (a turn's time ran out)
        self._announced_until = 0.0
        self._clock = ""                    # online with a turn clock: the time left, after the status line's words
        self._status = ""
        self._status_aspect = 0.0           # the window's shape the status line was fitted to
        self._controls_until: float | None = None   # set on the first update: the game's clock may be anywhere

    def toggle_controls(self) -> None:
        self._controls_until = 0.0
        if self.controls.isHidden():
            self.controls.show()
        else:
            self.controls.hide()

    def _items(self):
        return (self.status_panel, self.status, self.players, self.info, self.tooltip, self.message, self.controls)

    def hide(self) -> None:
        """Out of the way of a screen laid over the game (the end screen)."""
        self.commands.show([])
        for item in self._items():
            item.hide()

    def close(self) -> None:
        self.commands.close()
        for item in self._items():
            item.destroy()

    def show_game(self, guide: Guidance, neutral=None, family: bool = False, computers=frozenset()) -> None:
        """`computers`: online, the people's seats a computer plays now (their names say so)."""
        self.show_status(guide.headline)
        lines = [_("Points (family total)") if family else _("Points on the top floor")]
        for standing in guide.standings:
            name = standing.name
            if standing.player in computers:
                name = computer_marked(name)
            # each colour in its own ink, named with its mark
            marks = ", ".join(f"\1{c.value}\1{_(c.value)} ({_(COLOUR_MARKS[c])})\2" for c in standing.colours)
            pointer = "\u25b6 " if standing.to_act else "   "
            seal = "  \u2605 " + _("seal") if standing.holds_seal else ""
            lines.append(f"{pointer}{name}: {marks}  ·  {standing.points}{seal}")
        if neutral is not None:
            lines.append("   " + _("neutral") + f": \1{neutral.value}\1{_(neutral.value)} ({_(COLOUR_MARKS[neutral])})\2")
        self.players.setText(drawable("\n".join(lines)))
        info = [guide.rounds] if guide.rounds else []
        if guide.seal:
            info.append(guide.seal)
        info.append(_("Floors left: {n}").format(n=guide.floors_left))
        if guide.blocked:
            info.append(_("Blocked (given up): {columns}").format(
                columns=", ".join(column_name(c) for c in guide.blocked)))
        if guide.out:
            info.append(_("Out of the game: {columns}").format(
                columns=", ".join(column_name(c) for c in guide.out)))
        self.info.setText(drawable("\n".join(info)))

    def show_clock(self, words: str | None) -> None:
        """Online with a turn clock: the time left for the move asked now, said at the end of the status line
        (None: no clock runs)."""
        words = words or ""
        if words != self._clock:
            self._clock = words
            self.show_status(self._status)

    def show_status(self, text: str) -> None:
        """The status line along the top: the panel fits the words, and long words are set smaller so
        that both stay inside the window."""
        self._status = text
        if self._clock:
            text = f"{text}   ·   {self._clock}" if text else self._clock
        if drawable(text) == self.status.getText() and self._status_aspect == self.stage.base.getAspectRatio():
            return
        self._status_aspect = self.stage.base.getAspectRatio()
        room = 2 * (self.stage.base.getAspectRatio() - EDGE - STATUS_PAD)
        scale = fitted_scale(text, font(), room, STATUS_SCALE)
        self.status.setScale(scale)
        self.status.setText(drawable(text))
        half = self.status.textNode.getWidth() * scale / 2 + STATUS_PAD
        self.status_panel["frameSize"] = (-half, half, -STATUS_HEIGHT, 0)

    def show_commands(self, commands) -> None:
        """The buttons: (name, label, callback) for each command the turn offers."""
        self.commands.show(commands)

    def show_tooltip(self, text: str | None, mouse: tuple[float, float] | None = None) -> None:
        shown = (text, mouse, self.message.getText(), self.status.getText(), self.commands.shown) \
            if text and mouse is not None else None
        if shown == self._tooltip_shown:
            return  # making text anew every frame costs time
        self._tooltip_shown = shown
        if shown is None:
            self.tooltip.hide()
            return
        aspect = self.stage.base.getAspectRatio()
        if self.tooltip.getText() != drawable(text) or self._tooltip_aspect != aspect:
            self._tooltip_aspect = aspect
            self.tooltip.setWordwrap(_balanced_wrap(text, (aspect - 2 * EDGE) / TOOLTIP_SCALE))  # half the window
            self.tooltip.setText(drawable(text))
        self.tooltip.setPos(*self._tooltip_place(mouse[0] * aspect + 0.05, mouse[1] - 0.07, aspect))
        self.tooltip.show()

    def _tooltip_place(self, x: float, y: float, aspect: float) -> tuple[float, float]:
        """Where the tooltip starts (its first line's left end) so that all of it, background and all,
        stays inside the window: beside the mouse when there is room, pushed in from an edge when not."""
        words = self.tooltip.textNode
        left, right, bottom, top = (v * TOOLTIP_SCALE for v in words.getCardActual()) if words.hasCard() \
            else (v * TOOLTIP_SCALE for v in (words.getLeft(), words.getRight(), words.getBottom(), words.getTop()))
        x = max(min(x, aspect - EDGE - right), -aspect + EDGE - left)
        y = min(max(y, -1 + EDGE - bottom), 1 - EDGE - top)
        below, above = self._kept_clear()
        for box in below:                            # bottom up: the line that tells what happened, the buttons
            if _overlap((x + left, x + right, y + bottom, y + top), box):
                y = box[3] + CLEAR - bottom
        if _overlap((x + left, x + right, y + bottom, y + top), above):
            y = above[2] - CLEAR - top               # below the status line
        return x, y

    def _kept_clear(self) -> tuple[list[tuple], tuple]:
        """What a tooltip never covers, as boxes (left, right, bottom, top) in the window's aspect2d: along the
        bottom, the line that tells what happened (while it says something) and the command buttons, from the
        bottom up; along the top, the status line's panel."""
        left, right, bottom, top = self.status_panel["frameSize"]
        status = (left, right, 1 + bottom, 1 + top)
        below = []
        if self.message.getText():
            words = self.message.textNode
            l, r, b, t = words.getCardActual() if words.hasCard() else (
                words.getLeft(), words.getRight(), words.getBottom(), words.getTop())
            base = -1 + MESSAGE_Y
            below.append((l * MESSAGE_SCALE, r * MESSAGE_SCALE, base + b * MESSAGE_SCALE, base + t * MESSAGE_SCALE))
        below += self.commands.boxes()
        return sorted(below, key=lambda box: box[2]), status

    def top_boxes(self) -> list[tuple[float, float, float, float]]:
        """What the HUD covers along the top of the window, as boxes (left, bottom, right, top) in the window's -1
        to 1 across and up: the status line's panel, the points block, the seal and the floors left."""
        aspect = self.stage.base.getAspectRatio()
        left, right, bottom, _top = self.status_panel["frameSize"]
        boxes = [(left / aspect, 1 + bottom, right / aspect, 1.0)] if not self.status_panel.isHidden() else []
        for words in (self.players, self.info):
            bounds = None if words.isHidden() else words.getTightBounds(self.stage.base.render2d)
            if bounds is not None:
                low, high = bounds
                boxes.append((low.x, low.z, high.x, high.z))
        return boxes

    def bottom_free(self) -> float:
        """How far down the window (-1 to 1) the villa may be drawn with nothing of the HUD over it: above the
        command buttons and the line that tells what happened."""
        below, _status = self._kept_clear()
        return max((top for _l, _r, _b, top in below), default=-1.0)

    def flash(self, text: str, now: float, seconds: float = 4.0) -> None:
        """The line that tells what happened (under an announcement that still stands)."""
        self._flashed, self._flashed_until = text, now + seconds
        self._say()

    def announce(self, text: str, now: float, seconds: float = 8.0) -> None:
        """News the next flashes must not wipe out at once (a turn's time ran out, before the moves that pass
        it are told): it stays above them for `seconds`."""
        self._announced, self._announced_until = text, now + seconds
        self._say()

    def _say(self) -> None:
        lines = [self._announced] + ([self._flashed] if self._flashed != self._announced else [])   # said once
        self.message.setText(drawable("\n".join(line for line in lines if line)))
        self.stage.changed()   # news, from the match or the disk as well as from the player

    def update(self, now: float) -> None:
        if self._controls_until is None:
            self._controls_until = now + CONTROLS_SHOWN_FOR
        if self._controls_until and now > self._controls_until:
            self._controls_until = 0.0
            self.controls.hide()
        if self._announced_until and now > self._announced_until:
            self._announced, self._announced_until = "", 0.0
            self._say()
        if self._flashed_until and now > self._flashed_until:
            self._flashed, self._flashed_until = "", 0.0
            self._say()


def _overlap(box: tuple, other: tuple | None) -> bool:
    """Whether two boxes (left, right, bottom, top) share any of the window."""
    return other is not None and box[0] < other[1] and other[0] < box[1] and box[2] < other[3] and other[2] < box[3]
