"""The standalone build's helper processes, and the server's name for the game's own program.

A frozen program has no Python to start multiprocessing's processes with (the computer players' worker
and the resource tracker that cleans up after it): multiprocessing starts the
program itself again, with its own arguments instead of the game's. Such a start must become that process
and never parse a command line or open a window. A program run by Python (scripts/play.sh) is never asked.
"""

from __future__ import annotations

import re
import sys
from multiprocessing import resource_tracker, spawn
from pathlib import Path

# On Linux the release's dedicated server is a link to the game's executable, which holds every module the
# server runs: started by this name, the program is the server (scripts/release.py makes the link).
SERVER_PROGRAM = "villa-paletti-server"

# what multiprocessing runs with `-c` on Linux and macOS: the tracker of its semaphores
TRACKER = re.compile(r"from multiprocessing\.resource_tracker import main;main\((\d+)\)")


def serve_if_asked() -> None:
    """Become the helper process multiprocessing started, and end with it; else return at once."""
    argv = sys.argv
    if not getattr(sys, "frozen", False):
        return
    if spawn.is_forking(argv):
        spawn.freeze_support()       # the worker's own loop; it ends the process
        raise SystemExit(0)
    if len(argv) >= 3 and argv[-2] == "-c" and (tracker := TRACKER.fullmatch(argv[-1])):
        resource_tracker.main(int(tracker.group(1)))
        raise SystemExit(0)


def started_as_server(argv: list[str] | None = None) -> bool:
    """Was the standalone build started by the dedicated server's name? (A program run by Python never is.)"""
    argv = sys.argv if argv is None else argv
    return bool(getattr(sys, "frozen", False)) and bool(argv) and Path(argv[0]).name == SERVER_PROGRAM
