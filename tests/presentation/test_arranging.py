"""Setting the columns up by hand in the window, with the real pointer (xdotool under Xvfb): a column
dragged across the plate, the checks in words, and the game that starts from the arrangement."""

from __future__ import annotations

import math
import random

import pytest

from villa import rules
from villa.match import Seat
from villa.physics import geometry, layouts
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, column_spec
from villa.presentation.arrange import Hand
from villa.presentation.preferences import Settings
from villa.match import requests as rq

pytestmark = pytest.mark.gui

TOP = BASE.top_z + COLUMN_HEIGHT   # a column is taken by its top: the players look down on the plate


@pytest.fixture
def arranging(stage, frames):
    """`arranging(start)`: the arranging screen on `start`; what it reports lands in `calls`."""
    from villa.presentation.arrange import ArrangeScreen
    opened = []

    def open_on(start, need: int = 3) -> ArrangeScreen:
        calls = {"laid": [], "back": 0}

        def back() -> None:
            calls["back"] += 1
        screen = ArrangeScreen(stage, start=start, need=need, on_lay=calls["laid"].append, on_back=back,
                               rng=random.Random(5))
        screen.calls = calls
        screen.show()
        opened.append(screen)
        frames(3)
        return screen

    yield open_on
    for screen in opened:
        if screen.visible:
            screen.destroy()


def drag(mouse, frames, on_screen, frm, to, steps: int = 8) -> None:
    """Press on the world point `frm`, carry it across to `to` in steps, as a hand moves, and let go."""
    start, end = on_screen(frm), on_screen(to)
    mouse.move(*start)
    frames(3)
    mouse.down()
    frames(3)
    for step in range(1, steps + 1):
        mouse.move(start[0] + (end[0] - start[0]) * step / steps, start[1] + (end[1] - start[1]) * step / steps)
        frames(2)
    frames(3)
    mouse.up()
    frames(4)


def top_of(screen, column: str) -> tuple[float, float, float]:
    spot = screen.arrangement.spots[column]
    return spot.x, spot.y, TOP


def free_place(arrangement, column: str, inside: bool, far_from: tuple[float, float]):
    """A free place for `column` (wholly under the blue floor, or clear of it) that keeps every check passing."""
    from villa.presentation.arrangement import Arrangement
    for r10 in range(0, 100, 5):
        for a in range(0, 360, 15):
            x, y = round(r10 / 10 * math.cos(math.radians(a)), 3), round(r10 / 10 * math.sin(math.radians(a)), 3)
            if math.hypot(x - far_from[0], y - far_from[1]) < 2.5 or y > 0:   # the near half: in plain view
                continue
            trial = Arrangement(arrangement.spots, arrangement.floor, arrangement.need)
            if trial.spot_for(column, x, y) != (x, y):
                continue
            trial.move(column, x, y)
            if trial.valid and (column in trial.carrying()) == inside:
                return x, y
    raise AssertionError(f"no free place for {column}")


def test_dragging_a_column_moves_it_and_an_edge_spot_disables_the_floor(arranging, frames, mouse, on_screen,
                                                                         press_button, snapshot):
    screen = arranging(layouts.preset("free corners"))
    column = "blue-thin-3"                              # free-standing in front of the floor
    assert screen.panel.can_lay and column not in screen.arrangement.carrying()

    mouse.move(*on_screen(top_of(screen, column)))      # the pointer over it: it lights up, a ring round its foot
    frames(4)
    assert screen.hover == column
    assert screen.view.scene.glow[column].length() > 0.2 and not screen.marks.ring.isHidden()
    assert "Blue thin" in screen.words.tip["text"]
    snapshot("arrange-1-hover")

    # onto the blue floor's edge: half under it
    edge = next(p for p in sorted(screen.arrangement.outline(), key=lambda p: abs(p[0] + 3.3) + abs(p[1] + 8))
                if screen.arrangement.free(column, *p))
    before = screen.arrangement.spots[column]
    drag(mouse, frames, on_screen, top_of(screen, column), (*edge, TOP))
    after = screen.arrangement.spots[column]
    assert math.hypot(after.x - edge[0], after.y - edge[1]) < 0.3, "the column stands where it was let go"
    assert math.hypot(after.x - before.x, after.y - before.y) > 0.5
    assert screen.held is None
    frames(20)
    node = screen.view.scene.pieces[column]
    assert math.hypot(node.getX() - after.x, node.getY() - after.y) < 0.05 and abs(node.getZ() - TOP + 4) < 0.05

    w = screen.widgets
    assert [p.check for p in screen.problems] == ["edge"]
    assert not screen.panel.can_lay
    assert w["mark_edge"]["text"] == "✗" and w["mark_site"]["text"] == "✓"
    assert "half under the edge of the blue floor" in w["reason"]["text"]
    assert screen.faulty() == {column} and not screen.marks.faults[column].isHidden(), "a red ring marks it"
    snapshot("arrange-2-edge")
    press_button(w["lay"])                              # greyed out: nothing happens
    frames(60)
    assert screen.calls["laid"] == [] and screen.hand is Hand.EMPTY

    # clear of the floor again: every check passes
    spot = free_place(screen.arrangement, column, inside=False, far_from=(after.x, after.y))
    drag(mouse, frames, on_screen, top_of(screen, column), (*spot, TOP))
    assert screen.problems == [] and screen.panel.can_lay
    assert w["reason"]["text"] == "Every check passes: the blue floor can go on."

    mouse.key("Escape")                                 # nothing in hand: back
    frames(3)
    assert screen.calls["back"] == 1


