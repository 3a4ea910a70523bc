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
from villa.match import MatchSetup
from villa.online import loop, protocol
from villa.online.objects import DistributedLobby, DistributedMatch
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
        self.lobby: DistributedLobby | None = None
        self.room_code = ""
        self._to_open: bytes | None = None      # a plan to open a room with, once the lobby is seen
        self._opening = False                   # asked the lobby for a room: enter it when it is opened
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
        self.room_code = code.strip().upper()
        self.setInterestZones([zone])
        return True

    @property
    def code(self) -> str:
        return self.room_code

    def open_room(self, setup: MatchSetup) -> None:
        """Open a room on the server for this game; `room_code` is set when the server answers (`opened`),
        and the player enters the room: the host, once sat (`sit`), sets its plan and begins."""
        self._to_open = protocol.pack_plan(setup)
        if self.lobby is not None:
            self._open_now()
        else:
            self.setInterestZones([protocol.LOBBY_ZONE])

    def _open_now(self) -> None:
        plan, self._to_open = self._to_open, None
        self._opening = True
        self.lobby.ask("openRoom", plan)

    @property
    def plan(self) -> MatchSetup | None:
        """The room's game as its host set it (the table's `plan`)."""
        plan = self.table.get("plan")
        return None if plan is None else protocol.unpack_plan(protocol.pack_table(plan))

    @property
    def host_seat(self) -> int | None:
        return self.table.get("host")

    # --- what the room's object hears ---

    def room_seen(self, room: DistributedMatch) -> None:
        self.room = room

    def lobby_seen(self, lobby: DistributedLobby) -> None:
        self.lobby = lobby
        if self._to_open is not None:
            self._open_now()

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
        elif what == "opened" and self._opening:
            self._opening, self.lobby = False, None      # leaving the lobby's zone disables it here
            self.enter(value)

    def lostConnection(self) -> None:
        self.lost = True

    # --- asking ---

    def ask(self, field: str, *args) -> None:
        """Send a request (a `.dc` field marked clsend) to the room's authority."""
        if self.room is None:
            raise RuntimeError("enter a room first")
        self.room.ask(field, *args)

    def sit(self, name: str, seat: int) -> None:
        self.ask("sit", self.room_code, name, seat)

    def rejoin(self, token: str) -> None:
        self.ask("rejoin", self.room_code, token)

    def set_plan(self, setup: MatchSetup) -> None:
        """The host: the game this room is to play (refused once it has begun, or from anyone else)."""
        self.ask("setPlan", protocol.pack_plan(setup))

    def begin(self) -> None:
        """The host: start the game (refused while a person's seat is empty)."""
        self.ask("begin")

    def leave(self) -> None:
        self.sendDisconnect()
