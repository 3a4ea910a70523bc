"""Command-line entry point: the window (menus and games), a picture of a game, or play without a window."""

from __future__ import annotations

import sys
from contextlib import nullcontext

from villa.app import cli, clips, ends, front, frozen, headless, screenshot
from villa.app.logs import PlayerError, run_guarded
from villa.app.settings import load_settings
from villa.app.storage import clean_stale_files, shown_path
from villa.presentation.stage import NoDisplay
from villa.presentation.xvfb import NoVirtualScreen, display_available


def main(argv: list[str] | None = None) -> int:
    frozen.serve_if_asked()
    args = cli.parse(argv)
    return run_guarded(lambda: _run(args))


def _run(args) -> int:
    with ends.listening():
        clean_stale_files()
        clips.clean_left_parts()
        if args.headless:
            return headless.run(args)
        try:
            if args.clip is not None:
                with display_available(*args.size) if sys.platform.startswith("linux") else nullcontext():
                    clips.from_command_line(args.clip, args.out, args.size)   # (elsewhere no X display is needed)
                print(f"saved {shown_path(args.out)}")
                return 0
            if args.screenshot is not None:
                screenshot.take(headless.setup_from(args), args.screenshot, args.size, load_settings().language)
                print(f"saved {shown_path(args.screenshot)}")
                return 0
            return front.play(args)
        except NoVirtualScreen as error:
            raise PlayerError(f"no display to draw the clip on, and {error}") from None
        except NoDisplay as error:
            raise PlayerError(str(error) + (" (or add --headless)" if args.continue_game or args.load or args.replay
                                            else "")) from None
