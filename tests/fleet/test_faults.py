"""The fleet under partial failures, as production meets them: each test starts its own Redis and servers, each
server reaching Redis through a TCP proxy of the test's own (`proxy.py`: delayed, cut and restored one link at a
time), and records every action every player heard accepted, with its room, server and fencing number
(`history.py`). Afterwards each room's log is one line (every player's log a prefix of the longest), no action heard
accepted is missing, and no two servers accepted actions for one room under different fencing numbers at once.

The grid runs behind the `fleet` marker (`pytest -m fleet tests/fleet`); the default run keeps a sample (a fence
key deleted, a server killed right after an accepted action, and the villa as the dead server had it at the frame a
room taken over resumes from)."""

from __future__ import annotations

import math
import os
import signal
import time

import pytest
import redis

from tests.fleet.conftest import (LEASE, LOOPBACK, FleetServer, RedisCluster, RedisServer, SentinelRedis, free_port,
                                  room_server)
from tests.fleet.history import History
from tests.fleet.proxy import Proxy
from villa import rules
from villa.match import MatchSetup, Seat, layout_named
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import Player
from villa.online.fleet import Fleet, Timings
from villa.online.fleet import redis_keys as keys
from villa.online.server import Room, Server
from villa.online.server.journal import place
from villa.online.protocol import Online, OnlineError

COMPUTERS = ("--people", "0", "--computers", "2", "--new-room", "--strength", "easy")
FIGURES: dict[str, dict] = {}


class World:
    """A Redis of the test's own, servers each behind a proxy of their own, and the history of what was heard."""

    def __init__(self, folder, *redis_options: str, redis=None) -> None:
        self.folder = folder
        self.redis = redis or RedisServer(folder, *redis_options)
        self.servers: list[FleetServer] = []
        self.proxies: list[Proxy] = []
        self.history = History()

    def start(self, *extra: str) -> FleetServer:
        """A server of the fleet, behind a proxy of its own (on a Cluster or behind Sentinels: straight to them)."""
        proxy = Proxy(self.redis.port) if isinstance(self.redis, RedisServer) else None
        server = FleetServer(proxy.url if proxy else self.redis.url, self.folder / f"server-{len(self.servers)}",
                             *extra)
        server.proxy = proxy
        self.servers.append(server)
        if proxy is not None:
            self.proxies.append(proxy)
        return server

    def watcher(self, server: FleetServer, code: str) -> Player:
        player = self.history.follow(Player(LOOPBACK, server.port))
        player.enter(code)
        assert self.history.until(lambda: player.room == code and player.state is not None and player.poses), \
            player.trouble
        return player

    def heard(self, code: str) -> int:
        return len(self.history.accepted(code))

    def plays_on(self, code: str, more: int = 2, seconds: float = 40.0) -> bool:
        """More actions of the room heard accepted, from now on."""
        now = self.heard(code)
        return self.history.until(lambda: self.heard(code) >= now + more, seconds)

    def check(self, name: str, **figures) -> dict:
        """The history's checks, after a watcher that comes late has read each room's log where it is now."""
        for code in sorted({h.room for h in self.history.heard}):
            alive = next(s for s in self.servers if s.process.poll() is None)
            self.watcher(alive, code)
        checked = self.history.check()
        FIGURES[name] = {**figures, "rooms": checked}
        print(f"\n{name}: {FIGURES[name]}")
        return checked

    def close(self) -> None:
        for player in self.history.players:
            player.close()
        for server in self.servers:
            server.stop()
        for proxy in self.proxies:
            proxy.close()
        self.redis.stop()


@pytest.fixture
def world(tmp_path):
    made: list[World] = []

    def make(*redis_options: str, redis=None) -> World:
        made.append(World(tmp_path, *redis_options, redis=redis))
        return made[-1]
    yield make
    for one in made:
        one.close()


