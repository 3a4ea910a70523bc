"""A new game's villa: built from its layout and left to settle, once per layout in a process.

Settling a villa built from a layout takes a tenth of a second or more, and comes out the same in every
bit each time (the villa is deterministic). The settled villa's snapshot is kept here, so a game started
again on the same layout (a new round, "Play again", the next room on a server) restores it in a few
milliseconds instead, and goes on exactly as the villa settled anew would (`Villa.copy` says why).

    villa = settled_villa(layout, setup=True)        # settled now, or restored from the one settled before
    snapshot = settle(layout, setup=True)            # the same, to be made elsewhere
    remember(layout, True, snapshot)                 # and then known here
    future = settle_aside(layout, setup=True)        # both, on a thread of its own (a server's loop goes on)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from villa.physics.dimensions import Layout
from villa.physics.world import Villa

BUILD_SETTLE_S = 4.0        # a villa built from a layout comes to rest before the first move
KEPT = 64                   # settled layouts kept (the presets, and the random villas of the games lately begun)

_settled: OrderedDict[tuple[Layout, bool], dict[str, Any]] = OrderedDict()
_lock = threading.Lock()     # a server settles villas off its frame loop, on a thread of its own


def settle(layout: Layout, setup: bool) -> dict[str, Any] | None:
    """The snapshot of the villa `layout` builds, once it has settled (`setup`: a set-up's layout, every column
    on the plate); None if it fell or would not come to rest (it is then played as it stands, not restored)."""
    villa = _built(layout, setup)
    return villa.snapshot() if _keepable(villa) else None


def known(layout: Layout, setup: bool) -> dict[str, Any] | None:
    """The settled snapshot of `layout`, if it is known here."""
    with _lock:
        snapshot = _settled.get((layout, setup))
        if snapshot is not None:
            _settled.move_to_end((layout, setup))
        return snapshot


def remember(layout: Layout, setup: bool, snapshot: dict[str, Any]) -> None:
    with _lock:
        _settled[(layout, setup)] = snapshot
        _settled.move_to_end((layout, setup))
        while len(_settled) > KEPT:
            _settled.popitem(last=False)


def settled_villa(layout: Layout, setup: bool) -> Villa:
    """The villa `layout` builds, settled: restored from the snapshot known here, or settled now (and known).
    Every game on a layout starts from the very same restore, the first as well as the next."""
    snapshot = known(layout, setup)
    if snapshot is None:
        villa = _built(layout, setup)
        if not _keepable(villa):
            return villa
        snapshot = villa.snapshot()
        remember(layout, setup, snapshot)
    return Villa.from_snapshot(snapshot)


def _built(layout: Layout, setup: bool) -> Villa:
    villa = Villa.from_layout(layout, validate=False, setup=setup)
    villa.run_until_settled(BUILD_SETTLE_S)
    return villa


def _keepable(villa: Villa) -> bool:
    return villa.settled and villa.collapse is None


_mason: ThreadPoolExecutor | None = None


def settle_aside(layout: Layout, setup: bool) -> Future:
    """Settle `layout` on a thread of its own and remember it (a server's frame loop goes on meanwhile; the
    thread holds Python's lock a few milliseconds at a time). The future's result: the snapshot, or None if the
    villa fell while settling (the game then builds it at its start, as it falls)."""
    global _mason
    with _lock:
        if _mason is None:
            _mason = ThreadPoolExecutor(max_workers=1, thread_name_prefix="settling")
    return _mason.submit(_settle_and_remember, layout, setup)


def _settle_and_remember(layout: Layout, setup: bool) -> dict[str, Any] | None:
    snapshot = settle(layout, setup)
    if snapshot is not None:
        remember(layout, setup, snapshot)
    return snapshot
