"""What every menu screen shares: a root under a parent node, show/hide/destroy, language changes.

A screen builds its widgets in `build()` under `self.root` (an invisible DirectFrame:
destroying it destroys every DirectGUI widget below). It is built hidden; `show()` makes
it visible, rebuilding it first when the language changed since it was built. Widgets a
caller or a test may need are kept by name in `self.widgets`.
"""

from __future__ import annotations

from direct.gui.DirectGui import DirectFrame

from villa.presentation import i18n
from villa.presentation.menus import style
from villa.presentation.stage import stage


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
        self.root.show()
        self._visible = True

    def hide(self) -> None:
        if self.root is not None:
            self.root.hide()
        self._visible = False

    def destroy(self) -> None:
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
