"""The door on loopback: a hello first, then each connection held to its limits, told why when it is closed,
and every trace of it gone after."""

from __future__ import annotations

import logging
import os
import random
import socket
import struct
import time

import pytest

from villa.online.wire import messages
from villa.online.wire.door import Limits, Tries
from villa.online.wire.frames import frame

from .conftest import CATALOGUE, HELLO, LOOPBACK, Client, turn

try:
    import resource
except ImportError:             # Windows: no limits on open files to lower
    resource = None

ENTER = messages.Enter("ABCD")


def welcomed(door, count: int = 1, source: str = LOOPBACK) -> list[Client]:
    clients = [Client(door.port, source) for _ in range(count)]
    for client in clients:
        client.say(HELLO)
    assert turn(door, clients, lambda: all("Welcome" in client.kinds() for client in clients))
    return clients


def closed(door, *clients: Client) -> bool:
    return turn(door, list(clients), lambda: all(client.closed for client in clients))


def test_a_client_that_says_hello_is_welcomed_answered_and_pinged(opened):
    door, echo = opened(Limits(ping_s=0.05))
    client, = welcomed(door)
    assert client.heard[0] == messages.Welcome(messages.PROTOCOL, messages.GAME)
    client.say(ENTER)
    assert turn(door, [client], lambda: "Entered" in client.kinds())
    assert echo.welcomed == [0] and echo.heard == [(0, ENTER)]
    assert turn(door, [client], lambda: client.heard.count(messages.Ping()) >= 3)     # the door's own pings
    assert door.connections == 1 and door.address_of(0) == LOOPBACK and door.address_of(1) is None


def test_a_client_may_say_its_hello_and_first_request_at_once(opened):
    door, echo = opened()
    client = Client(door.port)
    client.raw(frame(CATALOGUE.encode(HELLO)) + frame(CATALOGUE.encode(ENTER)))
    assert turn(door, [client], lambda: client.kinds() == ["Welcome", "Entered"])


@pytest.mark.parametrize("hello", [messages.Hello(messages.PROTOCOL + 1, messages.GAME),
                                   messages.Hello(messages.PROTOCOL, "0.0.0-elsewhere")], ids=["protocol", "game"])
def test_another_version_is_told_the_servers_and_closed(opened, hello):
    door, echo = opened()
    client = Client(door.port)
    client.say(hello)
    assert closed(door, client)
    assert client.goodbye() == ("version", {"protocol": messages.PROTOCOL, "game": messages.GAME})
    assert client.link.why == "hung up"
    assert echo.welcomed == [] and echo.gone == []      # never welcomed: nothing to tell the server


def test_no_hello_in_time_or_something_else_first_closes(opened):
    door, echo = opened(Limits(hello_s=0.2))
    quiet, entering, pinging = Client(door.port), Client(door.port), Client(door.port)
    entering.say(ENTER)
    pinging.say(messages.Ping())
    assert closed(door, quiet, entering, pinging)
    assert [client.goodbye()[0] for client in (quiet, entering, pinging)] == ["too slow", "hello first", "hello first"]
    assert echo.heard == [] and door.connections == 0


def test_a_silent_connection_is_closed_and_one_that_pings_is_kept(opened):
    door, echo = opened(Limits(silent_s=0.3, ping_s=0.05))
    silent, speaking = welcomed(door, 2)
    last = 0.0

    def silent_gone() -> bool:
        nonlocal last
        if time.monotonic() - last > 0.1:
            speaking.say(messages.Ping())
            last = time.monotonic()
        return silent.closed
    assert turn(door, [silent, speaking], silent_gone)
    assert silent.goodbye() == ("silent", {})
    assert not speaking.closed and echo.gone == [0]


def test_connections_beyond_an_address_s_share_are_told_the_door_is_full(opened):
    door, echo = opened(Limits(per_address=2))
    welcomed(door, 2)
    third = Client(door.port)
    assert closed(door, third)
    assert third.goodbye() == ("full", {"per_address": 2})
    elsewhere, = welcomed(door, 1, source="127.0.0.2")       # another address has its own share
    assert door.connections == 3 and door.address_of(echo.welcomed[-1]) == "127.0.0.2"


def test_connections_beyond_the_total_are_told_the_door_is_full(opened):
    door, echo = opened(Limits(total=2))
    welcomed(door, 1)
    welcomed(door, 1, source="127.0.0.2")
    third = Client(door.port, source="127.0.0.3")
    assert closed(door, third)
    assert third.goodbye() == ("full", {"total": 2})


