"""Command-line entry point: play, or render one picture of a game and exit."""

from __future__ import annotations

import argparse
from pathlib import Path

from villa import __version__
from villa.app import resume
from villa.app.logs import PlayerError, run_guarded
from villa.app.match import MatchOptions, parse_players


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("give the size as WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError("the window must be between 320x240 and 7680x4320")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="villa-paletti",
        description="Villa Paletti: pull columns from under the floors and build them higher, until the villa falls.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--players", default="4", metavar="N|NAMES",
                        help="2, 3 or 4 players, or their names in seat order: --players Anna,Ben,Cleo")
    parser.add_argument("--layout", default="rings", metavar="NAME",
                        help="how the columns stand under the blue floor: rings, colonnade, "
                             "'free corners' or random (default: rings)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the random layout and the colour deal")
    parser.add_argument("--floors", type=int, default=1, choices=range(1, 6), metavar="1-5",
                        help="start from a random villa with this many floors (for pictures of later play)")
    parser.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH", help="window size")
    parser.add_argument("--screenshot", type=Path, metavar="FILE",
                        help="render one frame of the game to FILE (PNG) and exit; needs a display "
                             "(run under xvfb-run when there is none)")
    resume.add_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    resume.check_arguments(parser, args, argv)
    return run_guarded(lambda: _run(args))


def _run(args) -> int:
    options = MatchOptions(players=parse_players(args.players), layout=args.layout, seed=args.seed,
                           floors=args.floors)
    if resume.wanted(args):  # saved games, replays, headless play
        return resume.run(args, options)
    from villa.presentation.stage import NoDisplay
    try:
        if args.screenshot is not None:
            from villa.app.screenshot import take_screenshot
            take_screenshot(options, args.screenshot, args.size)
            print(f"saved {args.screenshot}")
            return 0
        from villa.app.play import play
        return play(options, args.size)
    except NoDisplay as error:
        raise PlayerError(str(error)) from None
