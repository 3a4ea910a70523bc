"""From the main menu to the game and back: the menus wired to the game screen.

Main menu -> new game -> the seal rolled for colours and the others' choices -> (the columns
set up by hand, when so chosen) -> the game (autosaved) -> the end screen (play again, or the
main menu). Continue, and --continue or --load on the command line, take up a saved game;
Esc with nothing in hand pauses; the settings apply at once.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace

from villa import rules
from villa.app import saves
from villa.app.logs import PlayerError
from villa.app.match import MatchOptions
from villa.app.play import Session
from villa.app.settings import Settings
from villa.presentation import i18n, menus
from villa.rules.setup import pick_order, starting_player


class Front:
    def __init__(self, stage, options: MatchOptions, settings: Settings, sound=None,
                 rng: random.Random | None = None) -> None:
        self.stage, self.options, self.settings, self.sound = stage, options, settings, sound
        self.rng = rng or random.Random()
        self.menu = None          # the menu screen showing (one at a time)
        self.pause_menu = None    # over the paused game
        self.arranged = None      # the last layout set up by hand: arranging again starts from it
        self.session = Session(stage, sound, on_end=self._game_over, on_pause=self.pause, end_panel=False)
        i18n.install(settings.language)

    # --- screens ---

    def _open(self, screen) -> None:
        self._close_menu()
        self.menu = screen
        screen.show()

    def _close_menu(self) -> None:
        if self.menu is not None:
            self.menu.destroy()
            self.menu = None

    def main_menu(self) -> None:
        self.session.close()
        self._close_pause()
        self._open(menus.MainMenu(
            can_continue=saves.autosave_path().exists(), on_new_game=self.new_game, on_continue=self.continue_game,
            on_rules=lambda: self._open(menus.RulesSummaryScreen(on_back=self.main_menu)),
            on_settings=lambda: self.open_settings(self.main_menu),
            on_how_to_play=lambda: self._open(menus.HowToPlayScreen(on_back=self.main_menu)),
            on_quit=self.stage.base.userExit))

    def new_game(self, choices=None) -> None:
        """The new-game screen, showing `choices` (coming back from setting up the columns) or the defaults."""
        self._open(menus.NewGameScreen(on_start=self.roll_for_colours, on_back=self.main_menu, rng=self.rng,
                                       initial=choices or menus.GameChoices(players=self.options.players)))

    def open_settings(self, back) -> None:
        def close(settings: Settings) -> None:
            self.apply_settings(settings)
            back()
        self._open(menus.SettingsScreen(settings=self.settings, on_close=close, on_change=self.apply_settings))

    def apply_settings(self, settings: Settings) -> None:
        """Volume, the mouse's turning speed and direction take effect at once (the language on redraw)."""
        self.settings = settings
        if self.sound is not None:
            self.sound.set_volume(settings.volume)
        for screen in (self.session.screen, self.menu):
            if hasattr(screen, "controls") and hasattr(screen, "view"):   # a screen with the villa in 3D
                screen.controls.sensitivity = settings.mouse_sensitivity
                screen.controls.invert = settings.invert_camera
                screen.view.set_graphics_quality(settings.graphics_quality)

    # --- colours, then the game ---

    def roll_for_colours(self, choices) -> None:
        setup = rules.GameSetup(choices.rules, choices.players)
        order = pick_order(setup)
        if not order:   # the family edition's free modes: nobody owns a colour
            self.set_up(choices, [])
            return
        # The publisher's rules: the youngest rolls the seal; family "assigned": everyone chooses.
        rolled = None if choices.rules.family else self.rng.choice(list(rules.Colour))
        self._open(menus.SealRollScreen(players=choices.players, order=order, rolled=rolled,
                                        starter=starting_player(setup),
                                        on_done=lambda picks: self.set_up(choices, picks)))

    def set_up(self, choices, picks) -> None:
        """The columns go up as chosen; arranged by hand, the players set them first."""
        if choices.layout != "hand":
            self.start(choices, picks)
            return
        from villa.physics import layouts
        from villa.presentation.arrange import ArrangeScreen
        begin = self.arranged or layouts.preset(choices.preset or next(iter(layouts.PRESETS)))

        def laid(layout) -> None:
            self.arranged = layout
            self.start(replace(choices, arrangement=layout), picks)

        def back() -> None:   # the columns stay where they were put, for the next time
            self.arranged = screen.arrangement.layout()
            self.new_game(choices)
        screen = ArrangeScreen(self.stage, start=begin, need=choices.rules.min_support(1), on_lay=laid, on_back=back,
                               sound=self.sound, rng=self.rng)
        self._open(screen)
        self.apply_settings(self.settings)

    def start(self, choices, picks) -> None:
        self._close_menu()
        self.session.play(lambda: _new_match(choices, picks, self.rng.randrange(10**6)))
        self.apply_settings(self.settings)

    def continue_game(self) -> None:
        from villa.app.resume import load_match
        try:
            _state, _villa, game = load_match(saves.autosave_path())
        except PlayerError as error:
            menu = self.menu
            if menu is not None and hasattr(menu, "set_can_continue"):
                menu.set_can_continue(False)
            logging.getLogger(__name__).warning("cannot continue: %s", error)
            return
        self.take_up(game)

    def take_up(self, game) -> None:
        """Play on from a saved game (`saves.Game`): the main menu's Continue, --continue and --load."""
        self._close_menu()
        self._close_pause()
        self.session.take_up(game)
        self.apply_settings(self.settings)

    # --- pause and the end ---

    def pause(self) -> None:
        screen = self.session.screen
        if screen is None or self.pause_menu is not None:
            return
        screen.paused = True
        screen.hud.show_tooltip(None)
        self.pause_menu = menus.PauseMenu(on_resume=self.resume, on_rules=self._pause_rules,
                                          on_settings=lambda: self._pause_sheet(self.open_settings),
                                          on_quit_to_menu=self.main_menu)
        self.pause_menu.show()

    def _pause_rules(self) -> None:
        rules_now = self.session.screen.referee.state.ruleset
        self._pause_sheet(lambda back: self._open(menus.RulesSummaryScreen(on_back=back, rules=rules_now)))

    def _pause_sheet(self, open_sheet) -> None:
        """A sheet opened from the pause menu comes back to it."""
        self.pause_menu.hide()

        def back() -> None:
            self._close_menu()
            self.pause_menu.show()
        open_sheet(back)

    def resume(self) -> None:
        self._close_pause()
        if self.session.screen is not None:
            self.session.screen.paused = False

    def _close_pause(self) -> None:
        if self.pause_menu is not None:
            self.pause_menu.destroy()
            self.pause_menu = None

    def _game_over(self, result) -> None:
        state = self.session.screen.referee.state
        self.session.screen.hud.hide()
        self._open(menus.EndScreen(state=state, on_play_again=self._play_again, on_main_menu=self.main_menu))

    def _play_again(self) -> None:
        self._close_menu()
        self.session.play_again()
        self.apply_settings(self.settings)