def test_ids_are_small_the_lowest_free_one_reused_and_each_end_told_once(opened):
    door, echo = opened()
    first, second, third = welcomed(door, 3)
    assert echo.welcomed == [0, 1, 2]
    second.link.close()
    assert turn(door, [], lambda: echo.gone == [1])
    welcomed(door, 1)
    assert echo.welcomed[-1] == 1
    first.link.close()
    door.close(2, "wrong room", tries=3)                   # the server's own close: told in the next round
    assert echo.gone == [1]
    assert turn(door, [third], lambda: third.closed)
    assert third.goodbye() == ("wrong room", {"tries": 3})
    assert sorted(echo.gone) == [0, 1, 2]
    welcomed(door, 1)
    assert echo.welcomed[-1] == 0
    unwelcomed = Client(door.port)
    assert turn(door, [], lambda: door.connections == 3)
    unwelcomed.link.close()
    assert turn(door, [], lambda: door.connections == 2)
    assert sorted(echo.gone) == [0, 1, 2]                 # never welcomed: nothing to tell


def test_after_5000_connections_came_and_went_the_door_holds_nothing_for_them(opened):
    door, echo = opened(Limits(per_address=100))
    for batch in range(50):
        clients = [Client(door.port) for _ in range(100)]
        for client in clients[::2]:
            client.say(HELLO)                             # half of them welcomed, half never say a word
        assert turn(door, [], lambda: door.connections == 100)
        if batch % 10 == 0:
            turn(door, clients, lambda: all(c.kinds() == ["Welcome"] for c in clients[::2]))
        for client in clients:
            client.link.close()
        assert turn(door, [], lambda: door.connections == 0 and not door.held()["leaving"])
    assert len(echo.gone) == len(echo.welcomed) == 2500 and max(echo.welcomed) < 100     # ids never grew
    # the address is remembered only until the server's time its hellos took is paid back
    assert turn(door, [], lambda: door.held() == dict.fromkeys(door.held(), 0), seconds=30), door.held()


def test_more_messages_than_the_rate_allows_close_the_connection(opened):
    door, echo = opened(Limits(rate=20, burst=20))
    client, = welcomed(door)                              # the hello was one message of the burst
    client.say(*[ENTER] * 15)
    assert turn(door, [client], lambda: client.kinds().count("Entered") == 15)
    turn(door, [client], lambda: False, seconds=1.0)      # the bucket fills again, 20 a second
    client.say(*[ENTER] * 15)
    assert turn(door, [client], lambda: client.kinds().count("Entered") == 30)
    client.say(*[ENTER] * 40)
    assert closed(door, client)
    assert client.goodbye() == ("too fast", {})
    assert 30 < len(echo.heard) <= 50


@pytest.mark.parametrize("said, code", [
    (frame(b"\xff"), "malformed"),                                        # a kind nobody knows
    (struct.pack(">I", 0), "malformed"),                                  # a frame of nothing
    (struct.pack(">I", 70_000), "malformed"),                             # a frame beyond the limit
    (frame(CATALOGUE.encode(messages.Welcome(1, "x"))), "malformed"),     # what only a server says
    (frame(CATALOGUE.encode(HELLO)), "malformed"),                        # a second hello
    (frame(CATALOGUE.encode(ENTER) + b"\x00"), "malformed"),              # a byte left over
], ids=["unknown kind", "empty frame", "oversized frame", "server's kind", "second hello", "left over"])
def test_a_malformed_frame_or_message_closes_that_connection_alone(opened, caplog, said, code):
    door, echo = opened()
    bad, good = welcomed(door, 2)
    with caplog.at_level(logging.INFO, logger="villa.online.wire.door"):
        bad.raw(said)
        assert closed(door, bad)
    assert bad.goodbye() == (code, {})
    assert any("malformed" in record.getMessage() for record in caplog.records)
    good.say(ENTER)
    assert turn(door, [good], lambda: "Entered" in good.kinds())
    assert echo.gone == [0]


def test_the_goodbye_is_heard_though_the_client_keeps_sending(opened):
    door, echo = opened()
    client, = welcomed(door)
    client.raw(frame(b"\xff") + b"\x00" * 60_000)          # a bad frame, then more than the door reads in a round
    assert closed(door, client)
    assert client.goodbye() == ("malformed", {}) and client.link.why == "hung up"