class Table:
    """A person's window at both seats of a room it opened on `server`: it plays by itself, a column taken and
    shoved a little, then given up; whatever else the rules ask passes as they allow."""

    def __init__(self, world: World, server: FleetServer, seed: int = 5) -> None:
        self.world = world
        self.player = world.history.follow(Player(LOOPBACK, server.port))
        plan = MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("random", seed), seed=seed, deal_colours=True)
        self.player.open_room(plan)
        assert world.history.until(lambda: self.player.room is not None), self.player.refusals
        self.code = self.player.room
        self.player.sit("Ann", 0)
        self.player.sit("Ben", 1)
        assert world.history.until(lambda: len(self.player.seats) == 2)
        self.player.begin()
        assert world.history.until(lambda: self.player.table.get("started") and self.player.poses)
        self.shoves = 0

    def act(self) -> rq.Request | None:
        """One request for whoever's move it is (both seats are this window's); None if nothing is asked now."""
        player, state = self.player, self.player.state
        if not player.ready or state is None or state.over or player.rejoining is not None:
            return None
        seat = rules.acting_player(state)
        if seat is None:
            return None
        if state.turn.column is not None and self.shoves:
            self.shoves += 1
            if self.shoves > 6:
                self.shoves = 0
                return self._ask(rq.GiveUp(seat))
            (x, y, z), _quat = player.poses[state.turn.column]
            return self._ask(rq.Aim(seat, (x + 0.3, y, z)))
        moves = rules.passing_moves(state)
        if moves and isinstance(moves[0], rules.TakeColumn):
            column = moves[0].column
            self.shoves = 1
            return self._ask(rq.Take(seat, column, player.poses[column][0]))
        return self._ask(rq.request_for(seat, moves[0])) if moves else None

    def _ask(self, request: rq.Request) -> rq.Request:
        self.player.request(request)
        return request

    def play(self, actions: int, seconds: float = 40.0) -> bool:
        """Played on until `actions` more actions were heard accepted."""
        start = self.world.heard(self.code) + actions
        end = time.monotonic() + seconds
        while self.world.heard(self.code) < start:
            if time.monotonic() > end:
                return False
            self.act()
            self.world.history.until(lambda: False, 0.05)
        return True


def _fence(world: World, code: str) -> int:
    return int(world.redis.client().get(keys.fence(code)) or 0)


# --- the sample in the default run ---------------------------------------------------------------------------------

def test_a_fence_key_deleted_mid_game_is_put_back_by_its_holder_and_the_game_goes_on(world):
    w = world()
    a = w.start(*COMPUTERS, "--lease", "2")          # (no takeover by a busy machine's stall: the fence stays 1)
    w.start("--lease", "2")
    code = a.codes[0]
    w.watcher(a, code)
    assert w.plays_on(code)
    w.redis.client().delete(keys.fence(code))
    assert w.plays_on(code, 4), "the game goes on"
    assert _fence(w, code) == 1, "its holder put the fencing number back"
    assert w.history.players[0].port == a.port and w.history.players[0].came_back == 0
    w.check("fence key deleted")


def test_a_server_killed_right_after_an_accepted_action_loses_nothing_anyone_heard(world):
    w = world()
    a = w.start()
    b = w.start()
    table = Table(w, a)
    assert table.play(3)
    while not isinstance(table.act(), rq.Take):          # a column taken: the action heard accepted, then the kill
        table.play(1)
    taken = w.heard(table.code)
    assert w.history.until(lambda: w.heard(table.code) > taken, 10)
    a.signal(signal.SIGKILL)
    killed = time.monotonic()
    assert w.history.until(lambda: table.player.came_back == 1, 30), table.player.trouble
    back = time.monotonic() - killed
    assert table.player.port == b.port
    assert table.play(3), "the game goes on on the other server"     # (and `check`: every action heard is there)
    w.check("SIGKILL right after an accepted action", back_s=round(back, 2))


@pytest.mark.fleet
def test_a_window_looking_for_its_game_while_the_fleet_cannot_answer_spends_none_of_its_tries(world):
    """Its server killed while Redis hangs: each server the window asks meanwhile says not now, a dozen times and
    more; none of it costs the address's ten wrong-code tries, so a fresh room code typed there afterwards is
    answered as a code, not with "too many tries"."""
    w = world()
    a = w.start(*COMPUTERS)
    b = w.start()
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    w.redis.process.send_signal(signal.SIGSTOP)
    a.signal(signal.SIGKILL)
    asked = player._tried
    assert w.history.until(lambda: player._tried >= asked + 24, 40), "the window asked b a dozen times and more"
    w.redis.process.send_signal(signal.SIGCONT)
    assert player.rejoining is not None
    assert w.history.until(lambda: player.came_back == 1, 30), player.trouble
    assert player.port == b.port and w.plays_on(code)
    stranger = w.history.follow(Player(LOOPBACK, b.port))        # the same address, a code that names no room
    stranger.enter("ZZZZZ" if code != "ZZZZZ" else "YYYYY")
    assert w.history.until(lambda: stranger.refusals, 10)
    assert stranger.refusals[-1].code is Online.WRONG_ROOM, stranger.refusals
    w.check("rejoins while Redis hangs", asked=player._tried - asked)


