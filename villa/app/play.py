"""Playing: open the window and run the game until it is closed."""

from __future__ import annotations

from villa.app.match import MatchOptions, new_match


def play(options: MatchOptions, size: tuple[int, int]) -> int:
    from villa.presentation.game import GameScreen
    from villa.presentation.stage import WindowOptions, open_window, stage

    # The window first, so the player sees it at once; the villa, built exactly in
    # place, settles on screen.
    open_window(WindowOptions(width=size[0], height=size[1]))
    GameScreen(stage, new_match(options, settle_seconds=0.0))
    stage.base.run()
    return 0
