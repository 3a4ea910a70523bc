"""What a server tells the people in its rooms of its fleet (nothing, for a server on its own): that a room's game
pauses (this server lost touch with the others) or goes on, and where the fleet's other servers are (where to look
for the room if this server goes)."""

from __future__ import annotations

import json
import logging

from villa.online.wire import messages as m

log = logging.getLogger(__name__)


class Herald:
    def __init__(self, door, place) -> None:
        self.door, self.place = door, place
        self.paused: set[str] = set()         # rooms whose people were told the game pauses
        self._told: list[str] = []            # the fleet's addresses as its players last heard them

    def pause(self, room, paused: bool = True) -> None:
        """The room's people told once that its game waits, or goes on."""
        if paused == (room.code in self.paused):
            return
        if paused:
            self.paused.add(room.code)
            log.warning("room %s pauses: this server lost touch with the fleet", room.code)
        else:
            self.paused.discard(room.code)
            log.info("room %s goes on", room.code)
        for client in room.audience:
            self.door.send(client, self._pause_news(room))

    def _pause_news(self, room) -> m.Paused:
        seconds = self.place.paused_for(room.code)
        return m.Paused(seconds is not None, round(seconds or 0))

    def entered(self, client: int, room) -> None:
        """Someone entered a room: where else the fleet is, and whether its game pauses."""
        addresses = self.place.addresses()
        if addresses:
            self.door.send(client, m.Servers(json.dumps(addresses[:16])))
        if room.code in self.paused:
            self.door.send(client, self._pause_news(room))

    def addresses(self, rooms) -> None:
        """The fleet changed: the people in these rooms learn where else to look for them."""
        addresses = self.place.addresses()
        if addresses != self._told:
            self._told = addresses
            told = m.Servers(json.dumps(addresses[:16]))
            for room in rooms:
                for client in room.audience:
                    self.door.send(client, told)
