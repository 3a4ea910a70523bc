"""`--screenshot FILE`: one frame of a game, as the window would show it, saved as a picture."""

from __future__ import annotations

from pathlib import Path

from villa.app.logs import PlayerError
from villa.app.match import MatchOptions, new_match

FRAMES = 3  # the first frames draw the shadow maps; the last one is the picture


def take_screenshot(options: MatchOptions, path: Path, size: tuple[int, int]) -> None:
    from panda3d.core import Filename
    from villa.presentation.game import GameScreen
    from villa.presentation.stage import WindowOptions, close_window, open_window, stage

    path = Path(path)
    if path.parent and not path.parent.exists():
        raise PlayerError(f"cannot save {path}: the folder {path.parent} does not exist")
    match = new_match(options)
    open_window(WindowOptions(width=size[0], height=size[1], sync_video=False, fixed_frame_rate=60, sound=False))
    try:
        screen = GameScreen(stage, match)
        screen.hud.controls.hide()
        for _ in range(FRAMES):
            stage.base.taskMgr.step()
        if not stage.win.saveScreenshot(Filename.fromOsSpecific(str(path.resolve()))):
            raise PlayerError(f"could not write {path}")
    finally:
        close_window()
