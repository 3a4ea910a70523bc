"""What every menu screen shares: a root under a parent node, show/hide/destroy, language changes.

A screen builds its widgets in `build()` under `self.root` (an invisible DirectFrame:
destroying it destroys every DirectGUI widget below). It is built hidden; `show()` makes
it visible, rebuilding it first when the language changed since it was built. Widgets a
caller or a test may need are kept by name in `self.widgets`.
"""

from __future__ import annotations

from direct.gui.DirectGui import DirectFrame
from direct.gui.DirectGuiBase import DirectGuiWidget
from direct.showbase.DirectObject import DirectObject
from panda3d.core import Point3

from villa.presentation import i18n
from villa.presentation.menus import style
from villa.presentation.stage import stage


EDGE = 0.03   # what a screen keeps clear of the window's sides when it is shown smaller to fit


def _reach(root, leave_out) -> float:
    """How far a screen's widgets reach left or right of the window's middle, as laid out (aspect2d units).
    (DirectGUI draws a widget's frame and words itself, out of sight of Panda3D's bounds: each widget's own
    bounds are asked.)"""
    reach = 0.0
    for node in root.findAllMatches("**"):
        if leave_out is not None and (node == leave_out or leave_out.isAncestorOf(node)):
            continue
        widget = DirectGuiWidget.guiDict.get(node.getName().split("-")[-1])
        if widget is None:
            continue
        left, right, bottom, top = widget["frameSize"] or widget.getBounds()
        for x in (left, right):
            reach = max(reach, abs(root.getRelativePoint(widget, Point3(x, 0, bottom)).x),
                        abs(root.getRelativePoint(widget, Point3(x, 0, top)).x))
    return reach


def _default_parent():
    if stage.aspect2d is None:
        raise RuntimeError("no window is open: pass a parent node, or open the window first")
    return stage.aspect2d


class Screen:
    #: "wood": the table fills the window; "dim": the villa shows through a dark veil; None: nothing behind
    backdrop: str | None = "wood"

    def __init__(self, parent=None, *, backdrop: str | None = "default") -> None:
        self.parent = parent if parent is not None else _default_parent()
        if backdrop != "default":
            self.backdrop = backdrop
        self.root: DirectFrame | None = None
        self.widgets: dict[str, object] = {}
        self._generation = -1
        self._visible = False
        self._window = DirectObject()      # our own listener of the window's changes, ShowBase's left alone
        self._rebuild()
        self.root.hide()

    # --- for subclasses ---
    def build(self) -> None:
        """Create the widgets under self.root (in the current language)."""
        raise NotImplementedError

    # --- the API ---
    def show(self) -> None:
        if self._generation != i18n.generation():
            self._rebuild()
        self._fit()
        self.root.show()
        self._visible = True
        self._window.accept("window-event", lambda _win: self._fit())

    def hide(self) -> None:
        if self.root is not None:
            self.root.hide()
        self._visible = False
        self._window.ignoreAll()

    def destroy(self) -> None:
        self._window.ignoreAll()
        self._teardown()
        if self.root is not None:
            self.root.destroy()
            self.root = None
        self.widgets = {}
        self._visible = False

    @property
    def visible(self) -> bool:
        return self._visible

    def refresh(self) -> None:
        """Build the widgets again (state kept in the screen's own fields survives)."""
        self._rebuild()
        if not self._visible:
            self.root.hide()

    # --- inside ---
    def _teardown(self) -> None:
        """Stop tasks and the like before the widgets go (subclasses extend)."""

    def _rebuild(self) -> None:
        self._teardown()
        if self.root is not None:
            self.root.destroy()
        self.root = DirectFrame(parent=self.parent, relief=None)
        self.root.setName(type(self).__name__)
        self.widgets = {}
        if self.backdrop:
            self.widgets["backdrop"] = style.backdrop(self.root, self.backdrop)
        self._generation = i18n.generation()
        self.build()
        self._fit()

    def _fit(self) -> None:
        """The screen as large as laid out, or smaller as a whole where the window is too narrow for it (4:3, a
        window made tall): nothing of it falls outside the window, and its backdrop still fills it."""
        if self.root is None or self.parent is not stage.aspect2d or stage.base is None:
            return      # (a screen inside another is fitted with it)
        aspect = stage.base.getAspectRatio()   # (a window taller than wide reaches ±1 across, further up and down)
        backdrop = self.widgets.get("backdrop")
        self.root.setScale(1)
        reach = _reach(self.root, backdrop)
        scale = min(1.0, (max(aspect, 1.0) - EDGE) / reach) if reach > 0 else 1.0
        self.root.setScale(scale)
        if backdrop is not None:
            backdrop.setScale(1 / scale, 1, max(1.0, 1.0 / aspect) / scale)
