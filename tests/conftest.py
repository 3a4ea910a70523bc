"""Fixtures shared by the whole suite: a display for the tests that open a real window."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def display():
    """A DISPLAY to open windows on: the one set, or a virtual screen (Xvfb) started for the session."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    from villa.presentation.xvfb import NoVirtualScreen, VirtualScreen
    try:
        screen = VirtualScreen(1280, 720)
    except NoVirtualScreen as error:
        pytest.fail(f"no display, and no virtual screen either: {error} (scripts/test.sh installs it)")
    os.environ["DISPLAY"] = screen.display
    yield screen.display  # the virtual screen ends with the test session's process
