"""A whole turn in the real window, driven by real mouse events (xdotool under Xvfb)."""

from __future__ import annotations

import math

import pytest
from panda3d.core import Point3

from villa.physics import survey
from villa.rules import grabbable_columns as grabbable
from villa.match import requests as rq

pytestmark = pytest.mark.gui


def test_a_free_column_is_pulled_out_set_on_the_top_floor_and_the_turn_passes(stage, game, mouse, frames,
                                                                              on_screen):
    screen = game(layout="free corners", seed=1)
    frames(5)
    match, villa = screen.match, screen.villa
    player = match.actor
    colour = match.state.colours[player][0].value
    column = f"{colour}-thin-3"  # the free corners layout leaves one thin column per colour standing free
    assert column in grabbable(match.state)

    # Press on the column and drag it a little way out.
    x, y = on_screen(villa.nodes[column].getPos())
    mouse.move(x, y)
    frames(3)
    assert screen.hover == column
    mouse.down()
    frames(3)
    assert match.hand is not None and match.hand.column == column and screen.mode in ("Pulling", "Carrying")
    for step in range(1, 6):
        mouse.move(x, y - 8 * step)
        frames(2)
    mouse.up()
    frames(10)
    assert match.hand.state == "carrying", "a column standing free is free of the villa at once"
    assert screen.mode == "Carrying"

    # Carry it over the middle of the top floor and click to set it down.
    floor = villa.nodes["floor-1"].getPos()
    top = floor.z + 0.3
    mouse.move(*on_screen(Point3(floor.x, floor.y, top)))
    frames(30)
    assert screen.ghost.node is not None and not screen.ghost.node.isHidden()
    mouse.down()
    frames(2)
    mouse.up()

    before = len(match.state.log)
    for _ in range(900):  # up to 15 s of game time for the villa to settle
        frames()
        if len(match.state.log) > before:
            break
    assert match.state.levels[column] == 1, f"the column stands on the top level for the rules ({screen.hint})"
    assert survey.column_placed(match.villa, column).level == 1, "and in the villa"
    assert match.actor != player, "the turn passed"


def test_steadying_then_giving_up_a_pull_puts_the_villa_back_and_blocks_the_column(stage, game, mouse, frames, on_screen):
    screen = game(layout="rings", seed=2)
    frames(5)
    match, villa = screen.match, screen.villa
    player = match.actor
    before = villa.poses()
    # turn the view to the side of the player's outermost column, low, to look in under the floor
    outer = max(grabbable(match.state), key=lambda c: villa.nodes[c].getPos().getXy().length())
    where = villa.nodes[outer].getPos()
    screen.view.camera.goal.heading = math.degrees(math.atan2(-where.x, -where.y))
    screen.view.camera.goal.pitch = 15
    frames(60)
    takeable = set(grabbable(match.state))
    spots = [(c, villa.nodes[c].getPos() + (0, 0, dz)) for c in takeable for dz in (-3, -1.5, 0, 1.5, 3)]
    for column, spot in sorted(spots, key=lambda cs: -on_screen(cs[1])[1]):
        x, y = on_screen(spot)
        mouse.move(x, y)
        frames(2)
        if screen.hover in takeable:  # one of the player's columns in sight, not hidden behind another
            break
    column = screen.hover
    assert column in takeable
    mouse.down()
    frames(2)
    for step in range(1, 4):
        mouse.move(x + 6 * step, y + 6 * step)
        frames(3)
    assert match.hand is not None and match.hand.state == "pulling"
    assert survey.carries(villa, column, 1)
    assert not screen.gauge.frame.isHidden() and screen.gauge.label.getText().endswith(" N"), \
        "the strain gauge shows how hard the column holds"
    mouse.hold("space")
    frames(3)
    assert match.hand.steadied == "floor-1", "Space steadies the floor above"
    assert not screen.sight.drawing.root.isHidden(), "and it shows held: outlined over the villa"
    mouse.hold("space", False)
    frames(3)
    assert match.hand.steadied is None
    mouse.key("Escape")
    frames(3)
    mouse.up()
    frames(3)

    assert match.hand is None and screen.gauge.frame.isHidden()
    assert column in match.state.blocked
    assert match.actor != player, "an aborted build ends the turn"
    (x0, y0, z0), _ = before[column]
    (x1, y1, z1), _ = match.villa.poses()[column]
    assert abs(x1 - x0) < 0.05 and abs(y1 - y0) < 0.05 and abs(z1 - z0) < 0.05, "the column is back"
    assert screen.view.scene.pieces[column].getColorScale()[0] < 0.9, "and looks blocked"


def test_esc_gives_up_a_granted_floor_that_cannot_be_laid_as_its_button_says(stage, game, mouse, frames,
                                                                           press_button):
    from villa import rules
    screen = game(players=("Anna", "Ben"), layout="free corners", seed=1)
    paused = []
    screen.on_pause = lambda: paused.append(True)
    frames(3)
    match = screen.match
    proposer = match.actor
    assert rq.ask(match, rq.Propose).accepted
    assert rq.ask(match, lambda s: rq.Answer(s, False)).accepted       # nobody objects; no column stands on the blue floor
    frames(3)
    press_button(next(b for b in screen.panel.buttons if "I have the mouse" in b["text"]))   # back to the proposer
    assert match.state.turn.step is rules.Step.LAY_FLOOR and screen.mode == "Idle"
    mouse.key("Escape")
    frames(3)
    assert isinstance(match.state.log[-1], rules.GiveUpFloor) and not paused, "given up, not paused"
    assert match.actor != proposer
    mouse.key("Escape")                              # nothing granted now: the pause menu
    frames(3)
    assert paused
