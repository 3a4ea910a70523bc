"""Where a fleet keeps what its servers share in Redis, and the Lua scripts that change it, each in one step.

    villa:server:<id>     a server's public address (host:port#fingerprint with TLS: its certificate's, which a
                          player sent there checks); expires unless its server refreshes it (presence)
    villa:servers         the ids of servers that said they were here (the live ones have a presence key)
    villa:room:<code>     the room directory: a hash of the owning server's id and address (as above), and the
                          fencing number
    villa:rooms           every room code in the directory
    villa:lease:<code>    "<server id>:<fencing number>": the server that plays the room; expires unless renewed
    villa:fence:<code>    the room's fencing number, one higher at each change of hands
    villa:save:<code>     the room's autosave and seats, as one JSON document, written only by the lease holder
    villa:dormant         rooms closed with their game under way (nobody was in them): taken up by whoever a
                          player comes back to, never by a reaper
    villa:handover        rooms a stopping server handed over: the reapers take them at once

A server that lost its lease cannot write: every write checks the fencing number where the data is written
(Kleppmann, "How to do distributed locking", 2016).
"""

from __future__ import annotations

PREFIX = "villa:"
SERVERS = PREFIX + "servers"
ROOMS = PREFIX + "rooms"
DORMANT = PREFIX + "dormant"
HANDOVER = PREFIX + "handover"


def server(server_id: str) -> str:
    return f"{PREFIX}server:{server_id}"


def room(code: str) -> str:
    return f"{PREFIX}room:{code}"


def lease(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def fence(code: str) -> str:
    return f"{PREFIX}fence:{code}"


def save(code: str) -> str:
    return f"{PREFIX}save:{code}"


def room_keys(code: str) -> list[str]:
    """The keys the scripts below take, in this order."""
    return [room(code), lease(code), fence(code), save(code), ROOMS, DORMANT, HANDOVER]


# KEYS: room, lease, fence, save, rooms, dormant, handover
# ARGV: server id, address, lease ms, code
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local f = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'address', ARGV[2], 'fence', f)
redis.call('SADD', KEYS[5], ARGV[4])
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. f, 'PX', ARGV[3])
return f
"""

# ARGV: server id, fencing number, lease ms, code (taken back if its lease lapsed while Redis was away and
# nobody else took it)
RENEW = """
local holder = ARGV[1] .. ':' .. ARGV[2]
local now = redis.call('GET', KEYS[2])
if now == holder then
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  return 1
end
if not now and redis.call('GET', KEYS[3]) == ARGV[2] and redis.call('SISMEMBER', KEYS[7], ARGV[4]) == 0
    and redis.call('SISMEMBER', KEYS[6], ARGV[4]) == 0 then
  redis.call('SET', KEYS[2], holder, 'PX', ARGV[3])
  return 1
end
return 0
"""

# ARGV: server id, address, lease ms, code, "any" (a dormant room too) or "orphan"
CLAIM = """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[5] ~= 'any' and redis.call('SISMEMBER', KEYS[6], ARGV[4]) == 1 then return 0 end
local f = redis.call('INCR', KEYS[3])
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. f, 'PX', ARGV[3])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'address', ARGV[2], 'fence', f)
redis.call('SREM', KEYS[6], ARGV[4])
redis.call('SREM', KEYS[7], ARGV[4])
return f
"""

# ARGV: server id, fencing number, document
SAVE = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] .. ':' .. ARGV[2] or redis.call('GET', KEYS[3]) ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[4], ARGV[3])
return 1
"""

# ARGV: server id, fencing number, what ("handover": another server takes it at once; "dormant": whoever a
# player comes back to; "finished": the game is over, the room leaves the directory), code
RELEASE = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] .. ':' .. ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
if ARGV[3] == 'finished' then
  redis.call('DEL', KEYS[1], KEYS[3], KEYS[4])
  redis.call('SREM', KEYS[5], ARGV[4])
elseif ARGV[3] == 'dormant' then
  redis.call('SADD', KEYS[6], ARGV[4])
else
  redis.call('SADD', KEYS[7], ARGV[4])
end
return 1
"""