def test_a_column_cannot_go_off_the_site_nor_into_another(arranging, frames, mouse, on_screen):
    screen = arranging(layouts.preset("rings"))
    column = min(screen.arrangement.spots, key=lambda c: screen.arrangement.spots[c].y)   # the nearest the players
    drag(mouse, frames, on_screen, top_of(screen, column), (0.0, -20.0, TOP))             # out past the border
    spot = screen.arrangement.spots[column]
    assert math.hypot(spot.x, spot.y) <= BASE.site_radius
    assert not any(p.check in ("site", "apart") for p in screen.problems)
    neighbour = min((c for c in screen.arrangement.spots if c != column),
                    key=lambda c: math.hypot(screen.arrangement.spots[c].x - spot.x,
                                             screen.arrangement.spots[c].y - spot.y))
    other = screen.arrangement.spots[neighbour]
    drag(mouse, frames, on_screen, top_of(screen, column), (other.x, other.y, TOP))       # onto its neighbour
    assert not any(p.check in ("site", "apart") for p in screen.problems)
    assert screen.arrangement.spots[neighbour] == other, "the neighbour was not pushed"


def test_esc_while_holding_puts_the_column_back(arranging, frames, mouse, on_screen, snapshot):
    screen = arranging(layouts.preset("free corners"))
    column = "red-thin-3"
    before = screen.arrangement.spots[column]
    start = on_screen(top_of(screen, column))
    mouse.move(*start)
    frames(3)
    mouse.down()
    frames(3)
    mouse.move(start[0] + 60, start[1] - 40)
    frames(4)
    assert screen.hand is Hand.COLUMN and screen.held == column and screen.arrangement.spots[column] != before
    frames(10)
    assert screen.view.scene.pieces[column].getZ() > TOP - 4 + 1.0, "a held column is lifted off the plate"
    snapshot("arrange-held")
    mouse.key("Escape")
    frames(3)
    assert screen.held is None and screen.arrangement.spots[column] == before and screen.calls["back"] == 0
    mouse.up()
    frames(2)


def _bare_floor_point(arrangement, near: tuple[float, float]) -> tuple[float, float]:
    """A point on the plate inside the blue outline, near `near`, that no column hides from the
    players' view (looking down from the front, a column hides the plate just behind it)."""
    def hidden(p, spot) -> bool:
        behind = min(max(p[1] - spot.y, 0.0), 2.5)
        return math.hypot(p[0] - spot.x, p[1] - spot.y - behind) < column_spec(spot.column).radius + 0.8

    candidates = [(near[0] + r / 4 * math.cos(a / 8), near[1] + r / 4 * math.sin(a / 8))
                  for r in range(0, 40) for a in range(0, 50)]
    return next(p for p in candidates if arrangement.on_floor(*p)
                and geometry.signed_distance(arrangement.outline(), *p) > 1.0
                and not any(hidden(p, spot) for spot in arrangement.spots.values()))


def test_the_blue_floor_is_dragged_and_turned_with_the_pointer(arranging, frames, mouse, on_screen, snapshot):
    screen = arranging(layouts.preset("colonnade"))
    start = screen.arrangement.floor
    carried = set(screen.arrangement.carrying())
    grab = _bare_floor_point(screen.arrangement, (start.x, start.y - 3.0))
    mouse.move(*on_screen((*grab, BASE.top_z)))
    frames(4)
    assert screen.floor_hover and screen.hover is None
    assert "The blue floor's place" in screen.words.tip["text"]

    distance = screen.view.camera.goal.distance
    mouse.wheel(2)                                          # over the floor the wheel turns it, not the view
    frames(4)
    assert screen.arrangement.floor.yaw == pytest.approx((start.yaw + 30.0) % 360)
    assert screen.view.camera.goal.distance == distance
    assert abs(screen.marks.outline.getH() - screen.arrangement.floor.yaw) % 360 < 1e-3

    drag(mouse, frames, on_screen, (*grab, BASE.top_z), (grab[0] + 2.0, grab[1] - 1.5, BASE.top_z))
    moved = screen.arrangement.floor
    assert moved.x == pytest.approx(start.x + 2.0, abs=0.3) and moved.y == pytest.approx(start.y - 1.5, abs=0.3)
    assert screen.hand is Hand.EMPTY
    outline = screen.marks.outline
    assert outline.getX() == pytest.approx(moved.x) and outline.getY() == pytest.approx(moved.y)
    frames(12)
    assert set(screen.arrangement.carrying()) != carried or screen.problems, "the checks follow the floor"
    snapshot("arrange-floor-moved")

    # taken again and let go with Esc: back where it was
    here = _bare_floor_point(screen.arrangement, (moved.x, moved.y - 3.0))
    mouse.move(*on_screen((*here, BASE.top_z)))
    frames(3)
    mouse.down()
    frames(3)
    mouse.move(*on_screen((here[0] - 4.0, here[1], BASE.top_z)))
    frames(4)
    assert screen.hand is Hand.FLOOR and screen.arrangement.floor != moved
    mouse.key("Escape")
    frames(3)
    assert screen.hand is Hand.EMPTY and screen.arrangement.floor == moved and screen.calls["back"] == 0
    mouse.up()
    frames(2)


