"""The server side of play online: rooms on a server, each a `Match` played for the people at its table.

- `server`: `Server`, its door on the network and its rooms' frames; `RoomStore`, where rooms are kept.
- `room`: `Room`, the coordinator of a table, its game and its news.
- `seating`: `Seating`, who sits where with their tokens, and who hosts.
- `news`: `News`, what the people in a room are told, and when.
- `turn_clock`: `TurnClock`, the time a person has for a move.
"""

from villa.online.server.room import Room
from villa.online.server.seating import REJOIN_S, Seating
from villa.online.server.server import CATALOGUE, RoomStore, Server

__all__ = ["CATALOGUE", "REJOIN_S", "Room", "RoomStore", "Seating", "Server"]
