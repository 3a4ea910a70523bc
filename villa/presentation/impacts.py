"""Where pieces hit something, read from their poses frame by frame: a piece that was moving
and stops short has struck wood. The speed it lost is the impact's speed (for the clack's loudness)."""

from __future__ import annotations

import math

from villa.match.face import is_floor
from villa.physics.pulling import Grip

HIT_LOSS = 0.5         # a piece losing more than half its speed in one frame has hit something
MIN_SPEED = 4.0        # cm/s: slower pieces make no sound (matches the sound's quiet speed)


class Impacts:
    def __init__(self) -> None:
        self._last: dict[str, tuple] = {}
        self._speed: dict[str, float] = {}

    def hits(self, poses, dt: float, moving: bool = True) -> list[float]:
        """The impact speeds (cm/s) in this frame."""
        if not moving or dt <= 0:
            self._last = {p: pose[0] for p, pose in poses.items()}
            self._speed.clear()
            return []
        found = []
        for piece, (pos, _quat) in poses.items():
            last = self._last.get(piece)
            speed = math.dist(pos, last) / dt if last is not None else 0.0
            before = self._speed.get(piece, 0.0)
            if before > MIN_SPEED and speed < before * (1 - HIT_LOSS):
                found.append(before - speed)
            self._speed[piece] = speed
            self._last[piece] = pos
        return found


class Hearing:
    """What the game screen plays of the villa each frame: a creak while a loaded column is pulled, a clack where a
    piece hits wood (`sound`: a `villa.presentation.sound.Sound`, or None for silence)."""

    def __init__(self, sound) -> None:
        self.sound = sound
        self.impacts = Impacts()

    def frame(self, match, poses, dt: float) -> None:
        sound = self.sound
        if sound is None:
            return
        pull = match.hand
        loaded = pull is not None and not is_floor(pull) and pull.state == Grip.PULLING and not pull.is_free()
        sound.creak(0.6 if loaded else 0.0)
        for speed in self.impacts.hits(poses, dt, moving=not match.villa.settled):
            sound.clack(speed)
        sound.update()
