"""TLS between a window and a server, over loopback: the handshake (TLS 1.3, nothing of the game in the clear);
a pinned certificate and a changed one; trust on first use; a man in the middle with a certificate of its own,
refused before the window sends it a byte; a hello sent in the clear refused in the clear; a handshake left half
done, which holds its own connection and nothing else; and a server or a window without TLS, told apart in words.
"""

from __future__ import annotations

import datetime
import hashlib
import select
import socket
import threading

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import Player
from villa.online.client.trust import VOUCHED, Remembered, Trust
from villa.online.protocol import Online
from villa.online.server import Room, Server
from villa.online.wire import messages as m
from villa.online.wire.certificates import Identity, fingerprint, make_identity, short
from villa.online.wire.door import Limits
from villa.online.wire.tls import ServerTls, client_session
from villa.presentation import words
from tests.online.conftest import (HELLO, LOOPBACK, Raw, Skipping, connected, joined, pump, run, three_seats,
                                   two_seats)


def _reached(server: Server, player: Player, seconds: float = 10.0) -> bool:
    """The player welcomed, or lost (its trouble says why)."""
    return run(server, lambda: player.ready or player.lost, seconds=seconds)


def test_the_handshake_is_tls_1_3_and_the_player_knows_the_servers_certificate(server):
    player = Player(LOOPBACK, server.port)
    assert _reached(server, player) and player.ready, player.trouble
    assert player.link.tls.version == "TLSv1.3"
    assert player.fingerprint == server.fingerprint == server.tls.identity.fingerprint
    assert len(server.fingerprint) == 64 and server.fingerprint == server.fingerprint.lower()
    assert server.door.shaking_hands == 0 and server.door.connections == 1


class Tap:
    """A TCP relay between a player and a server that keeps every byte it passes on, each way."""

    def __init__(self, port: int) -> None:
        self.listener = socket.create_server((LOOPBACK, 0))
        self.port = self.listener.getsockname()[1]
        self.upstream = port
        self.passed = bytearray()
        self._stop = False
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        self.listener.settimeout(10)
        player, _ = self.listener.accept()
        server = socket.create_connection((LOOPBACK, self.upstream))
        ends = {player: server, server: player}
        while not self._stop:
            readable, _, _ = select.select(list(ends), [], [], 0.05)
            for sock in readable:
                data = sock.recv(65536)
                if not data:
                    self._stop = True
                    break
                self.passed += data
                ends[sock].sendall(data)
        for sock in ends:
            sock.close()

    def close(self) -> None:
        self._stop = True
        self._thread.join(5)
        self.listener.close()


def test_nothing_of_the_game_crosses_the_network_in_the_clear(server):
    room = server.open(Room(protocol.new_room_code(), two_seats()))
    tap = Tap(server.port)
    try:
        anna = Player(LOOPBACK, tap.port)
        anna.enter(room.code)
        anna.sit("Annabelle", 0)
        assert run(server, lambda: anna.seats, seconds=10), anna.trouble
        token = anna.seats[0]
        assert len(tap.passed) > 1000
        for secret in (room.code.encode(), token.encode(), b"Annabelle", m.GAME.encode()):
            assert secret not in tap.passed, f"{secret!r} crossed in the clear"
    finally:
        tap.close()


def test_a_pinned_certificate_is_the_one_and_a_pin_it_does_not_match_is_refused_before_a_byte_is_sent(server):
    room = server.open(Room(protocol.new_room_code(), two_seats()))
    invited = Player(LOOPBACK, server.port, pin=server.fingerprint.upper())     # however it was written
    invited.enter(room.code)
    assert run(server, lambda: invited.room == room.code, seconds=10), invited.trouble

    other = make_identity().fingerprint
    wrong = Player(LOOPBACK, server.port, pin=other)
    wrong.enter(room.code)
    assert _reached(server, wrong) and wrong.lost and not wrong.failed
    assert wrong.trouble.code is Online.NOT_INVITED
    assert wrong.trouble.values == {"address": f"{LOOPBACK}:{server.port}", "pin": short(other),
                                    "shown": short(server.fingerprint)}
    assert run(server, lambda: server.door.connections == 1, seconds=5)
    assert len(server.visitors) == 1, "the refused player never said hello"
    said = words.connection_ended(wrong.trouble)
    assert "is not the one the invite names" in said and short(other) in said and "nothing was sent" in said


