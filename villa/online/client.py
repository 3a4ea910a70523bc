"""A player's side of the online game: a headless `ClientRepository` that enters a room by its code,
sits down, asks the server's authority for every move, and keeps what it hears: the table, the
rules' state, the pieces' poses and the refusals (as the same exceptions the hot-seat game has).
The presentation draws from it; here nothing is drawn.
"""

from __future__ import annotations

import logging
import time
import zlib
from collections import deque

from direct.distributed.ClientRepository import ClientRepository
from direct.task.TaskManagerGlobal import taskMgr
from panda3d.core import Datagram, URLSpec

from villa import rules
from villa.match import MatchSetup, Record, RecordError
from villa.online import loop, protocol
from villa.online.objects import DistributedLobby, DistributedMatch
from villa.online.protocol import dc_file
from villa.online.smoothing import Smoothing
from villa.rules.pieces import TOP_FLOOR_LEVEL, floor_id

log = logging.getLogger(__name__)

# requests after which this player's piece is drawn where the server has it, not ahead at the pointer: let
# go, given up, or lowered onto the villa, where the server's hands feel it sit or tip
LETTING_GO = ("setDown", "lower", "giveUp", "letGo")
RESTING = ("setDown", "lower")     # ... of which these, asked with the hand holding on, leave the piece in it


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
        self.finished: Record | None = None      # the game, once over, as the server's replay holds it
        self._record_parts: dict[int, bytes] = {}
        self.lost = False
        self.failed = False
        self.pose_updates = 0
        self.hand = protocol.HandNews()          # the hand in play, as last heard
        self.hand_holder, self.hand_done = -1, 0  # whose hand, and how many of their requests it answers
        self.hand_updates = 0
        self.villas = 0                          # whole villas heard: on entering, at the start, each round built anew
        self.asked = 0                           # requests sent (the server echoes how many it carried out)
        self._hand_seat = 0
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
            if self.state.turn.actor not in self.seats or self.state.over:
                self.smoothing.let_go(time.monotonic())      # the turn has passed on: no hand of ours
        elif what == "poses":
            tick, poses, holder, done = value[0], protocol.unpack_poses(value[1]), value[2], value[3]
            self.poses.update(poses)
            self.smoothing.heard(tick, poses, time.monotonic(), done if holder in self.seats else None)
            self.pose_updates += 1
        elif what == "hand":
            self.hand_holder, self.hand_done, self.hand = value
            self.hand_updates += 1
        elif what == "villa":
            self.villas += 1
            self.heard("poses", (*value, -1, 0))
        elif what == "seated":
            seat, token = value
            self.seats[seat] = token
        elif what == "refused":
            self.refusals.append(value)
            self.smoothing.let_go(time.monotonic())    # a hand refused (or not as we thought): the server's word
        elif what == "record":
            self._heard_record(*value)
        elif what == "opened" and self._opening:
            self._opening, self.lobby = False, None      # leaving the lobby's zone disables it here
            self.enter(value)

    def _heard_record(self, part: int, parts: int, data: bytes) -> None:
        if part == 0:
            self._record_parts = {}
        self._record_parts[part] = data
        if len(self._record_parts) < parts or set(self._record_parts) != set(range(parts)):
            return
        whole, self._record_parts = b"".join(self._record_parts[n] for n in range(parts)), {}
        try:
            self.finished = protocol.unpack_record(whole)
        except (RecordError, ValueError, zlib.error) as error:
            log.warning("the server's record of the finished game does not read: %s", error)

    def lostConnection(self) -> None:
        self.lost = True

    # --- asking ---

    def ask(self, field: str, *args) -> None:
        """Send a request (a `.dc` field marked clsend) to the room's authority."""
        if self.room is None:
            raise RuntimeError("enter a room first")
        self.room.ask(field, *args)
        self.asked += 1
        if field in RESTING and args[-1]:
            self.smoothing.rests_in_hand(time.monotonic())
        elif field in LETTING_GO:
            self.smoothing.let_go(time.monotonic())

    # the player's own hand, drawn at the pointer at once (`smoothing.pose`)

    def take(self, seat: int, column: str, point, steady: bool = False) -> None:
        """Take `column` for `seat` at the world point where the pointer grabbed it."""
        x, y, z = (float(v) for v in point)
        self.ask("take", seat, column, x, y, z, steady)
        self._hand_seat = seat
        self.smoothing.hold(column, (x, y, z), self.asked, time.monotonic())

    def lay_floor(self, seat: int) -> None:
        """Pick up the next floor for `seat` (it follows the pointer from the first aim on)."""
        self.ask("layFloor", seat)
        self._hand_seat = seat
        laid = [level for level in range(1, TOP_FLOOR_LEVEL + 1) if floor_id(level) in self.poses]
        self.smoothing.hold(floor_id(max(laid, default=0) + 1), None, self.asked, time.monotonic())

    def aim(self, point) -> None:
        """Move the held piece's grabbed point (a floor: its centre) toward this world point."""
        x, y, z = (float(v) for v in point)
        self.ask("aim", self._hand_seat, x, y, z)
        self.smoothing.aim((x, y, z), self.asked)

    def lift(self, seat: int, column: str | None = None) -> None:
        """Lift the held piece clear again; a column is then carried, drawn at the pointer once more."""
        self.ask("lift", seat)
        if column is not None:
            self.smoothing.hold(column, None, self.asked, time.monotonic())

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
