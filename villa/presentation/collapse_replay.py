"""The collapse, once more in slow motion: the poses recorded from shortly before the villa
fell until everything lay still, played back at a quarter speed.

    recorder.add(villa.time, villa.poses())     # every frame of play
    recorder.fell()                             # the villa collapsed: keep recording until at rest
    recorder.add(...); recorder.done            # True once at rest (or after MAX_AFTER seconds)
    playback = Playback(recorder.frames)        # each frame: playback.advance(dt) -> poses, or None at the end
"""

from __future__ import annotations

from collections import deque

BEFORE = 1.0        # seconds of play kept before the collapse
MAX_AFTER = 3.0     # at most this long after it (a column may roll for a long time)
SLOW_MOTION = 0.25


class CollapseRecorder:
    def __init__(self) -> None:
        self.frames: deque = deque()
        self.fell_at: float | None = None
        self.done = False

    def add(self, time: float, poses, at_rest: bool = False) -> None:
        if self.done:
            return
        if self.frames and time <= self.frames[-1][0]:
            return  # the villa did not move on (paused, or a frame without a physics step)
        self.frames.append((time, poses))
        if self.fell_at is None:
            while self.frames and self.frames[0][0] < time - BEFORE:
                self.frames.popleft()
        elif at_rest or time - self.fell_at > MAX_AFTER:
            self.done = True

    def fell(self, time: float) -> None:
        if self.fell_at is None:
            self.fell_at = time

    def stop(self) -> None:
        """Record no more (the fallen villa came to rest, or is gone)."""
        if self.fell_at is not None:
            self.done = True


class Playback:
    """Steps through the recorded frames at SLOW_MOTION of the time they took."""

    def __init__(self, frames) -> None:
        self.frames = list(frames)
        self.start = self.frames[0][0] if self.frames else 0.0
        self.clock = 0.0
        self.index = 0

    @property
    def length(self) -> float:
        return (self.frames[-1][0] - self.start) / SLOW_MOTION if self.frames else 0.0

    def advance(self, dt: float):
        """The poses to show after `dt` more seconds of playback; None when it is over."""
        self.clock += dt
        at = self.start + self.clock * SLOW_MOTION
        while self.index + 1 < len(self.frames) and self.frames[self.index + 1][0] <= at:
            self.index += 1
        if not self.frames or at > self.frames[-1][0]:
            return None
        return self.frames[self.index][1]
