"""Where a fleet keeps what its servers share in Redis, and the Lua scripts that change it, each in one step.

A room's keys carry its code as a hash tag (`{CODE}`), so they fall in one slot of a Redis Cluster, and every
script below touches the keys of one room only (or one key of the fleet's own):

    villa:{CODE}:room      the directory's entry: a hash of the owning server's id and address (host:port#fingerprint
                           with TLS: its certificate's, which a player sent there checks), the fencing number, the
                           room's state (play, handover, dormant), and how much of its game is written (`seq`: the last
                           request entry, `base`: the last one a settled turn took in, `turns`: turn entries)
    villa:{CODE}:lease     "<server id>:<fencing number>": the server that plays the room; expires unless renewed
    villa:{CODE}:fence     the room's fencing number, one higher at each change of hands
    villa:{CODE}:game      the game's recipe and its rules' state before the first move (JSON), written at its start
    villa:{CODE}:seats     who sits where, with their tokens (JSON), written at every change of seat
    villa:{CODE}:turns     one entry per settled turn: the moves it added, the villa's poses, the seats' requests
    villa:{CODE}:requests  every request the room's game was given since its last settled turn, with the frame it
                           came at (the write-ahead log: a room taken over plays them again over its last turn)

    villa:{fleet}:servers  the servers present: each one's id -> "<deadline ms> <public address>" (as above), the
                           deadline moved on at each refresh (presence), the entries past it dropped by whoever looks
    villa:{fleet}:leases   a sorted set: each held room's lease deadline (ms, Redis' clock); a room whose deadline
                           passed is an orphan for the reapers; 0: handed over, take it at once

A server that lost its lease cannot write: every write checks the lease and the fencing number where the data is
written (Kleppmann, "How to do distributed locking", 2016). The scripts that keep a game in play going are flagged
`allow-oom`: renewing a lease needs no new memory, and a game's small additions go on while Redis is full; only a
new room (`CREATE`) is refused then.
"""

from __future__ import annotations

PREFIX = "villa:"
SERVERS = PREFIX + "{fleet}:servers"
LEASES = PREFIX + "{fleet}:leases"
PARTS = ("room", "lease", "fence", "game", "seats", "turns", "requests")


def part(code: str, name: str) -> str:
    return f"{PREFIX}{{{code}}}:{name}"


def room(code: str) -> str:
    return part(code, "room")


def lease(code: str) -> str:
    return part(code, "lease")


def fence(code: str) -> str:
    return part(code, "fence")


def room_keys(code: str) -> list[str]:
    """The keys every room script takes, in this order (KEYS[1] .. KEYS[7])."""
    return [part(code, name) for name in PARTS]


# 1: the lease and the fencing number are the writer's; -2: the lease lapsed, or the fence key was lost (the renewal
# takes it back, or says another server has it); 0: another server's
_HOLDS = """
local mine = ARGV[1] .. ':' .. ARGV[2]
local function holds()
  local lease, fence = redis.call('GET', KEYS[2]), redis.call('GET', KEYS[3])
  if lease == mine and fence == ARGV[2] then return 1 end
  if (not lease or lease == mine) and not fence or not lease and fence == ARGV[2] then return -2 end
  return 0
end
"""

# ARGV: server id, address, lease ms. Returns the fencing number, or 0 if the code is taken.
CREATE = """#!lua
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local f = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'address', ARGV[2], 'fence', f, 'state', 'play',
           'seq', 0, 'base', 0, 'turns', 0)
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. f, 'PX', ARGV[3])
return f
"""

