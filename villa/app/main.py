"""Command-line entry point: the window (menus and games), a picture of a game, or play without a window."""

from __future__ import annotations

from villa.app import cli, ends, front, frozen, headless, screenshot
from villa.app.logs import PlayerError, run_guarded
from villa.app.settings import load_settings
from villa.app.storage import clean_stale_files, shown_path
from villa.presentation.stage import NoDisplay


def main(argv: list[str] | None = None) -> int:
    frozen.serve_if_asked()
    args = cli.parse(argv)
    return run_guarded(lambda: _run(args))


def _run(args) -> int:
    with ends.listening():
        clean_stale_files()
        if args.headless:
            return headless.run(args)
        try:
            if args.screenshot is not None:
                screenshot.take(headless.setup_from(args), args.screenshot, args.size, load_settings().language)
                print(f"saved {shown_path(args.screenshot)}")
                return 0
            return front.play(args)
        except NoDisplay as error:
            raise PlayerError(str(error) + (" (or add --headless)" if args.continue_game or args.load or args.replay
                                            else "")) from None
