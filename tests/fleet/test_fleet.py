"""Rooms spread over servers on one Redis: a player sent on to the room's server, a room that outlives its server
(killed, stopped in order, frozen past its lease), one winner among many claims, and Redis itself restarted."""

from __future__ import annotations

import hashlib
import signal
import threading
import time

import redis

from tests.fleet.conftest import LEASE, LOOPBACK, poll_until, room_server
from villa.match import MatchSetup, Seat, layout_named
from villa.online.client import Player
from villa.online.fleet import Fleet, Timings
from villa.online.fleet import redis_keys as keys
from villa.online.protocol import Online


def _watching(server, code: str) -> Player:
    """A player who enters the room at `server` to watch it (the rooms of these tests are computers' only)."""
    player = Player(LOOPBACK, server.port)
    player.enter(code)
    assert poll_until([player], lambda: player.room == code and player.state is not None and player.poses), \
        player.trouble
    return player


def _kept(player: Player, redis_server, code: str) -> bool:
    """The room's game is kept in Redis (before, a server that takes it up has nothing to play)."""
    return poll_until([player], lambda: _redis(redis_server).exists(keys.part(code, "game")) == 1, 60)


def _moves_on(player: Player, seconds: float = 20.0) -> bool:
    """The game goes on: moves heard after now."""
    heard = len(player.state.log)
    return poll_until([player], lambda: player.state is not None and len(player.state.log) > heard, seconds)


def test_a_player_who_asks_another_server_is_sent_on_to_the_one_that_plays_the_room(fleet):
    a = fleet("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
    b = fleet()
    code = a.codes[0]
    player = Player(LOOPBACK, b.port)
    started = time.monotonic()
    player.enter(code)
    assert poll_until([player], lambda: player.room == code and player.poses), player.trouble
    assert player.port == a.port and (LOOPBACK, b.port) == player.first, "sent on, never proxied"
    assert time.monotonic() - started < 5
    assert _moves_on(player)


def test_a_server_killed_mid_game_its_room_goes_on_elsewhere_and_the_window_finds_it_alone(fleet, redis_server):
    a = fleet("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
    b = fleet()
    code = a.codes[0]
    player = _watching(a, code)
    assert _kept(player, redis_server, code)
    assert _moves_on(player)
    a.signal(signal.SIGKILL)
    killed = time.monotonic()
    assert poll_until([player], lambda: player.came_back == 1 and player.room == code, 30), player.trouble
    assert time.monotonic() - killed < LEASE + 1 + 5        # within the lease, a reaper's look and a retry
    assert player.port == b.port and not player.lost
    assert _moves_on(player), "the game goes on where it was last kept"


def test_a_server_stopped_in_order_hands_its_rooms_over_at_once(fleet):
    a = fleet("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
    b = fleet()
    code = a.codes[0]
    player = _watching(a, code)
    a.signal(signal.SIGTERM)
    assert a.process.wait(60) == 128 + signal.SIGTERM    # a bound for a hang: a busy machine's server takes its time
    assert poll_until([player], lambda: player.came_back == 1 and player.room == code, 30), player.trouble
    assert player.port == b.port
    assert _moves_on(player)


def test_a_server_frozen_past_its_lease_plays_nothing_more_in_the_room_it_lost(fleet, redis_server):
    a = fleet("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
    b = fleet()
    code = a.codes[0]
    player = _watching(a, code)
    assert _kept(player, redis_server, code)
    assert poll_until([player], lambda: (LOOPBACK, b.port) in player.addresses, 5), \
        "told where else the fleet is (the list a player gets on entering is as a last looked it up)"
    a.signal(signal.SIGSTOP)
    assert poll_until([player], lambda: player.came_back == 1 and player.room == code, 30), player.trouble
    assert player.port == b.port
    fence = int(_redis(redis_server).get(keys.fence(code)))
    a.signal(signal.SIGCONT)
    time.sleep(3 * LEASE)
    assert a.process.poll() is None, "woken, it serves on"
    assert int(_redis(redis_server).get(keys.fence(code))) == fence, "nobody took the room from its new server"
    assert room_server(_redis(redis_server), code, [a, b]) is b, "the directory names the new server"
    assert _moves_on(player), "the window plays on with the server that holds the room"
    late = Player(LOOPBACK, a.port)           # and the woken server sends whoever asks it to the new one
    late.enter(code)
    assert poll_until([late], lambda: late.room == code and late.poses)
    assert late.port == b.port


def test_ten_servers_claiming_one_orphaned_room_one_wins(redis_server):
    fleets = [Fleet(redis_server.url, f"{LOOPBACK}:{47200 + n}", Timings(lease_s=1.0)) for n in range(10)]
    code = fleets[0].code_now(set())
    assert code is not None
    fleets[0].held.clear()                                     # its server is gone: the lease lapses
    _redis(redis_server).delete(keys.lease(code))
    won: list[int] = []
    start = threading.Barrier(10)

    def claim(n: int) -> None:
        start.wait()
        fence = fleets[n].line.redis.evalsha(_sha(keys.CLAIM), 7, *keys.room_keys(code), fleets[n].id,
                                             fleets[n].public, 1000, "orphan")
        if fence > 0:
            won.append(n)
    for fleet in fleets:
        fleet.line.redis.script_load(keys.CLAIM)
    threads = [threading.Thread(target=claim, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    entry = _redis(redis_server).hgetall(keys.room(code))
    assert entry[b"owner"].decode() == fleets[won[0]].id
    for fleet in fleets:
        fleet.line.close()


def test_redis_restarted_the_games_pause_new_rooms_wait_and_nothing_is_taken_over(fleet, redis_server):
    a = fleet("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
    b = fleet()
    code = a.codes[0]
    player = _watching(a, code)
    fence = int(_redis(redis_server).get(keys.fence(code)))
    redis_server.stop()
    assert poll_until([player], lambda: player.paused_for is not None, 10), "the players are told the game pauses"
    heard = len(player.state.log)
    opener = Player(LOOPBACK, b.port)
    opener.open_room(MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("rings", 1)))
    assert poll_until([opener], lambda: opener.refusals or opener.room, 10)
    assert opener.room is None and opener.refusals[-1].code is Online.FLEET_BUSY, "no room is opened while Redis is away"
    poll_until([player], lambda: False, LEASE)
    assert len(player.state.log) == heard, "nothing is played while this server cannot renew its lease"
    redis_server.start()
    # (the last move before Redis went may be heard first: its news waited for its write)
    assert poll_until([player], lambda: player.paused_for is None, 20), "the players are told the game goes on"
    assert _moves_on(player), "the game goes on where it paused"
    assert player.port == a.port and player.came_back == 0
    assert int(_redis(redis_server).get(keys.fence(code))) == fence, "no server took the room over by mistake"
    opener.open_room(MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("rings", 1)))
    assert poll_until([opener], lambda: opener.room is not None, 10), opener.refusals


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def _redis(server) -> redis.Redis:
    return redis.Redis.from_url(server.url)
