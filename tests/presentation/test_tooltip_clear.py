"""The tooltip beside the pointer never covers the status line along the top, nor the line along the bottom
that tells what happened, nor the command buttons: the carried floor's tooltip, the longest, in every language,
wherever the mouse is."""

from __future__ import annotations

import pytest

from villa.presentation import i18n, words
from villa.presentation.hud import Hud

pytestmark = pytest.mark.gui

LANGUAGES = ("en", "de", "fr", "nl")


def _box(stage, node) -> tuple[float, float, float, float]:
    low, high = node.getTightBounds(stage.aspect2d)
    return low.x, high.x, low.z, high.z


def _frame_box(stage, widget) -> tuple[float, float, float, float]:
    """A DirectGUI widget's frame, as the widget itself measures it, in the window's aspect2d."""
    from panda3d.core import Point3
    left, right, bottom, top = widget.getBounds()
    low = stage.aspect2d.getRelativePoint(widget, Point3(left, 0, bottom))
    high = stage.aspect2d.getRelativePoint(widget, Point3(right, 0, top))
    return low.x, high.x, low.z, high.z


def _status_box(stage, hud) -> tuple[float, float, float, float]:
    """The status line's dark panel, as its frame is sized (along the window's top)."""
    left, right, bottom, top = hud.status_panel["frameSize"]
    corner = hud.status_panel.getPos(stage.aspect2d)
    return corner.x + left, corner.x + right, corner.z + bottom, corner.z + top


def _overlap(a, b) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def test_the_carried_floors_tooltip_never_covers_the_status_line_or_what_happened(stage):
    hud = Hud(stage)
    try:
        for language in LANGUAGES:
            i18n.install(language)
            hud.show_status("Anna: lay the yellow floor on the top columns (click), or give it up (Esc)")
            hud.flash(words.refusal(words.Refusal.NO_COLUMN_UNDER) + " " + words.connection_lost(), 0.0)
            hud.show_commands([("give-up", "Give up the floor (Esc)", None), ("pass", "Pass", None)])
            tooltip = words.carried_floor(2, 3)
            for x in (-0.99, -0.5, -0.1, 0.0, 0.3, 0.7, 0.99):
                for y in (0.99, 0.95, 0.9, 0.8, 0.0, -0.6, -0.7, -0.75, -0.8, -0.85, -0.9, -0.99):
                    hud.show_tooltip(tooltip, (x, y))
                    shown = _box(stage, hud.tooltip)
                    where = f"the mouse at {(x, y)} in {language}"
                    assert not _overlap(shown, _box(stage, hud.message)), f"covers what happened, {where}"
                    assert not _overlap(shown, _status_box(stage, hud)), f"covers the status line, {where}"
                    for name, button in hud.commands.buttons.items():
                        assert not _overlap(shown, _frame_box(stage, button)), f"covers the button {name}, {where}"
                    aspect = stage.base.getAspectRatio()
                    assert -aspect <= shown[0] and shown[1] <= aspect and -1 <= shown[2] and shown[3] <= 1, where
        hud.flash("", 0.0)
        hud.show_commands([])
        hud.show_tooltip(tooltip, (0.0, -0.8))
        low, _high = hud.tooltip.getTightBounds(stage.aspect2d)
        assert low.z < -0.8, "with nothing said along the bottom, the tooltip stays below the pointer"
    finally:
        i18n.install("en")
        hud.close()


def test_an_announcement_stays_above_the_news_that_follows_it(stage):
    hud = Hud(stage)
    try:
        hud.announce("Ben's time for the move ran out: the turn passes on.", 10.0, seconds=8.0)
        hud.flash("Ben gives up the blue thin column.", 10.1)
        assert hud.message.getText() == ("Ben's time for the move ran out: the turn passes on.\n"
                                         "Ben gives up the blue thin column.")
        hud.update(15.0)
        assert hud.message.getText().startswith("Ben's time"), "still within its eight seconds"
        hud.update(18.5)
        assert hud.message.getText() == "", "both said long enough"
        hud.show_clock("1:30 left")
        hud.show_status("Anna: pull a column")
        assert hud.status.getText() == "Anna: pull a column   ·   1:30 left"
        hud.show_clock(None)
        assert hud.status.getText() == "Anna: pull a column"
    finally:
        hud.close()
