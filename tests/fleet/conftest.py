"""A fleet on one machine: a `redis-server` of the test's own on a loopback port, `villa-paletti-server`s as
processes of their own (so they can be killed, stopped and woken), and players in the test's process."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from villa.online.client import Player

LOOPBACK = "127.0.0.1"
LEASE = 0.6                   # s: a short lease, so a server's death is seen quickly
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


class RedisServer:
    """A redis-server with an append-only file in a folder of the test's, to stop and start again."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        self.url = f"redis://{LOOPBACK}:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", LOOPBACK, "--save", "", "--appendonly", "yes",
             "--dir", str(self.folder), "--protected-mode", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                with socket.create_connection((LOOPBACK, self.port), timeout=0.2) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


class FleetServer:
    """A `villa-paletti-server` of the fleet, in a process of its own."""

    def __init__(self, redis_url: str, data: Path, *extra: str) -> None:
        self.port = free_port()
        self.address = f"{LOOPBACK}:{self.port}"
        env = {**os.environ, "XDG_DATA_HOME": str(data), "XDG_CONFIG_HOME": str(data),
               "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "villa.app.dedicated", "--port", str(self.port), "--address", LOOPBACK,
             "--redis", redis_url, "--public", self.address, "--lease", str(LEASE), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        self.lines: list[str] = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the server did not start: {self.process.stderr.read()}")
            self.lines.append(line.strip())
            if line.startswith("in the fleet"):
                break

    @property
    def codes(self) -> list[str]:
        return [line.split()[1] for line in self.lines if line.startswith("room ")]

    @property
    def fingerprint(self) -> str | None:
        """The server's TLS certificate's, as it printed it (None: started --insecure)."""
        return next((line.split()[2] for line in self.lines if line.startswith("TLS certificate ")), None)

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def redis_server(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: scripts/test.sh installs Debian's redis-server")
    server = RedisServer(tmp_path)
    yield server
    server.stop()


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


def poll_until(players: list[Player], done, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        for player in players:
            player.poll()
        time.sleep(0.002)
    return True