def test_trust_on_first_use_remembers_the_first_certificate_and_refuses_a_changed_one_in_words():
    known = Remembered()
    server = Server(0, LOOPBACK)
    port = server.port
    try:
        first = Player(LOOPBACK, port, trust=Trust(known))
        assert _reached(server, first) and first.ready
        assert known == {f"{LOOPBACK}:{port}": server.fingerprint}, "remembered at the first visit"
        again = Player(LOOPBACK, port, trust=Trust(known))
        assert _reached(server, again) and again.ready, "the same certificate: welcome"
        was = server.fingerprint
    finally:
        server.close()
    server = Server(port, LOOPBACK)                  # the same address, another certificate
    try:
        changed = Player(LOOPBACK, port, trust=Trust(known))
        assert _reached(server, changed) and changed.lost
        assert changed.trouble.code is Online.CERT_CHANGED
        assert changed.trouble.values == {"address": f"{LOOPBACK}:{port}", "was": short(was),
                                          "shown": short(server.fingerprint)}
        assert known[f"{LOOPBACK}:{port}"] == was, "what was remembered stays"
        said = words.connection_ended(changed.trouble)
        assert "shows another certificate than before" in said and short(was) in said
        assert short(server.fingerprint) in said and "new invite" in said
        invited = Player(LOOPBACK, port, pin=server.fingerprint, trust=Trust(known))
        assert _reached(server, invited) and invited.ready, "a new invite's pin passes"
        assert known[f"{LOOPBACK}:{port}"] == server.fingerprint, "and is remembered from then on"
    finally:
        server.close()


class ManInTheMiddle:
    """A relay with a certificate of its own: it answers the player's TLS as if it were the server, and speaks TLS
    to the real server as if it were the player, passing on (and keeping) whatever the player says."""

    def __init__(self, port: int) -> None:
        self.identity = make_identity("Villa Paletti server")        # a look-alike
        self.listener = socket.create_server((LOOPBACK, 0))
        self.listener.setblocking(False)
        self.port = self.listener.getsockname()[1]
        self.upstream = port
        self.from_player = bytearray()                                # what the player said, decrypted
        self.player: socket.socket | None = None
        self.server: socket.socket | None = None

    def poll(self) -> None:
        if self.player is None:
            try:
                self.player, _ = self.listener.accept()
            except BlockingIOError:
                return
            self.player.setblocking(False)
            self.server = socket.create_connection((LOOPBACK, self.upstream))
            self.server.setblocking(False)
            self.as_server = ServerTls(self.identity).session()
            self.as_player = client_session(LOOPBACK, None)
            self.server.sendall(self.as_player.sealed())
        for sock, tls, other, other_tls, kept in ((self.player, self.as_server, self.server, self.as_player, True),
                                                  (self.server, self.as_player, self.player, self.as_server, False)):
            try:
                data = sock.recv(65536)
            except (BlockingIOError, OSError):
                data = None
            if data:
                plain = tls.take_in(data)
                if kept:
                    self.from_player += plain
                if plain and other_tls.established:
                    other_tls.put_out(plain)
            for out_sock, out_tls in ((sock, tls), (other, other_tls)):
                sealed = out_tls.sealed()
                if sealed:
                    out_sock.sendall(sealed)

    def close(self) -> None:
        for sock in (self.player, self.server, self.listener):
            if sock is not None:
                sock.close()


def _through(server: Server, mitm: ManInTheMiddle, player: Player, seconds: float = 10.0) -> bool:
    def done():
        mitm.poll()
        return player.ready or player.lost
    return run(server, done, seconds=seconds)


