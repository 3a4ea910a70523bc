"""The window: from the main menu to a game and back, the menus wired to the match and its screen.

Main menu -> learn to play -> a lesson (each one's parts, then on to the next) and back to the list.
Main menu -> new game -> (the columns set up by hand, when so chosen) -> the seal rolled for
colours and the others' choices -> the game (kept on disk after every turn) -> the end screen
(play again, or the main menu). Continue, and --continue or --load on the command line, take
up a kept game; Esc with nothing in hand pauses; the settings apply at once.
Main menu -> play online -> host (the new-game screen, then where) or join -> the lobby -> (the seal rolled
for colours, as in the hot seat) -> the game (`villa.app.online`). Continue takes up whichever was played
last: the hot-seat game kept on disk, or a seat online kept in the settings.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import replace

from villa import rules
from villa.app import ends, invite_links, joining, saves, settings as stored
from villa.app.mac_links import Links
from villa.app.clipping import Clipping
from villa.app.keeping import Keeper, has_kept_game, latest_game
from villa.app.kept_seat import kept_seat_waits
from villa.app.learning import Learning
from villa.app.known_servers import KnownServersFile
from villa.app.logs import PlayerError
from villa.app.online import OnlinePlay
from villa.app.storage import data_dir
from villa.match import Match, MatchSetup, Record, Seat, Strength, TimeUp, layout_named
from villa.match.computer import close_thinking, reseat_computers, seat_computers
from villa.online.client import OnlineMatch
from villa.online.client.seats_now import SeatsNow
from villa.online.client.trust import Trust
from villa.online.invite import Invite, InviteError, parse_invite
from villa.physics import layouts
from villa.presentation import i18n, menus, words
from villa.presentation.arrange import ArrangeScreen
from villa.presentation.game import GameScreen
from villa.presentation.menus.confirm import Confirm
from villa.presentation.menus.lobby import clock_seconds
from villa.presentation.move_clock import MoveClock
from villa.presentation.preferences import Settings
from villa.presentation.replay_screen import ReplayScreen
from villa.presentation.sound import Sound
from villa.presentation.stage import WindowOptions, check_display, open_window, stage

log = logging.getLogger(__name__)
REPLAY_INK = (0.95, 0.9, 0.8, 1)     # the clip row's words over the replay's villa


class Front:
    def __init__(self, stage, settings: Settings, sound=None, players=None, rng: random.Random | None = None,
                 settings_trouble: tuple | None = None, insecure: bool = False) -> None:
        self.stage, self.settings, self.sound = stage, settings, sound
        self.insecure = insecure          # --insecure: online without TLS (to a server started so)
        self.settings_trouble = settings_trouble   # (file, set aside as): told once, on the main menu
        self.players = players            # the seats a new game starts with (the command line's)
        self.rng = rng or random.Random()
        self.menu = None                  # the menu screen showing (one at a time)
        self.pause_menu = None            # over the paused game
        self.arranged = None              # the last layout set up by hand: arranging again starts from it
        self.match: Match | OnlineMatch | None = None
        self.online = None                # the player's client of a game online (`play_online`)
        self.screen: GameScreen | None = None
        self.clipping: Clipping | None = None   # the fall saved as a clip, from the end screen
        self.learning = Learning(self)     # learn to play: the lessons
        self.keeper = Keeper(on_trouble=self._save_trouble)
        self.online_play = OnlinePlay(self)   # the online menus and lobby
        self._new_game_options: dict = {}
        stage.graphics_quality = settings.graphics_quality
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
        self.online_play.close(to_menu=True)
        self._close_game()
        self.learning.close()
        self._close_pause()
        notice = words.settings_trouble(*self.settings_trouble) if self.settings_trouble else ""
        self.settings_trouble = None
        online = self._seat_to_continue()
        self._open(menus.MainMenu(
            can_continue=online is not None or has_kept_game(), notice=notice, on_new_game=self.new_game,
            on_online=self.online_play.menu, on_continue=self.continue_game,
            continue_words=None if online is None else words.continue_online(online.code),
            on_learn=self.learning.lessons,
            on_rules=lambda: self._open(menus.RulesSummaryScreen(on_back=self.main_menu)),
            on_settings=lambda: self.open_settings(self.main_menu),
            on_how_to_play=lambda: self._open(menus.HowToPlayScreen(on_back=self.main_menu)),
            on_quit=self.stage.base.userExit))

    def new_game(self, choices=None, *, start_words: str | None = None, on_back=None, then=None) -> None:
        """The new-game screen, showing `choices` (coming back from setting up the columns) or the defaults;
        `then(setup)` once the columns stand (by default the game starts here)."""
        self._new_game_options = {"start_words": start_words, "on_back": on_back, "then": then}
        if choices is None and self.settings.last_seats:
            choices = menus.GameChoices(seats=tuple(Seat(name, Strength(strength) if strength else None)
                                                    for name, strength in self.settings.last_seats))
        elif choices is None and self.players:
            choices = menus.GameChoices(seats=self.players)
        self._open(menus.NewGameScreen(on_start=lambda chosen: self.set_up(chosen, then),
                                       on_back=on_back or self.main_menu, rng=self.rng, initial=choices,
                                       start_words=start_words))

    def open_settings(self, back) -> None:
        def close(settings: Settings) -> None:
            self.apply_settings(settings)
            back()
        links = invite_links.registered() if invite_links.on_windows() else None     # Linux, macOS: the desktop's
        self._open(menus.SettingsScreen(settings=self.settings, on_close=close, on_change=self.apply_settings,
                                        invite_links=links, on_invite_links=invite_links.choose))

    def apply_settings(self, settings: Settings) -> None:
        """Every change is kept at once; volume, the mouse and the graphics take effect at once (the language
        on redraw)."""
        self.settings = settings
        self.stage.graphics_quality = settings.graphics_quality
        try:
            stored.save_settings(settings)
        except OSError as error:
            log.warning("the settings could not be kept: %s", error)
        if self.sound is not None:
            self.sound.set_volume(settings.volume)
        lesson_game = self.learning.screen.game if self.learning.screen is not None else None
        for screen in (self.screen, self.menu, lesson_game):
            if hasattr(screen, "controls") and hasattr(screen, "view"):   # a screen with the villa in 3D
                screen.controls.sensitivity = settings.mouse_sensitivity
                screen.controls.invert = settings.invert_camera
                screen.view.set_graphics_quality(settings.graphics_quality)
        if self.screen is not None:
            self.screen.computer_speed = settings.computer_speed

    # --- a new game: the columns, the colours, the game ---

    def set_up(self, choices, then=None) -> None:
        """The columns go up as chosen; arranged by hand, the players set them first. Then `then(setup)`, by
        default a game here."""
        then = then or self.start
        self.apply_settings(replace(self.settings, last_seats=tuple(
            (seat.name, seat.computer.value if seat.computer else None) for seat in choices.seats)))
        if choices.layout != "hand":
            name = "random" if choices.layout == "random" else (choices.preset or "rings")
            seed = choices.seed if choices.seed is not None else self.rng.randrange(2**31)
            then(MatchSetup(choices.seats, layout_named(name, seed), choices.rules, seed,
                            builders_eye=self.settings.builders_eye))
            return
        begin = self.arranged or layouts.preset(choices.preset or next(iter(layouts.PRESETS)))

        def laid(layout) -> None:
            self.arranged = layout
            then(MatchSetup(choices.seats, layout, choices.rules, self.rng.randrange(2**31),
                                  builders_eye=self.settings.builders_eye))

        def back() -> None:   # the columns stay where they were put, for the next time
            self.arranged = screen.arrangement.layout()
            self.new_game(choices, **self._new_game_options)
        screen = ArrangeScreen(self.stage, start=begin, need=choices.rules.min_support(1), on_lay=laid, on_back=back,
                               sound=self.sound, rng=self.rng)
        self._open(screen)
        self.apply_settings(self.settings)

    def start(self, setup: MatchSetup) -> None:
        """A new game: the colours first (the seal rolled, the others' choices), then the game."""
        self._close_menu()
        self._close_game()
        match = self.match = Match(setup)
        seat_computers(match, aside=True)   # the window thinks off the frame loop
        if rules.task(match.state) in menus.COLOUR_TASKS:
            self._open(menus.SealRollScreen(match=match, on_done=self._play))
        else:
            self._play()

    def _seat_to_continue(self):
        """The seat online that Continue takes up: one kept in the settings that may still wait, and was played
        after the hot-seat game kept on disk (None: Continue takes up that game)."""
        kept = self.online_play.kept.waiting()
        return kept if online_first(kept) else None

    def continue_game(self) -> None:
        if self._seat_to_continue() is not None:
            self.online_play.take_up_seat()
            return
        try:
            _path, _how, record = latest_game()
        except PlayerError as error:
            if isinstance(self.menu, menus.MainMenu):
                self.menu.set_can_continue(False)
                self.menu.tell(words.unloadable(str(error)))
            log.warning("cannot continue: %s", error)
            return
        self.take_up(record)

    def take_up(self, record: Record) -> None:
        """Play on from a kept game: the main menu's Continue, --continue and --load."""
        self._close_pause()
        self._close_menu()
        self._close_game()
        self.match = Match(record.setup, record)
        seat_computers(self.match, aside=True)
        self._play()

    def _play(self) -> None:
        """The match on the screen, kept on disk as it goes."""
        self._close_menu()
        self.keeper.follow(self.match)
        self.screen = GameScreen(self.stage, self.match, on_end=self._game_over, sound=self.sound,
                                 on_pause=self.pause, end_panel=False,
                                 on_speed=lambda speed: self.apply_settings(replace(self.settings,
                                                                                    computer_speed=speed)))
        self.apply_settings(self.settings)

    # --- a game online ---

    def play_online(self, player) -> None:
        """The game over a game on a server, once `player`'s room has started (or rejoined): the seal rolled for
        the colours first while they are still to settle, as in the hot seat; then the game screen, where each
        person at their own screen plays their own seats and waits for the others."""
        self._close_pause()
        self._close_menu()
        if self.online is not player:
            self._close_game()
        self.online = player
        match = self.match = OnlineMatch(player)
        self.keeper.fresh()
        self._follow_online(player, match)
        if rules.task(match.state) in menus.COLOUR_TASKS:
            self._open(menus.SealRollScreen(match=match, here=match.here, on_done=lambda: self._show_online(match)))
        else:
            self._show_online(match)

    def _show_online(self, match: OnlineMatch) -> None:
        self._close_menu()
        if self.match is not match:
            return        # left meanwhile
        screen = self.screen = GameScreen(self.stage, match, on_end=self._game_over, sound=self.sound,
                                          on_pause=self.pause, end_panel=False, here=match.here,
                                          seats=SeatsNow(match.player), on_leave=self.main_menu,
                                          on_stand_in=lambda seat: self._stand_in(seat))
        match.events.subscribe(TimeUp, lambda event: screen.hud.announce(
            words.time_up(match.state, event.player), screen.now))
        if not match.here:          # a game under way entered by its code, every seat someone's: watched
            screen.hud.announce(words.watching(), screen.now, seconds=15.0)
        self.apply_settings(self.settings)

    def _follow_online(self, player, match: OnlineMatch) -> None:
        """Each frame, before the game's: the finished game kept among the replays, the turn clock on the status
        line, and a connection that ended said on the main menu."""
        kept = False
        clock = MoveClock()
        looking, came_back = False, player.came_back
        paused_said = None

        def follow(task):
            if self.online is not player:
                return task.done
            nonlocal kept, looking, came_back, paused_said
            if player.finished is not None and not kept:
                kept = True          # among the replays, as a hot-seat game is kept (a failed write is said once)
                self.keeper.keep_replay(player.finished)
            if player.lost:
                self._lost(player.trouble)
                return task.done
            # counted from when the move was asked, even while the colours' screen still shows
            left = clock.left(match, clock_seconds(player.table), player.table.get("move_left"))
            if self.screen is not None and self.match is match:
                if (player.rejoining is not None) != looking or player.came_back != came_back:
                    looking, came_back = player.rejoining is not None, player.came_back
                    cut = SeatsNow(player).cut_off()    # the screen says it (its CutOff mode), the log too
                    log.info(words.cut_off(cut) if cut is not None else words.back_in_game(len(player.addresses) > 1))
                paused = player.paused_for
                if paused is not None and round(paused) != paused_said:     # said again as the seconds go
                    paused_said = round(paused)
                    self.screen.hud.announce(words.game_paused(paused), self.screen.now, seconds=1.5)
                elif paused is None:
                    paused_said = None
                self.screen.hud.show_clock(None if left is None else words.time_left(left))
            return task.cont
        self.stage.task_mgr.add(follow, "online connection", sort=-20)   # before the game's frame

    def _lost(self, trouble=None) -> None:
        """The connection ended by itself: back to the main menu, saying why in one sentence."""
        said = words.connection_ended(trouble)
        log.info("the game online ended: %s", said)
        self.online_play.kept.taken_away(trouble)
        self.main_menu()
        if isinstance(self.menu, menus.MainMenu):
            self.menu.tell(said)

    def _close_game(self) -> None:
        if self.online is not None:
            self.online.close()      # the seat waits for its token on the server
            self.online = None
        self.keeper.stop()
        if self.clipping is not None:    # a clip still being made is cancelled with the end screen
            self.clipping.close()
            self.clipping = None
        if self.screen is not None:
            self.screen.close()
            self.screen = None
        if self.match is not None:
            self.match.close()
            self.match = None

    def _save_trouble(self, what: str, where, error: OSError) -> None:
        if self.screen is not None:
            self.screen.hud.flash(words.save_trouble(what, where, error), self.screen.now, seconds=10.0)

    # --- pause and the end ---

    def pause(self) -> None:
        if self.screen is None or self.pause_menu is not None:
            return
        self.screen.pause()
        # online the seats are the host's to give, in the lobby; mid-game one that stalls or left, to a computer
        seats = None if self.online else lambda: self._pause_sheet(self._open_seats)
        away = self._idle_seat()
        self.pause_menu = menus.PauseMenu(on_resume=self.resume, on_rules=self._pause_rules,
                                          on_settings=lambda: self._pause_sheet(self.open_settings),
                                          on_players=seats, waits=not self.online,
                                          on_stand_in=None if away is None else lambda: self._stand_in(away),
                                          away="" if away is None else self.match.state.players[away],
                                          on_quit_to_menu=self.main_menu)
        self.pause_menu.show()

    def _idle_seat(self) -> int | None:
        """Online, for the host: the seat of the person at another screen the game waits for now (who may stall),
        or else of one who left the game: a computer may play it from now on."""
        player = self.online
        if player is None or player.host_seat not in player.seats or self.screen is None:
            return None
        waited = self.screen.acting.waited_for()
        if waited is not None:
            return waited
        return next((n for n in range(len(self.match.state.players)) if self.match.away(n)), None)

    def _stand_in(self, seat: int) -> None:
        """A computer plays this seat from now on; its person at the table is asked for first (they may only be
        thinking), one who left is not."""
        def give() -> None:
            if self.online is not None:
                self.online.give_to_computer(seat, Strength.MEDIUM)
            self.resume()
        if self.match.away(seat):
            give()
            return
        name, paused = self.match.state.players[seat], self.pause_menu
        if paused is not None:
            paused.hide()

        def answered(then):
            def done() -> None:
                self.menu = None          # (the question took itself down)
                then()
            return done
        self._open(Confirm(question=words.stand_in_question(name), yes=words.stand_in_words(name),
                           on_yes=answered(give), on_no=answered(self.resume if paused is None else paused.show)))

    def _pause_rules(self) -> None:
        rules_now = self.match.state.ruleset
        self._pause_sheet(lambda back: self._open(menus.RulesSummaryScreen(on_back=back, rules=rules_now)))

    def _pause_sheet(self, open_sheet) -> None:
        """A sheet opened from the pause menu comes back to it."""
        self.pause_menu.hide()

        def back() -> None:
            self._close_menu()
            self.pause_menu.show()
        open_sheet(back)

    def _open_seats(self, back) -> None:
        """Who plays which seat: a person takes over a computer player's seat, or hands theirs to one."""
        def done(seats) -> None:
            for player, seat in enumerate(seats):
                if seat != self.match.setup.seats[player]:
                    self.match.change_seat(player, seat.computer)
            reseat_computers(self.match, aside=True)
            back()
        self._open(menus.SeatsScreen(seats=self.match.setup.seats, on_done=done, on_back=back))

    def resume(self) -> None:
        self._close_pause()
        if self.screen is not None:
            self.screen.resume()

    def _close_pause(self) -> None:
        if self.pause_menu is not None:
            self.pause_menu.destroy()
            self.pause_menu = None

    def close(self) -> None:
        """The game or lesson, the pause menu and any menu taken down, the autosave stopped, the online game left:
        nothing left open."""
        self.online_play.close()
        self._close_game()
        self.learning.close()
        self._close_pause()
        self._close_menu()

    def _game_over(self, result) -> None:
        if self.screen is None:   # a finished game taken up (--load): its screen is still being built
            self.stage.task_mgr.doMethodLater(0, lambda _task: self._game_over(result), "villa end screen")
            return
        self.screen.hud.hide()
        again = None if self.online else self.play_again     # online: a new room, from the menu
        match, screen, player = self.match, self.screen, self.online
        # online the record is the server's, which every window of the room (and one that watches) is sent
        self.clipping = Clipping(self.stage, (lambda: player.finished) if player is not None else (lambda: match.record),
                                 fell=bool(result is not None and result.fell), shot_of=lambda: screen.watched_from)
        self._open(menus.EndScreen(state=self.match.state, on_play_again=again,
                                   on_main_menu=self.main_menu, builders_eye=self.match.setup.builders_eye,
                                   clip=self.clipping.row_in))

    def play_again(self) -> None:
        """The same players and rules on a fresh villa."""
        setup = self.match.setup.again(self.rng.randrange(2**31))
        self.start(replace(setup, builders_eye=self.settings.builders_eye))   # as the settings say now


def online_first(kept) -> bool:
    """Whether Continue takes up this seat kept online: it may still wait, and was played after the hot-seat game
    kept on disk."""
    try:
        played_here = (data_dir() / saves.AUTOSAVE).stat().st_mtime
    except OSError:
        played_here = 0.0
    return kept is not None and kept_seat_waits(kept, time.time()) and kept.at >= played_here


def play(args) -> int:
    """Open the window: the main menu, or the game --continue (as the main menu's Continue: a seat kept online, or
    the game kept here) or --load takes up."""
    record, player, settings, online = None, None, None, False
    troubles: list[tuple] = []
    invite = args.join if isinstance(args.join, Invite) else None
    if invite is not None:
        host, port, code, pin = invite.host, invite.port, invite.code, invite.fingerprint
    elif args.join:
        (host, port), code, pin = args.join, args.room, None
    if args.join and args.name:   # before any window: a wrong address says so; a seat kept there is taken back
        check_display()     # a seat taken by a window that cannot open would wait 10 minutes for nobody
        settings = stored.load_settings(on_trouble=lambda path, aside: troubles.append((path, aside)))
        player = joining.sit_down(host, port, code, args.name, kept=settings.kept_seat, pin=pin,
                                  insecure=args.insecure, trust=Trust(KnownServersFile()))
    elif args.continue_game:
        settings = stored.load_settings(on_trouble=lambda path, aside: troubles.append((path, aside)))
        online = online_first(settings.kept_seat)
        if not online:
            _path, _how, record = latest_game()
    elif args.load:
        record = saves.load(args.load)
    if args.replay:
        recorded = saves.load(args.replay)
        open_window(WindowOptions(width=args.size[0], height=args.size[1]))
        watch_replay(stage, recorded)
        return _run_window()
    links = Links()
    links.listen()           # macOS: links clicked while the game runs, or the one that started it
    open_window(WindowOptions(width=args.size[0], height=args.size[1]))
    if settings is None:
        settings = stored.load_settings(on_trouble=lambda path, aside: troubles.append((path, aside)))
    front = Front(stage, settings, Sound(volume=settings.volume), players=args.players,
                  settings_trouble=troubles[0] if troubles else None, insecure=args.insecure)
    if player is not None:
        front.online_play.seated(player, joining.address(host, port), args.name)
    elif invite is not None:        # a link clicked: into its room as the menus' Join goes, under the last name
        front.main_menu()
        front.online_play.invited(invite)
    elif online:
        front.main_menu()
        front.continue_game()
    elif record is not None:
        front.take_up(record)
    else:
        front.main_menu()
    follow_links(front, links)
    return _run_window()


def follow_links(front: Front, links: Links) -> None:
    """Each link the desktop sends the running game (macOS) is opened as one given on the command line: into its
    room, from the menus. A game under way here is not left for it: it waits until the menus show."""
    def look(task):
        if front.screen is None:
            link = links.take()
            if link is not None:
                try:
                    invite = parse_invite(link)
                except InviteError as trouble:
                    log.warning("a link clicked is not an invite (%s): %s", trouble, link[:200])
                    return task.cont
                front.main_menu()
                front.online_play.invited(invite)
        return task.cont
    front.stage.task_mgr.add(look, "links clicked")


def watch_replay(stage, recorded: Record) -> tuple[ReplayScreen, Clipping | None]:
    """The replay viewer, with the row that saves its last motion (the fall) as a clip when it recorded one."""
    viewer = ReplayScreen(stage, recorded)
    if recorded.motion is None:
        return viewer, None
    clipping = Clipping(stage, lambda: recorded, fell=recorded.motion.fell)
    clipping.row_in(stage.aspect2d, viewer.clip_place(), ink=REPLAY_INK)
    return viewer, clipping


def _run_window() -> int:
    """The window's frames until Quit (exit code 0), Ctrl+C or an end asked for from outside: each leaves the
    autosave as the last settled turn wrote it and takes the computer players' worker along."""
    def end_soon(number: int, _frame) -> None:   # as Quit does from its button: between tasks, never in one
        stage.base.taskMgr.add(lambda _task: ends.end_now(number), "end asked for")
    try:
        with ends.listening(end_soon):
            stage.base.run()
    finally:
        close_thinking()
    # Panda3D takes Ctrl+C itself during a frame: it stops the frames, and says so
    return ends.INTERRUPTED if stage.base.taskMgr.fKeyboardInterrupt else 0
