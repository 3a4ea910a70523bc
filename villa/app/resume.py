"""The command line's saved-game modes: --continue, --load, --replay, --autoplay and --headless.

`add_arguments` puts the options on the game's parser, `check_arguments` refuses the
contradictory ones (exit code 2, one clear sentence), and `run` carries the mode out.
With a window, a saved game is taken up as the main menu's Continue takes it up (`play_saved`:
the pause menu on Esc, the end screen, back to the main menu); `--headless` goes on without
one, printing what happens.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from villa.app import saves
from villa.app.logs import PlayerError

FIXED_BY_SAVE = ("--players", "--layout", "--seed", "--floors")
HEADLESS_MODES = "--autoplay, --continue, --load or --replay"


def _turns(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"give the number of turns as a whole number, not {text!r}") from None
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError("the number of turns must be between 0 and 100000")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("saved games and replays")
    group.add_argument("--continue", dest="continue_game", action="store_true",
                       help="take up the latest game where it was autosaved")
    group.add_argument("--load", type=Path, metavar="FILE", help="take up the game saved in FILE")
    group.add_argument("--replay", type=Path, metavar="FILE", help="watch a recorded game again, turn by turn")
    group.add_argument("--autoplay", type=_turns, metavar="TURNS",
                       help="computer players play TURNS turns, autosaving after each (with --headless)")
    group.add_argument("--headless", action="store_true",
                       help=f"no window: with {HEADLESS_MODES}, print each turn instead")


def _given(argv: list[str], option: str) -> bool:
    """Was `option` written on the command line (also as --option=value or abbreviated)?"""
    for token in argv:
        name = token.split("=", 1)[0]
        if name.startswith("--") and len(name) > 3 and option.startswith(name):
            return True
    return False


def check_arguments(parser: argparse.ArgumentParser, args, argv: list[str] | None = None) -> None:
    """Refuse options that contradict each other (argparse's error: usage, one sentence, exit code 2)."""
    argv = sys.argv[1:] if argv is None else argv
    source = "--continue" if args.continue_game else "--load" if args.load else None
    if args.continue_game and args.load:
        parser.error("--continue and --load contradict each other: --continue takes up the latest autosave, "
                     "--load a file; give one")
    if args.replay and source:
        parser.error(f"--replay and {source} contradict each other: watch a replay or take up a game, not both")
    if args.replay and args.autoplay is not None:
        parser.error("--replay and --autoplay contradict each other: a replay is watched, not played")
    mode = source or ("--replay" if args.replay else None)
    if mode:
        fixed = [o for o in FIXED_BY_SAVE if _given(argv, o)]
        if fixed:
            parser.error(f"{mode} takes the players, layout and seed from the saved game: "
                         f"drop {', '.join(fixed)}")
    if getattr(args, "screenshot", None) is not None and (mode or args.autoplay is not None or args.headless):
        parser.error("--screenshot renders a new game: it cannot be combined with "
                     "--continue, --load, --replay, --autoplay or --headless")
    if args.headless and not (mode or args.autoplay is not None):
        parser.error(f"--headless has no window to play in: give it one of {HEADLESS_MODES}")
    if args.autoplay is not None and not args.headless:
        parser.error("--autoplay plays without a window: add --headless")
    if args.headless and _given(argv, "--size"):
        parser.error("--size sets the window, and --headless has none: drop one")


def wanted(args) -> bool:
    """Is this one of the saved-game modes (else the game screen's own)?"""
    return bool(args.continue_game or args.load or args.replay or args.autoplay is not None or args.headless)


def run(args, options=None, out: TextIO = sys.stdout) -> int:
    """Carry out the mode the (checked) arguments ask for."""
    if args.replay:
        from villa.app import replays
        if args.headless:
            return replays.watch_headless(args.replay, out)
        return watch_in_window(args.replay, args.size)
    if args.continue_game or args.load:
        path = saves.autosave_path() if args.continue_game else args.load
        if args.continue_game and not path.exists():
            raise PlayerError("there is no autosaved game to continue yet: start one first")
        game = saves.load(path)
        if not args.headless:
            return play_saved(game, args.size)
        restored = live_digest(game)
        print(f"continued at turn {game.turn} from {path} ({restored})", file=out, flush=True)
        return _go_on(game, args.autoplay or 0, out)
    from villa.app import autoplay
    game = autoplay.new_game(options)
    autosaver = saves.Autosaver()
    print(f"turn 0 saved {autosaver.save(game)}", file=out, flush=True)
    return autoplay.run(game, args.autoplay, out, autosaver)


def _go_on(game: saves.Game, turns: int, out: TextIO) -> int:
    from villa.app import autoplay, replays
    if game.state.over:
        print(f"the game is over: {game.state.result.reason}", file=out, flush=True)
        return 0
    if turns == 0:
        print(replays.summary(game.state), file=out, flush=True)
        return 0
    return autoplay.run(game, turns, out)


def live_digest(game: saves.Game) -> str:
    """The digest of the game as restored: rules state and the rebuilt villa's own poses."""
    content = saves.to_document(game)
    content["turns"][-1]["villa"] = game.villa.snapshot()
    return saves.digest_of(content)


# --- with a window -------------------------------------------------------------

def load_match(path: Path | str):
    """For the game screen: the saved game at `path` as (rules state, Villa, Game).

    Raises `PlayerError` (a `SaveError`) with a sentence to show when the file does not load;
    the file is left as it is."""
    game = saves.load(path)
    return game.state, game.villa, game


def match_for_screen(game: saves.Game):
    """The game screen's `Match` for a saved game: its layout, its villa as saved, a referee holding its state."""
    from villa.presentation.game import Match
    from villa.presentation.referee import Referee
    return Match(game.info.layout, game.villa, Referee.from_state(game.state))


def attach_autosave(stage, game: saves.Game, referee, villa, autosaver: saves.Autosaver | None = None):
    """Autosave from the game screen: after every turn, once the villa has settled with nothing in hand.

    Adds a task that watches the referee; returns it (remove it with the screen)."""
    autosaver = autosaver or saves.Autosaver()
    last = {"player": referee.state.turn.player, "log": len(referee.state.log)}

    def task(t):
        state = referee.state
        ended = state.turn.player != last["player"] or (state.over and len(state.log) != last["log"])
        if ended and villa.settled and not villa.in_hand and (state.turn.column is None or state.over):
            game.state, game.villa = state, villa
            game.record_turn()
            autosaver.save(game)
            last.update(player=state.turn.player, log=len(state.log))
        return t.cont

    return stage.task_mgr.add(task, "villa autosave", sort=10)


def play_saved(game: saves.Game, size: tuple[int, int]) -> int:
    """Open the window and play on from a saved game, autosaving after every turn, with the menus
    round it as after the main menu's Continue."""
    from villa.app.front import Front
    from villa.app.match import MatchOptions
    from villa.app.settings import load_settings
    from villa.presentation.sound import Sound
    from villa.presentation.stage import NoDisplay, WindowOptions, open_window, stage
    try:
        open_window(WindowOptions(width=size[0], height=size[1]))
    except NoDisplay as error:
        raise PlayerError(f"{error} (or add --headless)") from None
    settings = load_settings()
    front = Front(stage, MatchOptions(players=game.info.players), settings, Sound(volume=settings.volume))
    front.take_up(game)
    stage.base.run()
    return 0


def watch_in_window(path: Path, size: tuple[int, int], seconds_per_turn: float = 2.0) -> int:
    """Show a replay in the window: the recorded poses of each turn in order, a turn every few seconds."""
    from villa.app import replays
    from villa.presentation.stage import NoDisplay, WindowOptions, open_window, stage
    from villa.presentation.view import VillaView
    game = saves.load(path)
    shown = list(replays.turns(game))
    try:
        open_window(WindowOptions(width=size[0], height=size[1]))
    except NoDisplay as error:
        raise PlayerError(f"{error} (or add --headless)") from None
    view = VillaView(stage)
    view.show_poses(saves.villa_of(game.turns[0], game.start).poses())
    view.focus_top(snap=True)
    at = {"turn": -1, "since": 0.0}

    def task(t):
        now = stage.clock.getFrameTime()
        if at["turn"] + 1 < len(shown) and now - at["since"] >= seconds_per_turn:
            at["turn"] += 1
            at["since"] = now
            turn = shown[at["turn"]]
            view.show_poses(turn.villa.poses())
            view.focus_top()
            print(f"turn {turn.turn}: {turn.text}", flush=True)
        view.before_frame(stage.clock.getDt())
        return t.cont

    stage.task_mgr.add(task, "villa replay")
    stage.base.run()
    return 0
