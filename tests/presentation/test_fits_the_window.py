"""Words stay where they can be read, in all four languages, at 1280×720 and at 1024×600: every button's
label inside its button, every menu and panel inside the window, the status line and the line of keys too,
and the tooltip wherever the mouse is.

Each measure is the text's own bounds (the TextNode's, through its transform) against the frame it
must keep inside; the screenshots of the pause menu and of a tooltip at the right edge in German land
in $VILLA_SCREENSHOTS (default /tmp/villa-menu-screenshots).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from direct.gui.DirectButton import DirectButton
from direct.gui.DirectGui import DirectFrame
from direct.gui.DirectGuiBase import DirectGuiWidget
from panda3d.core import Filename, Point3, TextNode, WindowProperties

from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match.lessons import LESSONS
from villa.presentation import i18n, menus, panels
from villa.presentation.fonts import font
from villa.presentation.hud import Hud
from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.preferences import Settings

from tests.presentation.menus.test_screens import finished

pytestmark = pytest.mark.gui

LANGUAGES = ("en", "de", "fr", "nl")
SIZES = ((1280, 720), (1024, 600))
SCREENSHOTS = Path(os.environ.get("VILLA_SCREENSHOTS", "/tmp/villa-menu-screenshots"))
COMMANDS = ("Take a column", "Propose a floor (P)", "Give up this column (Esc)", "Object (Y)", "Challenge (Y)",
            "No objection (N)", "No challenge (N)", "Take none out (N)", "Give up the floor (Esc)", "Pass",
            "Roll the seal", "Choose a colour", "I have the mouse", "Play again", "Look at the villa")
STATUS_LINES = ("{who}: nothing can be built: propose the next floor (it cannot be laid), or pass",
                "{who}: too few columns stand on the {top} floor to carry the {next} floor: give it up (Esc)",
                "{who}: you may pull one of {objector}'s columns out of the villa (it leaves the game), or take "
                "none out (N)")
LAYING = "rests on {count} columns (needs {need}): click to lay it, wheel or Q/E to turn, Esc gives up"


def _resize(stage, width: int, height: int) -> None:
    properties = WindowProperties()
    properties.setSize(width, height)
    stage.win.requestProperties(properties)
    for _frame in range(30):
        stage.base.taskMgr.step()
        if (stage.win.getXSize(), stage.win.getYSize()) == (width, height):
            break
    assert (stage.win.getXSize(), stage.win.getYSize()) == (width, height)
    stage.base.taskMgr.step()      # aspect2d follows the window's new shape


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def window(request, stage):
    """The session's window at the size asked for (back to 1280×720 afterwards)."""
    _resize(stage, *request.param)
    yield request.param
    i18n.install("en")
    _resize(stage, 1280, 720)


def _text_bounds(text, root) -> tuple[float, float, float, float]:
    """Left, right, bottom, top of a text's words (a NodePath to a TextNode) in `root`'s coordinates."""
    words = text.node()
    corners = [root.getRelativePoint(text, words.getTransform().xformPoint(Point3(x, 0, z)))
               for x in (words.getLeft(), words.getRight()) for z in (words.getBottom(), words.getTop())]
    return (min(p.x for p in corners), max(p.x for p in corners), min(p.z for p in corners),
            max(p.z for p in corners))


def _labels_outside_their_buttons(root) -> list[str]:
    """Every button under `root` whose label runs past its frame, said as '<label>: <how far>'."""
    found = []
    for node in [root, *root.findAllMatches("**")]:
        button = DirectGuiWidget.guiDict.get(node.getName().split("-")[-1])
        if not isinstance(button, DirectButton) or not button["text"]:
            continue
        # a button's looks are drawn from their own little scene (one per state), in the button's coordinates
        left, right, bottom, top = _text_bounds(button.component("text0"), button.stateNodePath[0])
        frame_left, frame_right, frame_bottom, frame_top = button["frameSize"] or button.getBounds()
        past = max(frame_left - left, right - frame_right, frame_bottom - bottom, top - frame_top)
        if past > 0:
            found.append(f"{button['text']!r}: {past:.3f} past its edge")
    return found


