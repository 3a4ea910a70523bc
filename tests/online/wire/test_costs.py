"""The door against a determined sender, on loopback from several addresses: messages are counted as they arrive
(a door that reads late cuts nobody who sent at an honest pace); what a connection asks is charged to it and to
its network, which wait while they owe, and one network's messages take a round's slice at most; an IPv6 /64
is one network."""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

from villa.online.wire import messages
from villa.online.wire.costs import Budget
from villa.online.wire.door import Limits

from .conftest import HELLO, LOOPBACK, Client, turn

PLENTY = Budget(time_s=100.0, time_burst_s=100.0, bytes=10**12, bytes_burst=10**12)
ENTER = messages.Enter("ABCD")
OPEN = messages.OpenRoom(b"{}")


def welcomed(door, sources: list[str]) -> list[Client]:
    clients = [Client(door.port, source) for source in sources]
    for client in clients:
        client.say(HELLO)
    assert turn(door, clients, lambda: all("Welcome" in client.kinds() for client in clients))
    return clients


def test_messages_are_counted_as_they_arrive_though_the_door_reads_them_late(opened):
    door, echo = opened(Limits(rate=60, burst=20))
    steady = welcomed(door, [f"127.0.0.{2 + n // 3}" for n in range(12)])      # three from each of four addresses
    turn(door, steady, lambda: False, seconds=0.3)

    def send() -> None:                            # 40 a second each for 1.5 s, while the door is not read at all
        for _ in range(60):
            for client in steady:
                client.say(ENTER)
            time.sleep(0.025)
    sender = threading.Thread(target=send)
    sender.start()
    sender.join()                                  # (a server held up by a villa's fall, say)
    assert turn(door, steady, lambda: all(client.kinds().count("Entered") == 60 for client in steady), seconds=20)
    assert not any(client.closed for client in steady), "60 messages in 1.5 s is within 60 a second"

    hasty, = welcomed(door, ["127.0.0.9"])         # what comes at once beyond the burst is still too fast
    hasty.say(*[ENTER] * 40)
    assert turn(door, [hasty], lambda: hasty.closed)
    assert hasty.goodbye() == ("too fast", {})


def test_a_connection_pays_for_what_it_asks_and_waits_while_it_owes(opened):
    door, echo = opened(Limits(each=Budget(time_s=0.05, time_burst_s=0.02, bytes=10**9, bytes_burst=10**9),
                               network=PLENTY))
    echo.work_s = 0.005                            # each plan's check: 5 ms of the server's time
    asker, neighbour = welcomed(door, ["127.0.0.2", "127.0.0.2"])
    asker.say(*[OPEN] * 20)
    began = time.monotonic()
    counts: list[tuple[float, int]] = []

    def answered() -> bool:
        counts.append((time.monotonic() - began, asker.kinds().count("Opened")))
        return counts[-1][1] == 20
    neighbour.say(ENTER)
    assert turn(door, [asker, neighbour], lambda: "Entered" in neighbour.kinds())
    assert asker.kinds().count("Opened") < 20, "the neighbour's own account: answered while the asker waits"
    assert turn(door, [asker, neighbour], answered, seconds=30)
    assert all(count <= (0.02 + 0.05 * at) / 0.005 + 1 for at, count in counts), "never more than it could pay"
    assert not asker.closed
    assert turn(door, [], lambda: door.held()["paused"] == 0), "read again once paid"


def test_a_network_pays_for_all_its_connections_and_takes_a_slice_of_a_round(opened):
    door, echo = opened(Limits(each=PLENTY, network=Budget(time_s=0.05, time_burst_s=0.02, bytes=10**9,
                                                           bytes_burst=10**9), slice_s=0.004))
    echo.work_s = 0.002
    askers = welcomed(door, ["127.0.0.2"] * 8)
    other, = welcomed(door, ["127.0.0.3"])
    for asker in askers:
        asker.say(*[OPEN] * 5)
    began = time.monotonic()
    most_in_a_round, counts = 0, []

    def heard_from_askers() -> int:
        return sum(isinstance(message, messages.OpenRoom) for _connection, message in echo.heard)

    other.say(ENTER)
    while time.monotonic() - began < 30 and heard_from_askers() < 40:
        before = heard_from_askers()
        door.poll(0.002)
        most_in_a_round = max(most_in_a_round, heard_from_askers() - before)
        for client in [*askers, other]:
            client.hear()
        counts.append((time.monotonic() - began, heard_from_askers()))
    assert "Entered" in other.kinds() and heard_from_askers() == 40
    assert most_in_a_round <= 3, "4 ms of a round: two checks of 2 ms, and the one that began before it ran out"
    assert all(count <= (0.02 + 0.05 * at) / 0.002 + 8 for at, count in counts), "the network paid for all eight"
    assert not any(asker.closed for asker in askers)


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
def test_an_ipv6_network_s_connections_are_counted_as_one_home(opened, caplog):
    door, echo = opened(Limits(per_address=3), address="::1")
    welcomed(door, ["::1"] * 3)
    fourth = Client(door.port, "::1")
    with caplog.at_level(logging.INFO, logger="villa.online.wire.door"):
        assert turn(door, [fourth], lambda: fourth.closed)
    assert fourth.goodbye() == ("full", {"per_address": 3})
    assert any("refused ::/64: full" in record.getMessage() for record in caplog.records), "named by its /64"
    assert door.held()["addresses"] == 1


def test_connections_of_a_network_that_owes_take_turns_and_none_is_taken_for_silent(opened):
    door, echo = opened(Limits(silent_s=1.0, hello_s=1.0, each=PLENTY,
                               network=Budget(time_s=0.02, time_burst_s=0.004, bytes=10**9, bytes_burst=10**9)))
    echo.work_s = 0.002                            # ten checks a second for the whole network
    askers = welcomed(door, ["127.0.0.2"] * 8)
    for asker in askers:
        asker.say(*[OPEN] * 30)
    late = Client(door.port, "127.0.0.2")          # its hello waits behind what the others cost
    late.say(HELLO)
    turn(door, [*askers, late], lambda: False, seconds=4.0)
    assert not any(asker.closed for asker in askers), "what waits unread is not silence"
    assert all(asker.kinds().count("Opened") >= 2 for asker in askers), \
        f"each took its turn: {[asker.kinds().count('Opened') for asker in askers]}"
    assert "Welcome" in late.kinds(), "a hello that waits unread is not too slow"
