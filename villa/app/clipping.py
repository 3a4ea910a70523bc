"""Save the fall as a clip, from the end screen or the replay viewer: the row's asks carried out by a `ClipJob`
(a helper process), polled every frame, its progress, its end and any trouble shown in the row. The game goes
on meanwhile; a clip that cannot be written is one sentence, and nothing else is lost.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from villa.app.clips import SIZE, ClipJob, clip_folder, open_folder
from villa.app.storage import shown_path
from villa.match import Record
from villa.presentation import words
from villa.presentation.clip import Caption, Shot
from villa.presentation.i18n import _
from villa.presentation.menus.clip_row import ClipRow

log = logging.getLogger(__name__)


class Clipping:
    """`record_of()`: the finished game's record (None: not here yet: online it comes from the server);
    `fell`: the game ended in a fall (the row offers the fall, else the last move); `shot_of()`: where the
    player watched from (None: facing the pull)."""

    def __init__(self, stage, record_of: Callable[[], Record | None], fell: bool,
                 shot_of: Callable[[], Shot | None] = lambda: None, folder: Path | None = None,
                 size: tuple[int, int] = SIZE) -> None:
        self.stage, self.record_of, self.fell, self.shot_of = stage, record_of, fell, shot_of
        self.folder, self.size = folder, size
        self.job: ClipJob | None = None
        self.row: ClipRow | None = None
        self.said = ""
        self._task = None

    def row_in(self, parent, pos, ink=None) -> ClipRow:
        """The row, placed in a screen (built again with it when the language changes)."""
        options = {"ink": ink} if ink is not None else {}
        self.row = ClipRow(parent, pos=pos, fell=self.fell, on_make=self.make, on_cancel=self.cancel,
                           on_open_folder=self.open_folder, **options)
        self._show()
        return self.row

    def make(self) -> None:
        if self.job is not None and self.job.state == "making":
            return
        record = self.record_of()
        if record is None or record.turns[-1].actions != len(record.state.log):
            self._tell(_(words.CLIP_NOT_YET))    # (online the record comes once the server wrote the last turn)
            return
        if record.motion is None:
            self._tell(_(words.NO_CLIP))
            return
        self.job = ClipJob(record, Caption.of(record, record.motion), self.folder, self.size, self.shot_of())
        if self.job.state == "making" and self._task is None:
            self._task = self.stage.task_mgr.add(self._follow, "villa clip")
        self._show()

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
        self._show()

    def open_folder(self) -> None:
        if self.job is not None:
            open_folder(self.job.folder)

    def close(self) -> None:
        """The screen goes: a clip still being made is cancelled (its file removed)."""
        if self.job is not None:
            self.job.cancel()
        if self._task is not None:
            self.stage.task_mgr.remove(self._task)
            self._task = None
        if self.row is not None:
            self.row.destroy()
            self.row = None

    def _follow(self, task):
        if self.job is None:
            self._task = None
            return task.done
        state = self.job.poll()
        self._show()
        if state != "making":
            self._task = None
            return task.done
        return task.cont

    def _tell(self, said: str) -> None:
        self.said = said
        if self.row is not None:
            self.row.offer(said)

    def _show(self) -> None:
        """The row as the job stands."""
        row, job = self.row, self.job
        if row is None:
            return
        if job is None:
            row.offer(self.said)
        elif job.state == "making":
            row.making(job.done, job.total)
        elif job.state == "saved":
            if row.said != words.clip_saved(shown_path(job.path)):
                row.saved(shown_path(job.path))
                log.info("clip saved to %s", job.path)
        elif job.state == "cancelled":
            if row.said != _(words.CLIP_CANCELLED):
                row.offer(_(words.CLIP_CANCELLED))
        else:
            said = words.clip_trouble(shown_path(job.folder if job.error is not None else clip_folder()), job.error)
            if row.said != said:
                row.offer(said)
        self.stage.changed()