@pytest.mark.parametrize("how", ["the invite's pin", "a fingerprint kept from before"])
def test_a_man_in_the_middle_with_a_certificate_of_its_own_is_refused_and_told_nothing(server, how):
    mitm = ManInTheMiddle(server.port)
    address = f"{LOOPBACK}:{mitm.port}"
    try:
        if how == "the invite's pin":
            player = Player(LOOPBACK, mitm.port, pin=server.fingerprint)
            refusal = Online.NOT_INVITED
        else:
            player = Player(LOOPBACK, mitm.port, trust=Trust(Remembered({address: server.fingerprint})))
            refusal = Online.CERT_CHANGED
        player.enter("ABCDE")
        assert _through(server, mitm, player) and player.lost
        assert player.trouble.code is refusal and player.trouble.values["shown"] == short(mitm.identity.fingerprint)
        for _ in range(50):
            mitm.poll()
        assert bytes(mitm.from_player) == b"", "its certificate seen, the player said nothing, not even its hello"
        assert not mitm.as_server.established, "nor finished its handshake"
        assert server.visitors == {}, "nothing reached the server"
    finally:
        mitm.close()


def test_an_address_that_showed_a_cas_certificate_is_refused_a_self_signed_one_later(tmp_path):
    authority, identity = _authority_and_server("localhost")
    trust = Trust(Remembered(), roots=[authority])
    server = Server(0, LOOPBACK, identity=identity)
    port = server.port
    try:
        vouched = Player("localhost", port, trust=trust)
        assert _reached(server, vouched) and vouched.ready, vouched.trouble
        assert trust.known.get(f"localhost:{port}") == VOUCHED
        by_number = Player(LOOPBACK, port, trust=Trust(Remembered(), roots=[authority]))
        assert _reached(server, by_number) and by_number.ready, "not for 127.0.0.1: trusted on first use instead"
    finally:
        server.close()
    server = Server(port, LOOPBACK)            # its own, self-signed, at the same address
    try:
        other = Player("localhost", port, trust=trust)
        assert _reached(server, other) and other.lost and other.trouble.code is Online.CERT_UNVOUCHED
        assert "no authority vouches for" in words.connection_ended(other.trouble)
    finally:
        server.close()


