"""No message crashes the server, and no room's fault spreads. Every kind of message (0 to 255) with bodies of
every length from 0 to 64 bytes, random, and messages of every kind a client sends with values at and past
their edges, come from clients before their hello, after it, in a room and seated: the server serves on, and
a player who behaves plays on. A room whose game breaks ends alone: its game kept, its players told in one
sentence, every other room playing on. (The door's own tests cover the frames; these, what lies behind it:
the handlers, the rooms, the lobby.)"""

from __future__ import annotations

import random
import typing
from dataclasses import fields
from enum import Enum

import pytest

from villa import rules
from villa.match import MatchSetup, Seat, Strength, layout_named
from villa.match import requests as rq
from villa.online import protocol
from villa.online.protocol import Online
from villa.online.server import CATALOGUE, Room, Server
from villa.online.wire import messages as m
from villa.online.wire.costs import Budget
from villa.online.wire.door import Limits, Tries
from villa.online.wire.frames import WireError
from villa.rules.pieces import ALL_COLUMNS
from tests.online.conftest import HELLO, LOOPBACK, Kept, Raw, joined, pump, run, two_seats

PHASES = ("before hello", "after hello", "in a room", "seated")
WIDTH = 6                            # clients sent at once (each seated one in a room of its own)
END = m.Enter("")                    # after the message fuzzed: its answer (no such room) says the message was read


@pytest.fixture
def open_server():
    """A server that lets one address in as often as the fuzz needs, spend what it asks, and try any number of codes;
    in the clear, for the bytes of each frame are the point (a frame through TLS is the same frame once decrypted)."""
    spend = Budget(time_s=100.0, time_burst_s=1000.0, bytes=10**12, bytes_burst=10**12)
    server = Server(0, LOOPBACK, limits=Limits(per_address=4096, total=4096, each=spend, network=spend),
                    tries=Tries(per_minute=10**9), insecure=True)
    yield server
    server.close()


class Tables:
    """The rooms fuzzed: Anna and Ben's, which the clients in a room enter, and for the seated clients rooms of
    one person and a computer player, each seat taken back with its newest token by the next client."""

    def __init__(self, server: Server, seated: int) -> None:
        self.server = server
        self.shared = server.open(Room(protocol.new_room_code(), two_seats(), keep=Kept()))
        self.anna, self.ben = joined(server, self.shared.code, "Anna", "Ben")
        self.seats: list[tuple[Room, str]] = [self._cleos_room(seed) for seed in range(seated)]
        assert pump(server, [], lambda: len(server.visitors) == 2)

    def _cleos_room(self, seed: int) -> tuple[Room, str]:
        """A room of Cleo's and a computer player's, and Cleo's token."""
        plan = MatchSetup((Seat("Cleo"), Seat("Computer", Strength.EASY)), layout_named("random", seed + 1),
                          seed=seed + 1)
        room = self.server.open(Room(protocol.new_room_code(), plan, keep=Kept()))
        cleo = Raw(self.server.port, tls=False)
        cleo.say(HELLO, m.Enter(room.code), m.Sit("Cleo", 0))
        assert pump(self.server, [cleo], lambda: m.Seated in cleo.kinds())
        cleo.close()
        return room, next(s.token for s in cleo.heard if isinstance(s, m.Seated))

    @property
    def codes(self) -> list[str]:
        return [self.shared.code, *(room.code for room, _token in self.seats)]

    def prefix(self, phase: str, n: int) -> list:
        """What a client says to be in its phase."""
        if phase == "before hello":
            return []
        if phase == "after hello":
            return [HELLO]
        if phase == "in a room":
            return [HELLO, m.Enter(self.shared.code)]
        room, token = self.seats[n]
        return [HELLO, m.Rejoin(room.code, token)]

    def heard(self, client: Raw, n: int) -> None:
        """A seated client's newest token, for the next one (none: the door read its rejoin and what came after
        as one malformed stream, and closed it before any of it was carried out)."""
        tokens = [s.token for s in client.heard if isinstance(s, m.Seated)]
        assert tokens or client.goodbye() == (Online.MALFORMED.value, {}), client.heard
        room = self.seats[n][0]
        if tokens and room.seating.sitters[0].for_good:     # it gave the seat up: no token takes it back
            self.seats[n] = self._cleos_room(len(self.codes) + n)
        elif tokens:
            self.seats[n] = (room, tokens[-1])


