"""A whole three-player game through the menus, played with the real pointer and keys (xdotool under Xvfb).

Main menu -> New game: three players named by typing, the publisher's rules, the "free corners"
preset -> the seal is rolled (the seed makes it show blue for Mira) and Jonas and Emil click their
colours: Mira blue, Jonas green, Emil red, yellow neutral; Emil, the last to choose, begins.

  Emil    the free neutral column, then his own free thin one, onto the blue floor.
  Mira    a neutral column pulled out from under the blue floor, then her own free thin one.
  Jonas   proposes the green floor (the button). Emil objects on the hand-over panel, takes one of
          Jonas' columns for his proof and gives it up with a right click: the objection fails.
          Jonas takes the mouse back, pulls Emil's thin column off the blue floor (it leaves the
          game) and lays the green floor on the three columns left there.
  Emil    a neutral column and then his own hexagonal one, both pulled from under the blue floor,
          onto the green floor: the first own column there takes the Master Builder Seal.
  Mira    drags the neutral column carrying a corner of the green floor out hard: the floor
          tips and the villa comes down, in Mira's turn.

The slow-motion replay is skipped with Esc, and the end screen names Emil the Master Builder:
he holds the seal and did not bring the villa down.

Only the pointer and the keys play; the test reads the screen's state (what the pointer is
over, the tooltip, the referee) to know when to act. Frames advance the game's clock by
exactly 1/60 s, so the physics runs the same every time.
"""

from __future__ import annotations

import math
import random
import re

import pytest
from panda3d.core import Point3, Vec3

from villa import rules
from villa.physics.dimensions import FLOORS
from villa.presentation.preferences import Settings
from villa.presentation.words import guidance
from villa.rules import Task

pytestmark = pytest.mark.gui   # about a minute and a half

SEED = 1                                   # the seal rolls blue for the first player
PLAYERS = ("Mira", "Jonas", "Emil")        # seat 0 is the youngest: she rolls the seal
MIRA, JONAS, EMIL = range(3)

# Where the columns go on the blue floor, from its centre (cm): three of them in a triangle
# for the green floor to rest on, and Emil's thin column off to the side.
TRIANGLE = {"yellow-thin-3": (-3.5, -2.6), "yellow-hex": (3.5, -2.6), "blue-thin-3": (0.0, 2.6)}
ASIDE = {"red-thin-3": (7.0, 0.9)}
# ... and on the green floor, from its centre.
ON_GREEN = {"yellow-thick": (-1.5, 0.8), "red-hex": (1.5, 0.8)}
# Which way (on the table) each column is pulled: straight out, clear of the others.
OUTWARD = {"yellow-hex": (1.0, -0.45), "yellow-thick": (1.0, -0.25), "red-hex": (-0.45, -0.9)}


def plain(text: str) -> str:
    """The HUD's words without its inks (\\1colour\\1 ... \\2)."""
    return re.sub("\x01[^\x01]*\x01|\x02", "", text)


@pytest.fixture
def front(stage, monkeypatch, tmp_path):
    from villa.app.front import Front
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    app = Front(stage, Settings(language="en"), rng=random.Random(SEED))
    yield app
    app.close()


