"""More authorities, each in a process of its own, for a server on a machine with several cores: a Python
process steps its villas on one core, so a server that plays many rooms shares them out. Each shard is an
`Authority` with its own connection to the same router (which trusts it as it trusts the first) and runs
its rooms' frames in real time; the router, the lobby and the rooms' files stay with the first process.

A room goes to a shard as what it is made of (`Room.recipe`: its code, plan, autosave, seats and options)
and is made there: a match in play is not moved between processes.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import signal
import sys
import time

from villa.match import FRAME
from villa.online import loop
from villa.online.authority import Authority, Pace
from villa.online.rooms import Room

PR_SET_PDEATHSIG = 1
KEPT_FRAMES = 36000         # frame times a shard keeps for measuring (ten minutes' worth)


class Shard:
    """The first process's handle on an authority in a process of its own."""

    def __init__(self, port: int, address: str, trust) -> None:
        """`trust(base)`: the router is to let this authority's connection (its doIdBase) make objects."""
        context = multiprocessing.get_context("spawn")     # a fork would share the window's graphics, or the loop
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_play, args=(port, address, theirs), name="villa-authority")
        self.process.start()
        if not loop.run_until(self.pipe.poll, 60):          # the router answers its connection meanwhile
            self.close()
            raise OSError(f"an authority process could not reach port {port}")
        base = self.pipe.recv()
        if base is None:
            self.close()
            raise OSError(f"an authority process could not reach port {port}")
        trust(base)
        self.pipe.send(("trusted", None))
        self.rooms: set[str] = set()

    def open(self, room: Room) -> None:
        self.pipe.send(("open", room.recipe()))
        self.rooms.add(room.code)
        room.close()            # played over there from now on

    def gone(self, client: int) -> None:
        self.pipe.send(("gone", client))

    def frame_times(self) -> list[tuple[float, float, int]]:
        """(wall, CPU) seconds of each run of the shard's frames since last asked, and how many frames it ran."""
        self.pipe.send(("times", None))
        return self.pipe.recv()

    def close(self) -> None:
        if self.process.is_alive():
            try:
                self.pipe.send(("close", None))
            except (OSError, ValueError):
                pass
            self.process.join(5)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)


def _play(port: int, address: str, pipe) -> None:
    """The shard's process: an authority, its rooms' frames in real time, the pipe's orders in between."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)       # Ctrl+C is the first process's to handle
    if sys.platform.startswith("linux"):                # and it ends with the first process, however that ends
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    authority = Authority(port, address)
    loop.run_until(lambda: authority.ready or authority.failed, 30)
    pipe.send(authority.doIdBase if authority.ready else None)
    if not authority.ready or pipe.recv()[0] != "trusted":
        return
    times: list[tuple[float, float, int]] = []

    def frames(count: int) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        authority.frames(count)
        times.append((time.perf_counter() - wall, time.process_time() - cpu, count))
        del times[:-KEPT_FRAMES]

    pace = Pace(frames)
    while True:
        while pipe.poll():
            what, value = pipe.recv()
            if what == "open":
                authority.open(Room(**value))
            elif what == "gone":
                authority.gone(value)
            elif what == "times":
                pipe.send(times[:])
                times.clear()
            elif what == "close":
                for room in authority.rooms.values():
                    room.close()
                authority.sendDisconnect()
                loop.step(2)
                return
        pace()
        loop.step()
        time.sleep(FRAME / 4)