# Every room a server holds, renewed in one call. KEYS: each room's seven keys, room after room; ARGV: server id,
# lease ms, address, then for each room its fencing number, "1" if its game has begun, and the last journal entry
# and the number of turns Redis acknowledged to its holder (a replica promoted may have missed some). Returns each
# room's answer:
# 1 (renewed), 2 (renewed, but Redis lost part of the room: write it whole again), 0 (another server holds it, or it
# was let go). A lease that lapsed while Redis was away or hung is taken back if nobody took the room meanwhile; keys
# lost with Redis' data (a restart without persistence, FLUSHALL, eviction) are put back. (On a Cluster the line
# sends each node the rooms it holds.)
RENEW = """#!lua flags=allow-oom,allow-cross-slot-keys
local id, ms, address = ARGV[1], ARGV[2], ARGV[3]
local function renew(k, f, begun, acked_seq, acked_turns)
  local mine = id .. ':' .. f
  local lease = redis.call('GET', KEYS[k + 2])
  local fence = redis.call('GET', KEYS[k + 3])
  local entry = redis.call('HMGET', KEYS[k + 1], 'owner', 'fence', 'state', 'seq', 'base', 'turns')
  if lease ~= mine then
    if lease then return 0 end
    if entry[1] and (entry[1] ~= id or entry[2] ~= f) then return 0 end
    if entry[3] and entry[3] ~= 'play' then return 0 end
  end
  if fence and fence ~= f then return 0 end
  local whole = 1
  if not fence then
    redis.call('SET', KEYS[k + 3], f)
    whole = 2
  end
  if not entry[1] then
    redis.call('HSET', KEYS[k + 1], 'owner', id, 'address', address, 'fence', f, 'state', 'play')
    whole = 2
  end
  if begun == '1' then
    local seq, base, turns = tonumber(entry[4]), tonumber(entry[5]), tonumber(entry[6])
    if redis.call('EXISTS', KEYS[k + 4]) == 0 or redis.call('EXISTS', KEYS[k + 5]) == 0 or not seq or not base
        or not turns or redis.call('LLEN', KEYS[k + 6]) ~= turns or redis.call('LLEN', KEYS[k + 7]) ~= seq - base
        or seq < tonumber(acked_seq) or turns < tonumber(acked_turns) then
      whole = 2
    end
  end
  redis.call('SET', KEYS[k + 2], mine, 'PX', ms)
  return whole
end
local answers = {}
for i = 0, #KEYS / 7 - 1 do
  local a = 4 + i * 4
  answers[i + 1] = renew(i * 7, ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])
end
return answers
"""

# ARGV: server id, fencing number, the first entry's number, the entries. Returns 1 (written, or already there),
# 0 (another server holds the room), -2 (the lease lapsed: renew it, then write), -1 (what Redis holds does not lead
# up to these: write the room whole again).
APPEND = """#!lua flags=allow-oom
""" + _HOLDS + """
local held = holds()
if held ~= 1 then return held end
local entry = redis.call('HMGET', KEYS[1], 'seq', 'base')
local seq, base = tonumber(entry[1]), tonumber(entry[2])
if not seq or not base or redis.call('LLEN', KEYS[7]) ~= seq - base then return -1 end
local first, count = tonumber(ARGV[3]), #ARGV - 3
if first + count - 1 == seq then return 1 end
if first ~= seq + 1 then return -1 end
for i = 4, #ARGV, 500 do
  redis.call('RPUSH', KEYS[7], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
redis.call('HSET', KEYS[1], 'seq', seq + count)
return 1
"""

# ARGV: server id, fencing number, the turn's number, the last request entry it takes in, the turn's entry.
# Returns 1, 0, -1 or -2 as APPEND does. The requests the settled turn took in leave the write-ahead log.
TURN = """#!lua flags=allow-oom
""" + _HOLDS + """
local held = holds()
if held ~= 1 then return held end
local entry = redis.call('HMGET', KEYS[1], 'seq', 'base', 'turns')
local seq, base, turns = tonumber(entry[1]), tonumber(entry[2]), tonumber(entry[3])
local turn, upto = tonumber(ARGV[3]), tonumber(ARGV[4])
if not seq or not base or not turns or redis.call('LLEN', KEYS[6]) ~= turns then return -1 end
if turns > turn then return 1 end
if turns ~= turn or upto > seq or upto < base then return -1 end
redis.call('LTRIM', KEYS[7], upto - base, -1)
redis.call('RPUSH', KEYS[6], ARGV[5])
redis.call('HSET', KEYS[1], 'base', upto, 'turns', turns + 1)
return 1
"""

# ARGV: server id, fencing number, the seats' document.
SEATS = """#!lua flags=allow-oom
""" + _HOLDS + """
local held = holds()
if held ~= 1 then return held end
redis.call('SET', KEYS[5], ARGV[3])
return 1
"""

# ARGV: server id, fencing number, address, the game's document, the seats' document, base, seq, turns, then the
# turn entries (`turns` of them) and the request entries. The room written whole: at its game's start, and after
# Redis lost part of it.
WHOLE = """#!lua flags=allow-oom
""" + _HOLDS + """
local held = holds()
if held ~= 1 then return held end
local turns = tonumber(ARGV[8])
redis.call('DEL', KEYS[6], KEYS[7])
redis.call('SET', KEYS[4], ARGV[4])
redis.call('SET', KEYS[5], ARGV[5])
for i = 9, 8 + turns, 500 do
  redis.call('RPUSH', KEYS[6], unpack(ARGV, i, math.min(i + 499, 8 + turns)))
end
for i = 9 + turns, #ARGV, 500 do
  redis.call('RPUSH', KEYS[7], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'address', ARGV[3], 'fence', ARGV[2], 'state', 'play',
           'base', ARGV[6], 'seq', ARGV[7], 'turns', turns)
return 1
"""