# --- the grid (`-m fleet`) ---------------------------------------------------------------------------------------

@pytest.mark.fleet
def test_a_server_cut_off_from_redis_pauses_its_room_and_sends_its_players_on_when_the_link_is_back(world):
    w = world()
    a = w.start()
    c = w.start()
    table = Table(w, a)
    assert table.play(3)
    a.proxy.cut()
    cut = time.monotonic()
    assert w.history.until(lambda: table.player.paused_for is not None, 10), "told the game pauses"
    paused = time.monotonic() - cut
    heard = w.heard(table.code)
    table.act()                                                        # refused: the game pauses
    assert w.history.until(lambda: table.player.refusals and table.player.refusals[-1].code is Online.PAUSED, 5)
    fence = _fence(w, table.code)
    assert w.history.until(lambda: _fence(w, table.code) > fence, 20), "another server took the room over"
    taken = time.monotonic() - cut
    assert w.heard(table.code) == heard, "nothing was played on the cut-off server meanwhile"
    a.proxy.restore()
    assert w.history.until(lambda: table.player.port == c.port and table.player.came_back, 20), \
        "the players were sent on to the room's new server"
    assert table.play(3)
    w.check("partition one server", paused_after_s=round(paused, 2), taken_over_after_s=round(taken, 2))


@pytest.mark.fleet
def test_redis_stopped_costs_the_frame_loop_nothing_and_the_rooms_go_on_after(world):
    w = world()
    a = w.start(*COMPUTERS, "--stats", "0.25")
    w.start()
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    before = len(a.stats)
    w.redis.process.send_signal(signal.SIGSTOP)
    assert w.history.until(lambda: player.paused_for is not None, 10)
    w.history.until(lambda: False, 2 * LEASE)           # (as 8 s are with the default lease of 3 s)
    hung = a.stats[before + 1:]
    w.redis.process.send_signal(signal.SIGCONT)
    assert w.plays_on(code), "the room goes on"
    rates = [s["frames"] / 0.25 for s in hung]
    assert rates and min(rates) > 40, f"the frame loop ran on while Redis hung: {rates}"
    assert player.port == a.port and player.came_back == 0
    w.check("Redis SIGSTOP", frames_per_s_min=round(min(rates), 1))


@pytest.mark.fleet
@pytest.mark.parametrize("how", ["restart without persistence", "FLUSHALL"])
def test_redis_that_lost_its_data_is_given_each_room_again_by_its_holder(world, how):
    w = world()
    a = w.start(*COMPUTERS)
    b = w.start()
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    if how == "FLUSHALL":
        w.redis.client().flushall()
    else:
        w.redis.stop()
        for name in os.listdir(w.folder):
            if name.startswith("appendonly"):
                os.system(f"rm -rf '{w.folder / name}'")
        w.redis.start(persistent=False)
    assert w.history.until(lambda: w.redis.client().exists(keys.room(code)) and
                           w.redis.client().exists(keys.part(code, "game")), 10), "re-registered"
    assert w.plays_on(code)
    assert player.port == a.port and player.came_back == 0, "nothing was closed"
    a.signal(signal.SIGKILL)                      # and what it wrote again is enough to take the room over
    assert w.history.until(lambda: player.came_back == 1, 30), player.trouble
    assert player.port == b.port
    assert w.plays_on(code)
    w.check(how)