def _outside_the_window(stage, root, backdrop=None) -> float:
    """How far the frames and words under `root` reach past the window's edges (0: they do not); the
    backdrop, wider than any window on purpose, is left out."""
    wide, high = _window_reach(stage)
    past = 0.0
    for node in [root, *root.findAllMatches("**")]:
        if backdrop is not None and (node == backdrop or backdrop.isAncestorOf(node)):
            continue
        widget = DirectGuiWidget.guiDict.get(node.getName().split("-")[-1])
        if widget is not None and widget["frameSize"]:
            left, right, bottom, top = widget["frameSize"]
            corners = [stage.aspect2d.getRelativePoint(widget, Point3(x, 0, z)) for x in (left, right)
                       for z in (bottom, top)]
            left, right = min(p.x for p in corners), max(p.x for p in corners)
            bottom, top = min(p.z for p in corners), max(p.z for p in corners)
        elif isinstance(node.node(), TextNode) and node.node().getText().strip():
            left, right, bottom, top = _text_bounds(node, stage.aspect2d)
        else:
            continue
        past = max(past, -wide - left, right - wide, -high - bottom, top - high)
    return past


def _window_reach(stage) -> tuple[float, float]:
    """How far the window reaches from its middle, left and right, up and down, in aspect2d's units (a window
    taller than wide reaches ±1 across and further up and down)."""
    aspect = stage.base.getAspectRatio()
    return max(aspect, 1.0), max(1.0, 1.0 / aspect)


def _short_of_the_window(stage, backdrop) -> float:
    """How far short of the window's edges a backdrop stops (0: it covers the window)."""
    left, right, bottom, top = backdrop["frameSize"]
    corners = [stage.aspect2d.getRelativePoint(backdrop, Point3(x, 0, z)) for x in (left, right) for z in (bottom, top)]
    wide, tall = _window_reach(stage)
    return max(0.0, min(p.x for p in corners) + wide, wide - max(p.x for p in corners),
               min(p.z for p in corners) + tall, tall - max(p.z for p in corners))


def _menus(match):
    noop = lambda *args: None  # noqa: E731
    seats = [Seat("Anna"), Seat("Ben", Strength.EASY), Seat("Cleo", Strength.MEDIUM), Seat("Dario", Strength.HARD)]
    return [
        menus.MainMenu(can_continue=True, on_new_game=noop, on_online=noop, on_continue=noop, on_learn=noop,
                       on_rules=noop, on_settings=noop, on_how_to_play=noop, on_quit=noop),
        menus.NewGameScreen(on_start=noop, on_back=noop),
        menus.HowToPlayScreen(on_back=noop),
        menus.RulesSummaryScreen(on_back=noop),
        menus.PauseMenu(on_resume=noop, on_rules=noop, on_settings=noop, on_players=noop, on_quit_to_menu=noop),
        menus.SettingsScreen(settings=Settings(), on_close=noop),
        menus.SettingsScreen(settings=Settings(), on_close=noop, invite_links=True, on_invite_links=lambda on: on),
        menus.SeatsScreen(seats=seats, on_done=noop, on_back=noop),
        menus.EndScreen(state=finished(holder=2, shows=0, culprit=2, winner=0), on_play_again=noop,
                        on_main_menu=noop),
        menus.ArrangePanel(on_preset=noop, on_shuffle=noop, on_back=noop, on_lay=noop),
        menus.SealRollScreen(match=match, on_done=noop),
        menus.LessonsScreen(lessons=LESSONS, done=(LESSONS[0].code,), on_lesson=noop, on_back=noop),
        *_online_menus(noop),
    ]


