"""`--screenshot FILE`: one frame of a game, as the window would show it, saved as a picture."""

from __future__ import annotations

from pathlib import Path

from panda3d.core import Filename

from villa.app.logs import PlayerError
from villa.app.storage import shown_path
from villa.match import Match, MatchSetup
from villa.presentation import i18n
from villa.presentation.game import GameScreen
from villa.presentation.stage import WindowOptions, close_window, open_window, stage

FRAMES = 3  # the first frames draw the shadow maps; the last one is the picture


def take(setup: MatchSetup, path: Path, size: tuple[int, int], language: str = "system") -> None:
    """A new game as `setup` says (its colours dealt), drawn once in `language` (the settings' one, as the
    window would show it) and saved to `path`."""
    path = Path(path)
    if path.parent and not path.parent.exists():
        raise PlayerError(f"cannot save {shown_path(path)}: the folder {shown_path(path.parent)} does not exist")
    match = Match(MatchSetup(setup.seats, setup.layout, setup.ruleset, setup.seed, deal_colours=True))
    i18n.install(language)
    open_window(WindowOptions(width=size[0], height=size[1], sync_video=False, fixed_frame_rate=60, sound=False))
    try:
        screen = GameScreen(stage, match)
        screen.hud.controls.hide()
        for _ in range(FRAMES):
            stage.base.taskMgr.step()
        if not stage.win.saveScreenshot(Filename.fromOsSpecific(str(path.resolve()))):
            raise PlayerError(f"could not write {shown_path(path)}")
    finally:
        close_window()
