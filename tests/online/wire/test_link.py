"""A link over a socket pair and over loopback TCP: messages whole whatever the pieces, nothing waited on, a
reader that never reads cut off, and dialling that ends in a link or a reason."""

from __future__ import annotations

import socket
import struct
import time

import pytest

from villa.match.requests import Aim, Take
from villa.online.wire import messages
from villa.online.wire.codec import Catalogue
from villa.online.wire.frames import WireError, frame
from villa.online.wire.link import MAX_QUEUED, Dialling, Link, dial

CATALOGUE = Catalogue(messages.KINDS)
LOOPBACK = "127.0.0.1"


@pytest.fixture
def pair():
    ours, theirs = socket.socketpair()
    near, far = Link(ours, CATALOGUE), Link(theirs, CATALOGUE)
    yield near, far
    near.close()
    far.close()


def test_messages_sent_one_way_come_whole_in_order(pair):
    near, far = pair
    said = [messages.Hello(1, "x"), Take(0, "red-thin-2", (1.0, 2.0, 3.0)), messages.State(b"s" * 50_000),
            messages.Ping()]
    for message in said:
        near.send(message)
    near.flush()
    heard = []
    for _ in range(100):
        heard += far.receive()
        if len(heard) == len(said):
            break
    assert heard == said
    assert near.bytes_out == far.bytes_in == sum(4 + len(CATALOGUE.encode(m)) for m in said)
    assert near.queued == 0


def test_a_half_sent_frame_waits_without_holding_the_reader(pair):
    near, far = pair
    whole = frame(CATALOGUE.encode(Aim(1, (4.0, 5.0, 6.0))))
    near.sock.sendall(whole[:7])
    assert far.receive() == []
    assert far.receive() == []             # nothing more came: the call returns at once
    near.sock.sendall(whole[7:])
    assert far.receive() == [Aim(1, (4.0, 5.0, 6.0))]


def test_a_malformed_frame_raises_and_the_peer_hanging_up_closes(pair):
    near, far = pair
    near.sock.sendall(struct.pack(">I", 0))
    with pytest.raises(WireError):
        far.receive()
    near.close()
    far.receive()
    assert far.closed and far.why == "hung up"
    far.send(messages.Ping())               # sending on a closed link is nothing
    assert far.queued == 0


def test_a_reader_that_never_reads_is_cut_off(pair):
    near, far = pair
    state = messages.State(b"\x00" * 60_000)
    for _ in range(MAX_QUEUED // 60_000 + 10):
        near.send(state)
        near.flush()
        if near.closed:
            break
    assert near.closed and near.why == "reader too slow"


def settled(dialling: Dialling, seconds: float = 5.0) -> Link | str | None:
    end = time.monotonic() + seconds
    while (outcome := dialling.poll()) is None and time.monotonic() < end:
        time.sleep(0.001)
    return outcome


def test_dialling_a_listening_port_gives_a_link_and_a_closed_one_a_refusal():
    with socket.create_server((LOOPBACK, 0)) as server:
        port = server.getsockname()[1]
        for host in (LOOPBACK, "localhost"):
            outcome = settled(dial(host, port, CATALOGUE))
            assert isinstance(outcome, Link), outcome
            accepted, _ = server.accept()
            outcome.send(messages.Ping())
            outcome.flush()
            accepted.settimeout(5)
            assert accepted.recv(100) == frame(CATALOGUE.encode(messages.Ping()))
            accepted.close()
            outcome.close()
    assert settled(dial(LOOPBACK, port, CATALOGUE)) == "refused"


def test_dialling_that_hears_nothing_times_out_and_a_cancelled_one_stops():
    """A listener whose queue of connections is full lets the next one's SYN go unanswered."""
    now = [0.0]
    with socket.socket() as server:
        server.bind((LOOPBACK, 0))
        server.listen(0)
        port = server.getsockname()[1]
        waiting = [dial(LOOPBACK, port, CATALOGUE, timeout=5.0, clock=lambda: now[0]) for _ in range(4)]
        outcomes = [dialling.poll() for dialling in waiting]
        now[0] = 6.0
        outcomes = [outcome or dialling.poll() for outcome, dialling in zip(outcomes, waiting)]
        assert "timed out" in outcomes
        for outcome in outcomes:
            if isinstance(outcome, Link):
                outcome.close()
        cancelled = dial(LOOPBACK, port, CATALOGUE)
        cancelled.cancel()
        assert cancelled.poll() == "cancelled"


def test_a_name_nobody_knows_is_an_unknown_host():
    assert dial("no such host.invalid", 7460, CATALOGUE).poll() == "unknown host"
