"""A server's certificate on disk and the window's memory of servers: made at first start and kept readable by
its user alone, the same at the next start; a CA's given with --cert/--key, and what is wrong with them said in
a sentence; a folder that cannot be written costs the game nothing; `villa-paletti-server` prints its
fingerprint, which a window pinned to it plays with, and `--insecure` on both sides, named so, speaks in the
clear. The servers a window knew are kept across its starts, and a file that does not read is set aside."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from villa.app import cli, dedicated
from villa.app.known_servers import KnownServersFile
from villa.app.logs import PlayerError
from villa.app.server_identity import CERTIFICATE, KEY, given_identity, own_identity
from villa.online.client import Player
from villa.online.client.trust import VOUCHED, Trust
from villa.online.protocol import Online
from villa.online.wire.certificates import make_identity, pin_of, split_address, with_pin
from tests.online.conftest import LOOPBACK, free_port
from tests.online.test_dedicated import _start, _stopped


def _polled(done, *players: Player, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        for player in players:
            player.poll()
        time.sleep(0.002)
    return True


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_servers_own_certificate_is_made_once_kept_for_its_user_alone_and_the_same_at_the_next_start(tmp_path):
    folder = tmp_path / "data" / "tls"
    first = own_identity(folder)
    assert _mode(folder) == 0o700 and _mode(folder / KEY) == 0o600 and _mode(folder / CERTIFICATE) == 0o600
    assert b"PRIVATE KEY" in (folder / KEY).read_bytes() and b"CERTIFICATE" in (folder / CERTIFICATE).read_bytes()
    assert own_identity(folder).fingerprint == first.fingerprint
    os.chmod(folder / KEY, 0o644)                         # copied about by hand, say
    assert own_identity(folder).fingerprint == first.fingerprint and _mode(folder / KEY) == 0o600


def test_a_certificate_that_no_longer_reads_is_set_aside_and_a_new_one_made(tmp_path):
    folder = tmp_path / "tls"
    first = own_identity(folder)
    (folder / KEY).write_text("not a key")
    second = own_identity(folder)
    assert second.fingerprint != first.fingerprint
    assert (folder / (KEY + ".unreadable")).read_text() == "not a key"
    assert own_identity(folder).fingerprint == second.fingerprint


def test_a_folder_that_cannot_be_written_leaves_the_server_a_certificate_of_its_own_for_the_run(tmp_path, caplog):
    (tmp_path / "tls").write_text("a file where the folder would go")
    identity = own_identity(tmp_path / "tls")
    assert len(identity.fingerprint) == 64 and "could not be kept" in caplog.text


def test_a_cas_certificate_and_key_are_read_and_what_is_wrong_with_them_said(tmp_path):
    identity, other = make_identity(), make_identity()
    cert, key, wrong = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "other-key.pem"
    cert.write_bytes(identity.certificate_pem())
    key.write_bytes(identity.key_pem())
    wrong.write_bytes(other.key_pem())
    assert given_identity(cert, key).fingerprint == identity.fingerprint
    with pytest.raises(PlayerError, match="the key is not the certificate's"):
        given_identity(cert, wrong)
    with pytest.raises(PlayerError, match="could not be read: No such file"):
        given_identity(tmp_path / "none.pem", key)
    with pytest.raises(PlayerError, match="no certificate could be read"):
        given_identity(key, key)


@pytest.mark.parametrize("argv, words", [
    (["--cert", "c.pem"], "--cert and --key go together"),
    (["--key", "k.pem"], "--cert and --key go together"),
    (["--insecure", "--cert", "c.pem", "--key", "k.pem"], "--insecure speaks without TLS"),
])
def test_the_servers_tls_options_that_do_not_go_together_are_refused(argv, words, capsys):
    with pytest.raises(SystemExit):
        dedicated.parse(argv)
    assert words in capsys.readouterr().err


def test_the_dedicated_server_prints_its_fingerprint_keeps_it_and_a_pinned_window_plays_there(tmp_path):
    port = free_port()
    server, lines = _start(tmp_path, port)
    try:
        said = next(line for line in lines if line.startswith("TLS certificate "))
        fingerprint = said.split()[2]
        assert pin_of(fingerprint) == fingerprint and "(its own)" in said
        code = next(line for line in lines if line.startswith("room ")).split()[1]
        player = Player(LOOPBACK, port, pin=fingerprint)
        assert _polled(lambda: player.ready or player.lost, player) and player.ready, player.trouble
        player.enter(code)
        assert _polled(lambda: player.room == code, player)
        player.close()
    finally:
        _stopped(server)
    key = tmp_path / "data" / "tls" / KEY
    assert _mode(key) == 0o600
    server, lines = _start(tmp_path, port, "--new-room")
    try:
        assert f"TLS certificate {fingerprint} (its own)\n" in lines, "the same certificate at the next start"
    finally:
        _stopped(server)


def test_a_server_started_insecure_plays_only_with_windows_started_so(tmp_path):
    port = free_port()
    server, lines = _start(tmp_path, port, "--insecure")
    try:
        assert "without TLS (--insecure): everything goes in the clear\n" in lines
        assert not (tmp_path / "data" / "tls").exists(), "no certificate made"
        secure = Player(LOOPBACK, port)
        assert _polled(lambda: secure.lost, secure) and secure.trouble.code is Online.NOT_TLS
        clear = Player(LOOPBACK, port, insecure=True)
        assert _polled(lambda: clear.ready or clear.lost, clear) and clear.ready
        clear.close()
    finally:
        _stopped(server)
    assert cli.parse(["--insecure"]).insecure and not cli.parse([]).insecure, "the window's choice, named the same"


def test_the_servers_a_window_knew_are_kept_across_its_starts(tmp_path):
    path = tmp_path / "config" / "known_servers.json"
    known = KnownServersFile(path)
    pin = make_identity().fingerprint
    known.remember("example.org:47170", pin)
    known.remember("games.example.org:47170", VOUCHED)
    again = KnownServersFile(path)
    assert again.get("example.org:47170") == pin and again.get("games.example.org:47170") == VOUCHED
    assert again.get("elsewhere:1") is None
    assert json.loads(path.read_text()) == {"example.org:47170": pin, "games.example.org:47170": VOUCHED}


def test_a_file_of_known_servers_that_does_not_read_is_set_aside_not_overwritten(tmp_path):
    path = tmp_path / "known_servers.json"
    path.write_text("{ not json")
    known = KnownServersFile(path)
    assert known.get("example.org:47170") is None
    assert (tmp_path / "known_servers.json.unreadable").read_text() == "{ not json"
    known.remember("example.org:47170", make_identity().fingerprint)
    assert len(json.loads(path.read_text())) == 1


def test_a_window_remembers_the_server_across_its_starts_and_refuses_another_certificate_there(tmp_path):
    """Two windows one after the other, with the same file: the second refuses the server that came back with
    another certificate at the same address."""
    path, port = tmp_path / "known_servers.json", free_port()
    for home, refused in ((tmp_path / "first", False), (tmp_path / "second", True)):
        server, _lines = _start(home, port)       # each its own data folder: its own certificate
        try:
            player = Player(LOOPBACK, port, trust=Trust(KnownServersFile(path)))
            assert _polled(lambda: player.ready or player.lost, player)
            assert player.lost == refused
            if refused:
                assert player.trouble.code is Online.CERT_CHANGED
            player.close()
        finally:
            _stopped(server)
        time.sleep(0.1)


def test_an_address_carries_its_certificates_fingerprint_after_a_hash():
    pin = make_identity().fingerprint
    assert split_address(with_pin("10.0.0.7:47170", pin)) == ("10.0.0.7", 47170, pin)
    assert split_address("10.0.0.7:47170") == ("10.0.0.7", 47170, None)
    assert split_address("[::1]:47170#" + pin.upper()) == ("::1", 47170, pin)
    assert split_address("10.0.0.7:47170#nothex") is None and split_address("10.0.0.7") is None
    colons = ":".join(pin[i:i + 2] for i in range(0, 64, 2))
    assert pin_of(colons.upper()) == pin and pin_of(pin[:-1]) is None and pin_of("") is None
