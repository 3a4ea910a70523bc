"""Mouse and keys: turns Panda3D's events into the game's requests.

Left button: take and pull a column; press to lower a floor or set a column down and hold it,
release to let go (or turn the view when it is pressed on nothing). Right drag: turn the view;
a right click: give up. Middle drag: pan. Wheel: zoom (lowers and lifts what is in the hands).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from direct.showbase.DirectObject import DirectObject

CLICK_SLOP = 0.012        # how far (in screen units, -1..1) a press may wander and still be a click
ORBIT_SPEED = 160.0       # degrees per screen width dragged
KEY_ORBIT_SPEED = 70.0    # degrees per second
KEY_PAN_SPEED = 30.0      # cm per second
KEY_ZOOM_RATE = 1.8       # zoom factor per second
WHEEL_ZOOM = 0.88


@dataclass
class Drag:
    button: str
    start: tuple[float, float]
    last: tuple[float, float]
    moved: bool = False


@dataclass
class Handlers:
    """What the game does with the player's requests (all optional)."""

    press: Callable[[tuple[float, float]], bool] = lambda mouse: False   # True: the game took the press
    release: Callable[[bool], None] = lambda moved: None   # the press the game took ends (moved: not a click)
    wheel: Callable[[int], bool] = lambda notches: False   # True: the game used the wheel (+1 up, -1 down)
    give_up: Callable[[], None] = lambda: None
    escape: Callable[[], None] = lambda: None   # Esc: give up what is in hand, or pause
    turn_floor: Callable[[float], bool] = lambda degrees: False            # True: the wheel was used for it
    propose_floor: Callable[[], None] = lambda: None
    answer: Callable[[bool], None] = lambda objects: None
    focus_top: Callable[[], None] = lambda: None
    look_down: Callable[[], None] = lambda: None  # straight down on the top floor, and back
    toggle_help: Callable[[], None] = lambda: None
    roll: Callable[[], None] = lambda: None
    faster: Callable[[], None] = lambda: None     # computer players' hands faster (round again: slower)


@dataclass
class Controls:
    stage: object
    camera: object
    handlers: Handlers
    drag: Drag | None = None
    game_drag: bool = False
    keys: dict[str, bool] = field(default_factory=dict)
    sensitivity: float = 1.0    # the settings' mouse sensitivity: how fast a drag turns the view
    invert: bool = False        # the settings' "invert camera": dragging up tilts the view the other way

    HELD_KEYS = ("arrow_left", "arrow_right", "arrow_up", "arrow_down", "w", "a", "s", "d",
                 "+", "-", "=", "page_up", "page_down", "space", "q", "e")

    def __post_init__(self) -> None:
        base = self.events = DirectObject()  # our own listener, so closing leaves ShowBase's alone
        for button in ("mouse1", "mouse2", "mouse3"):
            base.accept(button, self._press, [button])
            base.accept(f"{button}-up", self._release, [button])
        base.accept("wheel_up", self._wheel, [1])
        base.accept("wheel_down", self._wheel, [-1])
        for key in self.HELD_KEYS:
            base.accept(key, self.keys.__setitem__, [key, True])
            base.accept(f"{key}-up", self.keys.__setitem__, [key, False])
        base.accept("escape", self.handlers.escape)
        base.accept("f", self.handlers.focus_top)
        base.accept("home", self.handlers.focus_top)
        base.accept("t", self.handlers.look_down)
        base.accept("h", self.handlers.toggle_help)
        base.accept("r", self.handlers.roll)
        base.accept("c", self.handlers.faster)
        base.accept("p", self.handlers.propose_floor)
        base.accept("y", self.handlers.answer, [True])
        base.accept("n", self.handlers.answer, [False])

    def close(self) -> None:
        self.events.ignoreAll()

    def mouse(self) -> tuple[float, float] | None:
        watcher = self.stage.mouse_watcher
        if watcher is None or not watcher.hasMouse():
            return None
        point = watcher.getMouse()
        return point.x, point.y

    @property
    def steadying(self) -> bool:
        return self.keys.get("space", False)

    # --- events ---

    def _press(self, button: str) -> None:
        mouse = self.mouse()
        if mouse is None:
            return
        self.drag = Drag(button, mouse, mouse)
        self.game_drag = button == "mouse1" and self.handlers.press(mouse)

    def _release(self, button: str) -> None:
        drag, self.drag = self.drag, None
        if drag is None or drag.button != button:
            return
        if button == "mouse3" and not drag.moved:
            self.handlers.give_up()
        if button == "mouse1" and self.game_drag:
            self.handlers.release(drag.moved)
        self.game_drag = False

    def _wheel(self, direction: int) -> None:
        if self.handlers.wheel(direction) or self.handlers.turn_floor(15.0 * direction):
            return
        self.camera.zoom(WHEEL_ZOOM if direction > 0 else 1 / WHEEL_ZOOM)

    # --- every frame ---

    def update(self, dt: float) -> None:
        mouse = self.mouse()
        if self.drag is not None and mouse is not None:
            dx, dy = mouse[0] - self.drag.last[0], mouse[1] - self.drag.last[1]
            sx, sy = mouse[0] - self.drag.start[0], mouse[1] - self.drag.start[1]
            if abs(sx) > CLICK_SLOP or abs(sy) > CLICK_SLOP:
                self.drag.moved = True
            # while the hand pulls (game_drag) the game reads the pointer itself
            if not self.game_drag and self.drag.button in ("mouse1", "mouse3"):
                tilt = -1.0 if self.invert else 1.0
                self.camera.orbit(-dx * ORBIT_SPEED / 2 * self.sensitivity,
                                  -dy * ORBIT_SPEED / 4 * self.sensitivity * tilt)
            elif not self.game_drag and self.drag.button == "mouse2":
                self.camera.pan(-dx * self.camera.goal.distance * 0.4, -dy * self.camera.goal.distance * 0.4)
            self.drag.last = mouse
        held = self.keys
        turn = (held.get("arrow_left", False) - held.get("arrow_right", False)) * KEY_ORBIT_SPEED * dt
        tilt = (held.get("arrow_up", False) - held.get("arrow_down", False)) * KEY_ORBIT_SPEED * dt * 0.6
        if turn or tilt:
            self.camera.orbit(turn, tilt)
        right = (held.get("d", False) - held.get("a", False)) * KEY_PAN_SPEED * dt
        forward = (held.get("w", False) - held.get("s", False)) * KEY_PAN_SPEED * dt
        if right or forward:
            self.camera.pan(right, forward)
        zoom_in = held.get("+", False) or held.get("=", False) or held.get("page_up", False)
        zoom_out = held.get("-", False) or held.get("page_down", False)
        if zoom_in != zoom_out:
            self.camera.zoom(KEY_ZOOM_RATE ** (-dt if zoom_in else dt))
        floor_turn = (held.get("q", False) - held.get("e", False)) * 60.0 * dt
        if floor_turn:
            self.handlers.turn_floor(floor_turn)
