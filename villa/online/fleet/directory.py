"""The fleet's directory of rooms, as one server uses it: a code for a new room, where a room asked for is played
(here, elsewhere, nowhere), a room nobody plays claimed and taken up here (for a player who came back, or by the
reaper, which looks for lease deadlines passed), each answer given later, from the line's batches, never waited
for."""

from __future__ import annotations

import logging
from collections.abc import Callable

from villa.online import protocol
from villa.online.fleet import documents
from villa.online.fleet import redis_keys as keys
from villa.online.fleet.line import Call
from villa.online.fleet.writes import ignore
from villa.online.protocol import Online
from villa.online.server.room import Room
from villa.online.wire.certificates import place

log = logging.getLogger(__name__)

ORPHANS_AT_ONCE = 100      # rooms a reaper looks at in one look
NOT_HELD = "not held"      # a room loaded by a server that no longer holds it


class Directory:
    def __init__(self, fleet, options: dict) -> None:
        self.fleet = fleet
        self.options = options                  # how rooms are taken up here (aside, clock)
        self.claiming: dict[str, list[Callable]] = {}    # rooms being claimed and taken up, and who waits for each
        self._missing: dict[str, float] = {}    # orphans seen, and since when (this server's clock)
        self.takeovers = 0

    # --- new rooms -------------------------------------------------------------------------------------------------

    def new_code(self, taken: set[str], answer: Callable[[str | None], None], tries: int = 20) -> None:
        """A code no room of the fleet has, the room's lease held from then on; `answer` gets it (None: the fleet
        cannot take a new room now: Redis is away, or full)."""
        fleet = self.fleet
        if fleet.away or not tries:
            answer(None)
            return
        code = protocol.new_room_code()
        while code in taken or code in fleet.held:
            code = protocol.new_room_code()

        def created(fence, sent_at: float) -> None:
            if isinstance(fence, int) and fence > 0:
                fleet.hold(code, fence, sent_at)
                answer(code)
            elif fence == 0:
                self.new_code(taken | {code}, answer, tries - 1)
            else:
                fleet.trouble(fence)
                answer(None)
        fleet.asks.append(Call("create", keys.room_keys(code), [fleet.id, fleet.public, fleet.timings.lease_ms],
                               created))

    # --- rooms asked for ------------------------------------------------------------------------------------------

    def find(self, code: str, answer: Callable, full: bool = False) -> None:
        """Where the room with this code is played: `answer` gets the room, taken up here (nobody plays it now),
        the address of the server that plays it, None (no room of the fleet has this code), or an `Online` code
        (not now: the fleet is moving it, or Redis does not answer). `full`: this server takes up no more."""
        fleet = self.fleet
        if code in self.claiming:                  # being taken up here: the answer comes with the room
            self.claiming[code].append(answer)
            return
        if code in fleet.held:
            answer(Online.ROOM_MOVING)
            return

        def looked(found, sent_at: float) -> None:
            if isinstance(found, Exception):
                fleet.trouble(found)
                answer(Online.FLEET_BUSY)
                return
            owner, address, _state, leased, begun = (_text(v) for v in found)
            if not owner:
                answer(None)
            elif leased != "0":      # (held at this very place by a process before this one: not for long)
                answer(address if owner != fleet.id and place(address) != place(fleet.public) else Online.ROOM_MOVING)
            elif begun == "0":
                answer(Online.WRONG_ROOM)          # a lobby whose server went: there is no game to take up
            elif code in self.claiming:
                self.claiming[code].append(answer)
            elif code in fleet.held:
                answer(Online.ROOM_MOVING)
            elif full:
                answer(Online.SERVER_FULL)
            else:
                self.claim(code, "any", answer)
        fleet.asks.append(Call("find", keys.room_keys(code), [], looked))

    def claim(self, code: str, mode: str, answer: Callable) -> None:
        """The room claimed for this server ("any": for a player who came back; "orphan": by the reaper), then
        taken up here from Redis."""
        fleet = self.fleet
        self.claiming[code] = [answer]

        def claimed(fence, sent_at: float) -> None:
            if isinstance(fence, int) and fence > 0:
                fleet.hold(code, fence, sent_at)
                self._load(code, self._told(code))
                return
            answer = self._told(code)
            if fence == -1:
                fleet.asks.append(Call(None, [], ["ZREM", keys.LEASES, code], ignore))
                answer(None)
            else:
                if isinstance(fence, Exception):
                    fleet.trouble(fence)
                answer(Online.ROOM_MOVING)
        fleet.asks.append(Call("claim", keys.room_keys(code), [fleet.id, fleet.public, fleet.timings.lease_ms, mode],
                               claimed))

    def _load(self, code: str, answer: Callable) -> None:
        fleet = self.fleet

        def loaded(kept, sent_at: float) -> None:
            if code not in fleet.held or kept is NOT_HELD:
                fleet.held.pop(code, None)
                answer(Online.ROOM_MOVING)
            elif isinstance(kept, documents.DocumentError):
                log.error("room %s could not be taken up from Redis: %s", code, kept)
                fleet.release(code, "dormant")
                answer(Online.ROOM_FAILED)
            elif kept is None:
                fleet.release(code, "finished")      # claimed before its game began: nothing to play
                answer(None)
            elif isinstance(kept, Exception):
                fleet.trouble(kept)
                fleet.release(code, "handover")      # another look, soon, by whichever server
                answer(Online.ROOM_MOVING)
            else:
                answer(self._taken_up(code, kept))
        fleet.asks.append(Call("load", keys.room_keys(code), [fleet.id, fleet.held[code].fence], loaded, read=_read))

    def _taken_up(self, code: str, kept: documents.Kept) -> Room | Online:
        held = self.fleet.held[code]
        try:
            room = Room.taken_up(kept.record, kept.seats, keep=self.fleet, entries=kept.entries, base=kept.base,
                                 **self.options)
        except Exception:  # noqa: BLE001 - a room that cannot be played again is kept for later, the server serves on
            log.exception("room %s could not be played again from Redis", code)
            self.fleet.release(code, "dormant")
            return Online.ROOM_FAILED
        held.room, held.begun, room.fence = room, True, held.fence
        held.turns, held.actions = len(kept.record.turns), kept.record.turns[-1].actions
        held.seats = documents.seats_document(room)
        if room.match.turn >= held.turns:
            held.whole = True          # turns settled again while its journal was played: written whole
        log.info("room %s taken up at turn %d, %d requests played again", code, room.match.turn, len(kept.entries))
        return room

    def _told(self, code: str) -> Callable:
        """Everyone who waits for the room, told at once when its claim ends."""
        def tell(found) -> None:
            for answer in self.claiming.pop(code, []):
                answer(found)
        return tell

    # --- the reaper ----------------------------------------------------------------------------------------------

    def look(self) -> Call:
        return Call("orphans", [keys.LEASES], [ORPHANS_AT_ONCE], self._orphans)

    def _orphans(self, answer, sent_at: float) -> None:
        """Rooms whose lease deadline passed, claimed here: a handed-over one at once, any other once it has been
        seen so for a whole lease (a holder back from an outage of Redis takes its lease back first)."""
        if not isinstance(answer, list):
            return
        fleet = self.fleet
        now = fleet.now()
        seen = {}
        for n in range(0, len(answer) - 1, 2):
            code, deadline = _text(answer[n]), float(answer[n + 1])
            if code in fleet.held or code in self.claiming or protocol.room_code(code) != code:
                continue
            since = self._missing.get(code, now)
            seen[code] = since
            if deadline > 0 and now - since < fleet.timings.lease_s:
                continue
            self.claim(code, "orphan", self._reaped)
        self._missing = seen

    def _reaped(self, found) -> None:
        if isinstance(found, Room):
            self.takeovers += 1
            self.fleet.found.append(found)


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode()
    return "" if value is None or value is False else str(value)


def _read(answer):
    """A LOAD's answer, read on the line's thread: None (the game never began), the room (`Kept`), or why not."""
    if answer == 0:
        return NOT_HELD
    game, seats, turns, requests, base = answer
    if game is None or seats is None or not turns:
        return None
    try:
        return documents.read_room(game, seats, turns, requests, base or 0)
    except documents.DocumentError as error:
        return error