def _read(client: Raw, phase: str) -> bool:
    if client.closed or phase == "before hello":
        return client.closed
    return any(isinstance(s, m.Refused) and s.code == Online.WRONG_ROOM.value for s in client.heard)


def fuzz(server: Server, tables: Tables, sent: list[tuple[str, bytes]]) -> None:
    """Each payload from a client of its own, in its phase (a frame of it, whatever it holds)."""
    for at in range(0, len(sent), WIDTH):
        batch = [(Raw(server.port, tls=False), phase, payload, n) for n, (phase, payload) in enumerate(sent[at:at + WIDTH])]
        for client, phase, payload, n in batch:
            client.say(*tables.prefix(phase, n % len(tables.seats)))
            client.send_payload(payload)
            if not client.closed:
                try:
                    client.say(END)
                except OSError:
                    pass                  # the server hung up already
        assert pump(server, [c for c, *_ in batch], lambda: all(_read(c, phase) for c, phase, *_ in batch)), \
            [(phase, payload, c.heard) for c, phase, payload, _n in batch if not _read(c, phase)][:3]
        for client, phase, _payload, n in batch:
            if phase == "seated":
                tables.heard(client, n % len(tables.seats))
            client.close()
        assert pump(server, [], lambda: len(server.visitors) == 2), "every connection let go"


def _plays_on(server: Server, tables: Tables) -> None:
    """Anna and Ben still play: whoever's move it is takes a column and gives it up; every room is still open."""
    assert set(tables.codes) <= set(server.rooms), "no room broke down"
    room, players = tables.shared, (tables.anna, tables.ben)
    assert run(server, lambda: not room.match.busy and room.match.actor in (0, 1)
               and players[room.match.actor].state == room.match.state, seconds=60)
    seat = room.match.actor
    column = sorted(rules.grabbable_columns(room.match.state))[0]
    players[seat].request(rq.Take(seat, column))
    players[seat].request(rq.GiveUp(seat))
    assert run(server, lambda: column in room.match.state.blocked, seconds=30)
    assert not any(p.lost for p in players)


def _grid(kinds, lengths, seed: int) -> list[tuple[str, bytes]]:
    dice = random.Random(seed)
    return [(phase, bytes([kind]) + dice.randbytes(length)) for phase in PHASES for kind in kinds for length in lengths]


def test_random_bodies_of_every_kind_from_clients_in_every_phase_leave_the_server_serving(open_server, caplog):
    tables = Tables(open_server, seated=WIDTH)
    kinds = [CATALOGUE.kinds.index(kind) for kind in (*m.FROM_CLIENTS, m.Welcome, m.State)] + [len(m.KINDS), 255]
    fuzz(open_server, tables, _grid(sorted(kinds), (0, 1, 8, 9, 16, 17, 40, 64), seed=34))
    _plays_on(open_server, tables)
    assert "broke down" not in caplog.text


@pytest.mark.slow
def test_every_kind_with_every_body_length_from_clients_in_every_phase_leaves_the_server_serving(open_server, caplog):
    tables = Tables(open_server, seated=WIDTH)
    fuzz(open_server, tables, _grid(range(256), range(65), seed=340))
    _plays_on(open_server, tables)
    assert "broke down" not in caplog.text


# --- messages that read, with values at and past their edges ----------------------------------------------

def _value(hint, dice: random.Random, codes: list[str], plan: bytes):
    """A value of a message's field: at its bounds, inside them, or one a server must expect anyway."""
    bounds = None
    if typing.get_origin(hint) is typing.Annotated:
        hint, *extras = typing.get_args(hint)
        bounds = next((e for e in extras if isinstance(e, rq.Bounds)), None)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if args and type(None) in args:
        return None if dice.random() < 0.3 else _value(next(a for a in args if a is not type(None)), dice, codes, plan)
    if origin is tuple:
        return tuple(_value(arg, dice, codes, plan) for arg in args)
    if hint is bool:
        return dice.random() < 0.5
    if isinstance(hint, type) and issubclass(hint, Enum):
        return dice.choice(list(hint))
    low, high = (bounds.low, bounds.high) if bounds else (0, 0)
    if hint is int:
        low, high = (int(low), int(high)) if bounds else (-2**63, 2**63 - 1)
        return dice.choice((low, high, dice.randint(low, high), 0, 1))
    if hint is float:
        low, high = (low, high) if bounds else (-1e300, 1e300)
        return dice.choice((low, high, dice.uniform(low, high), 0.0, -0.0, 1.5, 150.0, 199.9, 200.1))
    most = int(high) if bounds else 64
    if hint is str:
        return dice.choice(("", "A" * most, *codes, "abcde", "\u202e\x00\n", dice.choice(ALL_COLUMNS).id,
                            "floor-2", "é" * most, "red"))[:most]
    return dice.choice((b"", b"{}", b"null", b"[]", b'{"seats": []}', plan,
                        dice.randbytes(min(most, 200)), b"{" * min(most, 4000)))[:most]


