"""A fleet on one machine: a `redis-server` of the test's own (`redis_server`, tests/conftest.py), a Redis Cluster
or a Sentinel's, `villa-paletti-server`s as processes of their own (so they can be killed, stopped and woken),
each with its own user folders, and players in the test's process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis

from tests.servers import LOOPBACK, PortTaken, RedisServer, free_port, start_on_a_free_port
from villa.online.client import Player
from villa.online.fleet import redis_keys as keys
from villa.online.wire.certificates import split_address

LEASE = 0.6                   # s: a short lease, so a server's death is seen quickly
ROOT = Path(__file__).resolve().parents[2]


def free_cluster_port() -> int:
    """A free port whose Cluster bus port (10 000 on) is free too."""
    while True:
        port = free_port()
        if port + 10000 < 65536:
            with socket.socket() as probe:
                try:
                    probe.bind(("", port + 10000))
                    return port
                except OSError:
                    pass


class RedisCluster:
    """Three redis-servers made one Redis Cluster (no replicas), each in a folder of the test's."""

    def __init__(self, folder: Path) -> None:
        self.nodes = []
        for n in range(3):
            (folder / f"node-{n}").mkdir()
            self.nodes.append(RedisServer(folder / f"node-{n}", "--cluster-enabled", "yes", "--cluster-config-file",
                                          "nodes.conf", port=free_cluster_port()))
        made = subprocess.run(["redis-cli", "--cluster", "create", *(f"{LOOPBACK}:{n.port}" for n in self.nodes),
                               "--cluster-replicas", "0", "--cluster-yes"], capture_output=True, text=True, timeout=30)
        assert made.returncode == 0, made.stdout + made.stderr
        end = time.monotonic() + 10
        while b"cluster_state:ok" not in self.nodes[0].client().execute_command("CLUSTER", "INFO"):
            assert time.monotonic() < end, "the cluster did not come up"
            time.sleep(0.1)
        self.url = "redis+cluster://" + ",".join(f"{LOOPBACK}:{n.port}" for n in self.nodes)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class SentinelRedis:
    """A primary, its replica and a Sentinel watching them (quick to call the primary down), each of the test's."""

    def __init__(self, folder: Path) -> None:
        (folder / "primary").mkdir()
        (folder / "replica").mkdir()
        self.primary = RedisServer(folder / "primary")
        self.replica = RedisServer(folder / "replica")
        self.replica.client().execute_command("REPLICAOF", LOOPBACK, self.primary.port)
        self.port = free_port()
        config = folder / "sentinel.conf"
        config.write_text(f"port {self.port}\nbind {LOOPBACK}\nprotected-mode no\n"
                          f"sentinel monitor villa {LOOPBACK} {self.primary.port} 1\n"
                          "sentinel down-after-milliseconds villa 1000\nsentinel failover-timeout villa 5000\n")
        self.sentinel = subprocess.Popen(["redis-server", str(config), "--sentinel"], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while True:
            try:
                if redis.Redis(host=LOOPBACK, port=self.port).execute_command(
                        "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "villa"):
                    break
            except redis.RedisError:
                pass
            assert time.monotonic() < end, "the sentinel did not come up"
            time.sleep(0.1)
        self.url = f"redis+sentinel://{LOOPBACK}:{self.port}/villa/0"

    def failover(self) -> None:
        redis.Redis(host=LOOPBACK, port=self.port).execute_command("SENTINEL", "FAILOVER", "villa")

    def primary_port(self) -> int:
        return int(redis.Redis(host=LOOPBACK, port=self.port).execute_command(
            "SENTINEL", "GET-MASTER-ADDR-BY-NAME", "villa")[1])

    def stop(self) -> None:
        self.sentinel.terminate()
        self.sentinel.wait(10)
        self.primary.stop()
        self.replica.stop()


class FleetServer:
    """A `villa-paletti-server` of the fleet, in a process of its own."""

    def __init__(self, redis_url: str, data: Path, *extra: str) -> None:
        self.lines: list[str] = []
        self.stats: list[dict] = []          # its `--stats` lines, as they come
        start_on_a_free_port(lambda port: self._start(port, redis_url, data, extra))
        threading.Thread(target=self._read_on, daemon=True).start()

    def _start(self, port: int, redis_url: str, data: Path, extra: tuple[str, ...]) -> None:
        self.port = port
        self.address = f"{LOOPBACK}:{self.port}"
        env = {**os.environ, "VILLA_HOME": str(data), "XDG_DATA_HOME": str(data), "XDG_CONFIG_HOME": str(data),
               "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "villa.app.dedicated", "--port", str(self.port), "--address", LOOPBACK,
             "--redis", redis_url, "--public", self.address, "--lease", str(LEASE), *extra],
            stdout=subprocess.PIPE, stderr=self._errors(data), text=True, env=env, cwd=ROOT)
        while True:
            line = self.process.stdout.readline()
            if not line:
                self.process.wait(10)
                said = (data / "stderr").read_text()
                if "no server could start on port" in said:
                    raise PortTaken(said)
                raise RuntimeError(f"the server did not start: {said[-3000:]}")
            self.lines.append(line.strip())
            if line.startswith("in the fleet"):
                break

    @staticmethod
    def _errors(data: Path):
        data.mkdir(parents=True, exist_ok=True)
        return open(data / "stderr", "w", encoding="utf-8")

    def _read_on(self) -> None:
        for line in self.process.stdout:
            if line.startswith("{"):
                self.stats.append(json.loads(line))
            else:
                self.lines.append(line.strip())

    @property
    def codes(self) -> list[str]:
        return [line.split()[1] for line in self.lines if line.startswith("room ")]

    @property
    def fingerprint(self) -> str | None:
        """The server's TLS certificate's, as it printed it (None: started --insecure)."""
        return next((line.split()[2] for line in self.lines if line.startswith("TLS certificate ")), None)

    @property
    def id(self) -> str:
        """Its id in the fleet, as it printed it ("in the fleet of ... (server ID)")."""
        return next(line for line in self.lines if line.startswith("in the fleet")).rsplit(" ", 1)[1].rstrip(")")

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def fleet(redis_server, tmp_path):
    """Start fleet servers with `fleet(*options)`; every one is stopped after the test."""
    started: list[FleetServer] = []

    def start(*extra: str) -> FleetServer:
        server = FleetServer(redis_server.url, tmp_path / f"server-{len(started)}", *extra)
        started.append(server)
        return server
    yield start
    for server in started:
        server.stop()


def room_server(client: redis.Redis, code: str, servers: list[FleetServer]) -> FleetServer | None:
    """The server of `servers` the room's directory entry names: by its id, the address beside it naming that
    server's place and certificate (a window sent on is held to it)."""
    entry = client.hgetall(keys.room(code))
    owner = entry.get(b"owner", b"").decode()
    for server in servers:
        if server.id == owner:
            assert split_address(entry[b"address"].decode()) == (LOOPBACK, server.port, server.fingerprint)
            return server
    return None


def poll_until(players: list[Player], done, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        for player in players:
            player.poll()
        time.sleep(0.002)
    return True
