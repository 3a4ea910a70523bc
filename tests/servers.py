"""What a test starts beside it, each of its own on this machine: loopback ports and a `redis-server`.

The suite runs in several processes at once (tests/README.md), and other suites may run on the same machine: a
port is never a fixed number. A server in the test's own process binds port 0 and says which it got. A program
started in a process of its own, or a window told a port to host on, is given one that is free now from below the
range the system hands out for port 0 and for every connection's own end (`free_port`): there a port found free
stays free unless another test picks the very same one, and a program that finds it taken all the same is started
again on another (`start_on_a_free_port`)."""

from __future__ import annotations

import random
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Callable

import redis

LOOPBACK = "127.0.0.1"
TRIES = 10               # ports tried before a program that will not start is given up on
CHOSEN = range(20000, 32768)   # below Linux's ephemeral ports (32768-60999): nobody is given these unasked
_choice = random.Random()


def free_port() -> int:
    """A port nobody holds now on any address, for a server that cannot bind port 0 itself (see
    `start_on_a_free_port`)."""
    while True:
        port = _choice.choice(CHOSEN)
        with socket.socket() as probe:
            try:
                probe.bind(("", port))
            except OSError:
                continue
        return port


class PortTaken(RuntimeError):
    """The program could not listen on the port it was given: someone took it first."""


def start_on_a_free_port(start: Callable[[int], object]) -> object:
    """`start(port)` on a free port, again on another while it raises `PortTaken`."""
    for _ in range(TRIES - 1):
        try:
            return start(free_port())
        except PortTaken:
            continue
    return start(free_port())


def redis_process_on(port: int) -> int | None:
    """The process id of the Redis answering on the port, if one does."""
    try:
        with socket.create_connection((LOOPBACK, port), timeout=0.5) as probe:
            probe.sendall(b"INFO server\r\n")
            said = b""
            while b"process_id:" not in said or not said.split(b"process_id:")[1].count(b"\r\n"):
                chunk = probe.recv(4096)
                if not chunk:
                    return None
                said += chunk
    except OSError:
        return None
    return int(said.split(b"process_id:")[1].split(b"\r\n")[0])


class RedisServer:
    """A redis-server on a loopback port, with an append-only file in a folder of its own: stopped, started again
    (on the same port, its data read back), frozen with SIGSTOP, filled, as a test likes."""

    START_S = 20.0       # generous: the machine may be busy with other tests

    def __init__(self, folder: Path, *options: str, port: int | None = None) -> None:
        """`port`: this one (a Cluster's node, whose bus port must be free too), not any free one."""
        self.folder, self.options = folder, options
        self.process: subprocess.Popen | None = None
        self.port = 0
        if port is None:
            start_on_a_free_port(self._start_on)
        else:
            self._start_on(port)

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def _start_on(self, port: int) -> None:
        self.port = port
        self.start()

    def start(self, persistent: bool = True) -> None:
        """Started (again) on its port; `persistent` False: nothing kept on disk, so a restart loses everything."""
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", LOOPBACK, "--save", "",
             "--appendonly", "yes" if persistent else "no", "--dir", str(self.folder), "--protected-mode", "no",
             *self.options],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + self.START_S
        while time.monotonic() < end:
            if self.process.poll() is not None:   # it could not listen: the port went to someone else
                self.process = None
                raise PortTaken(f"redis-server could not listen on port {self.port}")
            if redis_process_on(self.port) == self.process.pid:   # ours, not another's that took the port
                return
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)       # (a test may have frozen it)
            self.process.terminate()
            self.process.wait(10)
            self.process = None

    def client(self) -> redis.Redis:
        """A Redis client of the test's own to it."""
        return redis.Redis(host=LOOPBACK, port=self.port)
