"""Setting the columns up by hand: the base plate in 3D, seen from above, and the twenty columns
dragged with the mouse to where the players want them before the blue floor goes on.

The left button takes the column under the pointer (it lifts a little and glows) and sets
it down where it is let go: upright, inside the building site, clear of the others (the
nearest free place to the pointer). The blue outline on the plate is where the blue floor
will lie; the columns it would rest on glow blue, those at fault red. A press on the plate
inside the outline takes the floor's place along instead, and the wheel or Q/E turn it
while the pointer is over it. Right drag turns the view, the wheel zooms, F looks from
above again, Esc puts back what is in hand or goes back.
The card beside the plate (`menus.arrange.ArrangePanel`) starts from a preset or a
shuffle, ticks off the checks, and lays the blue floor: `on_lay(layout)` once it has
come down on the columns.
"""

from __future__ import annotations

import math
import random
from enum import Enum
from typing import Callable

from direct.showbase.DirectObject import DirectObject
from panda3d.core import MouseButton, Point3, Vec3

from villa.physics import layouts
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, Layout, surface_z
from villa.physics.geometry import on_plane
from villa.presentation.arrange_words import ArrangeWords
from villa.presentation.arrangement import COLUMN_CHECKS, Arrangement
from villa.presentation.camera import mouse_ray
from villa.presentation.controls import Controls, Handlers
from villa.presentation.i18n import _
from villa.presentation.menus.arrange import EDGE, WIDTH, ArrangePanel
from villa.presentation.plate_marks import PlateMarks
from villa.presentation.scene import BASE_POSE, NO_GLOW
from villa.rules.pieces import floor_id
from villa.presentation.view import VillaView
from villa.presentation.words import column_name

LIFT = 1.2                  # cm a held column hovers above the plate
GLIDE_RATE = 16.0           # 1/s: columns glide to a new arrangement rather than jump
PITCH = 64.0                # degrees above the horizon: looking down at the plate, columns still upright
DISTANCE = 78.0             # cm from the plate's middle: the whole plate beside the card
CHECK_EVERY = 0.12          # s: while a column is dragged the checks run this often (they take a few ms)
LAY_SECONDS = 0.9           # the blue floor coming down onto the columns, the view swinging round to play
PLAY_VIEW = (-35.0, 32.0)   # heading and pitch the game screen's camera opens with (camera.OrbitCamera)

HOVER_GLOW = Vec3(0.22, 0.18, 0.07)
HELD_GLOW = Vec3(0.30, 0.25, 0.10)
CARRY_GLOW = Vec3(0.04, 0.10, 0.26)     # the columns the blue floor would rest on
FAULT_GLOW = Vec3(0.16, 0.02, 0.0)      # the columns a failing check names (a red ring marks them too)


class Hand(Enum):
    """What the players have in hand while setting the columns up."""

    EMPTY = "empty"      # nothing: the pointer may rest on a column or on the floor's place
    COLUMN = "column"    # a column, following the pointer
    FLOOR = "floor"      # the blue floor's place, following the pointer
    LAYING = "laying"    # the blue floor is coming down onto the columns: the game is about to begin


