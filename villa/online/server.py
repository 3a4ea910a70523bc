"""The server: Panda3D's `ServerRepository` (the message router) with a guard at its door, and the
authority (the "AI repository") that holds the rooms and their matches, in one process.

The CMU `ServerRepository` was written for samples on a trusted network: it lets any client make
objects, delete them, move them between zones and send one another targeted messages, and it
hands on field updates without reading them. `GuardedServer` lets a client do only what a player
needs: say which room it looks at, ask the room's object for something by one of the `.dc`
fields marked `clsend` (each read against the field's types before it goes on), and leave. A
datagram that is too long, cut short, malformed, for a field or object it may not use, or sent
before its room was entered, closes that connection only; so does going over the rate cap.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from direct.distributed.MsgTypesCMU import (CLIENT_DISCONNECT_CMU, CLIENT_OBJECT_UPDATE_FIELD,
                                            CLIENT_OBJECT_UPDATE_FIELD_TARGETED_CMU, CLIENT_SET_INTEREST_CMU)
from direct.distributed.ServerRepository import ServerRepository
from direct.task.TaskManagerGlobal import taskMgr
from panda3d.core import ClockObject, DatagramIterator
from panda3d.direct import DCPacker

from villa.match import FRAME
from villa.online import loop, protocol
from villa.online.authority import Authority, Pace
from villa.online.protocol import dc_file
from villa.online.rooms import Keep, Room
from villa.online.shards import Shard

__all__ = ["Authority", "GuardedServer", "Server", "dc_file"]

log = logging.getLogger(__name__)
CLOCK = ClockObject.getGlobalClock()

MAX_DATAGRAM = 512          # bytes: the longest request (a sit with a long name) is far shorter
MAX_PLAN_DATAGRAM = protocol.MAX_PLAN + 64   # but for a plan (a room's game), which has a layout in it
PLAN_FIELDS = ("setPlan", "openRoom")
RATE = 90.0                 # datagrams a second a connection may send on average (pointer moves at 60)
BURST = 90.0                # and at once
FRAMES_TASK = "villa-online-frames"
MAX_ZONES = 2               # a client looks at one room (and at most one more while moving)


class Bucket:
    """A connection's rate cap: RATE a second, BURST at once."""

    def __init__(self, now: float) -> None:
        self.level, self.at = BURST, now

    def take(self, now: float) -> bool:
        self.level = min(BURST, self.level + (now - self.at) * RATE)
        self.at = now
        self.level -= 1.0
        return self.level >= 0.0


class GuardedServer(ServerRepository):
    def __init__(self, port: int, address: str = "", on_gone: Callable[[int], None] = lambda client: None) -> None:
        loop.ready()
        super().__init__(port, address, dcFileNames=[dc_file()], threadedNet=False)
        self.trusted: set[int] = set()      # the authority's connection: it owns the rooms' objects
        self.closed: list[tuple[int, str]] = []   # (client, why) of every connection the guard closed
        self.on_gone = on_gone
        self._buckets: dict[int, Bucket] = {}
        self.bytes_out: dict[int, int] = {}     # bytes sent to each client, for measuring

    def handleDatagram(self, datagram) -> None:
        client = self.clientsByConnection.get(datagram.getConnection())
        if client is None or client.doIdBase in self.trusted:
            super().handleDatagram(datagram)
            return
        why = self._why_not(client, datagram)
        if why is not None:
            self.close(client, why)
            return
        super().handleDatagram(datagram)

    def _why_not(self, client, datagram) -> str | None:
        """Why this datagram closes its connection (None: it may go on)."""
        now = CLOCK.getRealTime()
        bucket = self._buckets.setdefault(client.doIdBase, Bucket(now))
        if not bucket.take(now):
            return "over the rate cap"
        size = datagram.getLength()
        if size > MAX_PLAN_DATAGRAM:
            return "too long"
        if size < 2:
            return "cut short"
        dgi = DatagramIterator(datagram)
        kind = dgi.getUint16()
        body = dgi.getRemainingSize()
        if kind == CLIENT_DISCONNECT_CMU:
            return None
        if kind == CLIENT_SET_INTEREST_CMU:
            if body % 4 or body // 4 > MAX_ZONES:
                return "malformed interest"
            return None
        if kind == CLIENT_OBJECT_UPDATE_FIELD_TARGETED_CMU and body == 0:
            return None     # a heartbeat (it shares the number)
        if kind != CLIENT_OBJECT_UPDATE_FIELD:
            return f"message {kind} is not a client's"
        if body < 6:
            return "cut short"
        return self._why_not_request(client, dgi, size)

    def _why_not_request(self, client, dgi, size: int) -> str | None:
        """A field update: only a request (`clsend`) of a room's object in a room the client entered, whole and
        within its `.dc` types."""
        do_id, field_id = dgi.getUint32(), dgi.getUint16()
        owner = self.clientsByDoIdBase.get(self.getDoIdBase(do_id))
        thing = owner.objectsByDoId.get(do_id) if owner is not None else None
        if thing is None or owner.doIdBase not in self.trusted:
            return "no such object"
        if thing.zoneId not in client.explicitInterestZoneIds:
            return "out of turn: the room was not entered"
        field = thing.dclass.getFieldByIndex(field_id)
        if field is None or not field.hasKeyword("clsend"):
            return "not a request"
        if size > MAX_DATAGRAM and field.getName() not in PLAN_FIELDS:
            return "too long"
        data = dgi.getRemainingBytes()
        packer = DCPacker()
        packer.setUnpackData(data)
        packer.beginUnpack(field)
        try:
            packer.unpackObject()
        except (AssertionError, ValueError, TypeError):
            return "malformed"
        if packer.hadRangeError():
            return "out of range"
        if not packer.endUnpack() or packer.getNumUnpackedBytes() != len(data):
            return "malformed"
        return None

    def handleClientObjectUpdateField(self, datagram, dgi, targeted=False) -> None:
        if targeted:
            peek = DatagramIterator(datagram)
            peek.getUint16()
            target = peek.getUint32()
            if target not in self.clientsByDoIdBase:
                return    # for a client that has gone (the CMU server would fail on its warning)
            self.bytes_out[target] = self.bytes_out.get(target, 0) + datagram.getLength()
        super().handleClientObjectUpdateField(datagram, dgi, targeted)

    def close(self, client, why: str) -> None:
        log.info("closed the connection of client %s: %s", client.doIdBase, why)
        self.closed.append((client.doIdBase, why))
        self.handleClientDisconnect(client)

    def handleClientDisconnect(self, client) -> None:
        if client.connection not in self.clientsByConnection:
            return
        super().handleClientDisconnect(client)
        self._buckets.pop(client.doIdBase, None)
        if client.doIdBase not in self.trusted:
            self.on_gone(client.doIdBase)

    def sendToZoneExcept(self, zoneId, datagram, exceptionList) -> None:
        for client in self.zonesToClients.get(zoneId, ()):
            if client not in exceptionList:
                self.bytes_out[client.doIdBase] = self.bytes_out.get(client.doIdBase, 0) + datagram.getLength()
        super().sendToZoneExcept(zoneId, datagram, exceptionList)


