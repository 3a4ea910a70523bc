"""The one game window of the test session (Panda3D allows one ShowBase per process)."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest


DRAWN_ONE_IN = 8       # frames: at rest the window draws one frame in eight; the game's time, tasks and input go on
AFTER_INPUT_FRAMES = 4   # ... but every frame from an input on, for this many frames


@pytest.fixture(scope="session")
def stage(display):
    """The window, opened once; the clock advances exactly 1/60 s per frame, so runs repeat."""
    from villa.presentation.stage import WindowOptions, close_window, open_window, stage
    already_open = stage.is_open  # another folder's tests may have opened it
    open_window(WindowOptions(width=1280, height=720, sync_video=False, fixed_frame_rate=60, sound=False))
    drawing = DrawingLess(stage)
    yield stage
    drawing.stop()
    if not already_open:
        close_window()


class DrawingLess:
    """Leave frames out of drawing, as the game itself does at rest (villa.presentation.drawing): a software
    renderer spends most of a test's time drawing. A frame is drawn when an input arrived and for a few frames
    after (the GUI learns where its buttons are from a drawn frame), else one frame in DRAWN_ONE_IN. Panda3D
    still reads the window's input in a frame left out; between frames the window is active, so a test's own
    `renderFrame()` and screenshot see the picture as it is now. A test that sets up the game's own policy
    (`stage.drawing`) has the window to that policy alone."""

    TASKS = {"tests: input": -1, "tests: draw or not": 49, "tests: active between frames": 51}

    def __init__(self, stage) -> None:
        self.stage = stage
        self.frames = 0
        self.lively = 0        # frames still drawn for the last input
        self.pointer = None
        for (name, sort), task in zip(self.TASKS.items(), (self._input, self._choose, self._active_again)):
            stage.task_mgr.add(task, name, sort=sort)   # before the event manager (0); before igLoop (50) draws

    def stop(self) -> None:
        for name in self.TASKS:
            self.stage.task_mgr.remove(name)

    def _input(self, task):
        """Hand out Panda3D's events as its event manager would, noting any but the frame's own."""
        if self.stage.drawing is None:
            watcher = self.stage.base.mouseWatcherNode
            pointer = (watcher.getMouseX(), watcher.getMouseY()) if watcher.hasMouse() else None
            news = pointer != self.pointer
            self.pointer = pointer
            events = self.stage.base.eventMgr
            while not events.eventQueue.isQueueEmpty():
                event = events.eventQueue.dequeueEvent()
                news = news or event.name != "NewFrame"
                events.processEvent(event)
            if news:
                self.lively = AFTER_INPUT_FRAMES
        return task.cont

    def _choose(self, task):
        if self.stage.drawing is None:
            self.frames += 1
            self.lively -= 1
            self.stage.win.setActive(self.lively >= 0 or self.frames % DRAWN_ONE_IN == 0)
        return task.cont

    def _active_again(self, task):
        if self.stage.drawing is None:
            self.stage.win.setActive(True)
        return task.cont


def new_match(players=("Anna", "Ben", "Cleo", "Dario"), layout="rings", seed=1, floors=1, ruleset=None,
              computers=()):
    """A match as the command line would start it, its colours dealt from the seed (seats in
    `computers` go to computer players)."""
    from villa import rules
    from villa.match import Match, MatchSetup, Seat, Strength, layout_named
    from villa.match.computer import seat_computers
    seats = tuple(Seat(name, Strength.MEDIUM if i in computers else None) for i, name in enumerate(players))
    match = Match(MatchSetup(seats, layout_named(layout, seed, floors), ruleset or rules.PUBLISHER, seed,
                             deal_colours=True))
    seat_computers(match)
    return match


@pytest.fixture
def game(stage):
    """A fresh game on the session's window; `game(layout=..., seed=...)` builds it."""
    from villa.presentation.game import GameScreen
    screens = []

    def start(**options) -> GameScreen:
        screen = GameScreen(stage, new_match(**options))
        screens.append(screen)
        return screen

    yield start
    for screen in screens:
        screen.close()


@pytest.fixture
def frames(stage):
    """`frames(n)`: let the game run n frames (1/60 s of game time each)."""
    def run(count: int = 1) -> None:
        for _ in range(count):
            stage.base.taskMgr.step()
    return run


class Mouse:
    """The real X pointer, moved and clicked with xdotool."""

    def __init__(self, stage) -> None:
        if shutil.which("xdotool") is None:
            pytest.fail("xdotool is not installed (scripts/test.sh installs it)")
        self.stage = stage
        self.window = str(stage.win.getWindowHandle().getIntHandle())

    def _run(self, *args: str) -> None:
        done = subprocess.run(["xdotool", *args], capture_output=True, timeout=10, text=True)
        assert done.returncode == 0, done.stderr
        time.sleep(0.03)  # let the X server hand the event to the window before the next frame

    def move(self, x: float, y: float) -> None:
        self._run("mousemove", "--window", self.window, str(round(x)), str(round(y)))

    def down(self, button: int = 1) -> None:
        self._run("mousedown", str(button))

    def up(self, button: int = 1) -> None:
        self._run("mouseup", str(button))

    def key(self, *names: str) -> None:
        self._run("key", "--delay", "20", *names)

    def wheel(self, clicks: int) -> None:
        """Turn the wheel: `clicks` notches up (positive) or down (negative)."""
        if clicks:
            self._run("click", "--repeat", str(abs(clicks)), "--delay", "40", "4" if clicks > 0 else "5")

    def type(self, text: str) -> None:
        self._run("type", "--delay", "20", text)

    def hold(self, name: str, down: bool = True) -> None:
        self._run("keydown" if down else "keyup", name)


@pytest.fixture
def mouse(stage):
    pointer = Mouse(stage)
    yield pointer
    pointer.up()  # never leave a button or key held for the next test
    pointer.hold("space", False)


@pytest.fixture
def on_screen(stage):
    """`on_screen(point)`: the window pixel where a world point is drawn."""
    from panda3d.core import Point2, Point3

    def project(point) -> tuple[float, float]:
        lens = stage.cam.node().getLens()
        film = Point2()
        if not lens.project(stage.cam.getRelativePoint(stage.render, Point3(point)), film):
            raise AssertionError(f"{point} is not in view")
        size = stage.win.getXSize(), stage.win.getYSize()
        return (film.x + 1) / 2 * size[0], (1 - film.y) / 2 * size[1]
    return project


@pytest.fixture
def press_button(stage, mouse, frames):
    """`press_button(widget)`: click a DirectGUI button with the real pointer."""
    def click(widget) -> None:
        bounds = widget.getBounds()   # in the widget's own frame
        centre = stage.render2d.getRelativePoint(widget, ((bounds[0] + bounds[1]) / 2, 0, (bounds[2] + bounds[3]) / 2))
        size = stage.win.getXSize(), stage.win.getYSize()
        mouse.move((centre.x + 1) / 2 * size[0], (1 - centre.z) / 2 * size[1])
        frames(3)
        mouse.down()
        frames(2)
        mouse.up()
        frames(3)
    return click


@pytest.fixture
def snapshot(stage):
    """`snapshot(name)`: save the window as NAME.png in $VILLA_TEST_SHOTS (nothing when it is unset)."""
    import os
    from pathlib import Path

    from panda3d.core import Filename
    folder = os.environ.get("VILLA_TEST_SHOTS")

    def save(name: str) -> None:
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            stage.base.graphicsEngine.renderFrame()
            stage.win.saveScreenshot(Filename.fromOsSpecific(str(Path(folder) / f"{name}.png")))
    return save
