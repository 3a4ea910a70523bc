"""Play and watch without a window: computer players at every seat, a line for each settled turn.

    villa-paletti --autoplay 20 --headless --seed 5        # a new game, 20 turns
    villa-paletti --continue --headless [--autoplay N]     # the latest game, taken up again
    villa-paletti --replay FILE --headless                 # a recorded game in words, checked to its end

The very same match and computer players as in the window; only nothing is drawn, and the
villa runs on its fixed step as fast as the machine allows.
"""

from __future__ import annotations

import sys
from typing import TextIO

from villa.app import saves
from villa.app.keeping import Keeper, latest_game
from villa.app.logs import PlayerError
from villa.app.storage import shown_path
from villa.match import Match, MatchSetup, Strength, layout_named
from villa.match import record as records
from villa.match import replay
from villa.match.computer import seat_computers
from villa.presentation import words

STALL_FRAMES = 60 * 60 * 3   # three minutes of simulated time without a settled turn: something is wrong


def setup_from(args) -> MatchSetup:
    """A new game as the command line asks for it."""
    try:
        layout = layout_named(args.layout, args.seed, args.floors)
    except ValueError as error:
        raise PlayerError(str(error)) from None
    return MatchSetup(args.players, layout, seed=args.seed, deal_colours=args.floors > 1)


def run(args, out: TextIO = sys.stdout) -> int:
    """Carry out the headless mode the (checked) arguments ask for."""
    if args.replay:
        return watch(args.replay, out)
    keeper = Keeper(out=out, err=sys.stderr)
    if args.continue_game or args.load:
        path, how, record = latest_game() if args.continue_game else (args.load, None, saves.load(args.load))
        match = Match(record.setup, record)
        said = f" ({how})" if how else ""
        print(f"continued at turn {record.turn} from {shown_path(path)}{said} ({live_digest(match)})", file=out,
              flush=True)
    else:
        match = Match(setup_from(args))
    try:
        return _carry_on(args, match, keeper, out)
    finally:
        match.close()   # (games one after another in one process: each hands back what it freed)


def _carry_on(args, match: Match, keeper: Keeper, out: TextIO) -> int:
    """Keep the game on disk and let the computer players play it as asked, saying how it went."""
    keeper.follow(match, announce=True)
    taken_up = bool(args.continue_game or args.load)
    if taken_up and match.over:
        print(f"the game is over: {_one_line(words.result_words(match.state)[1])}", file=out, flush=True)
        return 0
    if taken_up and not args.autoplay:
        print(summary(match), file=out, flush=True)
        return 0
    if not taken_up:
        keeper.keep(match, announce=True)
    play(match, args.autoplay, Strength(args.strength) if args.strength else Strength.MEDIUM)
    if match.over:
        print(f"game over after turn {match.turn}: {_one_line(words.result_words(match.state)[1])}", file=out, flush=True)
        where = keeper.replay_path
        print(f"replay saved to {where}" if where else "the replay could not be saved", file=out, flush=True)
    return 0


def play(match: Match, turns: int, strength: Strength = Strength.MEDIUM) -> None:
    """Let computer players (at every seat) play `turns` more turns, or to the end."""
    seat_computers(match, everyone=True, strength=strength)
    goal = match.turn + turns
    quiet, last = 0, match.turn
    while (match.turn < goal and not match.over) or (match.over and match.turns[-1].actions != len(match.state.log)):
        match.frame()   # (a fallen villa comes to rest before its last turn is written down)
        quiet = 0 if match.turn != last else quiet + 1
        last = match.turn
        if quiet > STALL_FRAMES:
            raise RuntimeError(f"the game stands still at turn {match.turn} ({match.state.turn})")


def live_digest(match: Match) -> str:
    """The digest of the game as restored: rules state and the rebuilt villa's own poses."""
    content = records.content(match.record)
    content["turns"][-1]["villa"] = match.villa.snapshot()
    return records.digest_of(content)


def summary(match: Match) -> str:
    state = match.state
    guide = words.guidance(state)
    return f"turn {match.turn}: {guide.headline}"


def watch(path, out: TextIO = sys.stdout) -> int:
    """Step through a replay in words; confirms the final state is reproduced."""
    record = saves.load(path)
    print(f"replay of {shown_path(path)}: {', '.join(record.setup.players)}, layout {record.setup.layout.name}, "
          f"{record.turn} turns", file=out, flush=True)
    try:
        for turn in replay.turns(record):
            print(f"turn {turn.turn}: {words.turn_story(turn.before, turn.moves, turn.state)}", file=out, flush=True)
    except records.RecordError as error:
        raise saves.SaveError(f"the replay {shown_path(path)} does not hold together: {error}") from None
    final = record.state
    title, reasons = words.result_words(final) if final.over else ("", words.guidance(final).headline)
    print(f"final: {('game over: ' + reasons.replace(chr(10), ' ')) if final.over else reasons}", file=out,
          flush=True)
    print(f"the replay reproduces the saved final state ({records.digest(record)})", file=out, flush=True)
    return 0


def _one_line(text: str) -> str:
    return " ".join(text.split("\n"))
