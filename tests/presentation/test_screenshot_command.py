"""The command line: `--screenshot FILE` makes a picture of a game, or says what to do with no display;
with no options the game opens its window."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def _run(args, env):
    return subprocess.run([sys.executable, "-m", "villa", *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.mark.gui
def test_a_screenshot_of_a_two_player_game_on_a_random_villa(display, tmp_path):
    from panda3d.core import Filename, PNMImage
    path = tmp_path / "villa.png"
    result = _run(["--screenshot", str(path), "--players", "Anna,Ben", "--layout", "random", "--seed", "7"],
                  dict(os.environ, DISPLAY=display))
    assert result.returncode == 0, result.stderr
    image = PNMImage(Filename.fromOsSpecific(str(path)))
    assert (image.getXSize(), image.getYSize()) == (1280, 720)
    # a real picture: many different colours, the table's brown the most common kind
    colours = {tuple(round(c * 8) for c in image.getXel(x, y)) for x in range(0, 1280, 16) for y in range(0, 720, 16)}
    assert len(colours) > 60


@pytest.mark.gui
def test_a_screenshot_of_a_villa_in_later_play(display, tmp_path):
    path = tmp_path / "later.png"
    result = _run(["--screenshot", str(path), "--floors", "4", "--seed", "3", "--size", "640x360"],
                  dict(os.environ, DISPLAY=display))
    assert result.returncode == 0, result.stderr
    assert path.stat().st_size > 50_000


@pytest.mark.gui
def test_a_screenshot_speaks_the_language_of_the_settings(display, tmp_path):
    """The status line along the top is drawn in the settings' language: German words, other pixels."""
    from panda3d.core import Filename, PNMImage
    strips = {}
    for language in ("en", "de"):
        home = tmp_path / language
        (home / "config").mkdir(parents=True)
        (home / "config" / "settings.json").write_text(json.dumps({"version": 1, "language": language}))
        path = tmp_path / f"{language}.png"
        result = _run(["--screenshot", str(path), "--size", "640x360"],
                      dict(os.environ, DISPLAY=display, VILLA_HOME=str(home), LANGUAGE="en", LANG="en_GB.UTF-8"))
        assert result.returncode == 0, result.stderr
        image = PNMImage(Filename.fromOsSpecific(str(path)))
        strips[language] = [tuple(image.getXel(x, y)) for x in range(160, 480, 2) for y in range(0, 30)]
    assert strips["en"] != strips["de"]


def test_with_no_display_the_game_says_what_to_do(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    result = _run(["--screenshot", str(tmp_path / "x.png")], env)
    assert result.returncode == 2
    assert "DISPLAY" in result.stderr and "xvfb-run" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_wrong_layout_name_is_refused_in_words(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    result = _run(["--screenshot", str(tmp_path / "x.png"), "--layout", "pyramid"], env)
    assert result.returncode == 2 and "pyramid" in result.stderr


@pytest.mark.gui
def test_with_no_options_the_game_opens_its_window(display, tmp_path):
    import time
    env = dict(os.environ, DISPLAY=display, VILLA_HOME=str(tmp_path))  # its autosaves stay out of the home folder
    game = subprocess.Popen([sys.executable, "-m", "villa"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        found = None
        for _ in range(60):
            time.sleep(0.25)
            assert game.poll() is None, game.stderr.read()
            found = subprocess.run(["xdotool", "search", "--name", "^Villa Paletti$"], env=env,
                                   capture_output=True, text=True).stdout.split()
            if found:
                break
        assert found, "no window called Villa Paletti"
        time.sleep(1.0)
        assert game.poll() is None, "the game keeps running"
    finally:
        game.terminate()
        game.wait(timeout=10)