def fuzz(opened, hello_first) -> None:
    """Frames of kind 0..255 with random bodies of 0 to 64 bytes, each the first a connection sends or the
    first after its hello (as `hello_first(kind, length)` says), 100 connections at a time: the door closes
    those it refuses, passes on what is well formed, and goes on answering a well-behaved client."""
    door, echo = opened(Limits(per_address=300))
    dice = random.Random(9011)
    good, = welcomed(door, 1, source="127.0.0.2")
    hello = frame(CATALOGUE.encode(HELLO))
    said = [(hello if first else b"") + frame(bytes([kind]) + bytes(dice.getrandbits(8) for _ in range(length)))
            for kind in range(256) for length in range(65) for first in hello_first(kind, length)]
    spoke = 0.0
    for batch, start in enumerate(range(0, len(said), 100)):         # within the listener's queue
        clients = []
        for data in said[start:start + 100]:
            client = Client(door.port, source=f"127.1.{batch % 250}.{len(clients) + 1}")
            client.raw(data)
            client.link.sock.shutdown(socket.SHUT_WR)
            clients.append(client)
        assert turn(door, clients, lambda: all(client.closed for client in clients), seconds=30)
        for client in clients:
            client.link.close()
        # a well-behaved client keeps to the rate (a batch may be done in a few milliseconds)
        time.sleep(max(0.0, spoke + 2 / door.limits.rate - time.monotonic()))
        spoke = time.monotonic()
        good.say(ENTER, messages.Ping())
        assert turn(door, [good], lambda: good.kinds().count("Entered") == batch + 1)
    assert door.connections == 1
    passed_on = [message for connection, message in echo.heard if message != ENTER]
    assert passed_on                                      # some random bodies were requests well formed
    assert all(type(message) in messages.FROM_CLIENTS for message in passed_on)


def test_every_kind_with_every_short_body_before_or_after_the_hello_leaves_the_door_serving(opened):
    """Each kind and each length both before and after a hello (each pair of them once: 16,640 connections)."""
    fuzz(opened, lambda kind, length: [(kind + length) % 2 == 1])


@pytest.mark.slow
def test_every_kind_with_every_short_body_before_and_after_the_hello_leaves_the_door_serving(opened):
    """Every pair of kind and length both before and after a hello (33,280 connections)."""
    fuzz(opened, lambda kind, length: [False, True])


def test_half_sent_frames_held_open_by_a_hundred_connections_do_not_delay_another_client(opened):
    door, echo = opened(Limits(per_address=200))
    holders = [Client(door.port) for _ in range(100)]
    for n, holder in enumerate(holders):
        half = frame(CATALOGUE.encode(messages.OpenRoom(b"{" * 3000)))[:1500]
        holder.raw((frame(CATALOGUE.encode(HELLO)) if n % 2 else b"") + half)
    client, = welcomed(door)
    for trip in range(20):
        client.say(messages.Enter(f"R{trip}"))
        assert turn(door, [client], lambda: client.kinds().count("Entered") == trip + 1, seconds=5)
    assert door.connections == 101 and not any(holder.closed for holder in holders)


@pytest.mark.skipif(resource is None or not os.path.isdir("/proc/self/fd"), reason="counts open files in /proc")
def test_a_door_out_of_file_descriptors_rests_then_serves_again(opened, caplog):
    door, echo = opened(Limits(per_address=50))
    waiting = [Client(door.port) for _ in range(20)]       # connected, in the listener's queue
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 3, hard))
    try:
        with caplog.at_level(logging.WARNING, logger="villa.online.wire.door"):
            for _ in range(20):
                door.poll(0.001)
        assert 0 < door.connections < 20
        assert sum("cannot accept" in record.getMessage() for record in caplog.records) == 1
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert turn(door, [], lambda: door.connections == 20)  # resting a moment, then accepting again
    for client in waiting:
        client.link.close()
    welcomed(door, 1)


def test_a_door_shut_says_goodbye_to_everyone(opened):
    door, echo = opened()
    clients = welcomed(door, 3)
    door.shut()
    assert sorted(echo.gone) == [0, 1, 2]
    for client in clients:
        client.link.sock.settimeout(5)
    assert all(c.hear() and c.goodbye() == ("closing", {}) for c in clients)


def test_tries_pause_an_address_that_spent_them_and_forget_it_later():
    now = [0.0]
    tries = Tries(per_minute=3, pause_s=120, clock=lambda: now[0])
    for _ in range(2):
        tries.spent("10.0.0.1")
        now[0] += 1
    assert tries.allow("10.0.0.1")
    tries.spent("10.0.0.1")
    assert not tries.allow("10.0.0.1") and tries.allow("10.0.0.2")
    now[0] += 119
    assert not tries.allow("10.0.0.1")
    now[0] += 2
    assert tries.allow("10.0.0.1")
    tries.spent("10.0.0.1")                               # after the pause, a new minute of tries
    assert tries.allow("10.0.0.1")
    now[0] += 500
    assert tries.allow("10.0.0.1") and len(tries) == 0    # forgotten


def test_tries_spread_over_more_than_a_minute_never_pause():
    now = [0.0]
    tries = Tries(per_minute=3, pause_s=60, clock=lambda: now[0])
    for _ in range(20):
        tries.spent("10.0.0.1")
        assert tries.allow("10.0.0.1")
        now[0] += 31


def test_tries_remember_a_bounded_number_of_addresses():
    tries = Tries(clock=lambda: 0.0, most=1000)
    for n in range(5000):
        tries.spent(f"10.0.{n // 256}.{n % 256}")
    assert len(tries) == 1000
