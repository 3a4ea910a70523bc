"""The server's authority (the "AI repository"): a client of the router that owns the rooms' distributed
objects and plays their matches, and the lobby, where clients open rooms. A server has one in its own
process; more of them, each in a process of its own, share the rooms out (`villa.online.shards`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from direct.distributed.ClientRepository import ClientRepository
from panda3d.core import ClockObject, URLSpec

from villa.match import FRAME
from villa.online import loop, protocol
from villa.online.objects import DistributedLobbyAI, DistributedMatchAI
from villa.online.protocol import Online, OnlineError, dc_file
from villa.online.rooms import Keep, Room

log = logging.getLogger(__name__)
CLOCK = ClockObject.getGlobalClock()

MAX_ROOMS = 200             # rooms a server holds at most (every one a villa in Bullet)
OPENED_EACH = 4             # rooms one connection may open
MAX_BEHIND = 0.1            # s: a server that fell behind slows its villas down rather than piling up work


class Authority(ClientRepository):
    """The server's game logic: a client of the router that owns one `DistributedMatchAI` per room."""

    def __init__(self, port: int, address: str = "127.0.0.1", keep: Keep | None = None, aside: bool = False) -> None:
        """`keep`: the autosave of the rooms clients open in the lobby; `aside`: their computer players think
        in a worker process at a lower priority, not in the server's frames."""
        loop.ready()
        super().__init__(dcFileNames=[dc_file()], dcSuffix="AI", connectMethod=self.CM_NET, threadedNet=False)
        self.rooms: dict[str, Room] = {}
        self.objects: dict[str, DistributedMatchAI] = {}
        self.keep, self.aside = keep, aside
        self.lobby: DistributedLobbyAI | None = None
        self.opened: dict[int, int] = {}        # client -> rooms it opened
        self.place: Callable[[Room], None] = self.open   # where a room opened in the lobby is played
        self.elsewhere: set[str] = set()        # codes of rooms played by other authorities (`shards`)
        self.failed = False
        self.connect([URLSpec(f"http://{address}:{port}")], failureCallback=self._failed)

    def _failed(self, *_why) -> None:
        self.failed = True

    @property
    def ready(self) -> bool:
        return self.haveCreateAuthority()

    def open(self, room: Room) -> None:
        """Give the room its object in its zone: from now on clients who know its code see it."""
        zone = protocol.zone_of(room.code)
        thing = DistributedMatchAI(self, room)
        room.send = lambda field, *args: thing.sendUpdate(field, list(args))
        room.tell = thing.tell
        self.createDistributedObject(distObj=thing, zoneId=zone)
        self.rooms[room.code] = room
        self.objects[room.code] = thing

    def open_lobby(self) -> None:
        self.lobby = DistributedLobbyAI(self)
        self.createDistributedObject(distObj=self.lobby, zoneId=protocol.LOBBY_ZONE)

    def open_for(self, client: int, plan: bytes) -> None:
        """A client's room, opened in the lobby: its game waits for its host (who sits first) to begin."""
        try:
            if len(self.rooms) + len(self.elsewhere) >= MAX_ROOMS or self.opened.get(client, 0) >= OPENED_EACH:
                raise OnlineError(Online.SERVER_FULL)
            setup = protocol.unpack_plan(plan)
        except OnlineError as error:
            self.lobby.tell(client, "refused", *protocol.refusal_parts(error))
            return
        code = protocol.new_room_code()
        while code in self.rooms or code in self.elsewhere:
            code = protocol.new_room_code()
        self.place(Room(code, setup, keep=self.keep, aside=self.aside, waits_for_host=True))
        self.opened[client] = self.opened.get(client, 0) + 1
        self.lobby.tell(client, "opened", code)

    def close_room(self, code: str) -> None:
        room, thing = self.rooms.pop(code), self.objects.pop(code)
        room.close()
        self.sendDeleteMsg(thing.doId)

    def gone(self, client: int) -> None:
        for room in self.rooms.values():
            room.gone(client)

    def frames(self, count: int = 1) -> None:
        for room in list(self.rooms.values()):
            room.frames(count)
            if room.deserted:
                self.close_room(room.code)

    def handleDatagram(self, di) -> None:
        try:
            super().handleDatagram(di)
        except Exception:   # a request the guard let through must not stop every room
            log.exception("the authority could not carry out a message")

    def lostConnection(self) -> None:
        log.error("the authority lost its connection to the router")


class Pace:
    """The rooms' villas step in whole frames of 1/60 s of real time; an authority that fell behind slows
    them down (at most `MAX_BEHIND` is made up) rather than piling up work."""

    def __init__(self, frames: Callable[[int], None]) -> None:
        self.frames = frames
        self._behind, self._last = 0.0, CLOCK.getRealTime()

    def __call__(self) -> int:
        now = CLOCK.getRealTime()
        self._behind = min(self._behind + now - self._last, MAX_BEHIND)
        self._last = now
        count = int(self._behind / FRAME)
        self._behind -= count * FRAME
        if count:
            self.frames(count)
        return count
