"""Who sits where at a room's table: each person's seat, the token they come back with, their connection,
and who hosts. The seating knows nothing of the game played at the table (`Room` does).

A seat left by a lost connection waits for its token for `REJOIN_S`; each time a player comes back they get
a new token, so a token once seen by anyone else is worth nothing after its owner is back. A player who gives
their seat up for good leaves it waiting for the host's choice (a computer player), with no token to come back
with; a person's seat a computer plays since (the host's choice, or a wait that ran out) is a stand-in's.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from villa.match import Seat
from villa.match.setup import clean_name
from villa.online.protocol import Online, OnlineError

REJOIN_S = 600.0          # a dropped player's seat waits this long for them, then a computer plays it


@dataclass
class Sitter:
    """A person's seat: their name, the token they rejoin with, their connection (None: gone since `gone_at`)."""

    name: str
    token: str
    client: int | None = None
    gone_at: float = 0.0
    for_good: bool = False      # they gave the seat up: nobody comes back to it


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Seating:
    """`seats`: the table's seats as the game (or its plan) has them; `sitters`: the people at them."""

    def __init__(self, seats: tuple[Seat, ...], sitters: dict[int, Sitter] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seats = seats
        self.sitters: dict[int, Sitter] = dict(sitters or {})
        self.stand_ins: set[int] = set()       # people's seats a computer plays since the game began
        self._clock = clock

    # --- sitting down, leaving, coming back ---

    def sit(self, client: int, name: str, seat: int, started: bool) -> Sitter:
        """`client` sits at `seat` under `name` (a game under way keeps its players' names); an `OnlineError` says
        why not."""
        if not 0 <= seat < len(self.seats):
            raise OnlineError(Online.NO_SUCH_SEAT, seat=seat)
        name = clean_name(name)
        if not name:
            raise OnlineError(Online.NO_NAME)
        sitter = self.sitters.get(seat)
        if self.seats[seat].is_computer or (sitter is not None and sitter.client != client):
            taker = self.seats[seat].name if self.seats[seat].is_computer else sitter.name
            raise OnlineError(Online.SEAT_TAKEN, seat=seat, name=taker)
        if started:
            name = self.seats[seat].name
        elif name in self.names_but(seat):
            raise OnlineError(Online.NAME_TAKEN, name=name)
        self.sitters[seat] = Sitter(name, new_token(), client)
        return self.sitters[seat]

    def rejoin(self, client: int, token: str) -> int:
        """The seat that waited for this token, taken back by `client` (with a new token)."""
        found = [n for n, s in self.sitters.items() if secrets.compare_digest(s.token.encode(), token.encode())]
        if not found:
            raise OnlineError(Online.UNKNOWN_TOKEN)
        sitter = self.sitters[found[0]]
        sitter.client, sitter.token = client, new_token()
        return found[0]

    def leave(self, client: int) -> list[int]:
        """A connection closed (or its player left): its seats wait for their tokens. Returns those seats."""
        left = []
        for seat, sitter in self.sitters.items():
            if sitter.client == client:
                sitter.client, sitter.gone_at = None, self._clock()
                left.append(seat)
        return left

    def give_up(self, client: int) -> list[int]:
        """The connection's player gives their seats up for good: they wait for the host's choice, and no token
        takes them back. Returns those seats."""
        given = self.leave(client)
        for seat in given:
            self.give_up_seat(seat)
        return given

    def give_up_seat(self, seat: int) -> None:
        """The seat's player, away, gives it up for good (a room kept on the disk of its host, who plays elsewhere)."""
        sitter = self.sitters.get(seat)
        if sitter is not None:
            sitter.client, sitter.for_good, sitter.token = None, True, new_token()
            sitter.gone_at = sitter.gone_at or self._clock()

    def free(self, seat: int) -> int | None:
        """Nobody sits at `seat` any more (given to a computer, or sent away); returns the connection that sat there."""
        sitter = self.sitters.pop(seat, None)
        return None if sitter is None else sitter.client

    def waited_too_long(self) -> list[int]:
        """The seats whose players have been gone longer than a seat waits."""
        now = self._clock()
        return [n for n, s in self.sitters.items() if s.client is None and now - s.gone_at > REJOIN_S]

    # --- who is who ---

    def seats_of(self, client: int) -> list[int]:
        return sorted(n for n, s in self.sitters.items() if s.client == client)

    def holds(self, client: int, seat: int) -> bool:
        sitter = self.sitters.get(seat)
        return sitter is not None and sitter.client == client

    def check_holds(self, client: int, seat: int) -> None:
        """An `OnlineError` unless `client` sits at `seat`."""
        if not self.holds(client, seat):
            raise OnlineError(Online.NOT_YOUR_SEAT if self.seats_of(client) else Online.NOT_SEATED, seat=seat)

    def connection(self, seat: int | None) -> int | None:
        sitter = self.sitters.get(seat) if seat is not None else None
        return None if sitter is None else sitter.client

    @property
    def anyone_here(self) -> bool:
        return any(s.client is not None for s in self.sitters.values())

    @property
    def computers_only(self) -> bool:
        """Nobody but computer players plays at this table (their game is played while someone watches it)."""
        return all(seat.is_computer for seat in self.seats)

    @property
    def host_seat(self) -> int | None:
        """The host's seat: the person here at the lowest seat (who opened the room sits first, so at the top)."""
        here = sorted(n for n, s in self.sitters.items() if s.client is not None)
        return here[0] if here else None

    @property
    def host(self) -> int | None:
        """The host's connection."""
        return self.connection(self.host_seat)

    def check_host(self, client: int) -> None:
        if client != self.host or client is None:
            raise OnlineError(Online.NOT_HOST)

    def names_but(self, seat: int) -> set[str]:
        """The names at the table but for `seat`'s: everyone needs a name of their own."""
        return ({s.name for n, s in self.sitters.items() if n != seat}
                | {s.name for n, s in enumerate(self.seats) if s.is_computer and n != seat})

    def empty_seats(self) -> list[int]:
        """People's seats nobody here sits at."""
        return [n for n, seat in enumerate(self.seats)
                if not seat.is_computer and (n not in self.sitters or self.sitters[n].client is None)]

    def unsat(self) -> list[int]:
        """People's seats nobody ever sat at (or given up)."""
        return [n for n, seat in enumerate(self.seats) if not seat.is_computer and n not in self.sitters]

    # --- as the players see it, and as the files keep it ---

    def rows(self) -> list[dict]:
        """Each seat as the table shows it: name, computer player's strength, sat, here; a seat whose player left
        for how many seconds more it waits for them (`kept_s`) or that they gave it up (`left`); a person's seat a
        computer plays (`stand_in`)."""
        rows, now = [], self._clock()
        for number, seat in enumerate(self.seats):
            sitter = self.sitters.get(number)
            row = {"name": sitter.name if sitter else seat.name, "computer": seat.computer.value if seat.computer
                   else None, "taken": sitter is not None, "here": bool(sitter and sitter.client is not None)}
            if sitter is not None and sitter.client is None:
                row["kept_s"] = round(max(0.0, REJOIN_S - (now - sitter.gone_at)), 1)
                row["left"] = sitter.for_good
            if number in self.stand_ins and seat.is_computer:
                row["stand_in"] = True
            rows.append(row)
        return rows

    def to_json(self) -> dict:
        """Who sits where with their tokens (kept beside the autosave, so a restarted server knows them), and who
        gave their seat up for good."""
        return {str(n): {"name": s.name, "token": s.token, **({"for_good": True} if s.for_good else {})}
                for n, s in self.sitters.items()}

    @classmethod
    def from_json(cls, seats: tuple[Seat, ...], data: dict, clock: Callable[[], float] = time.monotonic) -> "Seating":
        """The seating again from what the files kept: every player away, their tokens waiting from now on."""
        now = clock()
        sitters = {}
        for number, sitter in dict(data).items():
            seat = int(number)
            if 0 <= seat < len(seats) and not seats[seat].is_computer:
                sitters[seat] = Sitter(clean_name(str(sitter["name"])), str(sitter["token"]), None, now,
                                       sitter.get("for_good") is True)
        return cls(seats, sitters, clock)
