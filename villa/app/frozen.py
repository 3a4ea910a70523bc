"""The standalone build's helper processes.

A frozen program has no Python to start multiprocessing's processes with (the computer players' worker,
the server's shards, and the resource tracker that cleans up after them): multiprocessing starts the
program itself again, with its own arguments instead of the game's. Such a start must become that process
and never parse a command line or open a window. A program run by Python (scripts/play.sh) is never asked.
"""

from __future__ import annotations

import re
import sys
from multiprocessing import resource_tracker, spawn

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
