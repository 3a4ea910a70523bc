"""Online, the pointer finds a column where the window draws it, through the real game screen and the real pointer.

A window watches a game of three from its start: the others play the conformance suite's script of the neutral
column and the challenge (online alone, `tests.conformance.lockstep`), in which Ben, proving a challenge, sets the
neutral red thin column 1 up from the base plate onto the green floor, and the yellow floor is laid over it. Then the
window sits at Cleo's seat (with its token): her turn, a neutral column first. The real pointer, moved over that
column where the window draws it now, names it in the tooltip, and a press takes it. (A window whose villa found
each piece where it stood when the game began named something else there, or nothing.)"""

from __future__ import annotations

import pytest
from panda3d.core import Point3

from villa import rules
from villa.presentation import words
from villa.presentation.camera import mouse_ray
from tests.conformance import games
from tests.conformance.lockstep import LOOPBACK, Lockstep

pytestmark = pytest.mark.gui

MOVED = "red-thin-1"      # set up onto the green floor by Ben, proving his challenge
CLEO = 2


def _serve(tables, *players) -> None:
    tables.server.poll(0.001)
    tables.server.frames(1)
    tables.server.poll()
    for player in players:
        player.poll()


def _until(done, step, rounds: int = 2000) -> None:
    for _ in range(rounds):
        if done():
            return
        step()
    raise AssertionError("never came")


def _spots(villa, column: str):
    """Points on the column's surface, the camera's side first: up its axis, and across it."""
    centre, radius = villa.nodes[column].getPos(), 0.5
    for height in (3.0, 2.0, 1.0, 0.0, -1.0, -2.0, -3.0):
        for across in (0.0, -radius, radius):
            yield Point3(centre.x + across, centre.y, centre.z + height)


def test_the_pointer_over_a_column_the_other_player_moved_names_it_and_a_press_takes_it(stage, frames, mouse,
                                                                                       on_screen, snapshot):
    from villa.online.client import OnlineMatch, Player
    from villa.presentation.game import GameScreen
    game = games.NEUTRAL_CHALLENGE
    tables = Lockstep(game.setup, hot_seat=False)
    window = screen = None
    try:
        window = Player(LOOPBACK, tables.server.port)
        _until(lambda: window.ready, lambda: _serve(tables, window))
        window.enter(tables.room.code)
        _until(lambda: window.room is not None and window.poses, lambda: _serve(tables, window))
        match = OnlineMatch(window)           # the window's villa, from the start of the game: it sees it all
        tables.watch = lambda _tables: match.advance(0.0)
        tables.play(game.script)
        assert tables.room.match.state.levels[MOVED] == 2 and rules.acting_player(tables.room.match.state) == CLEO
        assert MOVED in rules.grabbable_columns(tables.room.match.state)

        window.rejoin(tables.player.seats[CLEO], tables.room.code)
        _until(lambda: set(window.seats) == {CLEO}, lambda: _serve(tables, window))
        stage.task_mgr.add(lambda task: (_serve(tables), task.cont)[1], "tests: the server", sort=-30)
        screen = GameScreen(stage, match, here=match.here)
        frames(40)                            # the villa drawn at rest, where the server has it
        assert screen.mode == "Idle"

        truth = tables.room.match.villa       # where the pieces are: the server's villa
        width, height = stage.win.getXSize(), stage.win.getYSize()
        seen = None
        for spot in _spots(match.villa, MOVED):
            x, y = on_screen(spot)
            hit = truth.pick(*mouse_ray(stage, (x / width * 2 - 1, 1 - y / height * 2)))
            if hit is not None and hit[0] == MOVED:
                seen = (x, y)
                break
        assert seen is not None, f"{MOVED} is hidden from the turn's view"
        mouse.move(*seen)
        frames(5)
        label = words.column_label(MOVED)
        assert screen.hint is not None and screen.hint.startswith(label), f"the tooltip says {screen.hint!r}"
        assert screen.hud.tooltip.getText().startswith(label)
        snapshot("online-pointer")
        mouse.down()
        frames(5)
        assert match.hand is not None and match.hand.column == MOVED, "the press took another column, or none"
        _until(lambda: tables.room.match.hand is not None, frames, 300)
        assert tables.room.match.state.turn.column == MOVED, "the server's hand took another column"
    finally:
        mouse.up()
        stage.task_mgr.remove("tests: the server")
        if screen is not None:
            screen.close()
        if window is not None:
            window.close()
        tables.close()
