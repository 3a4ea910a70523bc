"""Thinking off the frame loop: one worker process, started once at a low priority and ending with the
game, that receives a `Request` (plain data) and returns a `Plan` (plain data). Headless play thinks in
this process with the very same function, so the plan is the same either way.

    thinker = thinker_for(aside=True)     # the window: a worker process
    future = thinker.submit(request)      # the seat holds its frames until future.done()
"""

from __future__ import annotations

import atexit
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor

from villa.match.computer.brain import think
from villa.match.computer.plans import Plan, Request

NICENESS = 10      # the renderer keeps its cores: the worker yields to it
PR_SET_PDEATHSIG = 1
MANAGER_ENDS_S = 2.0   # the longest the game's end waits for the pool's own thread (it takes milliseconds)


def _start_worker(game: int) -> None:
    """In the worker, before its first request: it yields to the renderer, leaves Ctrl+C (sent to the
    whole process group) to the game, and ends with the game's process however that ends."""
    try:
        os.nice(NICENESS)
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):   # the kernel ends it, even when the game is killed (when the thread
        # that started it ends, in fact: the game's main thread starts the pool)
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    # everywhere: a watch on the game's process (a pipe's end on Unix, the process handle on Windows)
    threading.Thread(target=_end_with_game, daemon=True, name="watching the game").start()
    if os.getppid() != game:   # the game ended before the watch began
        os._exit(0)


def _end_with_game() -> None:
    game = multiprocessing.parent_process()
    if game is not None:   # (always, when multiprocessing started this process)
        game.join()
        os._exit(0)


def _think_aside(request: Request) -> Plan:
    return think(request)


class InProcess:
    """Thinks at once, in this process (headless play, tests)."""

    def submit(self, request: Request) -> Future:
        future: Future = Future()
        future.set_result(think(request))
        return future


class Aside:
    """Thinks in one worker process, started once and shared by every computer seat."""

    _pool: ProcessPoolExecutor | None = None

    def __init__(self) -> None:
        if Aside._pool is None:
            # spawned, not forked: the window's process holds a graphics context a fork must not share
            Aside._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                              initializer=_start_worker, initargs=(os.getpid(),))
            Aside._pool.submit(int)   # start it now, not at the first decision
            atexit.register(Aside.close)

    def submit(self, request: Request) -> Future:
        try:
            return Aside._pool.submit(_think_aside, request)
        except RuntimeError:   # the pool broke (its process died): think here rather than stall
            return InProcess().submit(request)

    @staticmethod
    def close() -> None:
        """End the worker now, even mid-thought: the game's end waits on no plan (and Python's exit would)."""
        pool, Aside._pool = Aside._pool, None
        if pool is None:
            return
        workers = list((pool._processes or {}).values())   # no public way to stop them before Python 3.14
        manager = pool._executor_manager_thread
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        if manager is not None:
            # its workers gone, the pool's own thread ends at once and closes its pipe; Python 3.11's exit would
            # otherwise wake it through that pipe while it closes it, and write a traceback on the way out
            manager.join(MANAGER_ENDS_S)


def close_thinking() -> None:
    """The game ends: its worker with it, at once."""
    Aside.close()


def thinker_for(aside: bool):
    return Aside() if aside else InProcess()