@pytest.mark.fleet
def test_a_full_redis_lets_the_games_go_on_and_refuses_new_ones_in_words(world):
    w = world()
    a = w.start(*COMPUTERS)
    b = w.start()
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    client = w.redis.client()
    client.config_set("maxmemory", max(1, client.info("memory")["used_memory"] - 100_000))
    client.config_set("maxmemory-policy", "noeviction")
    assert w.plays_on(code, 4), "the game goes on"
    opener = w.history.follow(Player(LOOPBACK, b.port))
    opener.open_room(MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("rings", 1)))
    assert w.history.until(lambda: opener.refusals or opener.room, 10)
    assert opener.room is None and opener.refusals[-1].code is Online.FLEET_BUSY
    assert a.process.poll() is None and b.process.poll() is None, "no server exits"
    client.config_set("maxmemory", 0)
    opener.open_room(MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("rings", 1)))
    assert w.history.until(lambda: opener.room is not None, 10), opener.refusals
    assert player.came_back == 0
    w.check("Redis full")


@pytest.mark.fleet
def test_an_evicting_redis_is_warned_of_at_start_and_its_rooms_are_written_again(world):
    w = world("--maxmemory-policy", "allkeys-random")
    a = w.start(*COMPUTERS)
    b = w.start()
    assert any("maxmemory-policy allkeys-random" in line for line in a.lines), a.lines
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    client = w.redis.client()
    for n in range(3):                                  # eviction: the room's keys go, one after another
        for part in ("game", "turns", "fence"):
            client.delete(keys.part(code, part))
        assert w.plays_on(code, 2)
    assert w.history.until(lambda: client.exists(keys.part(code, "game")), 10)
    a.signal(signal.SIGKILL)
    assert w.history.until(lambda: player.came_back == 1, 30), player.trouble
    assert player.port == b.port and w.plays_on(code)
    w.check("evicting policy")


@pytest.mark.fleet
@pytest.mark.parametrize("delay", [0.0, 0.002, 0.02])
def test_a_move_in_flight_when_its_server_is_killed_is_applied_once_or_refused_once(world, delay):
    w = world()
    a = w.start()
    b = w.start()
    table = Table(w, a)
    assert table.play(2)
    while table.player.state.turn.column is not None or rules.acting_player(table.player.state) is None:
        table.play(1)
    sent = table.act()
    assert isinstance(sent, rq.Take)
    time.sleep(delay)
    a.signal(signal.SIGKILL)
    refusals = len(table.player.refusals)
    assert w.history.until(lambda: table.player.came_back == 1, 30), table.player.trouble
    w.history.until(lambda: False, 0.5)
    lost = [r for r in table.player.refusals[refusals:] if isinstance(r, OnlineError) and r.code is Online.MOVE_LOST]
    taken = [a for a in table.player.state.log if isinstance(a, rules.TakeColumn) and a.column == sent.column]
    applied = table.player.state.turn.column == sent.column
    assert (len(lost), applied) in ((1, False), (0, True)), (lost, applied, taken)
    assert table.player.port == b.port
    assert table.play(3)
    w.check(f"move in flight ({delay} s)", applied=applied)


@pytest.mark.fleet
def test_a_server_stopped_in_order_hands_its_game_over_with_nothing_lost(world):
    w = world()
    a = w.start()
    b = w.start()
    table = Table(w, a)
    assert table.play(4)
    a.signal(signal.SIGTERM)
    stopped = time.monotonic()
    assert w.history.until(lambda: table.player.came_back == 1, 20), table.player.trouble
    back = time.monotonic() - stopped
    assert a.process.wait(10) == 128 + signal.SIGTERM
    assert table.player.port == b.port and table.play(3)
    w.check("SIGTERM", back_s=round(back, 2))


@pytest.mark.fleet
def test_ten_servers_claim_a_room_whose_server_died_and_one_plays_it(world):
    w = world()
    a = w.start(*COMPUTERS)
    others = [w.start() for _ in range(9)]
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    a.signal(signal.SIGKILL)
    assert w.history.until(lambda: player.came_back == 1, 40), player.trouble
    assert w.plays_on(code, 4)
    owner = room_server(w.redis.client(), code, [a, *others])
    assert owner in others and player.port == owner.port
    w.check("ten claimants", fence=_fence(w, code))


@pytest.mark.fleet
def test_a_slow_link_to_redis_delays_the_news_but_never_splits_the_room(world):
    w = world()
    a = w.start()
    w.start()
    table = Table(w, a)
    assert table.play(2)
    a.proxy.delay = LEASE / 4
    assert table.play(4, 60)
    a.proxy.delay = 0.0
    assert table.play(2)
    w.check("slow link")


