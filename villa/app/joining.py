"""Straight into a game online from the command line (`--join HOST:PORT --room CODE --name NAME`, or `--join
INVITE --name NAME`): connect, find the room, take back the seat kept in the settings there (a connection that
was lost), or else sit at the first free seat. Each way it can fail is one sentence (a `PlayerError`), said before
any window opens; nothing on disk is touched here (the window keeps the seat, `OnlinePlay.adopt`)."""

from __future__ import annotations

import time

from villa.app.addresses import host_port
from villa.app.kept_seat import kept_seat_waits
from villa.app.logs import PlayerError
from villa.online.client import Player
from villa.online.client.trust import Trust
from villa.online.protocol import Online, OnlineError
from villa.presentation.preferences import KeptSeat
from villa.presentation.words import refusal

ANSWER_S = 10.0     # s the server has to answer each step
# the connection's own troubles, whose sentences name the server already
TLS_TROUBLES = (Online.NOT_TLS, Online.TLS_FAILED, Online.NOT_INVITED, Online.CERT_CHANGED, Online.CERT_UNVOUCHED)


def address(host: str, port: int) -> str:
    """The server as the settings keep it (and the menus show it)."""
    return host_port(host, port)


def sit_down(host: str, port: int, code: str, name: str, seconds: float = ANSWER_S,
             kept: KeptSeat | None = None, pin: str | None = None, insecure: bool = False,
             trust: Trust | None = None) -> Player:
    """A player seated in room `code` at `host:port` (its game may still wait for the others); `kept`: the seat
    kept in the settings, taken back with its token when it is in this room on this server and may still wait;
    `pin`, `insecure`, `trust`: how the server is checked (`villa.online.client.Player`): an invite's pin is the
    fingerprint its certificate must have."""
    where = address(host, port)
    player = Player(host, port, timeout=seconds, pin=pin, insecure=insecure, trust=trust)
    if not _until(player, lambda: player.ready or player.lost, seconds) or not player.ready:
        _let_go(player)
        if isinstance(player.trouble, OnlineError) and player.trouble.code in TLS_TROUBLES:
            raise PlayerError(refusal(player.trouble))
        if player.trouble is not None and not player.failed:
            raise PlayerError(f"the server at {where} did not let the game in: {refusal(player.trouble)}")
        raise PlayerError(f"no game server answers at {where}")
    refused = len(player.refusals)
    player.enter(code)
    if not _until(player, lambda: player.room is not None and player.table or player.lost
                  or len(player.refusals) > refused, seconds) or player.room is None:
        _let_go(player)
        why = player.refusals[-1] if len(player.refusals) > refused else None
        if isinstance(why, OnlineError) and why.code is Online.TOO_MANY_TRIES:
            raise PlayerError(f"the server at {where} refuses more room codes from here for a while: "
                              f"{refusal(why)}")
        raise PlayerError(f"there is no room {code.strip().upper()} on the server at {where}")
    if kept is not None and (kept.address, kept.code) == (where, player.code) and kept_seat_waits(kept, time.time()):
        refused = len(player.refusals)
        player.rejoin(kept.token)
        _until(player, lambda: player.seats or len(player.refusals) > refused or player.lost, seconds)
        if player.seats:
            return player       # else the server no longer knows the token: sit down as anyone would
    for seat, at in enumerate(player.table.get("seats", ())):
        if at.get("computer") or at.get("taken"):
            continue
        refused = len(player.refusals)
        player.sit(name, seat)
        _until(player, lambda: player.seats or len(player.refusals) > refused or player.lost, seconds)
        if player.seats:
            return player
        why = player.refusals[-1] if len(player.refusals) > refused else None
        if isinstance(why, OnlineError) and why.code is Online.NAME_TAKEN:
            _let_go(player)
            raise PlayerError(f"someone in room {player.code} is called {name} already: choose another --name")
        if not (isinstance(why, OnlineError) and why.code is Online.SEAT_TAKEN):
            break
    _let_go(player)
    raise PlayerError(f"room {player.code} has no free seat")


def _until(player: Player, done, seconds: float) -> bool:
    """Poll the player's connection until `done()` (True) or `seconds` have passed (False)."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        player.poll()
        time.sleep(0.005)
    return True


def _let_go(player: Player) -> None:
    player.close()
