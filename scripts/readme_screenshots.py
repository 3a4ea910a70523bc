#!/usr/bin/env python3
"""The README's pictures, taken from a real game: docs/menu.jpg, docs/turn.jpg, docs/end.jpg,
docs/laying.jpg, docs/lesson.jpg.

Plays the whole three-player game of tests/presentation/test_whole_game.py (the main menu,
the seal roll, five turns played with the real pointer, the collapse and the end screen), the
floor held, tipped, lifted and laid of tests/presentation/test_holding_a_floor.py and the first
lesson of tests/presentation/test_a_lesson.py, which save the window at each stage, and keeps
five of those pictures as JPEGs (quality 85, 960x540). Needs the test packages (scripts/test.sh
installs them) and, like the tests, starts a virtual screen itself when no DISPLAY is set.

    python scripts/readme_screenshots.py [--shots DIR]   # DIR keeps every picture of the game
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ("tests/presentation/test_whole_game.py", "tests/presentation/test_holding_a_floor.py",
         "tests/presentation/test_a_lesson.py")
PICTURES = {"whole-1-main-menu": "menu.jpg", "whole-5-pulling": "turn.jpg", "whole-7-end": "end.jpg",
            "holding-floor": "laying.jpg", "lesson-1-hint": "lesson.jpg"}
WIDTH, HEIGHT, QUALITY = 960, 540, 85


def play(shots: Path) -> None:
    """Play the game and the lesson once, saving the window at each stage into `shots`."""
    env = dict(os.environ, VILLA_TEST_SHOTS=str(shots))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], cwd=ROOT, env=env)
    if done.returncode != 0:
        sys.exit(f"the game did not play through ({' or '.join(TESTS)} failed); no pictures written")


def save_jpeg(png: Path, jpeg: Path) -> None:
    from panda3d.core import Filename, PNMImage, loadPrcFileData
    loadPrcFileData("", f"jpeg-quality {QUALITY}\nnotify-level-pnmimage error")
    full = PNMImage()
    if not full.read(Filename.fromOsSpecific(str(png))):
        sys.exit(f"cannot read {png}")
    small = PNMImage(WIDTH, HEIGHT, 3)
    small.gaussianFilterFrom(1.0, full)
    if not small.write(Filename.fromOsSpecific(str(jpeg))):
        sys.exit(f"cannot write {jpeg}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, help="keep every picture of the game (PNG) in this folder")
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the JPEGs go (default: docs/)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        shots = (args.shots or Path(scratch)).resolve()
        play(shots)
        args.out.mkdir(parents=True, exist_ok=True)
        for name, picture in PICTURES.items():
            save_jpeg(shots / f"{name}.png", args.out / picture)
            print(args.out / picture)


if __name__ == "__main__":
    main()
