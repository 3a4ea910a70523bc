"""The headless loop the distributed repositories run in: Panda3D's task manager and messenger,
without a window.

`direct.distributed` was written for a process that has a `ShowBase` (it reads `base.config`,
`taskMgr`, `messenger` and `globalClock` as builtins). In the game's window that ShowBase is
there; a dedicated server, a benchmark or a test has none, and gets the same few globals here
instead of a ShowBase (one ShowBase per process, and a server needs no window).
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable

from direct.distributed import ClientRepository as client_repository
from direct.distributed import ClientRepositoryBase as client_repository_base
from direct.distributed import ServerRepository as server_repository
from direct.showbase import DConfig
from direct.showbase.MessengerGlobal import messenger
from direct.task.TaskManagerGlobal import taskMgr
from panda3d.core import ClockObject, Thread, loadPrcFileData


class Headless:
    """What the repositories ask of `base` when there is no ShowBase."""

    config = DConfig

    def __init__(self) -> None:
        self.finalExitCallbacks: list = []
        self.recorder = None


HEADLESS = Headless()


# `ConnectionRepository` would otherwise keep every piece of cyclic garbage of the whole process for
# inspection (gc.DEBUG_SAVEALL: memory that is never given back) and take the garbage collector's timing
# over with tasks of its own; the game leaves Python's collector as it is.
loadPrcFileData("villa-online", "gc-save-all 0\nwant-garbage-collect-task 0\n")


def ready() -> None:
    """Make sure the globals the repositories read exist (a ShowBase's own are kept). `base` goes only into
    the repositories' own modules, never among the builtins: a ShowBase opened later in the same process
    (the game's window after a server started from the command line, or the tests) must find none there."""
    if not hasattr(builtins, "base"):
        for module in (client_repository, client_repository_base, server_repository):
            if not hasattr(module, "base"):
                module.base = HEADLESS
    if not hasattr(builtins, "__dev__"):
        builtins.__dev__ = False
    for name, value in (("taskMgr", taskMgr), ("messenger", messenger),
                        ("globalClock", ClockObject.getGlobalClock())):
        if not hasattr(builtins, name):
            setattr(builtins, name, value)


# the repositories' own tasks that move datagrams (ServerRepository's and every ConnectionRepository's)
NETWORK_TASKS = ("serverListenerPollTask", "serverReaderPollTask", "readerPollTask", "flushTask")


def step(times: int = 1) -> None:
    """Run the task manager's tasks once per time: the network is polled, frames run, datagrams go out.
    Inside a task of a running loop (the window's button that starts a server in the game), the task
    manager does not poll again: the network's own tasks are run directly instead."""
    for _ in range(times):
        if Thread.getCurrentThread().getCurrentTask() is None:
            builtins.taskMgr.step()
        else:
            for task in builtins.taskMgr.mgr.getTasks():
                if any(name in task.name for name in NETWORK_TASKS):
                    task.getFunction()(task)


def run_until(done: Callable[[], bool], seconds: float = 5.0, pause: float = 0.001) -> bool:
    """Step the loop until `done()` (True) or `seconds` of real time have passed (False)."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        step()
        time.sleep(pause)
    return True
