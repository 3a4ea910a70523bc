"""Logs that keep the evidence: refusals are counted and logged once a minute per address and reason (the first
at once, the rest as a count when the minute is over; past fifty addresses a reason, one line for the others),
so thousands of them write a few lines; anything that goes wrong is logged in full all the same."""

from __future__ import annotations

import logging

from villa.online import protocol
from villa.online.server import Room, Server
from villa.online.server import room as rooms
from villa.online.wire import messages as m
from villa.online.wire.door import Limits
from tests.online.conftest import HELLO, LOOPBACK, Raw, Skipping, pump, two_seats

LOUD = Limits(rate=10**6, burst=10**6, per_address=2, silent_s=3600.0, hello_s=3600.0)


def _lines(caplog, *words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if all(word in r.getMessage() for word in words)]


def test_thousands_of_refusals_write_a_few_lines_and_what_goes_wrong_is_logged_in_full(caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    clock = Skipping()
    server = Server(0, LOOPBACK, limits=LOUD, clock=clock)
    try:
        room = server.open(Room(protocol.new_room_code(), two_seats()))
        guesser = Raw(server.port, source="127.0.0.2")
        guesser.say(HELLO)
        for batch in range(30):                                    # 3000 wrong codes from one address
            guesser.say(*[m.Enter("ZZZZZ")] * 100)
            assert pump(server, [guesser], lambda: guesser.kinds().count(m.Refused) == 100 * (batch + 1))
        crowd = [Raw(server.port, source="127.0.0.3") for _ in range(40)]   # 38 past the address's two
        strangers = [Raw(server.port, source=f"127.1.0.{n}") for n in range(1, 61)]
        for stranger in strangers:                                 # sixty addresses, each something before hello
            stranger.say(m.Enter("AAAAA"))
        assert pump(server, crowd + strangers, lambda: sum(c.closed for c in crowd) >= 38
                    and all(s.closed for s in strangers))

        def broken(self, client, name, seat):
            raise RuntimeError("a mistake of the server's own")
        monkeypatch.setattr(rooms.Room, "sit", broken)
        sitter = Raw(server.port, source="127.0.0.4")
        sitter.say(HELLO, m.Enter(room.code), m.Sit("Anna", 0))
        assert pump(server, [sitter], lambda: sitter.closed)

        assert len(_lines(caplog, "127.0.0.2", "wrong room")) == 1
        assert len(_lines(caplog, "127.0.0.2", "too many tries")) == 1
        assert len(_lines(caplog, "127.0.0.3", "full")) == 1
        assert len(_lines(caplog, "hello first")) == 50, "fifty addresses named a minute for a reason, at most"
        failed = [r for r in caplog.records if "broke down" in r.getMessage()]
        assert len(failed) == 1 and failed[0].exc_info and "a mistake of the server's own" in caplog.text

        clock.skip(61)
        pump(server, [], lambda: False, seconds=1.5)
        assert _lines(caplog, "127.0.0.2", "too many tries, 2989 more")
        assert _lines(caplog, "127.0.0.2", "wrong room, 9 more")
        assert _lines(caplog, "127.0.0.3", "full, 37 more")
        assert _lines(caplog, "refused 10 more: hello first, from 10 other networks")
        lines = [r for r in caplog.records if r.getMessage().startswith("refused")]
        assert len(lines) < 70, f"{len(lines)} lines for over 3100 refusals"
    finally:
        server.close()
