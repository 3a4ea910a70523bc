"""The orbiting camera: turns round a target, zooms and pans, glides to the top floor.

It never goes under the table (a floor on pitch and height) and never clips into the
villa: the camera is pushed back along its line of sight until it clears every
piece's bounding sphere by more than the near plane.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np
from panda3d.core import Point3, Vec3

NEAR = 1.0                 # cm: the lens's near plane
CLEARANCE = NEAR * 2.5     # the near plane's corners reach past NEAR: keep well clear
MIN_PITCH, MAX_PITCH = 6.0, 86.0   # degrees above the horizon
DOWN_PITCH = 89.5          # looking straight down (T): past what a drag reaches, short of the pole
MIN_DISTANCE, MAX_DISTANCE = 12.0, 260.0
MIN_HEIGHT = 2.0           # above the table top
TABLE_REACH = 90.0         # the target stays over the table
GLIDE_RATE = 8.0           # 1/s: how fast the view catches up with where it is told to be
FIT_CM = 0.05              # how near the least distance at which points fit is found

Sphere = tuple[Point3, float]


@dataclass
class View:
    target: Point3
    heading: float   # degrees, 0 looks along +y
    pitch: float     # degrees above the horizon
    distance: float

    def direction(self) -> Vec3:
        """Unit vector from the target towards the camera."""
        h, p = math.radians(self.heading), math.radians(self.pitch)
        return Vec3(-math.sin(h) * math.cos(p), -math.cos(h) * math.cos(p), math.sin(p))


def clear_distance(target: Point3, direction: Vec3, distance: float, obstacles: Iterable[Sphere]) -> float:
    """The least distance >= `distance` along `direction` from `target` that is outside every sphere."""
    obstacles = list(obstacles)
    for _ in range(8):  # moving out of one sphere may land in another
        pushed = distance
        for centre, radius in obstacles:
            reach = radius + CLEARANCE
            offset = target - centre
            b = offset.dot(direction)
            c = offset.lengthSquared() - reach * reach
            disc = b * b - c
            if disc <= 0:
                continue
            exit_t = -b + math.sqrt(disc)
            entry_t = -b - math.sqrt(disc)
            if entry_t <= distance <= exit_t:
                pushed = max(pushed, exit_t)
        if pushed == distance:
            return distance
        distance = pushed
    return distance


class OrbitCamera:
    def __init__(self, camera, lens, obstacles: Callable[[], Iterable[Sphere]]) -> None:
        self.camera = camera
        self.lens = lens
        lens.setNearFar(NEAR, 600.0)
        lens.setFov(42.0)
        self.obstacles = obstacles
        self.goal = View(Point3(0, 0, 12), heading=-35.0, pitch=32.0, distance=95.0)
        self.view = View(Point3(self.goal.target), self.goal.heading, self.goal.pitch, self.goal.distance)
        self._pitch_before_down = self.goal.pitch
        self.apply()

    # --- what the player asks for ---

    def orbit(self, d_heading: float, d_pitch: float) -> None:
        self.goal.heading += d_heading
        self.goal.pitch = min(MAX_PITCH, max(MIN_PITCH, self.goal.pitch + d_pitch))

    def zoom(self, factor: float) -> None:
        self.goal.distance = min(MAX_DISTANCE, max(MIN_DISTANCE, self.goal.distance * factor))

    def pan(self, right: float, forward: float) -> None:
        """Move the target across the table, in the camera's frame (cm)."""
        h = math.radians(self.goal.heading)
        move = Vec3(math.cos(h), -math.sin(h), 0) * right + Vec3(math.sin(h), math.cos(h), 0) * forward
        target = self.goal.target + move
        reach = math.hypot(target.x, target.y)
        if reach > TABLE_REACH:
            target.x, target.y = target.x * TABLE_REACH / reach, target.y * TABLE_REACH / reach
        self.goal.target = target

    def focus(self, point: Point3, distance: float | None = None) -> None:
        """Glide to look at `point` (the top floor)."""
        self.goal.target = Point3(point)
        if distance is not None:
            self.goal.distance = min(MAX_DISTANCE, max(MIN_DISTANCE, distance))

    def look_down(self, point: Point3) -> None:
        """Glide to look straight down on `point` (T), or back up to the pitch looked from before; the
        heading stays, so up on the screen is still the way the player was looking."""
        if self.looking_down:
            self.goal.pitch = self._pitch_before_down
        else:
            self._pitch_before_down = self.goal.pitch
            self.goal.pitch = DOWN_PITCH
            self.focus(point)

    @property
    def looking_down(self) -> bool:
        """A drag or a new turn's view takes the pitch back within MIN_PITCH..MAX_PITCH: no longer down."""
        return self.goal.pitch > MAX_PITCH

    def frame(self, points: list[Point3], share: float) -> None:
        """Aim the goal (at its heading and pitch) so that `points` fill `share` of the view's height
        (and no more than nine tenths of its width), centred."""
        right, up, forward = self._axes(self.goal)
        tan_h, tan_v = self._half_tangents()
        target = sum(points, Point3(0, 0, 0)) / len(points)

        def spans(distance: float):
            offsets = [p - target for p in points]
            depths = [max(o.dot(forward) + distance, 1e-3) for o in offsets]
            ys = [o.dot(up) / d for o, d in zip(offsets, depths)]
            xs = [o.dot(right) / d for o, d in zip(offsets, depths)]
            return (min(xs), max(xs)), (min(ys), max(ys))

        def fills(distance: float) -> float:
            (x0, x1), (y0, y1) = spans(distance)
            return max((y1 - y0) / (2 * tan_v * share), (x1 - x0) / (2 * tan_h * 0.9))

        distance = self.goal.distance
        for _ in range(3):   # fit, centre the picture on what it shows, fit again
            near, far = MIN_DISTANCE, MAX_DISTANCE
            for _ in range(40):   # things look smaller the further away: halve the bracket
                middle = (near + far) / 2
                near, far = (middle, far) if fills(middle) > 1.0 else (near, middle)
            distance = far
            (x0, x1), (y0, y1) = spans(distance)
            target = target + right * ((x0 + x1) / 2 * distance) + up * ((y0 + y1) / 2 * distance)
        self.focus(target, distance)

    def keep_in_view(self, points: Iterable[Point3], margin: float = 0.85) -> None:
        """Draw the goal back just enough that every point lies within `margin` of the view's
        half-width and half-height from its centre."""
        right, up, forward = self._axes(self.goal)
        tan_h, tan_v = self._half_tangents()
        needed = self.goal.distance
        for point in points:
            offset = Point3(point) - self.goal.target
            depth = offset.dot(forward)
            needed = max(needed, abs(offset.dot(right)) / (tan_h * margin) - depth,
                         abs(offset.dot(up)) / (tan_v * margin) - depth)
        self.goal.distance = min(MAX_DISTANCE, needed)

    def keep_between(self, points: Iterable[Point3], low: float, boxes: Iterable[tuple[float, float, float, float]],
                     margin: float = 0.85) -> bool:
        """Move the goal, as little as will do, so that every point is drawn above `low` (of the view's half-height,
        -1 to 1 up it), under each of `boxes` it is drawn beneath (left, bottom, right, top, in the window's -1 to 1
        across and up: what the HUD covers along the top), inside the top edge, and within `margin` of the view's
        half-width: drawn back the least distance at which they fit, and slid up or down the picture no more than
        they need. Drawn back, every point comes nearer the middle of the picture, away from the edges and out from
        under the boxes there: the points that fit only widen, and the least distance is found by halving. Returns
        whether the goal moved."""
        right, up, forward = self._axes(self.goal)
        tan_h, tan_v = self._half_tangents()
        target = self.goal.target
        offsets = np.array([(p[0] - target.x, p[1] - target.y, p[2] - target.z) for p in points], dtype=float)
        if not len(offsets):
            return False
        across, rise, ahead = (offsets @ np.array(tuple(axis)) for axis in (right, up, forward))
        boxes = list(boxes)

        def slide(distance: float) -> tuple[float, float] | None:
            """The range of slides (along the view's up) at which every point fits, drawn from `distance`."""
            depth = distance + ahead
            if depth.min() <= NEAR:
                return None
            x = across / (depth * tan_h)
            if (np.abs(x) > margin).any():
                return None
            high = np.full(len(x), margin)
            for left, bottom, right_, _top in boxes:
                high = np.where((x >= left) & (x <= right_), np.minimum(high, bottom), high)
            least, most = float((rise - high * depth * tan_v).max()), float((rise - low * depth * tan_v).min())
            return (least, most) if least <= most else None

        distance = self.goal.distance
        fits = slide(distance)
        if fits is None:
            if slide(MAX_DISTANCE) is None:
                return False        # nothing fits: the view stays as the player has it
            near, far = distance, MAX_DISTANCE
            while far - near > FIT_CM:      # the slides that fit only widen as the view draws back
                middle = (near + far) / 2
                near, far = (near, middle) if slide(middle) is not None else (middle, far)
            distance, fits = far, slide(far)
        elif fits[0] <= 0.0 <= fits[1]:
            return False
        self.goal.distance = distance
        self.goal.target = target + up * min(max(0.0, fits[0]), fits[1])
        return True

    def _axes(self, view: View) -> tuple[Vec3, Vec3, Vec3]:
        """The view's right, up and forward (towards the target) directions."""
        forward = -view.direction()
        right = forward.cross(Vec3(0, 0, 1))
        right.normalize()
        up = right.cross(forward)
        return right, up, forward

    def _half_tangents(self) -> tuple[float, float]:
        return (math.tan(math.radians(self.lens.getHfov() / 2)), math.tan(math.radians(self.lens.getVfov() / 2)))

    def snap(self) -> None:
        """Jump to the goal at once (screenshots)."""
        self.view = View(Point3(self.goal.target), self.goal.heading, self.goal.pitch, self.goal.distance)
        self.apply()

    # --- every frame ---

    def update(self, dt: float) -> None:
        k = 1.0 - math.exp(-GLIDE_RATE * dt)
        v, g = self.view, self.goal
        v.target += (g.target - v.target) * k
        v.heading += (g.heading - v.heading) * k
        v.pitch += (g.pitch - v.pitch) * k
        v.distance += (g.distance - v.distance) * k
        self.apply()

    @property
    def gliding(self) -> bool:
        """Whether the view is still on its way to the goal (closer than a hundredth of a centimetre or degree
        shows no more)."""
        v, g = self.view, self.goal
        return ((v.target - g.target).length() > 0.01 or abs(v.heading - g.heading) > 0.01
                or abs(v.pitch - g.pitch) > 0.01 or abs(v.distance - g.distance) > 0.01)

    def apply(self) -> None:
        v = self.view
        direction = v.direction()
        distance = clear_distance(v.target, direction, v.distance, self.obstacles())
        position = v.target + direction * distance
        position.z = max(position.z, MIN_HEIGHT)
        self.camera.setPos(position)
        self.camera.lookAt(v.target)

    @property
    def position(self) -> Point3:
        return self.camera.getPos()


def mouse_ray(stage, mouse: tuple[float, float]) -> tuple[Point3, Vec3]:
    """The ray (origin, unit direction, in world space) from the camera through the pointer at `mouse`."""
    near, far = Point3(), Point3()
    stage.cam.node().getLens().extrude(mouse, near, far)
    origin = stage.render.getRelativePoint(stage.cam, near)
    direction = stage.render.getRelativePoint(stage.cam, far) - origin
    direction.normalize()
    return origin, direction