def test_start_from_a_preset_or_a_shuffle(arranging, frames, press_button):
    screen = arranging(layouts.preset("rings"))
    press_button(screen.widgets["preset_colonnade"])
    assert set(screen.arrangement.layout().columns) == set(layouts.preset("colonnade").columns)
    press_button(screen.widgets["shuffle"])
    shuffled = screen.arrangement.layout()
    assert set(shuffled.columns) != set(layouts.preset("colonnade").columns) and screen.problems == []
    assert screen.panel.can_lay


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), players=(Seat("Anna"), Seat("Ben")), rng=random.Random(3))
    yield app
    app.close()


def _colours(front, frames, press_button) -> list:
    """The seal rolled and the choices clicked; the picks made."""
    roll = front.menu
    frames(2)
    roll.finish_roll()
    frames(3)
    picks = []
    while roll.chooser is not None:
        picks.append((roll.chooser, roll.colours_left[-1]))
        press_button(roll.widgets[f"colour_{roll.colours_left[-1].value}"])
    press_button(roll.widgets["start"])
    return picks


def test_arranged_by_hand_from_the_new_game_screen_to_the_game(front, frames, mouse, on_screen, press_button,
                                                                 snapshot):
    from villa.presentation.arrange import ArrangeScreen
    from villa.presentation.menus import NewGameScreen, SealRollScreen
    front.main_menu()
    frames(3)
    press_button(front.menu.widgets["new_game"])
    press_button(front.menu.widgets["layout"].buttons["hand"])
    press_button(front.menu.widgets["start"])
    screen = front.menu
    assert isinstance(screen, ArrangeScreen), "the columns are set up first, as the rulebook has it"
    assert set(screen.arrangement.layout().columns) == set(layouts.preset("rings").columns)

    # Back, and the new-game screen still holds the choices; on again, the columns as they were
    press_button(screen.widgets["preset_colonnade"])
    press_button(screen.widgets["back"])
    assert isinstance(front.menu, NewGameScreen)
    assert front.menu.choices().layout == "hand" and front.menu.choices().players == ("Anna", "Ben")
    press_button(front.menu.widgets["start"])
    screen = front.menu
    assert set(screen.arrangement.layout().columns) == set(layouts.preset("colonnade").columns)

    # a column from the front row set under the middle of the floor
    column = "blue-thin-1"
    before = screen.arrangement.spots[column]
    place = free_place(screen.arrangement, column, inside=True, far_from=(before.x, before.y))
    drag(mouse, frames, on_screen, top_of(screen, column), (*place, TOP))
    spot = screen.arrangement.spots[column]
    assert math.hypot(spot.x - place[0], spot.y - place[1]) < 0.3
    assert screen.problems == [] and screen.panel.can_lay
    snapshot("arrange-3-ready")
    arranged = screen.arrangement.layout()
    carrying = frozenset(screen.arrangement.carrying())

    press_button(screen.widgets["lay"])
    frames(70)                                          # the blue floor comes down, then the colours
    assert isinstance(front.menu, SealRollScreen)
    picks = _colours(front, frames, press_button)
    game, match = front.screen, front.match
    assert game is not None and front.menu is None
    snapshot("arrange-4-game")
    assert match.setup.layout == arranged
    for spot in arranged.columns:                      # the villa built where the columns were put
        x, y, _ = match.villa.pose(spot.column)[0]
        assert math.hypot(x - spot.x, y - spot.y) < 0.1, spot.column
    state = match.state
    assert state.floor_supports[1] == carrying == frozenset(c.column for c in layouts.supports(arranged, 1))
    assert column in carrying
    assert all(colour in state.colours[seat] for seat, colour in picks)

    # "Play again" builds the same arrangement again
    assert match._apply(rules.Collapse(1.0, rules.CollapseCause.FLOOR_TILTED, "floor-1")) is None
    frames(5)
    press_button(front.menu.widgets["play_again"])
    assert front.match.setup.layout == arranged
