"""A player's side of the online game: a headless `ClientRepository` that enters a room by its code,
sits down, asks the server's authority for every move, and keeps what it hears: the table, the
rules' state, the pieces' poses and the refusals (as the same exceptions the hot-seat game has).
The presentation draws from it; here nothing is drawn.
"""

from __future__ import annotations

import time
from collections import deque

from direct.distributed.ClientRepository import ClientRepository
from direct.task.TaskManagerGlobal import taskMgr
from panda3d.core import Datagram, URLSpec

from villa import rules
from villa.online import loop, protocol
from villa.online.objects import DistributedMatch
from villa.online.server import dc_file
from villa.online.smoothing import Smoothing


class Player(ClientRepository):
    def __init__(self, address: str, port: int, lag: float = 0.0) -> None:
        """`lag`: seconds each request is held before it goes (a slow network, simulated for measuring)."""
        loop.ready()
        self.lag = lag
        self._held: deque[tuple[float, Datagram]] = deque()
        super().__init__(dcFileNames=[dc_file()], connectMethod=self.CM_NET, threadedNet=False)
        self.room: DistributedMatch | None = None
        self.code = ""
        self.table: dict = {}
        self.state: rules.GameState | None = None
        self.poses: dict[str, protocol.Pose] = {}    # the newest heard of each piece
        self.smoothing = Smoothing()                  # what to draw of them, frame by frame
        self.seats: dict[int, str] = {}          # seat -> token (kept in the settings to rejoin)
        self.refusals: list[Exception] = []
        self.lost = False
        self.failed = False
        self.pose_updates = 0
        self.connect([URLSpec(f"http://{address}:{port}")], failureCallback=self._failed)

    def _failed(self, *_why) -> None:
        self.failed = True

    def send(self, datagram) -> None:
        if self.lag <= 0:
            super().send(datagram)
            return
        if not self._held:
            taskMgr.add(self._send_held, self.uniqueName("lag"))
        self._held.append((time.monotonic() + self.lag, Datagram(datagram)))

    def _send_held(self, task):
        now = time.monotonic()
        while self._held and self._held[0][0] <= now:
            super().send(self._held.popleft()[1])
        return task.cont if self._held else task.done

    @property
    def ready(self) -> bool:
        return self.haveCreateAuthority()

    def enter(self, code: str) -> bool:
        """Look at the room with this code (False: not a room code)."""
        zone = protocol.zone_of(code)
        if zone is None:
            return False
        self.code = code.strip().upper()
        self.setInterestZones([zone])
        return True

    # --- what the room's object hears ---

    def room_seen(self, room: DistributedMatch) -> None:
        self.room = room

    def heard(self, what: str, value) -> None:
        if what == "table":
            self.table = value
        elif what == "state":
            self.state = protocol.unpack_state(value)
        elif what == "poses":
            tick, poses = value[0], protocol.unpack_poses(value[1])
            self.poses.update(poses)
            self.smoothing.heard(tick, poses, time.monotonic())
            self.pose_updates += 1
        elif what == "seated":
            seat, token = value
            self.seats[seat] = token
        elif what == "refused":
            self.refusals.append(value)

    def lostConnection(self) -> None:
        self.lost = True

    # --- asking ---

    def ask(self, field: str, *args) -> None:
        """Send a request (a `.dc` field marked clsend) to the room's authority."""
        if self.room is None:
            raise RuntimeError("enter a room first")
        self.room.ask(field, *args)

    def sit(self, name: str, seat: int) -> None:
        self.ask("sit", self.code, name, seat)

    def rejoin(self, token: str) -> None:
        self.ask("rejoin", self.code, token)

    def leave(self) -> None:
        self.sendDisconnect()