def _authority_and_server(name: str) -> tuple[x509.Certificate, Identity]:
    """A CA of the test's own, and a server's certificate it issued for `name` (as a CA hands one out)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test Authority")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    authority = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
                 .public_key(ca_key.public_key()).serial_number(1)
                 .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
                 .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                 .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                              key_encipherment=False, data_encipherment=False, key_agreement=False,
                                              key_cert_sign=True, crl_sign=True, encipher_only=False,
                                              decipher_only=False), critical=True)
                 .add_extension(ca_ski, critical=False)
                 .sign(ca_key, hashes.SHA256()))
    leaf = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])).issuer_name(ca_name)
            .public_key(key.public_key()).serial_number(2)
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
            .sign(ca_key, hashes.SHA256()))
    return authority, Identity((leaf,), key)


def test_a_hello_sent_in_the_clear_is_refused_in_the_clear(server):
    clear = Raw(server.port, tls=False)
    clear.say(HELLO)
    assert pump(server, [clear], lambda: clear.closed)
    assert clear.goodbye() == (Online.TLS_NEEDED.value, {})
    assert server.visitors == {} and server.door.connections == 0

    window = Player(LOOPBACK, server.port, insecure=True)           # a window started with --insecure
    assert _reached(server, window) and window.lost and window.trouble.code is Online.TLS_NEEDED
    assert "--insecure" in words.connection_ended(window.trouble)


def test_a_window_that_speaks_tls_to_a_server_without_it_says_so():
    server = Server(0, LOOPBACK, insecure=True)
    try:
        assert server.fingerprint is None
        player = Player(LOOPBACK, server.port)
        assert _reached(server, player) and player.lost and player.trouble.code is Online.NOT_TLS
        said = words.connection_ended(player.trouble)
        assert "speaks without encryption" in said and f"{LOOPBACK}:{server.port}" in said
        clear = Player(LOOPBACK, server.port, insecure=True)
        assert _reached(server, clear) and clear.ready, "both insecure, both named so"
    finally:
        server.close()


def _half_a_client_hello(port: int, source: str = LOOPBACK) -> socket.socket:
    """A connection that sends the first half of a real TLS client hello, and then nothing."""
    hello = client_session("localhost", None).sealed()
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect((LOOPBACK, port))
    sock.sendall(hello[:len(hello) // 2])
    return sock


def test_a_handshake_held_half_done_holds_its_own_connection_and_nothing_else():
    clock = Skipping()
    server = Server(0, LOOPBACK, clock=clock)
    try:
        room = server.open(Room(protocol.new_room_code(), three_seats()))
        anna, _ben = joined(server, room.code, "Anna", "Ben")
        held = [_half_a_client_hello(server.port, f"127.0.2.{n + 1}") for n in range(20)]
        assert run(server, lambda: server.door.connections == 22 and server.door.shaking_hands == 20, seconds=10)
        tick = room.tick
        for number in range(30):                          # half a second of requests, each answered
            anna.request(rq.Pass(1))
            assert run(server, lambda: len(anna.refusals) == number + 1, seconds=5), f"request {number} unanswered"
        assert room.tick >= tick + 30 and not anna.lost, "the room played on meanwhile"
        assert len(server.visitors) == 2, "a half-done handshake is nobody yet"
        clock.skip(Limits().hello_s + 1)                   # the hello's time is up: the handshake was part of it
        assert run(server, lambda: server.door.connections == 2, seconds=10)
        assert server.door.shaking_hands == 0 and not anna.lost
        for sock in held:
            sock.settimeout(5)
            assert sock.recv(65536) == b"", "closed (a goodbye cannot be said to a peer that never shook hands)"
            sock.close()
    finally:
        server.close()


def test_a_connection_shaking_hands_counts_against_the_limit_of_its_address():
    server = Server(0, LOOPBACK, limits=Limits(per_address=2, total=100))
    try:
        held = [_half_a_client_hello(server.port, "127.0.3.1") for _ in range(2)]
        assert run(server, lambda: server.door.shaking_hands == 2, seconds=10)
        (elsewhere,) = connected(server)                  # another address is let in
        third = Raw(server.port, source="127.0.3.1", tls=False)   # a third from theirs is not: told in the clear,
        assert pump(server, [third], lambda: third.goodbye() is not None)     # before any handshake
        assert third.goodbye() == (Online.FULL.value, {"per_address": 2}) and elsewhere.ready
        limited = Server(0, LOOPBACK, limits=Limits(per_address=1, total=100))
        try:
            first, = connected(limited)
            window = Player(LOOPBACK, limited.port)       # the window reads that goodbye where the handshake was
            assert _reached(limited, window) and window.lost and window.trouble.code is Online.FULL
            assert window.trouble.values == {"per_address": 1} and first.ready
        finally:
            limited.close()
        for sock in held:
            sock.close()
    finally:
        server.close()


def test_the_fingerprint_is_the_sha256_of_the_certificates_der():
    identity = make_identity()
    der = identity.certificate.public_bytes(Encoding.DER)
    assert identity.fingerprint == fingerprint(der) == hashlib.sha256(der).hexdigest()
    assert identity.self_signed and isinstance(identity.key, ec.EllipticCurvePrivateKey)


def test_an_address_begins_so_many_handshakes_a_minute_and_is_then_told_so_before_any_more():
    """Each handshake costs the server a signature: an address that opens and drops connections in a loop spends
    its handshakes for the minute, and is then refused in the clear, at no cost, while others come in."""
    clock = Skipping()
    server = Server(0, LOOPBACK, limits=Limits(handshakes=3), clock=clock)
    try:
        for player in connected(server, 3):
            player.close()
        again = Player(LOOPBACK, server.port)
        assert _reached(server, again) and again.lost and again.trouble.code is Online.FULL
        assert again.trouble.values == {"handshakes_per_minute": 3} and server.door.shaking_hands == 0
        other = Raw(server.port, source="127.0.4.1")
        other.say(HELLO)
        assert pump(server, [other], lambda: m.Welcome in other.kinds()), "another address shakes hands"
        clock.skip(61)
        later = Player(LOOPBACK, server.port)
        assert _reached(server, later) and later.ready, "a minute later, this one may again"
    finally:
        server.close()