def _online_menus(noop):
    """The online menus, with the longest of their sentences, and the lobby as the host and a guest see it."""
    from types import SimpleNamespace

    from villa.online.invite import Invite, Reach, Sharing
    from villa.online.router import Forwarding, Step
    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import TROUBLES, HostScreen, JoinScreen, OnlineMenu, trouble_words
    longest = max((trouble_words(t, address="192.168.100.200:47170", port=47170, code="K7QXM", seconds=10,
                                 unused="O, I, 0, 1") for t in TROUBLES), key=len)
    table = {"seats": [{"name": "Maximiliane-Josephine vW", "computer": None, "taken": True, "here": True},
                       {"name": "Ben", "computer": None, "taken": True, "here": False},
                       {"name": "Seat 3", "computer": None, "taken": False, "here": False},
                       {"name": "Computer 1", "computer": "medium", "taken": False, "here": False}],
             "started": False, "host": 0, "clock": 120}
    host, guest = (SimpleNamespace(table=table, seats=seats, code="K7QXM") for seats in ({0: "t"}, {}))
    # the longest invite lines and words: a hosted game its router refused, a guest on a server of a long name
    refused = Forwarding(Step.REFUSED, 47170, via="NAT-PMP", why="result 2")
    shared = (Sharing(Invite("192.168.100.200", 47170, "K7QXM", "ab" * 32), Reach.LAN, refused),
              Sharing(Invite("villa-paletti-games.example.org", 47170, "K7QXM", "ab" * 32), Reach.SERVER))
    lobbies = [LobbyScreen(player=player, sharing=lambda s=sharing: s, on_sit=noop, on_computer=noop,
                           on_start=noop, on_rules=noop, on_leave=noop, on_clock=noop, on_send_away=noop)
               for player, sharing in zip((host, guest), shared)]
    for lobby in lobbies:
        lobby.tell(longest)
    return [OnlineMenu(on_host=noop, on_join=noop, on_rejoin=noop, on_back=noop, rejoin_code="K7QXM", notice=longest),
            HostScreen(port=47170, address="villa.example.org:47170", on_here=noop, on_server=noop, on_back=noop,
                       notice=longest),
            JoinScreen(address="villa.example.org:47170", name="Ben", code="K7QXM", on_join=noop, on_back=noop,
                       notice=longest),
            *lobbies]


