"""Ends asked for from outside the game: SIGTERM (logout, `kill`, a desktop's quit) and SIGHUP (its
terminal closed) end it as Quit does, and as Ctrl+C: the autosave of the last settled turn stays as it
is, the window closes, the computer players' worker ends with it; the exit code is 128 + the signal's number.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

ASKING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
INTERRUPTED = 128 + signal.SIGINT


class Ended(SystemExit):
    """The system asked the game to end: an exit, which no `except Exception` stops on its way out."""

    def __init__(self, number: int) -> None:
        super().__init__(128 + number)


def end_now(number: int, _frame=None) -> None:
    raise Ended(number)


class Held:
    """An end asked for, raised at once until `held`; then kept for a loop to see between two of its turns: a
    server cut mid-send (a TLS record taken from its buffer, never written) would leave every later record
    unreadable, its goodbyes too. Asked a second time, it ends at once (a server that would not close)."""

    def __init__(self) -> None:
        self.number: int | None = None
        self.held = False

    def __call__(self, number: int, _frame=None) -> None:
        again, self.number = self.number is not None, number
        if not self.held or again:
            raise Ended(number)

    def __bool__(self) -> bool:
        return self.number is not None


@contextmanager
def listening(on_asked: Callable = end_now, signals: tuple[int, ...] = ASKING) -> Iterator[None]:
    """Within: an end asked for calls `on_asked(number, frame)` (by default `Ended` is raised at once)."""
    before = {number: signal.signal(number, on_asked) for number in signals}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