def _new_match(choices, picks, seed: int):
    """The villa built as chosen, and the rules with the colours rolled and chosen."""
    from villa.app.match import build_layout
    from villa.physics import layouts
    from villa.physics.world import Villa
    from villa.presentation.game import Match
    from villa.presentation.referee import Referee
    if choices.layout == "hand" and choices.arrangement is not None:
        options = MatchOptions(players=choices.players, layout=choices.arrangement.name, seed=choices.seed or seed)
        layout = choices.arrangement
    else:   # (arranged by hand with no arrangement given: the chosen preset)
        name = "random" if choices.layout == "random" else (choices.preset or "rings")
        options = MatchOptions(players=choices.players, layout=name, seed=choices.seed or seed)
        layout = build_layout(options)
    supports = frozenset(spot.column for spot in layouts.supports(layout, 1))
    state = rules.new_game(rules.GameSetup(choices.rules, choices.players, supports))
    for seat, colour in picks:
        if state.turn.step is rules.Step.COLOUR_ROLL:
            state = rules.apply(state, rules.SealRoll(colour))
        elif state.turn.step is rules.Step.COLOUR_CHOICE and state.turn.actor == seat:
            state = rules.apply(state, rules.ChooseColour(colour))
    villa = Villa.from_layout(layout, setup=True)
    info = saves.MatchInfo(saves.MatchInfo.new_id(), choices.players, options.seed, 1, layout)
    return Match(layout, villa, Referee.from_state(state)), info
