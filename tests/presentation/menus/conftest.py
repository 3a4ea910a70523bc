"""The menu tests' pointer and screenshots, on the session's one window (`stage`, tests/presentation/conftest.py).

Clicks are real X events sent with xdotool; screenshots go to $VILLA_SCREENSHOTS
(default: /tmp/villa-menu-screenshots) for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

SCREENSHOTS = Path(os.environ.get("VILLA_SCREENSHOTS", "/tmp/villa-menu-screenshots"))


@pytest.fixture(autouse=True)
def english():
    """Every test starts and ends in English, whatever it switched to."""
    from villa.presentation import i18n
    i18n.install("en")
    yield
    i18n.install("en")


@pytest.fixture
def frames(stage):
    def run(count: int = 2) -> None:
        for _ in range(count):
            stage.task_mgr.step()
    return run


class Pointer:
    """The real X pointer: moves and clicks on the game window with xdotool."""

    def __init__(self, stage, frames) -> None:
        if shutil.which("xdotool") is None:
            pytest.fail("xdotool is not installed (scripts/test.sh installs it)")
        self.stage, self.frames = stage, frames
        self.window = str(stage.win.getWindowHandle().getIntHandle())

    def _run(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], check=True, capture_output=True, timeout=10)

    def pixel(self, widget) -> tuple[int, int]:
        """The window pixel at the middle of a DirectGUI widget's frame."""
        from panda3d.core import Point3
        self.frames(1)  # some widgets (a slider's knob) find their place when drawn
        left, right, bottom, top = widget.getBounds()
        point = self.stage.render2d.getRelativePoint(widget, Point3((left + right) / 2, 0, (bottom + top) / 2))
        width, height = self.stage.win.getXSize(), self.stage.win.getYSize()
        return round((point.x + 1) / 2 * width), round((1 - point.z) / 2 * height)

    def move(self, x: int, y: int) -> None:
        self._run("windowraise", self.window)
        self._run("mousemove", "--window", self.window, str(x), str(y))
        self._settle()

    def click(self, widget, frames: int = 3) -> None:
        """Move onto the widget, press and release the left button, and let the window see it."""
        self.move(*self.pixel(widget))
        self._run("mousedown", "1")
        self._settle()
        self._run("mouseup", "1")
        self._settle(frames)

    def drag(self, widget, to: tuple[int, int]) -> None:
        """Press on the widget, move to the window pixel `to`, let go."""
        start = self.pixel(widget)
        self.move(*start)
        self._run("mousedown", "1")
        self._settle()
        for step in range(1, 7):  # in steps, as a hand moves
            x = round(start[0] + (to[0] - start[0]) * step / 6)
            y = round(start[1] + (to[1] - start[1]) * step / 6)
            self._run("mousemove", "--window", self.window, str(x), str(y))
            self._settle(2)
        self._run("mouseup", "1")
        self._settle()

    def type(self, text: str) -> None:
        self._run("type", "--delay", "20", text)
        self._settle()

    def key(self, *keys: str) -> None:
        self._run("key", "--delay", "20", *keys)
        self._settle()

    def _settle(self, count: int = 3) -> None:
        time.sleep(0.03)  # the X server delivers the event
        self.frames(count)


@pytest.fixture
def pointer(stage, frames) -> Pointer:
    return Pointer(stage, frames)


@pytest.fixture
def screenshot(stage, frames):
    """`screenshot(name)`: render and save the window as SCREENSHOTS/name.png; returns the path."""
    from panda3d.core import Filename
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        frames(2)
        path = SCREENSHOTS / f"{name}.png"
        assert stage.win.saveScreenshot(Filename.fromOsSpecific(str(path))), f"could not save {path}"
        return path
    return take


@pytest.fixture
def screens():
    """Collects the screens a test opens, and destroys them afterwards."""
    opened = []
    yield opened
    for screen in opened:
        screen.destroy()


class Calls:
    """A recorder for callbacks: calls.of('name') is a function recording its arguments under 'name'."""

    def __init__(self) -> None:
        self.log: list[tuple[str, tuple]] = []

    def of(self, name: str):
        return lambda *args: self.log.append((name, args))

    def names(self) -> list[str]:
        return [name for name, _ in self.log]


@pytest.fixture
def calls() -> Calls:
    return Calls()


def texts_of(screen) -> list[str]:
    """Every text the screen's DirectGUI widgets show."""
    from direct.gui.DirectGuiBase import DirectGuiWidget
    found = []
    for node in [screen.root, *screen.root.findAllMatches("**")]:
        widget = DirectGuiWidget.guiDict.get(node.getName().split("-")[-1])
        if widget is not None and "text" in widget.configure() and widget["text"]:
            text = widget["text"]
            found.extend([text] if isinstance(text, str) else text)
    return found
