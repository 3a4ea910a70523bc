"""Falling and Replay: the villa collapses; once its pieces lie still, the fall once more, slowly."""

from __future__ import annotations

from panda3d.core import Point3

from villa.presentation.collapse_replay import CollapseRecorder, Playback
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import ModeBase

REPLAY_DISTANCE = 120.0     # cm: the slow-motion replay's camera, far enough for the whole villa
FOLLOW_FALL_AFTER = 1.0     # s after a collapse the camera takes in the pieces as they come to rest


class Falling(ModeBase):
    mode = Mode.FALLING
    ends_itself = True
    moving = True

    def enter(self) -> None:
        self.screen.ghost.hide()
        self.screen.hud.show_commands([])

    def show(self, mouse) -> None:
        super().show(mouse)
        screen = self.screen
        if self.match.villa.time - screen.fell_at > FOLLOW_FALL_AFTER:
            screen.view.focus_all()   # follow the pieces as they come to rest
        if screen.recorder.done:
            screen.change_mode(Mode.REPLAY)
        elif screen.recorder.fell_at is None and self.match.over:
            screen.change_mode(Mode.ENDED)   # a screen built on a villa fallen already: no fall seen to show again


class Replay(ModeBase):
    """The recorded fall played back slowly, from the other side; Esc skips it."""

    mode = Mode.REPLAY
    ends_itself = True
    moving = True

    def enter(self) -> None:
        screen = self.screen
        self.playback = Playback(screen.recorder.frames)
        camera = screen.view.camera
        camera.goal.heading += 180.0   # from the other side, standing back to take in the whole villa
        camera.goal.pitch = 24.0
        camera.focus(Point3(0, 0, 10.0), distance=REPLAY_DISTANCE)
        screen.hud.flash(_("Once more, slowly (Esc skips)"), screen.now, seconds=self.playback.length + 1.0)

    def exit(self) -> None:
        self.screen.view.show_poses(self.match.villa.poses())

    def give_up(self) -> None:
        self._end()

    def frame(self, dt: float) -> None:
        """The match goes on beneath: a fallen villa comes to rest, the turn is written down."""
        screen = self.screen
        screen.take_input(dt)
        self.match.advance(dt)
        poses = self.playback.advance(dt)
        if poses is None:
            self._end()
            return
        screen.view.show_poses(poses)
        screen.hud.update(screen.now)
        screen.view.before_frame(dt)

    def _end(self) -> None:
        screen = self.screen
        screen.hud.flash("", screen.now, seconds=0.01)
        if self.match.over:
            screen.change_mode(Mode.ENDED)
        else:   # the family edition's next round, on a villa built anew
            screen.recorder = CollapseRecorder()
            screen.change_mode(screen.mode_now())
            screen.view.focus_top()
