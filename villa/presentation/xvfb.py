"""A virtual screen (Xvfb) for screenshots, benchmarks and tests on machines with no display."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


TRIES = 20


class NoVirtualScreen(RuntimeError):
    """Xvfb is not installed or did not start."""


def _die_with_parent() -> None:
    """In the child: ask Linux to end Xvfb when the process that started it ends.

    Windows hold their X connection until the very end of the process; stopping the
    server any earlier makes the X library abort the process at exit.
    """
    import ctypes
    import signal
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class VirtualScreen:
    """An Xvfb server on a free display number, one it picks at random from a high range (several
    virtual screens may start at once on a shared machine, and a display's lock file may be gone).

    It lives as long as the process that started it.
    """

    def __init__(self, width: int = 1280, height: int = 720, depth: int = 24) -> None:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise NoVirtualScreen("Xvfb is not installed (Debian package: xvfb)")
        chooser = random.Random()
        for _ in range(TRIES):
            number = chooser.randrange(100, 30000)
            if Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists():
                continue
            read_end, write_end = os.pipe()
            process = subprocess.Popen(
                [xvfb, f":{number}", "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x{depth}",
                 "-nolisten", "tcp", "-noreset"],
                pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=_die_with_parent,
            )
            os.close(write_end)
            with os.fdopen(read_end) as announced:
                said = announced.readline().strip()
            if said == str(number):
                self.process = process
                self.display = f":{number}"
                return
            process.kill()
            process.wait()
        raise NoVirtualScreen("Xvfb did not start on any free display")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()


@contextmanager
def display_available(width: int = 1280, height: int = 720) -> Iterator[str]:
    """Yield a usable DISPLAY: the one set in the environment, or a fresh Xvfb's (set in os.environ,
    and ended with this process)."""
    if not os.environ.get("DISPLAY"):
        os.environ["DISPLAY"] = VirtualScreen(width, height).display
    yield os.environ["DISPLAY"]
