"""A row of the end screen and the replay viewer: "Save the fall as a clip", then a progress bar with Cancel
while it is made, then where it was saved with "Open folder" (or, when it could not be written, why, in
one sentence). What makes the clip is the caller's (`villa.app.clipping`); the row only shows and asks.
"""

from __future__ import annotations

from typing import Callable

from direct.gui.DirectGui import DGG, DirectFrame, DirectWaitBar

from villa.presentation import words
from villa.presentation.i18n import _
from villa.presentation.menus import style

BAR_WIDTH = 0.9


class ClipRow:
    """`fell`: the game's last motion is a fall (else the last move is offered); `on_make`, `on_cancel`,
    `on_open_folder`: the player's asks."""

    def __init__(self, parent, *, pos=(0, 0), fell: bool, on_make: Callable[[], None],
                 on_cancel: Callable[[], None], on_open_folder: Callable[[], None], ink=style.INK) -> None:
        self.root = DirectFrame(parent=parent, relief=None, pos=(pos[0], 0, pos[1]))
        self.root.setName("ClipRow")
        self.fell, self.ink = fell, ink
        self.on_make, self.on_cancel, self.on_open_folder = on_make, on_cancel, on_open_folder
        self.widgets: dict[str, object] = {}
        self.said = ""
        self.offer()

    def _clear(self) -> None:
        for widget in self.widgets.values():
            widget.destroy()
        self.widgets = {}

    def offer(self, said: str = "") -> None:
        """The button (again, after a clip was cancelled or failed: with what happened said above it)."""
        self._clear()
        self.said = said
        label = _(words.CLIP_BUTTON) if self.fell else _(words.CLIP_LAST_MOVE_BUTTON)
        self.widgets["make"] = style.button(self.root, label, self.on_make, pos=(0, -0.07 if said else -0.03),
                                            width=0.9, kind="quiet")
        if said:
            self.widgets["said"] = style.text(self.root, said, pos=(0, 0.0), scale=0.03, wordwrap=62,
                                              fg=self.ink, kind="serif")

    def making(self, done: int, total: int) -> None:
        if "bar" not in self.widgets:
            self._clear()
            self.widgets["bar"] = DirectWaitBar(parent=self.root, range=max(1, total), value=0,
                                                frameSize=(-BAR_WIDTH / 2, BAR_WIDTH / 2 - 0.24, -0.02, 0.02),
                                                frameColor=(0.35, 0.27, 0.2, 1), barColor=style.TERRACOTTA,
                                                relief=DGG.FLAT, pos=(0, 0, -0.06))
            self.widgets["cancel"] = style.button(self.root, _(words.CLIP_CANCEL), self.on_cancel,
                                                  pos=(BAR_WIDTH / 2 - 0.1, -0.06), width=0.22, kind="quiet")
            self.widgets["said"] = style.text(self.root, "", pos=(-0.12, 0.0), scale=0.03, fg=self.ink)
        self.widgets["bar"]["range"] = max(1, total)
        self.widgets["bar"]["value"] = done
        self.said = words.clip_progress(done, total)
        self.widgets["said"]["text"] = self.said

    def saved(self, path) -> None:
        self._clear()
        self.said = words.clip_saved(path)
        self.widgets["said"] = style.text(self.root, self.said, pos=(0, 0.0), scale=0.028, wordwrap=66,
                                          fg=self.ink, kind="serif")
        self.widgets["open"] = style.button(self.root, _(words.CLIP_OPEN_FOLDER), self.on_open_folder, pos=(0, -0.1),
                                            width=0.5, kind="quiet")

    def destroy(self) -> None:
        self._clear()
        self.root.destroy()
