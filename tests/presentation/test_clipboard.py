"""The clipboard the lobby's Copy and the join form's Paste use, on an X server (Xvfb): through xclip where it is
installed, and through the game's own hold of the X11 clipboard where no such program is; another program (xclip,
as a chat would) reads what was copied, and what it copied is pasted."""

from __future__ import annotations

import subprocess
import time

import pytest

from villa.presentation import clipboard, x11_clipboard

INVITE = "villa-paletti://203.0.113.45:47171/K7QXM#" + "ab" * 32


def read_back(display, expected: str) -> str:
    """What another program pastes, once it is `expected` (or after 10 s): xclip takes the clipboard from the
    process it forks to hold it, a moment after the copy returned."""
    end = time.monotonic() + 10
    while True:
        said = subprocess.run(["xclip", "-selection", "clipboard", "-out"], capture_output=True, text=True,
                              timeout=10, env={"DISPLAY": display, "PATH": "/usr/bin:/bin"}).stdout
        if said == expected or time.monotonic() > end:
            return said
        time.sleep(0.05)


def copy_elsewhere(display, text: str) -> None:
    subprocess.run(["xclip", "-selection", "clipboard", "-in"], input=text.encode(), timeout=10,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={"DISPLAY": display, "PATH": "/usr/bin:/bin"})


@pytest.fixture
def x_server(display, monkeypatch):
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return display


@pytest.mark.parametrize("programs", ["xclip", "none"])
def test_what_is_copied_another_program_pastes_and_the_other_way_round(x_server, monkeypatch, programs):
    if programs == "none":        # a desktop without wl-copy, xclip or xsel: the game holds the clipboard itself
        monkeypatch.setattr(clipboard, "_tools", lambda: [])
    assert clipboard.copy(INVITE)
    assert read_back(x_server, INVITE) == INVITE
    assert clipboard.paste() == INVITE
    copy_elsewhere(x_server, "K7QXM, at nine")
    assert read_back(x_server, "K7QXM, at nine") == "K7QXM, at nine", "the game let the clipboard go"
    assert clipboard.paste() == "K7QXM, at nine"


def test_without_an_x_server_nothing_is_copied_and_it_is_said(monkeypatch):
    monkeypatch.setattr(clipboard, "_tools", lambda: [])
    monkeypatch.setenv("DISPLAY", ":59999")
    assert clipboard.copy(INVITE) is False and clipboard.paste() is None
    monkeypatch.delenv("DISPLAY")
    assert x11_clipboard.copy(INVITE) is False