# ARGV: server id, address, lease ms, "any" (a dormant room too: a player came back) or "orphan" (a reaper).
# Returns the new fencing number; 0 if a server holds the room; -1 if there is no such room (or, for a reaper, it is
# dormant). The number rises past any the directory saw, even if the fence key was lost.
CLAIM = """#!lua flags=allow-oom
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[4] ~= 'any' and redis.call('HGET', KEYS[1], 'state') == 'dormant' then return -1 end
local f = redis.call('INCR', KEYS[3])
local seen = tonumber(redis.call('HGET', KEYS[1], 'fence') or '0') or 0
if f <= seen then
  f = seen + 1
  redis.call('SET', KEYS[3], f)
end
redis.call('SET', KEYS[2], ARGV[1] .. ':' .. f, 'PX', ARGV[3])
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'address', ARGV[2], 'fence', f, 'state', 'play')
for i = 1, 7 do
  if i ~= 2 then redis.call('PERSIST', KEYS[i]) end
end
return f
"""

# ARGV: server id, fencing number, what ("handover": another server takes it at once; "dormant": whoever a player
# comes back to, kept for ARGV[4] ms; "finished": the game is over, the room leaves the directory).
RELEASE = """#!lua flags=allow-oom
if redis.call('GET', KEYS[2]) ~= ARGV[1] .. ':' .. ARGV[2] then return 0 end
redis.call('DEL', KEYS[2])
if ARGV[3] == 'finished' then
  redis.call('DEL', KEYS[1], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
  return 1
end
redis.call('HSET', KEYS[1], 'state', ARGV[3])
if ARGV[3] == 'dormant' then
  for i = 1, 7 do
    if i ~= 2 then redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
  end
end
return 1
"""

# Where a room is: {owner, address, state, leased (0/1), begun (0/1)}; owner false: no such room.
FIND = """#!lua flags=no-writes
local entry = redis.call('HMGET', KEYS[1], 'owner', 'address', 'state')
return {entry[1], entry[2], entry[3], redis.call('EXISTS', KEYS[2]), redis.call('EXISTS', KEYS[4])}
"""

# ARGV: server id, fencing number. The room as Redis holds it, for its holder: {game, seats, turns, requests, base},
# or 0.
LOAD = """#!lua flags=no-writes
""" + _HOLDS + """
local held = holds()
if held ~= 1 then return held end
return {redis.call('GET', KEYS[4]), redis.call('GET', KEYS[5]), redis.call('LRANGE', KEYS[6], 0, -1),
        redis.call('LRANGE', KEYS[7], 0, -1), redis.call('HGET', KEYS[1], 'base')}
"""

# KEYS: servers. ARGV: server id, its address, presence ms. This server's presence moved on, those past theirs
# dropped: returns {id, address, id, address ...} of the servers present.
PRESENT = """#!lua flags=allow-oom
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[1], (now + tonumber(ARGV[3])) .. ' ' .. ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
local found = {}
for i = 1, #all, 2 do
  local space = string.find(all[i + 1], ' ', 1, true)
  if space and tonumber(string.sub(all[i + 1], 1, space - 1)) >= now then
    found[#found + 1] = all[i]
    found[#found + 1] = string.sub(all[i + 1], space + 1)
  else
    redis.call('HDEL', KEYS[1], all[i])
  end
end
return found
"""

# KEYS: leases. ARGV: lease ms, then codes. Each code's deadline, by Redis' clock.
DEADLINES = """#!lua flags=allow-oom
local t = redis.call('TIME')
local deadline = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], deadline, ARGV[i]) end
return deadline
"""

# KEYS: leases. ARGV: how many at most. The rooms whose lease deadline passed, by Redis' clock, with their
# deadlines (0: handed over).
ORPHANS = """#!lua flags=no-writes
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[1]))
"""

SCRIPTS = {"create": CREATE, "renew": RENEW, "append": APPEND, "turn": TURN, "seats": SEATS, "whole": WHOLE,
           "claim": CLAIM, "release": RELEASE, "find": FIND, "load": LOAD, "deadlines": DEADLINES,
           "orphans": ORPHANS, "present": PRESENT}


def without_flags(script: str) -> str:
    """The script for a Redis older than 7, which knows no flags (under a full Redis, its renewals then fail)."""
    return script.split("\n", 1)[1] if script.startswith("#!lua") else script
