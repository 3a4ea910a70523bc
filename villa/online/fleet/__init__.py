"""Rooms spread over many servers that share them through Redis, and a room that outlives its server.

- `fleet`: `Fleet`, a server's place in the fleet (leases held by the server's own clock, the rooms' writes, the
  directory, presence); `Timings`.
- `line`: the fleet's own thread and connection to Redis (one Redis, behind Sentinels, or a Cluster).
- `writes`: each room's writes in order: its journal ahead of its news, settled turns appended, seats, the room
  written whole again.
- `directory`: new codes, rooms looked for, claimed and taken up; the reaper.
- `presence`, `held`, `documents`: the fleet's servers, a room held (its lease, the drift margin), a room's parts in
  Redis and reading them back.
- `redis_keys`: the keys the fleet keeps in Redis (a room's hash-tagged by its code), and the Lua scripts that change
  them in one step each, checking the lease and the fencing number where the data is written.
"""

from villa.online.fleet.fleet import Fleet, Timings

__all__ = ["Fleet", "Timings"]