def test_a_room_taken_over_resumes_with_the_villa_as_the_dead_server_had_it_at_that_frame(tmp_path):
    """In one process, so that the dead server's villa can be read at every frame: a server plays a person's
    column pull, stops dead (its link to Redis cut, nothing of it runs any more), and another takes the room over
    from Redis; at the frame it resumes from, every piece is where the dead one had it (to 0.01 cm)."""
    redis_server = RedisServer(tmp_path)
    proxies = [Proxy(redis_server.port) for _ in range(2)]
    timings = Timings(lease_s=LEASE, refresh_s=LEASE / 3, reap_s=LEASE / 3, presence_s=LEASE, redis_s=LEASE / 4)
    servers = []
    try:
        fleets = [Fleet(p.url, f"{LOOPBACK}:{n + 1}", timings) for n, p in enumerate(proxies)]
        a, b = servers[:] = [Server(0, LOOPBACK, fleet=f) for f in fleets]
        code = fleets[0].code_now(set())
        plan = MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("random", 5), seed=5, deal_colours=True)
        room = a.open(Room(code, plan, keep=a.place))
        player = Player(LOOPBACK, a.port)
        seen: dict = {}

        def run(server, until, seconds=10.0):
            end = time.monotonic() + seconds
            while time.monotonic() < end and not until():
                server.poll(0.001)
                server.frames(1)
                if server is a and room.match is not None:
                    seen[place(room.match)] = protocol.poses_of(room.match.villa)
                player.poll()
                time.sleep(0.003)
            return until()
        player.enter(code)
        assert run(a, lambda: player.room == code)
        player.sit("Ann", 0)
        player.sit("Ben", 1)
        assert run(a, lambda: player.state is not None and player.poses and room.match is not None)
        seat = rules.acting_player(player.state)
        column = rules.passing_moves(player.state)[0].column
        (x, y, z), _quat = player.poses[column]
        player.request(rq.Take(seat, column, (x, y, z)))
        for n in range(30):
            player.request(rq.Aim(seat, (x + 0.15 * n, y - 0.1 * n, z)))
            run(a, lambda: False, 0.02)
        assert run(a, lambda: player.state.turn.column == column and room.scribe.gate.holding == 0)
        proxies[0].cut()                                   # a is dead from here: nothing of it runs again
        for _ in range(240):                               # (its villa, stepped alone, for the comparison)
            room.match.frame()
            seen[place(room.match)] = protocol.poses_of(room.match.villa)
        assert run(b, lambda: code in b.rooms, 20)
        taken = b.rooms[code]
        resumed = place(taken.match)
        assert resumed in seen and taken.match.hand is not None, "resumed with the column still in hand"
        worst = max(math.dist(seen[resumed][piece][0], pose[0])
                    for piece, pose in protocol.poses_of(taken.match.villa).items())
        assert worst <= 0.01, f"a piece is {worst} cm from where the dead server had it"
        assert taken.match.state.log == room.match.state.log[:len(taken.match.state.log)]
        FIGURES["poses at the frame resumed"] = {"worst_cm": worst, "place": resumed}
    finally:
        for server in servers:
            server.door.shut()
        for fleet in fleets:
            fleet.line.close()
        for proxy in proxies:
            proxy.close()
        redis_server.stop()


@pytest.mark.fleet
def test_a_fleet_on_a_redis_cluster_spreads_its_rooms_and_takes_one_over(world, tmp_path):
    w = world(redis=RedisCluster(tmp_path))
    a = w.start(*COMPUTERS)
    b = w.start()
    code = a.codes[0]
    player = w.watcher(a, code)
    assert w.plays_on(code)
    a.signal(signal.SIGKILL)
    killed = time.monotonic()
    assert w.history.until(lambda: player.came_back == 1, 30), player.trouble
    back = time.monotonic() - killed
    assert player.port == b.port and w.plays_on(code)
    w.check("on a Redis Cluster", back_s=round(back, 2))


