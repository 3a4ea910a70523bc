"""A recorded game watched again in the window: the villa as recorded after each turn, a turn every few
seconds, with what happened in words on the status line and everyone's points beside."""

from __future__ import annotations

from villa.match import Record
from villa.match.record import state_at, villa_of
from villa.match.replay import turns
from villa.presentation import words
from villa.presentation.hud import Hud
from villa.presentation.view import VillaView

SECONDS_PER_TURN = 2.0


class ReplayScreen:
    def __init__(self, stage, record: Record, seconds_per_turn: float = SECONDS_PER_TURN) -> None:
        self.stage, self.seconds = stage, seconds_per_turn
        self.record = record
        self.shown = list(turns(record))   # checked through before anything is shown
        self.view = VillaView(stage)
        self.hud = Hud(stage)
        self.hud.controls.hide()
        self.at, self.since = -1, 0.0
        first = self.shown[0].before if self.shown else record.state
        self.view.show_poses(_villa_poses(record))
        self.view.focus_top(snap=True)
        self.hud.show_game(words.guidance(first), neutral=first.neutral, family=first.ruleset.family)
        self.hud.show_status(words.turn_story(first, (), first) if not self.shown else "")
        stage.task_mgr.add(self._frame, "villa replay")

    def _frame(self, task):
        now = self.stage.clock.getFrameTime()
        if self.at + 1 < len(self.shown) and now - self.since >= self.seconds:
            self.at += 1
            self.since = now
            turn = self.shown[self.at]
            self.view.show_poses(turn.villa.poses())
            self.view.focus_top()
            self.stage.changed()
            self.hud.show_game(words.guidance(turn.state), neutral=turn.state.neutral,
                               family=turn.state.ruleset.family)
            self.hud.show_status(words.turn_story(turn.before, turn.moves, turn.state))
        self.hud.update(now)
        self.view.before_frame(self.stage.clock.getDt())
        return task.cont

    def clip_place(self) -> tuple[float, float]:
        """Where a row saving the recorded fall as a clip goes: along the bottom, above the status line's reach."""
        return (0.0, -0.86)

    def close(self) -> None:
        self.stage.task_mgr.remove("villa replay")
        self.hud.close()
        self.view.close()


def _villa_poses(record: Record):
    """The villa as built, before the first turn."""
    return villa_of(record.turns[0], state_at(record, record.turns[0])).poses()