class Player:
    """The people at the table: everything they do goes through the real pointer and keys."""

    def __init__(self, front, mouse, frames, on_screen, press_button) -> None:
        self.front, self.mouse, self.frames, self.on_screen = front, mouse, frames, on_screen
        self.press_button = press_button

    @property
    def screen(self):
        return self.front.screen

    @property
    def match(self):
        return self.front.match

    @property
    def hand(self):
        return self.match.hand

    @property
    def villa(self):
        return self.match.villa

    def wait(self, done, frames: int, what: str) -> None:
        for _ in range(frames):
            if done():
                return
            self.frames()
        if not done():
            screen = self.screen
            raise AssertionError(f"{what}: not after {frames} frames | hint {screen.hint!r} | "
                                 f"mode {screen.mode} | status {screen.hud.status.getText()!r} | "
                                 f"message {screen.hud.message.getText()!r} | turn {self.match.state.turn}")

    def settle_view(self) -> None:
        """Let the camera glide to where it is going (it follows the top floor)."""
        self.frames(90)

    # --- the pointer on a column ---

    def point_at(self, column: str) -> Point3:
        """Put the pointer where it is over `column` (not hidden behind anything): the world point there."""
        centre = self.villa.nodes[column].getPos()
        tried = []
        for dz in (0.0, -1.5, 1.5, -3.0, 3.0, -2.2, 2.2, -3.5):
            for side in (0.0, -0.4, 0.4):
                point = centre + Vec3(side, side, dz)
                self.mouse.move(*self.on_screen(point))
                self.frames(2)
                tried.append(self.screen.hover)
                if self.screen.hover == column:
                    self.frames(2)
                    if self.screen.hover == column:   # still: the pointer is really there
                        return point
        raise AssertionError(f"{column} is nowhere in sight; the pointer met {tried}")

    def pull_out(self, column: str, outward=None, reach: float = 14.0, steps: int = 6) -> None:
        """Press on the column and drag it out (from under its floor) until it is free in the hand."""
        grab = self.point_at(column)
        if outward is None:
            outward = (0.0, -1.0)
        way = Vec3(outward[0], outward[1], 0)
        way.normalize()
        self.mouse.down()
        self.wait(lambda: self.hand is not None, 30, f"{column} in hand")
        assert self.hand.column == column
        for step in range(1, steps + 1):
            if self.hand.state != "pulling":
                break
            self.mouse.move(*self.on_screen(grab + way * (reach * step / steps)))
            self.frames(3)
        self.wait(lambda: self.hand is None or self.hand.state != "pulling", 120,
                  f"{column} comes free")
        self.mouse.up()
        self.frames(2)

    def top_surface(self) -> float:
        level = self.villa.top_level
        return self.villa.nodes[f"floor-{level}"].getZ() + FLOORS[level].thickness / 2

    def set_down(self, column: str, offset: tuple[float, float]) -> None:
        """Carry the column in hand over the spot `offset` from the top floor's centre, and click."""
        level = self.villa.top_level
        floor = self.villa.nodes[f"floor-{level}"].getPos()
        x, y = floor.x + offset[0], floor.y + offset[1]
        self.mouse.move(*self.on_screen(Point3(x, y, self.top_surface())))
        node = self.villa.nodes[column]
        self.wait(lambda: math.hypot(node.getX() - x, node.getY() - y) < 0.2
                  and (self.screen.hint or "").startswith("click to set it down"), 400, f"{column} over its spot")
        self.frames(5)
        before = len(self.match.state.log)
        self.mouse.down()
        self.frames(2)
        self.mouse.up()
        self.wait(lambda: len(self.match.state.log) > before, 900, f"{column} set down and the villa settled")
        assert self.match.state.levels[column] == level, f"{column} stands on the top floor"

    def build(self, column: str, offset: tuple[float, float]) -> None:
        self.pull_out(column, OUTWARD.get(column))
        assert self.hand.state == "carrying" and self.screen.mode == "Carrying"
        self.set_down(column, offset)

    # --- buttons and panels ---

    def answer_panel(self, words: str) -> None:
        panel = self.screen.panel
        assert panel is not None, f"a hand-over panel offering {words!r}"
        button = next(b for b in panel.buttons if words in b["text"])
        self.press_button(button)