@pytest.mark.fleet
def test_a_sentinel_failover_to_the_replica_costs_the_game_nothing(world, tmp_path):
    sentinels = SentinelRedis(tmp_path)
    w = world(redis=sentinels)
    a = w.start()
    w.start()
    table = Table(w, a)
    assert table.play(3)
    primary = sentinels.primary_port()
    sentinels.failover()
    failed_over = time.monotonic()
    assert w.history.until(lambda: sentinels.primary_port() != primary, 20), "the replica is the primary now"
    assert table.play(4, 60), "the game goes on"
    took = time.monotonic() - failed_over
    w.check("Sentinel failover", played_on_within_s=round(took, 2), came_back=table.player.came_back)


@pytest.mark.fleet
def test_every_error_redis_gives_is_one_more_reason_to_try_again_and_never_a_servers_end(tmp_path):
    """In one process, a server of a fleet with a game under way, while its Redis flushes its scripts (NOSCRIPT),
    fills up (OOM), turns read-only (READONLY, as a primary demoted), then asks for a password the server does not
    have (NOAUTH): nothing escapes into the frame loop, a new room is refused while Redis cannot take one, the game
    pauses while its lease cannot be renewed, and goes on, with every write done, once Redis answers again."""
    redis_server = RedisServer(tmp_path)
    client = redis_server.client()
    timings = Timings(lease_s=LEASE, refresh_s=LEASE / 3, reap_s=LEASE / 3, presence_s=LEASE, redis_s=LEASE / 4)
    fleet = Fleet(redis_server.url, f"{LOOPBACK}:1", timings)
    server = Server(0, LOOPBACK, fleet=fleet)
    try:
        code = fleet.code_now(set())
        plan = MatchSetup((Seat("Ann"), Seat("Ben")), layout_named("random", 5), seed=5, deal_colours=True)
        room = server.open(Room(code, plan, keep=server.place))
        room.sit(1, "Ann", 0)
        room.sit(2, "Ben", 1)

        def run(seconds: float, until=lambda: False) -> bool:
            end = time.monotonic() + seconds
            while time.monotonic() < end and not until():
                server.poll(0.002)
                server.frames(1)
            return until()

        def plays() -> bool:
            return run(5 * LEASE, lambda: fleet.may_play(code) and not room.scribe.gate.holding
                       and fleet.held[code].acked_seq == room.journal.seq)

        def asks(request) -> None:
            room.request(1 + request.seat, request)

        assert run(10, lambda: room.match is not None and fleet.held[code].begun)
        seat = rules.acting_player(room.match.state)
        column = rules.passing_moves(room.match.state)[0].column
        (x, y, z), _quat = protocol.poses_of(room.match.villa)[column]

        def nudged(cm: float) -> tuple[float, float, float]:
            """The column's middle moved `cm` outward: the hand's spring draws it there and no further, however
            many frames run (drawn into the villa's middle, it brought the villa down on a quick machine)."""
            out = cm / math.hypot(x, y)
            return x * (1 + out), y * (1 + out), z
        asks(rq.Take(seat, column, None))
        assert plays()
        client.script_flush()                                     # NOSCRIPT
        asks(rq.Aim(seat, nudged(0.05)))
        assert plays(), "its scripts loaded again, the write done"
        client.config_set("maxmemory", 1)                         # OOM
        opened: list = []
        fleet.new_code(set(), opened.append)
        assert run(5, lambda: opened) and opened == [None], "no new room while Redis is full"
        asks(rq.Aim(seat, nudged(0.1)))
        run(3 * LEASE)
        assert plays(), "the game in play goes on in a full Redis: its lease renewed, its request written"
        client.config_set("maxmemory", 0)
        client.replicaof(LOOPBACK, free_port())                  # READONLY: a primary demoted
        assert run(5 * LEASE, lambda: not fleet.may_play(code)), "the game pauses"
        client.replicaof("NO", "ONE")
        assert plays(), "and goes on"
        client.config_set("requirepass", "secret")                # NOAUTH: connections made again are refused
        client = redis.Redis(host=LOOPBACK, port=redis_server.port, password="secret")
        client.client_kill_filter(_type="normal", skipme=True)
        assert run(5 * LEASE, lambda: not fleet.may_play(code)), "the game pauses"
        client.config_set("requirepass", "")
        assert plays(), "and goes on"
        assert room.match is not None and code in server.rooms, "the room plays on"
        assert not room.match.over and room.match.hand is not None, "the villa stands, the column still in hand"
    finally:
        server.close()
        redis_server.stop()