def _messages(kind: type, count: int, dice: random.Random, codes: list[str], plan: bytes) -> list[bytes]:
    hints = typing.get_type_hints(kind, include_extras=True)
    made = []
    for _ in range(count):
        message = kind(*(_value(hints[f.name], dice, codes, plan) for f in fields(kind)))
        try:
            made.append(CATALOGUE.encode(message))
        except WireError:
            pass                          # a value the wire itself cannot carry (past a bound): not sent
    return made


def test_messages_that_read_with_values_at_their_edges_leave_the_server_serving(open_server, caplog):
    tables = Tables(open_server, seated=WIDTH)
    dice = random.Random(34)
    kinds = sorted(m.FROM_CLIENTS - {m.Hello, m.Ping}, key=lambda kind: kind.__name__)
    sent = [(phase, payload) for phase in PHASES[1:] for kind in kinds
            for payload in _messages(kind, 12, dice, tables.codes, protocol.pack_plan(tables.shared.plan))]
    fuzz(open_server, tables, sent)
    _plays_on(open_server, tables)
    assert "broke down" not in caplog.text


# --- a room that breaks ------------------------------------------------------------------------------------

def _two_rooms(server: Server):
    stores = [Kept(), Kept()]
    rooms = [server.open(Room(protocol.new_room_code(), two_seats(seed), keep=store))
             for seed, store in zip((3, 4), stores)]
    players = [joined(server, room.code, *names) for room, names in zip(rooms, (("Anna", "Ben"), ("Cleo", "Dan")))]
    assert run(server, lambda: all(p.state is not None and p.poses for pair in players for p in pair), seconds=30)
    return rooms, stores[0], players


def _broken(*_args, **_kwargs):
    raise RuntimeError("a fault in the room's own code")


@pytest.mark.parametrize("where", ["frame", "request"])
def test_a_room_that_breaks_ends_alone_its_game_kept_and_its_players_told(server, caplog, monkeypatch, where):
    (broken, other), kept, (told, playing) = _two_rooms(server)
    kept_before = len(kept.records)
    monkeypatch.setattr(broken.match, "close", _broken)          # and it cannot even be closed cleanly
    if where == "frame":
        monkeypatch.setattr(broken.match, "frame", _broken)
    else:
        monkeypatch.setattr(broken.match, "request", _broken)
        seat = broken.match.actor if broken.match.actor is not None else 0
        told[seat].request(rq.Propose(seat))
    assert run(server, lambda: all(p.lost for p in told), seconds=10)
    assert all(p.trouble.code is Online.ROOM_FAILED for p in told)
    assert broken.code not in server.rooms and len(kept.records) == kept_before + 1, "its game kept"
    assert caplog.text.count(f"room {broken.code} broke down") == 1
    tick = other.tick
    assert run(server, lambda: other.tick > tick + 30, seconds=10) and other.code in server.rooms
    assert not any(p.lost for p in playing), "the other room plays on"
    assert not [c for c, v in server.visitors.items() if v.room == broken.code]


def test_a_message_the_server_fails_to_carry_out_outside_a_room_ends_that_connection_only(server, room, monkeypatch,
                                                                                          caplog):
    (anna,) = joined(server, room.code, "Anna")
    monkeypatch.setattr(protocol, "unpack_plan", _broken)
    mallory = Raw(server.port)
    mallory.say(HELLO, m.OpenRoom(b"{}"))
    assert pump(server, [mallory], lambda: mallory.closed)
    assert mallory.goodbye() == (Online.MALFORMED.value, {}) and "OpenRoom from connection" in caplog.text
    anna.request(rq.Pass(1))
    assert run(server, lambda: anna.refusals, seconds=10) and anna.refusals[-1].code is Online.NOT_YOUR_SEAT