def _photograph(stage, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    stage.base.taskMgr.step()
    stage.base.taskMgr.step()
    stage.win.saveScreenshot(Filename.fromOsSpecific(str(SCREENSHOTS / f"{name}.png")))


def test_every_label_fits_its_button_and_every_menu_the_window(stage, window):
    wrong = []
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben"), Seat("Cleo")), layout_named("rings")))  # colours to roll
    for language in LANGUAGES:
        i18n.install(language)
        for screen in _menus(match):
            screen.show()
            name = f"{type(screen).__name__} in {language}"
            wrong += [f"{name}: {label}" for label in _labels_outside_their_buttons(screen.root)]
            past = _outside_the_window(stage, screen.root, screen.widgets.get("backdrop"))
            if past > 1e-3:
                wrong.append(f"{name} reaches {past:.3f} past the window")
            if language == "de" and isinstance(screen, menus.PauseMenu) and window == (1024, 600):
                _photograph(stage, "pause_de_1024x600")
            screen.destroy()
    assert not wrong, "\n".join(wrong)


def test_a_menu_too_wide_for_a_narrow_window_is_shown_smaller_and_follows_the_window_as_it_changes(stage):
    """A 4:3 screen, or a window made taller than wide: every menu whole inside it, its backdrop filling it;
    in a window wide enough, every menu as laid out."""
    match = Match(MatchSetup((Seat("Anna"), Seat("Ben"), Seat("Cleo")), layout_named("rings")))
    wrong = []
    try:
        for size in ((1280, 720), (1000, 750), (640, 720)):
            _resize(stage, *size)
            for language in ("en", "de"):
                i18n.install(language)
                for screen in _menus(match):
                    screen.show()
                    name = f"{type(screen).__name__} in {language} at {size[0]}x{size[1]}"
                    past = _outside_the_window(stage, screen.root, screen.widgets.get("backdrop"))
                    if past > 1e-3:
                        wrong.append(f"{name} reaches {past:.3f} past the window")
                    if size == (1280, 720) and screen.root.getScale()[0] != 1:
                        wrong.append(f"{name} is shown smaller where it fits")
                    backdrop = screen.widgets.get("backdrop")
                    if backdrop is not None and _short_of_the_window(stage, backdrop) > 1e-3:
                        wrong.append(f"{name}: its backdrop leaves the window's edges bare")
                    screen.destroy()
        i18n.install("en")
        new_game = menus.NewGameScreen(on_start=lambda chosen: None, on_back=lambda: None)
        new_game.show()
        _resize(stage, 1000, 750)      # made narrower while it shows
        assert _outside_the_window(stage, new_game.root, new_game.widgets.get("backdrop")) < 1e-3
        new_game.destroy()
    finally:
        i18n.install("en")
        _resize(stage, 1280, 720)
    assert not wrong, "\n".join(wrong)


def test_the_game_screens_buttons_and_panels_fit(stage, window):
    wrong = []
    for language in LANGUAGES:
        i18n.install(language)
        labels = [_(words) for words in COMMANDS]
        bar = panels.CommandBar(stage.base.a2dBottomCenter, font())
        for row in (labels[i:i + 3] for i in range(0, len(labels), 3)):   # three at once, as a turn offers
            bar.show([(f"command-{i}", label, lambda: None) for i, label in enumerate(row)])
            wrong += [f"the command bar in {language}: {label}"
                      for label in _labels_outside_their_buttons(stage.base.a2dBottomCenter)]
        bar.close()
        for first, second in zip(labels[::2], labels[1::2]):
            panel = panels.hand_over(stage, font(), player="Dario", ink=panels.INK, words=_(LAYING),
                                     answers=[(first, lambda: None), (second, lambda: None)])
            wrong += [f"a panel in {language}: {label}" for label in _labels_outside_their_buttons(panel.frame)]
            past = _outside_the_window(stage, panel.frame)
            if past > 1e-3:
                wrong.append(f"a panel in {language} reaches {past:.3f} past the window")
            panel.destroy()
    assert not wrong, "\n".join(wrong)


def test_the_status_line_and_the_keys_stay_inside_the_window(stage, window):
    """The longest lines the status shows, with a name of 24 letters, and the line of keys along the bottom:
    set smaller where they must be, never cut by the edges."""
    for language in LANGUAGES:
        i18n.install(language)
        hud = Hud(stage)
        try:
            past = _outside_the_window(stage, stage.base.a2dBottomCenter)
            assert past < 1e-3, f"the keys in {language}: {past:.3f} past the window"
            for line in (_(words).format(who="Maximiliane-Josephine vW", objector="Anna", top=_("green"),
                                         next=_("yellow")) for words in STATUS_LINES):
                hud.show_status(line)
                past = _outside_the_window(stage, stage.base.a2dTopCenter)
                assert past < 1e-3, f"{line!r} in {language}: {past:.3f} past the window"
            hud.show_status(_("The game is over"))
            assert hud.status.getScale()[0] == pytest.approx(0.05)   # a short line keeps its size
        finally:
            hud.close()


def test_the_tooltip_stays_inside_the_window_wherever_the_mouse_is(stage, window):
    hud = Hud(stage)
    try:
        for language in LANGUAGES:
            i18n.install(language)
            laying = _(LAYING).format(count=2, need=3)
            for text in (laying, "Rot, 3 Punkte\n" + laying, "—"):
                for mouse in ((0.99, 0.0), (0.8, -0.2), (-0.99, 0.0), (0.99, -0.99), (0.99, 0.99), (-0.99, -0.99),
                              (0.0, 0.99), (0.0, -0.99)):
                    hud.show_tooltip(text, mouse)
                    low, high = hud.tooltip.getTightBounds(stage.aspect2d)
                    aspect = stage.base.getAspectRatio()
                    past = max(-aspect - low.x, high.x - aspect, -1 - low.z, high.z - 1)
                    assert past < 1e-3, f"{text!r} at {mouse} in {language}: {past:.3f} past the window"
        i18n.install("de")
        hud.show_tooltip(_(LAYING).format(count=2, need=3), (0.95, -0.1))
        if window == (1024, 600):
            _photograph(stage, "laying_tooltip_de_1024x600")
        lines = hud.tooltip.textNode.getWordwrappedText().split("\n")
        assert min(map(len, lines)) > max(map(len, lines)) / 3, f"wrapped into uneven lines: {lines}"
        # beside the mouse when there is room
        hud.show_tooltip("a column", (-0.5, 0.0))
        low, _high = hud.tooltip.getTightBounds(stage.aspect2d)
        assert abs(low.x - (-0.5 * stage.base.getAspectRatio() + 0.05)) < 0.02
    finally:
        hud.close()


def test_a_label_longer_than_any_language_has_yet_is_set_smaller_to_fit(stage):
    holder = DirectFrame(parent=stage.aspect2d, relief=None)
    try:
        long = "Ein Knopf, dessen Worte in keiner Sprache je so lang waren"
        style.button(holder, long, None, width=0.6)
        style.Toggle(holder, long + " " + long, False, lambda value: None, width=0.9)
        panels.button(holder, long, lambda: None, (0, 0), 0.6, font())
        assert not _labels_outside_their_buttons(holder)
    finally:
        holder.destroy()