class Server:
    """The router and the authority on one port, run by the caller's loop (`loop.step`) or `serve`."""

    def __init__(self, port: int, address: str = "127.0.0.1", keep: Keep | None = None, aside: bool = False,
                 shards: int = 0) -> None:
        """`keep`: the autosave of rooms that clients open (`Player.open_room`); `aside`: their computer players
        think in a worker process (a real server, or the game's window; not the tests); `shards`: authorities in
        processes of their own that play the rooms (0: this process plays them)."""
        self.port, self.address = port, address
        self.router = GuardedServer(port, address, on_gone=self._gone)
        inward = address if address not in ("", "0.0.0.0") else "127.0.0.1"
        self.authority = Authority(port, inward, keep, aside)
        self.shards: list[Shard] = []
        loop.run_until(lambda: self.authority.ready or self.authority.failed, 10)
        if not self.authority.ready:
            raise OSError(f"the server's authority could not reach port {port}")
        self.router.trusted.add(self.authority.doIdBase)
        self.authority.open_lobby()
        self.authority.place = self._place
        try:
            for _ in range(shards):
                self.shards.append(Shard(port, inward, self.router.trusted.add))
        except OSError:
            self.close()
            raise
        loop.step(2)

    def open(self, room: Room) -> None:
        """Play this room (not yet played: a new one, or one taken up from its autosave) from now on."""
        self._place(room)
        loop.step(2)

    def _place(self, room: Room) -> None:
        """This process plays the room, or (with shards) the shard with the fewest rooms."""
        if self.shards:
            shard = min(self.shards, key=lambda s: len(s.rooms))
            shard.open(room)
            self.authority.elsewhere.add(room.code)
        else:
            self.authority.open(room)

    def _gone(self, client: int) -> None:
        self.authority.gone(client)
        for shard in self.shards:
            shard.gone(client)

    @property
    def rooms(self) -> dict[str, Room]:
        """The rooms this process plays (with shards: none)."""
        return self.authority.rooms

    def frame(self) -> None:
        """One frame of every room, then the network (tests and benchmarks run on this fixed clock)."""
        self.authority.frames(1)
        loop.step()

    def start(self) -> None:
        """Let the rooms run in real time from the task loop: in the game's own window (a host), or `serve`."""
        pace = Pace(self.authority.frames)

        def frames(task):
            pace()
            return task.cont
        taskMgr.add(frames, FRAMES_TASK)

    def serve(self, until: Callable[[], bool] = lambda: False) -> None:
        """Run in real time with no window: the rooms' frames and the network, until `until()`."""
        self.start()
        while not until():
            loop.step()
            time.sleep(FRAME / 4)

    def close(self) -> None:
        taskMgr.remove(FRAMES_TASK)
        self.router.on_gone = lambda client: None
        for shard in self.shards:
            shard.close()
        for room in self.rooms.values():
            room.close()
        self.authority.sendDisconnect()
        loop.step(2)
        router = self.router
        for client in list(router.clientsByConnection.values()):
            router.handleClientDisconnect(client)
        for task in ("serverListenerPollTask", "serverReaderPollTask", "clientHardDisconnect", "flushTask"):
            taskMgr.remove(task)
        router.qcm.closeConnection(router.tcpRendezvous)
