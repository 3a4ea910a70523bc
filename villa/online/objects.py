"""The distributed objects, as the `.dc` file declares them: `DistributedMatch` is what a client
sees of a room, `DistributedMatchAI` the server authority's own, which hears the requests and hands
them to its room (`villa.online.rooms.Room`); `DistributedLobby(AI)`, one per server, opens rooms."""

from __future__ import annotations

from direct.distributed.DistributedObject import DistributedObject
from direct.distributed.DistributedObjectAI import DistributedObjectAI

from villa.online import protocol

REQUESTS = ("sit", "rejoin", "take", "aim", "turnFloor", "steady", "setDown", "layFloor", "lower", "lift", "letGo",
            "giveUp", "answer", "roll", "chooseColour", "giveToComputer", "setPlan", "begin")


class DistributedMatch(DistributedObject):
    """A client's view of a room: the table, the rules' state, the poses; its repository keeps them."""

    def __init__(self, cr) -> None:
        super().__init__(cr)
        self.table: dict = {}
        self.state_bytes = b""

    def announceGenerate(self) -> None:
        super().announceGenerate()
        self.cr.room_seen(self)

    def setTable(self, table: bytes) -> None:
        self.table = protocol.unpack_table(table)
        self.cr.heard("table", self.table)

    def setState(self, state: bytes) -> None:
        self.state_bytes = state
        self.cr.heard("state", state)

    def setPoses(self, tick: int, holder: int, done: int, poses: bytes) -> None:
        self.cr.heard("poses", (tick, poses, holder, done))

    def setHand(self, tick: int, holder: int, done: int, grip: int, strain: int, steadied: int, touching: int) -> None:
        self.cr.heard("hand", (holder, done, protocol.hand_news(grip, strain, steadied, touching)))

    def setVilla(self, tick: int, poses: bytes) -> None:
        self.cr.heard("villa", (tick, poses))

    def setRecord(self, part: int, parts: int, data: bytes) -> None:
        self.cr.heard("record", (part, parts, data))

    def seated(self, seat: int, token: str) -> None:
        self.cr.heard("seated", (seat, token))

    def refused(self, kind: str, code: str, values: str) -> None:
        self.cr.heard("refused", protocol.refusal_from(kind, code, values))

    def ask(self, field: str, *args) -> None:
        self.sendUpdate(field, [int(a) if isinstance(a, bool) else a for a in args])   # a .dc flag is a uint8


class DistributedMatchAI(DistributedObjectAI):
    """The authority's side of a room: every request, with who sent it, goes to the room."""

    def __init__(self, air, room) -> None:
        super().__init__(air)
        self.room = room

    # required fields, as the generate sends them
    def getTable(self) -> bytes:
        return protocol.pack_table(self.room.table())

    def getState(self) -> bytes:
        return self.room.state_bytes()

    def getVilla(self) -> tuple[int, bytes]:
        return self.room.tick, protocol.pack_poses(self.room.poses())

    def tell(self, client: int, field: str, *args) -> None:
        self.sendUpdateToChannel(client, field, list(args))


def _request(name: str):
    def heard(self, *args) -> None:
        self.room.request(self.air.getAvatarIdFromSender(), name, args)
    heard.__name__ = name
    return heard


for _name in REQUESTS:
    setattr(DistributedMatchAI, _name, _request(_name))


class DistributedLobby(DistributedObject):
    """A client's view of the server's lobby: it hears the code of the room it opened."""

    def announceGenerate(self) -> None:
        super().announceGenerate()
        self.cr.lobby_seen(self)

    def opened(self, code: str) -> None:
        self.cr.heard("opened", code)

    def refused(self, kind: str, code: str, values: str) -> None:
        self.cr.heard("refused", protocol.refusal_from(kind, code, values))

    def ask(self, field: str, *args) -> None:
        self.sendUpdate(field, list(args))


class DistributedLobbyAI(DistributedObjectAI):
    """The authority's lobby: a room opened for whoever asks (the authority checks the plan)."""

    def openRoom(self, plan: bytes) -> None:
        self.air.open_for(self.air.getAvatarIdFromSender(), plan)

    def tell(self, client: int, field: str, *args) -> None:
        self.sendUpdateToChannel(client, field, list(args))
