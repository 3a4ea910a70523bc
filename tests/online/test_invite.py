"""An invite, written and read back: what a chat makes of the line still reads, anything else is one code."""

from __future__ import annotations

import pytest

from villa.online.invite import BadInvite, Invite, InviteError, looks_like_invite, parse_invite
from villa.online.protocol import PORT

PRINT = "3f1c" + "a0" * 30          # 64 hex digits: SHA-256 of a certificate's DER


def test_an_invite_names_the_server_the_room_and_the_certificate():
    invite = Invite("203.0.113.45", 47171, "K7QXM", PRINT)
    assert str(invite) == f"villa-paletti://203.0.113.45:47171/K7QXM#{PRINT}"
    assert parse_invite(str(invite)) == invite and invite.address == "203.0.113.45:47171"


def test_a_server_without_tls_has_an_invite_without_a_fingerprint():
    invite = Invite("villa.example.org", PORT, "K7QXM")
    assert str(invite) == f"villa-paletti://villa.example.org:{PORT}/K7QXM"
    assert parse_invite(str(invite)).fingerprint is None


def test_an_ipv6_address_is_written_in_brackets():
    invite = Invite("2001:db8::7", 47170, "K7QXM", PRINT)
    assert str(invite).startswith("villa-paletti://[2001:db8::7]:47170/")
    assert parse_invite(str(invite)) == invite


@pytest.mark.parametrize("pasted", [
    f"  villa-paletti://203.0.113.45:47171/K7QXM#{PRINT}\n",
    f"<villa-paletti://203.0.113.45:47171/K7QXM#{PRINT}>",
    f'"villa-paletti://203.0.113.45:47171/k7qxm/#{PRINT.upper()}"',
    "VILLA-PALETTI://203.0.113.45:47171/K7QXM#" + ":".join(PRINT[i:i + 2] for i in range(0, 64, 2)),
])
def test_what_a_chat_or_a_terminal_made_of_the_line_still_reads(pasted):
    assert looks_like_invite(pasted)
    assert parse_invite(pasted) == Invite("203.0.113.45", 47171, "K7QXM", PRINT)


def test_an_invite_without_a_port_is_on_the_games_own():
    assert parse_invite("villa-paletti://villa.example.org/K7QXM").port == PORT


@pytest.mark.parametrize("line, code", [
    ("192.168.1.20:47170", BadInvite.NOT_AN_INVITE),
    ("https://203.0.113.45:47171/K7QXM", BadInvite.NOT_AN_INVITE),
    ("villa-paletti:///K7QXM", BadInvite.NO_HOST),
    ("villa-paletti://bad host:47170/K7QXM", BadInvite.NO_HOST),
    ("villa-paletti://[zz::1]:47170/K7QXM", BadInvite.NO_HOST),
    ("villa-paletti://203.0.113.45:/K7QXM", BadInvite.BAD_PORT),
    ("villa-paletti://203.0.113.45:70000/K7QXM", BadInvite.BAD_PORT),
    ("villa-paletti://203.0.113.45:port/K7QXM", BadInvite.BAD_PORT),
    ("villa-paletti://203.0.113.45:47171", BadInvite.BAD_CODE),
    ("villa-paletti://203.0.113.45:47171/K7QX0", BadInvite.BAD_CODE),
    (f"villa-paletti://203.0.113.45:47171/K7QXM#{PRINT[:40]}", BadInvite.BAD_FINGERPRINT),
    (f"villa-paletti://203.0.113.45:47171/K7QXM#{PRINT[:-1]}g", BadInvite.BAD_FINGERPRINT),
    ("villa-paletti://203.0.113.45:47171/K7QXM#", BadInvite.BAD_FINGERPRINT),
])
def test_anything_else_is_one_code(line, code):
    with pytest.raises(InviteError) as told:
        parse_invite(line)
    assert told.value.code is code


def test_a_line_pasted_many_times_over_is_read_no_further_than_an_invite_reaches():
    with pytest.raises(InviteError):
        parse_invite("villa-paletti://" + "a" * 100_000 + ":47170/K7QXM")
