"""What waits to be sent is bounded, on loopback from several addresses: a connection whose queue has not drained
for five seconds is closed and what it held is freed; past the budget across all connections, those that queue
most and drain least go first, and a reader that keeps reading, however slowly, stays."""

from __future__ import annotations

import gc
import logging
import time
import tracemalloc

from villa.online.wire import messages
from villa.online.wire.door import Limits

from .conftest import HELLO, Client, turn

BIG = 60_000                                  # bytes of a message pushed to the clients


class Skipping:
    """The real clock, and a jump ahead when told (five seconds of not reading, in no time)."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skipped


def welcomed(door, echo, *clients: Client) -> list[int]:
    """The clients welcomed; their connections' ids, in order."""
    for client in clients:
        client.say(HELLO)
        assert turn(door, [client], lambda: "Welcome" in client.kinds())
    return echo.welcomed[-len(clients):]


def queued(door, connection: int) -> int:
    known = door._connections.get(connection)
    return known.link.queued if known else 0


def push(door, connection: int, size: int) -> None:
    """Messages of `BIG` bytes sent to a connection, `size` bytes in all (each a new one: nothing shared)."""
    for n in range(size // BIG):
        door.send(connection, messages.State(bytes([n % 251]) * BIG))


def fill(door, connection: int, readers: list[Client]) -> None:
    """Sent to a connection that does not read until what the sockets hold is full, and the door queues."""
    end = time.monotonic() + 20
    while not queued(door, connection) and time.monotonic() < end:
        push(door, connection, 2 * BIG)
        turn(door, readers, lambda: False, seconds=0.05)
    assert queued(door, connection), "the sockets took everything"


def test_a_connection_whose_queue_does_not_drain_for_five_seconds_is_closed_and_what_it_held_freed(opened, caplog):
    clock = Skipping()
    door, echo = opened(clock=clock)
    reader, sleeper = Client(door.port, "127.0.0.2"), Client(door.port, "127.0.0.3", receive_buffer=4096)
    reading, sleeping = welcomed(door, echo, reader, sleeper)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        fill(door, sleeping, [reader])
        push(door, sleeping, 2_000_000)
        push(door, reading, 2_000_000)
        assert turn(door, [reader], lambda: reader.kinds().count("State") >= 2_000_000 // BIG)
        reader.heard.clear()
        assert queued(door, sleeping) > 1_900_000 and not queued(door, reading)
        waited = clock() - door._connections[sleeping].link.drained_at
        clock.skipped += max(0.0, 4.0 - waited)   # four seconds undrained: still kept
        turn(door, [reader], lambda: False, seconds=0.2)
        assert sleeping in door._connections
        clock.skipped += 1.5
        with caplog.at_level(logging.INFO, logger="villa.online.wire.door"):
            assert turn(door, [reader], lambda: sleeping not in door._connections and sleeping in echo.gone)
        assert door.held()["queued"] == 0 and reading in door._connections and not reader.closed
        assert turn(door, [], lambda: not door.held()["leaving"], seconds=5)
        gc.collect()
        assert tracemalloc.get_traced_memory()[0] - before < 1_500_000, "its queue freed with it (but the frames " \
                                                                         "kept to be shared: 1 MB at most)"
    finally:
        tracemalloc.stop()
    assert any("not reading" in record.getMessage() for record in caplog.records)


def test_past_the_budget_those_that_queue_most_and_drain_least_are_closed_first(opened):
    door, echo = opened(Limits(queued_total=3_000_000, drain_s=60.0))
    reader = Client(door.port, "127.0.0.2")
    most, less = (Client(door.port, f"127.0.0.{n}", receive_buffer=4096) for n in (3, 4))
    slow = Client(door.port, "127.0.0.5", receive_buffer=4096)
    reading, most_id, less_id, slow_id = welcomed(door, echo, reader, most, less, slow)

    def slowly(seconds: float) -> None:
        """The slow reader takes 2 kB every 10 ms; the reader all."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            door.poll(0.01)
            reader.hear()
            reader.heard.clear()
            try:
                slow.link.sock.recv(2048)
            except OSError:
                pass
    for connection in (most_id, less_id, slow_id):
        fill(door, connection, [reader])
    push(door, slow_id, 700_000)
    slowly(2.5)                                   # the slow reader drains, and is seen to
    assert set(door._connections) == {reading, most_id, less_id, slow_id}
    push(door, most_id, 1_200_000)
    push(door, less_id, 800_000)
    push(door, slow_id, 1_200_000)
    slowly(1.0)
    alive = set(door._connections)
    assert most_id not in alive and {less_id, slow_id, reading} <= alive, "the one that queued most went first"
    push(door, less_id, 900_000)
    push(door, slow_id, 900_000)
    assert queued(door, slow_id) > queued(door, less_id), "the slow reader has more waiting"
    slowly(1.0)
    alive = set(door._connections)
    assert less_id not in alive and {slow_id, reading} <= alive, "then the one that drains least, not the most queued"
    assert door.held()["queued"] <= 3_000_000 and not reader.closed