class ArrangeScreen:
    """`start`: the layout to begin from (its blue floor's place is kept); `need`: how many columns
    the rules want under the blue floor; `on_lay(layout)` with the valid arrangement; `on_back()`."""

    def __init__(self, stage, *, start: Layout, need: int, on_lay: Callable[[Layout], None],
                 on_back: Callable[[], None], sound=None, rng: random.Random | None = None) -> None:
        self.stage, self.on_lay, self.on_back, self.sound = stage, on_lay, on_back, sound
        self.rng = rng or random.Random()
        self.arrangement = Arrangement.from_layout(start, need)
        self.problems = self.arrangement.problems()
        self.carrying = set(self.arrangement.carrying())   # as of the last check
        self.hand = Hand.EMPTY
        self.held: str | None = None             # the column in hand (Hand.COLUMN)
        self._grab: tuple = ()                   # what is in hand, from the pointer: (plane z,) dx, dy
        self._taken_from = None                  # where it was taken from: a column's spot, or the floor's place
        self.laid_for = 0.0                      # seconds since the blue floor began to come down (Hand.LAYING)
        self.hover: str | None = None            # the column under the pointer
        self.floor_hover = False                 # the pointer over the floor's place (not over a column)
        self._shown: dict[str, tuple[float, float, float]] = {}   # where each column is drawn (x, y, lift)
        self._dirty, self._since_check = False, 0.0
        self.visible = False

        self.view = VillaView(stage)
        self.marks = PlateMarks(stage.render)
        self.marks.place_floor(self.arrangement.floor)
        self.controls = Controls(stage, self.view.camera, Handlers(
            press=self._press, give_up=self._put_back, escape=self._escape, focus_top=self.look_down,
            turn_floor=self._turn_floor))
        self._events = DirectObject()
        self._events.accept("mouse1-up", self._let_go)
        self.panel = ArrangePanel(stage.base.a2dRightCenter, on_preset=self.start_from_preset,
                                  on_shuffle=self.shuffle, on_back=self._back, on_lay=self.lay)
        self.panel.show_checks(self.arrangement, self.problems)
        self.words = ArrangeWords(stage)
        self.look_down(snap=True)
        self._show_columns(snap=True)
        stage.task_mgr.add(self._frame_task, "villa arranging", sort=-10)

    # --- the screen's life (as a menu screen: show, destroy) ---

    @property
    def widgets(self) -> dict:
        return self.panel.widgets

    def show(self) -> None:
        self.panel.show()
        self.visible = True

    def hide(self) -> None:
        self.panel.hide()
        self.visible = False

    def destroy(self) -> None:
        self.stage.task_mgr.remove("villa arranging")
        self._events.ignoreAll()
        self.controls.close()
        self.panel.destroy()
        self.words.destroy()
        self.marks.destroy()
        self.view.close()
        self.visible = False

    # --- the view ---

    def look_down(self, snap: bool = False) -> None:
        """Look down at the plate from the players' side, the plate in the middle of the room the card leaves."""
        camera = self.view.camera
        lens = self.stage.cam.node().getLens()
        aspect = self.stage.base.getAspectRatio()
        half_width = DISTANCE * math.tan(math.radians(lens.getFov()[0] / 2))
        shift = (WIDTH + EDGE) / 2 / aspect * half_width   # the card's half width, in cm at the plate
        camera.goal.target = Point3(shift, -1.2, BASE.top_z)
        camera.goal.heading, camera.goal.pitch, camera.goal.distance = 0.0, PITCH, DISTANCE
        if snap:
            camera.snap()

    def pick(self, mouse) -> tuple[str, tuple] | None:
        lifted = {self.held: LIFT} if self.held else None
        return self.arrangement.pick(*mouse_ray(self.stage, mouse), lifted=lifted)

    def plate_point(self, mouse) -> tuple[float, float] | None:
        """Where the pointer's ray meets the top of the plate (x, y), or None."""
        point = on_plane(*mouse_ray(self.stage, mouse), BASE.top_z)
        return (point.x, point.y) if point is not None else None

    def _over_card(self) -> bool:
        watcher = self.stage.mouse_watcher
        return watcher is not None and watcher.isOverRegion()

    # --- the hand ---

    def _press(self, mouse) -> bool:
        """A left press: take the column under the pointer, or else the blue floor's place when
        the pointer is inside it. The press is ours either way (a left drag on the plate does
        not turn the view: right drag does)."""
        if self.hand is not Hand.EMPTY or self._over_card():
            return True
        hit = self.pick(mouse)
        if hit is not None:
            column, (x, y, z) = hit
            spot = self._taken_from = self.arrangement.spots[column]
            self.hand, self.held = Hand.COLUMN, column
            self._grab = (z, x - spot.x, y - spot.y)
            return True
        point = self.plate_point(mouse)
        if point is not None and self.arrangement.on_floor(*point):
            floor = self._taken_from = self.arrangement.floor
            self.hand = Hand.FLOOR
            self._grab = (point[0] - floor.x, point[1] - floor.y)
        return True

    def _drag(self, mouse) -> None:
        plane_z, dx, dy = self._grab
        point = on_plane(*mouse_ray(self.stage, mouse), plane_z)
        if point is None:
            return
        x, y = point.x - dx, point.y - dy
        spot = self.arrangement.spots[self.held]
        if math.hypot(x - spot.x, y - spot.y) > 1e-3 and self.arrangement.move(self.held, x, y):
            self._dirty = True

    def _drag_floor(self, mouse) -> None:
        point = self.plate_point(mouse)
        if point is None:
            return
        dx, dy = self._grab
        floor = self.arrangement.floor
        if math.hypot(point[0] - dx - floor.x, point[1] - dy - floor.y) > 1e-3:
            self.arrangement.move_floor(point[0] - dx, point[1] - dy)
            self.marks.place_floor(self.arrangement.floor)
            self._dirty = True

    def _turn_floor(self, degrees: float) -> bool:
        """The wheel or Q/E: turn the blue floor's place while the pointer is over it or it is in hand."""
        if not (self.hand is Hand.FLOOR or (self.hand is Hand.EMPTY and self.floor_hover)):
            return False
        self.arrangement.turn_floor(degrees)
        self.marks.place_floor(self.arrangement.floor)
        self._dirty = True
        return True

    def _empty_hand(self) -> None:
        self.hand, self.held, self._grab, self._taken_from = Hand.EMPTY, None, (), None

    def _let_go(self) -> None:
        if self.hand is Hand.COLUMN and self.sound is not None:
            self.sound.clack(30.0)
        if self.hand in (Hand.COLUMN, Hand.FLOOR):
            self._empty_hand()
            self._check()

    def _put_back(self) -> None:
        """Esc or a right click while holding a column or the floor's place: back where it was taken from."""
        if self.hand is Hand.FLOOR:
            self.arrangement.floor = self._taken_from
            self.marks.place_floor(self.arrangement.floor)
        elif self.hand is Hand.COLUMN:
            self.arrangement.spots[self.held] = self._taken_from
        else:
            return
        self._empty_hand()
        self._check()

    def _escape(self) -> None:
        if self.hand in (Hand.COLUMN, Hand.FLOOR):
            self._put_back()
        elif self.hand is Hand.EMPTY:
            self._back()

    def _back(self) -> None:
        if self.hand is not Hand.LAYING:
            self.on_back()

    # --- the card's buttons ---

    def start_from_preset(self, name: str) -> None:
        self._start_from(layouts.preset(name))

    def shuffle(self) -> None:
        self._start_from(layouts.random_layout(self.rng.randrange(2 ** 31)))

    def _start_from(self, layout: Layout) -> None:
        if self.hand is Hand.LAYING:
            return
        self._empty_hand()
        self.arrangement = Arrangement.from_layout(layout, self.arrangement.need)
        self.marks.place_floor(self.arrangement.floor)
        self._check()

    def lay(self) -> None:
        """Lay the blue floor (only on a valid arrangement): it comes down, then the game begins."""
        self._check()
        if self.problems or self.hand is Hand.LAYING:
            return
        self._empty_hand()
        self.hand, self.laid_for, self.floor_hover = Hand.LAYING, 0.0, False
        self.words.hide()
        self.panel.hide()
        self.marks.show_ring(None)
        # the view swings round to where the game opens (the floor shown, VillaView focuses on it)
        self.view.camera.goal.heading, self.view.camera.goal.pitch = PLAY_VIEW

    # --- every frame ---

    def _frame_task(self, task):
        self.frame(min(self.stage.clock.getDt(), 0.1))
        return task.cont

    def frame(self, dt: float) -> None:
        if self.hand is Hand.LAYING:
            self._lay_frame(dt)
            return
        self.controls.update(dt)
        mouse = self.controls.mouse()
        watcher = self.stage.mouse_watcher
        if self.hand is not Hand.EMPTY and (watcher is None or not watcher.isButtonDown(MouseButton.one())):
            self._let_go()   # let go over the card, where the release does not reach us
        if self.hand is Hand.COLUMN and mouse is not None:
            self._drag(mouse)
        if self.hand is Hand.FLOOR and mouse is not None:
            self._drag_floor(mouse)
        self.hover, self.floor_hover = None, False
        if self.hand is Hand.EMPTY and mouse is not None and not self._over_card():
            hit = self.pick(mouse)
            self.hover = hit[0] if hit else None
            point = self.plate_point(mouse) if hit is None else None
            self.floor_hover = point is not None and self.arrangement.on_floor(*point)
        self.marks.light_floor(self.hand is Hand.FLOOR or self.floor_hover)
        self._since_check += dt
        if self._dirty and self._since_check >= CHECK_EVERY:
            self._check()
        self._show_columns(dt=dt)
        self._show_pointer(mouse)
        self.view.before_frame(dt)

    def _check(self) -> None:
        self.problems = self.arrangement.problems()
        self.carrying = set(self.arrangement.carrying())
        self._dirty, self._since_check = False, 0.0
        self.panel.show_checks(self.arrangement, self.problems)

    def _show_columns(self, dt: float = 0.0, snap: bool = False, floor_z: float | None = None) -> None:
        k = 1.0 if snap else 1.0 - math.exp(-GLIDE_RATE * dt)
        poses = {"base": BASE_POSE}
        for column, spot in self.arrangement.spots.items():
            lift = LIFT if column == self.held else 0.0
            x, y, z = self._shown.get(column, (spot.x, spot.y, lift))
            if column == self.held:   # the hand carries it: no lag behind the pointer
                x, y = spot.x, spot.y
            else:
                x, y = x + (spot.x - x) * k, y + (spot.y - y) * k
            z += (lift - z) * (1.0 if snap else min(1.0, k * 1.5))
            self._shown[column] = (x, y, z)
            poses[column] = _upright(x, y, BASE.top_z + COLUMN_HEIGHT / 2 + z, spot.yaw)
        if floor_z is not None:
            floor = self.arrangement.floor
            poses[floor_id(1)] = _upright(floor.x, floor.y, floor_z, floor.yaw)
        self.view.show_poses(poses)
        self._set_glow()

    def faulty(self) -> set[str]:
        """The columns a failing check names: standing out of the site, too close, half under the edge."""
        return {c for p in self.problems if p.check in COLUMN_CHECKS for c in p.columns}

    def _set_glow(self) -> None:
        laying = self.hand is Hand.LAYING
        glow = {} if laying else {c: CARRY_GLOW for c in self.carrying}
        faulty = set() if laying else self.faulty()
        for column in faulty:
            glow[column] = FAULT_GLOW
        if self.hover is not None:
            glow[self.hover] = glow.get(self.hover, NO_GLOW) + HOVER_GLOW
        if self.held is not None:
            glow[self.held] = HELD_GLOW
        self.marks.show_faults(faulty, self._shown)
        self.view.scene.show_glow(glow)

    def _show_pointer(self, mouse) -> None:
        """A ring on the plate round the column under the pointer (or in hand), and its name beside the pointer."""
        column = self.held or self.hover
        if column is None:
            self.marks.show_ring(None)
            self.words.show_tip(_("The blue floor's place") + "\n" + _("drag to move it, wheel or Q/E to turn it")
                                if self.floor_hover else None, mouse)
            return
        x, y, _lift = self._shown[column]
        self.marks.show_ring(column, x, y)
        if self.held is not None:
            self.words.show_tip(None)
            return
        words = column_name(column)
        words = words[:1].upper() + words[1:] + "\n" + _("drag to move it")
        if column in self.faulty():
            words += "\n" + _("it may not stand here")
        self.words.show_tip(words, mouse)

    # --- the blue floor goes on ---

    def _lay_frame(self, dt: float) -> None:
        self.laid_for += dt
        t = min(1.0, self.laid_for / LAY_SECONDS)
        ease = 1 - (1 - t) ** 3
        rest = surface_z(1) - FLOORS[1].thickness / 2
        self._show_columns(snap=True, floor_z=rest + 14.0 * (1 - ease))
        self.marks.outline.setAlphaScale(1 - ease)
        self.view.before_frame(dt)
        if t >= 1.0:
            if self.sound is not None:
                self.sound.clack(60.0)
            self.stage.task_mgr.remove("villa arranging")
            self.on_lay(self.arrangement.layout())


def _upright(x: float, y: float, z: float, yaw: float):
    half = math.radians(yaw) / 2
    return (x, y, z), (math.cos(half), 0.0, 0.0, math.sin(half))


