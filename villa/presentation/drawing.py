"""When the window draws a frame: at most FRAME_CAP times a second, and only when the picture may have changed.

The loop (the input, the match, the screens' tasks) runs at most FRAME_CAP times a second, on a
display without vertical sync too, sleeping in between; the game's time goes on as before. A frame
is drawn when an input event arrived or the pointer moved, and for AFTER_INPUT seconds after (what
the input set going shows); while a screen says its picture moves by itself (pieces moving, the
camera gliding, the seal tumbling, a new turn) or an interval plays; else QUIET_RATE times a
second, so that a change nothing announced (a message running out) still shows soon. A menu left
alone, or a villa at rest, then costs little of the machine.

A frame left out deactivates the window for that frame (and any buffer drawn only for it): Panda3D
still reads the window's input then, and draws nothing.
"""

from __future__ import annotations

import time
from typing import Callable

from direct.interval.IntervalManager import ivalMgr

FRAME_CAP = 60.0      # frames a second at most, where the display does not hold the loop back itself
QUIET_RATE = 1.0      # frames a second while nothing changes (a menu drawn by llvmpipe: some 40 ms)
AFTER_INPUT = 0.5     # s of every frame drawn after an input
FRAME_EVENT = "NewFrame"   # thrown by ShowBase after every frame: no news


class Drawing:
    """The policy, on the window of `base`, with the time read from `clock`. `paced_by_display`: the display's
    vertical sync holds back the frames drawn (a frame left out is not held back by anything)."""

    def __init__(self, base, clock, paced_by_display: bool = False) -> None:
        self.base, self.clock, self.paced_by_display = base, clock, paced_by_display
        self.frames = 0          # the loop's frames, and those drawn: the policy at work
        self.drawn = 0
        self._movers: list[Callable[[], bool]] = []
        self._followers: list = []    # buffers drawn only for the window (the multisampled scene)
        self._pointer = None
        self._lively_until = float("-inf")
        self._drawn_at = float("-inf")
        self._drew = True
        # just before the event manager (0), after the input is read (-50) and the screens' frames (-10)
        base.taskMgr.add(self._input_task, "villa drawing: input", sort=-1)
        base.taskMgr.add(self._choose_task, "villa drawing", sort=49)          # before igLoop (50) draws
        base.taskMgr.add(self._cap_task, "villa drawing: cap", sort=55)        # after it
        self._due = time.perf_counter()

    def stop(self) -> None:
        """Every frame drawn again."""
        self.base.taskMgr.remove("villa drawing: input")
        self.base.taskMgr.remove("villa drawing")
        self.base.taskMgr.remove("villa drawing: cap")
        self._show(True)

    def moves_while(self, moving: Callable[[], bool]) -> Callable[[], None]:
        """Draw every frame while `moving()` says the picture changes by itself; returns the way to stop asking."""
        self._movers.append(moving)
        return lambda: self._movers.remove(moving) if moving in self._movers else None

    def follows(self, buffer) -> Callable[[], None]:
        """`buffer` is drawn only for the window: left out with it."""
        self._followers.append(buffer)
        return lambda: self._followers.remove(buffer) if buffer in self._followers else None

    def changed(self) -> None:
        """Something shows anew: draw every frame for a moment."""
        self._lively_until = self.clock.getFrameTime() + AFTER_INPUT

    def _input_task(self, task):
        """Hand out Panda3D's events as its event manager would, noting any but the frame's own."""
        watcher = self.base.mouseWatcherNode
        pointer = (watcher.getMouseX(), watcher.getMouseY()) if watcher.hasMouse() else None
        news = pointer != self._pointer
        self._pointer = pointer
        events = self.base.eventMgr
        while not events.eventQueue.isQueueEmpty():
            event = events.eventQueue.dequeueEvent()
            news = news or event.name != FRAME_EVENT
            events.processEvent(event)
        if news:
            self.changed()
        return task.cont

    def _choose_task(self, task):
        now = self.clock.getFrameTime()
        draw = (now < self._lively_until or now - self._drawn_at >= 1.0 / QUIET_RATE
                or ivalMgr.getNumIntervals() > 0 or any(moving() for moving in self._movers))
        self.frames += 1
        if draw:
            self.drawn += 1
            self._drawn_at = now
        self._drew = draw
        self._show(draw)
        return task.cont

    def _cap_task(self, task):
        """Sleep out what is left of the frame's 1/FRAME_CAP s, unless the display's sync held back this frame
        already (a display of 75 Hz keeps its rate). Panda3D's limited clock would wait by spinning: a core's
        worth of waiting."""
        now = time.perf_counter()
        if now < self._due and not (self._drew and self.paced_by_display):
            time.sleep(self._due - now)
            now = self._due
        self._due = now + 1.0 / FRAME_CAP   # a late frame is not caught up on: the next has its whole time
        return task.cont

    def _show(self, draw: bool) -> None:
        for output in (self.base.win, *self._followers):
            if output is not None and output.isActive() != draw:
                output.setActive(draw)