def test_a_whole_game_through_the_menus_from_the_seal_roll_to_the_master_builder(
        front, frames, mouse, on_screen, press_button, snapshot):
    from villa.presentation import menus
    player = Player(front, mouse, frames, on_screen, press_button)

    # --- the main menu: a new game of three, named by typing, the free corners preset ---
    front.main_menu()
    frames(3)
    snapshot("whole-1-main-menu")
    press_button(front.menu.widgets["new_game"])
    new_game = front.menu
    assert isinstance(new_game, menus.NewGameScreen)
    press_button(new_game.widgets["count"].buttons[3])
    for entry, name in zip(new_game.widgets["names"], PLAYERS):
        press_button(entry)
        mouse.key("End", *["BackSpace"] * 16)
        mouse.type(name)
        frames(2)
    press_button(new_game.widgets["edition"].buttons[False])     # the publisher's rules
    press_button(new_game.widgets["layout"].buttons["preset"])
    press_button(new_game.widgets["preset"].buttons["free corners"])
    choices = new_game.choices()
    assert choices.players == PLAYERS and choices.rules == rules.PUBLISHER and choices.preset == "free corners"
    snapshot("whole-2-new-game")
    press_button(new_game.widgets["start"])

    # --- the seal is rolled for Mira; Jonas and Emil choose with the pointer ---
    roll = front.menu
    frames(2)
    assert isinstance(roll, menus.SealRollScreen) and roll.in_the_air == rules.SealRoll(rules.Colour.BLUE)
    for _ in range(200):   # the die tumbles across the table and lands (2.2 s)
        if not roll.rolling:
            break
        frames()
    assert roll.chooser == JONAS
    press_button(roll.widgets["colour_green"])
    assert roll.chooser == EMIL
    press_button(roll.widgets["colour_red"])
    assert roll.done
    snapshot("whole-3-seal-roll")
    press_button(roll.widgets["start"])

    screen = player.screen
    assert screen is not None and front.menu is None
    match = player.match
    state = match.state
    assert state.players == PLAYERS and state.neutral is rules.Colour.YELLOW
    assert state.colours == ((rules.Colour.BLUE,), (rules.Colour.GREEN,), (rules.Colour.RED,))
    assert match.actor == EMIL, "the last to choose begins"
    player.settle_view()

    # --- Emil: the neutral column first, then one of his own ---
    assert guidance(match.state).task is Task.NEUTRAL
    assert screen.hud.status.getText().startswith("Emil: first a neutral (yellow) column onto the blue floor")
    blue = TRIANGLE | ASIDE
    player.build("yellow-thin-3", blue["yellow-thin-3"])
    assert guidance(match.state).task is Task.OWN and match.actor == EMIL
    player.build("red-thin-3", blue["red-thin-3"])
    assert match.actor == MIRA and screen.panel is None

    # --- Mira: a neutral column from under the blue floor, then her own ---
    player.build("yellow-hex", blue["yellow-hex"])
    player.build("blue-thin-3", blue["blue-thin-3"])
    assert match.actor == JONAS and match.state.top_level == 1
    assert len([c for c, level in match.state.levels.items() if level == 1]) == 4

    # --- Jonas proposes the green floor; Emil objects, and his proof fails ---
    player.press_button(screen.hud.commands.buttons["propose"])
    assert guidance(match.state).task is Task.ANSWER_OBJECTION and match.actor == EMIL
    assert screen.panel.title.getText() == "Emil"
    snapshot("whole-4-objection-asked")
    player.answer_panel("Object")
    assert guidance(match.state).task is Task.PROOF and match.actor == EMIL and screen.panel is None
    player.pull_out("green-thin-3", (0.0, -1.0))        # one of Jonas' columns, for the proof ...
    assert match.hand.state == "carrying"
    mouse.down(3)                                        # ... given up with a right click
    frames(2)
    mouse.up(3)
    frames(3)
    assert "green-thin-3" in match.state.blocked
    assert guidance(match.state).task is Task.TAKE_OUT and match.actor == JONAS
    assert screen.panel.title.getText() == "Jonas" and "objection fails" in screen.panel.words.getText()
    player.answer_panel("I have the mouse")
    player.pull_out("red-thin-3", (1.0, 0.0))           # one of Emil's columns leaves the game
    player.wait(lambda: match.state.turn.step is rules.Step.LAY_FLOOR, 600, "the column is out of the game")
    assert "red-thin-3" in match.state.out and "red-thin-3" not in player.villa.nodes

    # Jonas lays the green floor on the three columns left on the blue floor.
    player.wait(lambda: match.hand is not None and screen.mode == "Laying", 30, "the green floor in hand")
    player.settle_view()
    lay = match.hand
    spots = [player.villa.nodes[c].getPos() for c in TRIANGLE]
    middle = Point3(sum(p.x for p in spots) / 3, sum(p.y for p in spots) / 3, lay.rest_z)
    mouse.move(*on_screen(middle))   # on the plane of the column tops: what is under the pointer comes under the floor
    player.wait(lambda: math.hypot(lay.x - middle.x, lay.y - middle.y) < 0.2, 300, "the floor over the middle")
    frames(5)
    assert lay.columns_under() == frozenset(TRIANGLE), screen.hint
    assert screen.hint.startswith("rests on 3 columns")
    mouse.down()
    frames(2)
    mouse.up()
    player.wait(lambda: match.state.top_level == 2, 900, "the green floor laid")
    assert match.state.floor_supports[2] == frozenset(TRIANGLE)
    assert match.actor == EMIL and match.state.seal.holder is None
    player.settle_view()

    # --- Emil: a neutral column and one of his own from under the blue floor, onto the green one ---
    player.build("yellow-thick", ON_GREEN["yellow-thick"])
    assert match.state.seal.holder is None, "a neutral column takes the seal for nobody"
    player.build("red-hex", ON_GREEN["red-hex"])
    seal = match.state.seal
    assert seal.holder == EMIL and seal.shows is None, "the first own column on the green floor takes the seal"
    assert "Emil: red (dots)  ·  2  \u2605 seal" in plain(screen.hud.players.getText())
    assert "Master Builder Seal: Emil" in screen.hud.info.getText()
    assert match.actor == MIRA and guidance(match.state).task is Task.NEUTRAL
    assert screen.hud.status.getText().startswith("Mira: first a neutral (yellow) column onto the green floor")

    # --- Mira drags a neutral column out from under a corner of the green floor, hard ---
    frames(150)   # the last word on the screen fades
    grab = player.point_at("yellow-hex")
    mouse.down()
    player.wait(lambda: match.hand is not None, 30, "the column in hand")
    assert match.hand.column == "yellow-hex"
    way = Vec3(*OUTWARD["yellow-hex"], 0)
    way.normalize()
    mouse.move(*on_screen(grab + way * 3.0))
    frames(2)
    assert match.hand.state == "pulling"
    assert screen.hud.status.getText() == ("Mira: draw the yellow hexagonal column out "
                                           "(hold Space to steady the floor above), or give it up (Esc)")
    snapshot("whole-5-pulling")
    mouse.move(*on_screen(grab + way * 16.0))
    player.wait(lambda: match.collapsed, 300, "the villa comes down")
    mouse.up()
    assert match.over
    result = match.state.result
    assert result.ending == "collapse" and result.collapsed_by == MIRA

    # --- the fall once more, slowly; Esc skips the rest; the end screen ---
    player.wait(lambda: screen.mode == "Replay", 1200, "the slow-motion replay")
    frames(60)
    snapshot("whole-6-slow-motion")
    assert screen.mode == "Replay" and front.menu is None
    mouse.key("Escape")                                  # skips the rest of it
    player.wait(lambda: front.menu is not None, 30, "the end screen")
    assert screen.mode == "Ended"
    end = front.menu
    assert isinstance(end, menus.EndScreen), "the end screen follows the replay"
    assert result.winner == EMIL
    assert end.widgets["headline"]["text"] == "Emil is the Master Builder!"
    assert "Mira brought the villa down" in end.widgets["reason"]["text"]
    assert "Emil holds the Master Builder Seal and wins" in end.widgets["reason"]["text"]
    snapshot("whole-7-end")
