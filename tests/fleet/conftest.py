"""A fleet on one machine: a `redis-server` of the test's own (`redis_server`, tests/conftest.py),
`villa-paletti-server`s as processes of their own (so they can be killed, stopped and woken), each with its own
user folders, and players in the test's process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.servers import LOOPBACK, PortTaken, start_on_a_free_port
from villa.online.client import Player

LEASE = 0.6                   # s: a short lease, so a server's death is seen quickly
ROOT = Path(__file__).resolve().parents[2]


class FleetServer:
    """A `villa-paletti-server` of the fleet, in a process of its own."""

    def __init__(self, redis_url: str, data: Path, *extra: str) -> None:
        self.lines: list[str] = []
        start_on_a_free_port(lambda port: self._start(port, redis_url, data, extra))

    def _start(self, port: int, redis_url: str, data: Path, extra: tuple[str, ...]) -> None:
        self.port = port
        self.address = f"{LOOPBACK}:{self.port}"
        env = {**os.environ, "VILLA_HOME": str(data), "XDG_DATA_HOME": str(data), "XDG_CONFIG_HOME": str(data),
               "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "villa.app.dedicated", "--port", str(self.port), "--address", LOOPBACK,
             "--redis", redis_url, "--public", self.address, "--lease", str(LEASE), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        while True:
            line = self.process.stdout.readline()
            if not line:
                said = self.process.stderr.read()
                self.process.wait(10)
                if "no server could start on port" in said:
                    raise PortTaken(said)
                raise RuntimeError(f"the server did not start: {said}")
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
