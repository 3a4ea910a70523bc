"""A link with TLS over a socket pair: the handshake carried by the links' own reads and writes, nothing of the
game before it (a player's hello waits for the check of the server), megabytes through a socket that takes a
little at a time, its bytes counted as they cross, and a goodbye read whole before the closing alert."""

from __future__ import annotations

import random
import socket

import pytest
from cryptography.hazmat.primitives.serialization import Encoding

from villa.online.wire import messages
from villa.online.wire.certificates import make_identity
from villa.online.wire.codec import Catalogue
from villa.online.wire.link import Link
from villa.online.wire.tls import ServerTls, client_session

CATALOGUE = Catalogue(messages.KINDS)
SERVER = ServerTls(make_identity())


def _pump(player: Link, server: Link, done, rounds: int = 5000) -> tuple[list, list]:
    """Both links read and write, round after round, until `done(player's, server's)` holds; what each heard."""
    heard: dict[Link, list] = {player: [], server: []}
    for _ in range(rounds):
        for link in (player, server):
            if not link.closed:
                heard[link] += link.receive()
                link.flush()
        if done(heard[player], heard[server]):
            return heard[player], heard[server]
    raise AssertionError("nothing more came")


@pytest.fixture
def linked():
    ours, theirs = socket.socketpair()
    for sock in (ours, theirs):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)     # a socket that takes a little at a time
    checked: list[list[bytes]] = []
    player = Link(ours, CATALOGUE, tls=client_session("localhost", checked.append))
    server = Link(theirs, CATALOGUE, tls=SERVER.session())
    yield player, server, checked
    player.close()
    server.close()


def test_the_handshake_goes_by_the_links_own_reads_and_writes_and_the_hello_waits_for_the_check(linked):
    player, server, checked = linked
    player.send(messages.Hello(messages.PROTOCOL, messages.GAME))
    player.flush()
    assert player.shaking_hands and server.shaking_hands and player.queued > 0, "the hello waits"
    _ours, theirs = _pump(player, server, lambda _ours, theirs: theirs)
    assert theirs == [messages.Hello(messages.PROTOCOL, messages.GAME)]
    assert checked and checked[0][0] == SERVER.identity.certificate.public_bytes(Encoding.DER)
    assert not player.shaking_hands and not server.shaking_hands and player.tls.version == "TLSv1.3"


def test_megabytes_cross_whole_through_a_socket_that_takes_a_little_at_a_time(linked):
    player, server, _checked = linked
    dice = random.Random(5)
    sent = [messages.Villa(n, dice.randbytes(50_000)) for n in range(60)]       # 3 MB, under the queue's 4 MB
    for message in sent:
        server.send(message)
    server.flush()
    heard, _theirs = _pump(player, server, lambda heard, _theirs: len(heard) == len(sent))
    assert heard == sent
    assert server.bytes_out == player.bytes_in > 3_000_000 and server.queued == 0


def test_a_goodbye_is_read_whole_before_the_closing_alert_ends_the_link(linked):
    player, server, _checked = linked
    _pump(player, server, lambda *_heard: not player.shaking_hands and not server.shaking_hands)
    server.send(messages.Goodbye("closing", "{}"))
    server.finish()
    heard, _theirs = _pump(player, server, lambda *_heard: player.closed)
    assert heard == [messages.Goodbye("closing", "{}")] and player.why == "hung up"
