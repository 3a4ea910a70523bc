"""Straight into a game online from the command line (`--join HOST:PORT --room CODE --name NAME`): connect,
find the room, sit at the first free seat. Each way it can fail is one sentence (a `PlayerError`), said
before any window opens; nothing on disk is touched."""

from __future__ import annotations

from villa.app.logs import PlayerError
from villa.online import loop
from villa.online.client import Player
from villa.online.protocol import Online, OnlineError

ANSWER_S = 10.0     # s the server has to answer each step


def sit_down(host: str, port: int, code: str, name: str, seconds: float = ANSWER_S) -> Player:
    """A player seated in room `code` at `host:port` (its game may still wait for the others)."""
    where = f"{host}:{port}"
    player = Player(host, port)
    if not loop.run_until(lambda: player.ready or player.failed or player.lost, seconds) or not player.ready:
        _let_go(player)
        raise PlayerError(f"no game server answers at {where}")
    player.enter(code)
    if not loop.run_until(lambda: player.room is not None and player.table or player.lost, seconds) or player.lost:
        _let_go(player)
        raise PlayerError(f"there is no room {code.strip().upper()} on the server at {where}")
    for seat, at in enumerate(player.table.get("seats", ())):
        if at.get("computer") or at.get("taken"):
            continue
        refused = len(player.refusals)
        player.sit(name, seat)
        loop.run_until(lambda: player.seats or len(player.refusals) > refused or player.lost, seconds)
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


def _let_go(player: Player) -> None:
    player.stopReaderPollTask()
    if player.isConnected():
        player.disconnect()
