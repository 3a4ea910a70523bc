"""A door on a loopback port with a tiny echo for a server (each `Enter` answered `Entered`), and clients that
speak to it over real sockets; `turn` runs the door's rounds and the clients' reading until something holds."""

from __future__ import annotations

import json
import socket
import time
from typing import Any, Callable

import pytest

from villa.online.wire import messages
from villa.online.wire.codec import Catalogue
from villa.online.wire.door import Door, Limits
from villa.online.wire.frames import WireError
from villa.online.wire.link import Link

LOOPBACK = "127.0.0.1"
CATALOGUE = Catalogue(messages.KINDS)
HELLO = messages.Hello(messages.PROTOCOL, messages.GAME)


class Echo:
    """The server's side for the tests: answers each `Enter` with `Entered`, and each `OpenRoom` with `Opened`
    after spending `work_s` of its CPU time on it (a plan's check), and notes what it was told."""

    def __init__(self) -> None:
        self.door: Door | None = None
        self.welcomed: list[int] = []
        self.heard: list[tuple[int, Any]] = []
        self.gone: list[int] = []
        self.work_s = 0.002

    def welcome(self, connection: int) -> None:
        self.welcomed.append(connection)

    def on_message(self, connection: int, message: Any) -> None:
        self.heard.append((connection, message))
        if isinstance(message, messages.Enter):
            self.door.send(connection, messages.Entered(message.code))
        elif isinstance(message, messages.OpenRoom):
            began = time.thread_time()
            while time.thread_time() - began < self.work_s:
                pass
            self.door.send(connection, messages.Opened("ABCDE"))

    def on_gone(self, connection: int) -> None:
        self.gone.append(connection)


def open_door(limits: Limits = Limits(), address: str = LOOPBACK, clock=time.monotonic) -> tuple[Door, Echo]:
    echo = Echo()
    echo.door = Door(address, 0, CATALOGUE, echo.welcome, echo.on_message, echo.on_gone, limits, clock)
    return echo.door, echo


class Client:
    """A client on a blocking-free link, from `source` (any 127.x.y.z address is this machine's)."""

    made: list[Client] = []      # closed after each test

    def __init__(self, port: int, source: str = LOOPBACK, receive_buffer: int = 0) -> None:
        sock = socket.socket(socket.AF_INET6 if ":" in source else socket.AF_INET)
        sock.settimeout(5)
        if receive_buffer:                # a reader that takes little at a time (set before connecting)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.bind((source, 0))
        sock.connect(("::1" if ":" in source else LOOPBACK, port))
        self.link = Link(sock, CATALOGUE)
        self.heard: list[Any] = []
        self.error: str | None = None
        Client.made.append(self)

    @property
    def closed(self) -> bool:
        return self.link.closed

    def say(self, *said: Any) -> None:
        for message in said:
            self.link.send(message)
        self.link.flush()

    def raw(self, data: bytes) -> None:
        self.link.sock.sendall(data)

    def hear(self) -> list[Any]:
        if not self.link.closed:
            try:
                self.heard += self.link.receive()
            except WireError as error:
                self.error = error.why
                self.link.close()
        return self.heard

    def goodbye(self) -> tuple[str, dict] | None:
        """The code and values of the goodbye heard, if one was."""
        for message in self.heard:
            if isinstance(message, messages.Goodbye):
                return message.code, json.loads(message.values)
        return None

    def kinds(self) -> list[str]:
        return [type(message).__name__ for message in self.heard if not isinstance(message, messages.Ping)]


def turn(door: Door, clients: list[Client], until: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Rounds of the door (and the clients' reading) until `until()` holds; False if it did not in `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        door.poll(0.002)
        for client in clients:
            client.hear()
        if until():
            return True
    return False


@pytest.fixture
def opened():
    """A door opener whose doors and clients are all closed after the test."""
    doors: list[Door] = []

    def opener(limits: Limits = Limits(), address: str = LOOPBACK, clock=time.monotonic) -> tuple[Door, Echo]:
        door, echo = open_door(limits, address, clock)
        doors.append(door)
        return door, echo
    yield opener
    for door in doors:
        door.shut()


@pytest.fixture(autouse=True)
def clients_closed():
    yield
    for client in Client.made:
        client.link.close()
    Client.made.clear()
