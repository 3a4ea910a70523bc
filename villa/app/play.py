"""Playing in the window: a game on the screen with its autosave, and the way from one game to the next."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from villa.app.match import MatchOptions, new_match

NewMatch = Callable[[], tuple]   # () -> (Match, saves.MatchInfo or None: not saved)


class Session:
    """One game on the screen at a time, autosaved after every settled turn; "Play again" starts
    another from the same recipe (the same players)."""

    def __init__(self, stage, sound=None, on_end=None, on_pause=None, end_panel: bool = True) -> None:
        self.stage, self.sound = stage, sound
        self.on_end, self.on_pause, self.end_panel = on_end, on_pause, end_panel
        self.screen = None
        self.autosave = None
        self._recipe: NewMatch | None = None

    def play(self, recipe: NewMatch) -> None:
        """Start a new game from `recipe`; "Play again" calls it again."""
        from villa.app import saves
        self._recipe = recipe
        match, info = recipe()
        game = saves.start_game(info, match.referee.state, match.villa) if info is not None else None
        self._show(match, game)

    def take_up(self, game) -> None:
        """Play on from a saved game (`saves.Game`); "Play again" starts it over."""
        from villa.app.resume import match_for_screen
        self._recipe = from_saved(game) if game.info.floors == 1 else None
        self._show(match_for_screen(game), game)

    def play_again(self) -> None:
        self.play(self._recipe)

    def _show(self, match, game) -> None:
        from villa.app import resume
        from villa.presentation.game import GameScreen
        self.close()
        state = match.referee.state
        self.screen = GameScreen(self.stage, match, on_end=self.on_end, sound=self.sound,
                                 play_again=self.play_again if self._recipe is not None else None,
                                 seed=len(state.log), on_pause=self.on_pause, end_panel=self.end_panel)
        if game is not None:
            self.autosave = resume.attach_autosave(self.stage, game, match.referee, _LiveVilla(self.screen))

    def close(self) -> None:
        if self.autosave is not None:
            self.stage.task_mgr.remove(self.autosave)
            self.autosave = None
        if self.screen is not None:
            self.screen.close()
            self.screen = None


class _LiveVilla:
    """The villa the screen plays on now (a family round builds a fresh one), for the autosave."""

    def __init__(self, screen) -> None:
        self._screen = screen

    def __getattr__(self, name):
        return getattr(self._screen.villa, name)


def from_options(options: MatchOptions) -> NewMatch:
    """A recipe for games from the command line's choices; each new game gets the next seed."""
    games = iter(range(10**9))

    def recipe():
        from villa.app import saves
        reseeded = replace(options, seed=options.seed + next(games))
        match = new_match(reseeded, settle_seconds=0.0)
        # a villa started higher is a picture of later play, with no log to save
        info = (saves.MatchInfo(saves.MatchInfo.new_id(), reseeded.players, reseeded.seed, reseeded.floors,
                                match.layout) if reseeded.floors == 1 else None)
        return match, info
    return recipe


def from_saved(game) -> NewMatch:
    """A recipe for games like a saved one from its start: the same players, rules, colours and layout."""
    def recipe():
        from villa.app import saves
        from villa.physics.world import Villa
        from villa.presentation.game import Match
        from villa.presentation.referee import Referee
        info = game.info
        # the layout the saved game was built from and played on: built again as it was
        villa = Villa.from_layout(info.layout, validate=False)
        again = saves.MatchInfo(saves.MatchInfo.new_id(), info.players, info.seed, info.floors, info.layout)
        return Match(info.layout, villa, Referee.from_state(game.start)), again
    return recipe


def play(options: MatchOptions, size: tuple[int, int]) -> int:
    """Open the window on the main menu; new games start from `options`' players."""
    from villa.app.front import Front
    from villa.app.settings import load_settings
    from villa.presentation.sound import Sound
    from villa.presentation.stage import WindowOptions, open_window, stage

    open_window(WindowOptions(width=size[0], height=size[1]))
    settings = load_settings()
    Front(stage, options, settings, Sound(volume=settings.volume)).main_menu()
    stage.base.run()
    return 0
