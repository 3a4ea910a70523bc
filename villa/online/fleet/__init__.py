"""Rooms spread over many servers that share them through Redis, and a room that outlives its server.

- `fleet`: `Fleet`, a server's place in the fleet (presence, the room directory, leases with fencing numbers, the
  autosaves, the reaper that takes up rooms whose server is gone); `Timings`.
- `redis_keys`: the keys the fleet keeps in Redis, and the Lua scripts that change them in one step each.
"""

from villa.online.fleet.fleet import Fleet, Timings

__all__ = ["Fleet", "Timings"]
