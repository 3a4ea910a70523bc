"""Thinking off the frame loop: one worker process, started once at a low priority, that receives a
`Request` (plain data) and returns a `Plan` (plain data). Headless play thinks in this process with
the very same function, so the plan is the same either way.

    thinker = thinker_for(aside=True)     # the window: a worker process
    future = thinker.submit(request)      # the seat holds its frames until future.done()
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor

from villa.match.computer.brain import think
from villa.match.computer.plans import Plan, Request

NICENESS = 10      # the renderer keeps its cores: the worker yields to it


def _lower_priority() -> None:
    try:
        os.nice(NICENESS)
    except OSError:
        pass


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
                                              initializer=_lower_priority)
            Aside._pool.submit(_lower_priority)   # start it now, not at the first decision
            atexit.register(Aside.close)

    def submit(self, request: Request) -> Future:
        try:
            return Aside._pool.submit(_think_aside, request)
        except RuntimeError:   # the pool broke (its process died): think here rather than stall
            return InProcess().submit(request)

    @staticmethod
    def close() -> None:
        if Aside._pool is not None:
            Aside._pool.shutdown(wait=False, cancel_futures=True)
            Aside._pool = None


def thinker_for(aside: bool):
    return Aside() if aside else InProcess()
