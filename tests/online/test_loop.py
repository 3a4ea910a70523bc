"""The online game's loop runs without a ShowBase, and leaves room for one: the game's window (or the
next test) may still open after a server and a player ran in the same process."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from direct.task.TaskManagerGlobal import taskMgr

from villa.online import loop
from villa.online.client import Player
from tests.online.conftest import LOOPBACK, free_port

ROOT = Path(__file__).resolve().parents[2]

AFTERWARDS = """
import builtins
from villa.online import loop
from villa.online.client import Player
from villa.online.server import Server
server = Server(int(__import__("sys").argv[1]), "127.0.0.1")
player = Player("127.0.0.1", server.port)
assert loop.run_until(lambda: player.ready, 10)
assert not hasattr(builtins, "base")
server.close()
from direct.showbase.ShowBase import ShowBase
ShowBase(windowType="none")
print("a window may open")
"""


def test_a_showbase_may_open_after_a_server_and_a_player_ran_in_the_same_process():
    done = subprocess.run([sys.executable, "-c", AFTERWARDS, str(free_port())], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert "a window may open" in done.stdout, done.stderr[-1500:]


def test_the_repositories_leave_pythons_garbage_collector_as_it_was(server):
    """Panda3D's repositories would keep every cyclic garbage of the process (a leak for an evening of
    games) and run the collector from tasks of their own."""
    player = Player(LOOPBACK, server.port)
    assert loop.run_until(lambda: player.ready, 10)
    assert gc.get_debug() & gc.DEBUG_SAVEALL == 0 and gc.isenabled()
    assert not [task for task in taskMgr.getAllTasks() if "arbage" in task.name]


def test_a_server_starts_from_inside_a_task_of_a_running_loop():
    """A window's button that hosts a game runs in a task: the server's start must not wait on a task manager
    that will not poll again inside it."""
    from villa.online.server import Server
    started = []

    def host(task):
        server = Server(free_port(), LOOPBACK)
        started.append(server)
        return task.done
    taskMgr.add(host, "host from a button")
    loop.step()
    assert started and started[0].authority.ready
    started[0].close()
