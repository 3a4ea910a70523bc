"""Every finished game is kept among the replays once: each game of an evening its own (Play again), a game
online from the record its server sent, and a replay that cannot be written is said and loses nothing."""

from __future__ import annotations

import errno
import time

import pytest

from villa.app import saves
from villa.app.keeping import Keeper
from villa.match import Match, MatchSetup, Seat, layout_named
from villa.online import protocol


@pytest.fixture(autouse=True)
def villa_home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _game(seed: int) -> Match:
    return Match(MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("random", seed), seed=seed))


def test_each_game_of_an_evening_keeps_its_own_replay():
    keeper, first, second = Keeper(), _game(1), _game(2)
    keeper.follow(first)
    keeper.keep_replay(first.record)
    keeper.keep_replay(first.record)                 # the same game again: kept once
    keeper.follow(second)                            # Play again
    keeper.keep_replay(second.record)
    kept = sorted(saves.replays_dir().glob("*.json"))
    assert len(kept) == 2
    assert {saves.load(path).setup.layout for path in kept} == {first.setup.layout, second.setup.layout}
    first.close()
    second.close()


def test_a_game_online_is_kept_from_the_record_its_server_sent(monkeypatch):
    match = _game(3)
    monkeypatch.setattr(protocol, "RECORD_PART", 2000)    # a long game's record comes in several parts
    parts = protocol.record_parts(match.record)
    assert len(parts) > 1 and all(len(part) <= 2000 for part in parts)
    keeper = Keeper()
    keeper.fresh()
    keeper.keep_replay(protocol.unpack_record(b"".join(parts)))
    assert saves.load(keeper.replay_path).state == match.state
    match.close()


def test_a_replay_that_cannot_be_written_is_said_and_the_game_goes_on(monkeypatch):
    real, troubles = saves.write_atomically, []

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    monkeypatch.setattr(saves, "write_atomically", full)
    match = _game(4)
    keeper = Keeper(on_trouble=lambda what, where, error: troubles.append((what, error.errno)))
    keeper.fresh()
    keeper.keep_replay(match.record)
    assert troubles == [("replay", errno.ENOSPC)] and keeper.replay_path is None
    monkeypatch.setattr(saves, "write_atomically", real)
    keeper.keep_replay(match.record)                  # tried again (the next game, the next time): nothing lost
    assert saves.load(keeper.replay_path).state == match.state
    match.close()


def test_each_player_online_keeps_the_finished_game_their_server_sent(tmp_path, monkeypatch):
    """Two people at their own windows over loopback: the villa brought down, each player's record is the
    server's game, kept among that player's replays."""
    from villa import rules
    from villa.match import requests as rq
    from villa.online.client import Player
    from villa.online.server import Room, Server
    server = Server(0, "127.0.0.1")
    setup = MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("rings", 4), seed=4, deal_colours=True)
    room = server.open(Room(protocol.new_room_code(), setup))
    players = [Player("127.0.0.1", server.port) for _ in range(2)]

    def run(done, seconds: float = 60.0) -> bool:
        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                return False
            for player in players:
                player.poll()
            server.frame()
            time.sleep(0.0005)
        return True
    try:
        assert run(lambda: all(p.ready for p in players))
        for player in players:
            player.enter(room.code)
        assert run(lambda: all(p.room for p in players))
        for seat, (player, name) in enumerate(zip(players, ("Anna", "Ben"))):
            player.sit(name, seat)
        assert run(lambda: room.match is not None and all(p.state is not None for p in players))
        seat = rules.acting_player(room.match.state)
        column = sorted(rules.grabbable_columns(room.match.state))[0]
        pos = room.match.villa.nodes[column].getPos()
        players[seat].request(rq.Take(seat, column, (pos.x, pos.y, pos.z)))

        aimed = [0.0]

        def shoved() -> bool:        # through the villa, thirty aims a second as a window sends them: it falls
            if room.match.hand is not None and time.monotonic() - aimed[0] > 1 / 30:
                aimed[0] = time.monotonic()
                players[seat].request(rq.Aim(seat, (-3 * pos.x, -3 * pos.y, pos.z + 40)))
            return all(p.finished is not None for p in players)
        assert run(shoved, 120), "the villa never fell, or its record never came"
        for player, home in zip(players, ("anna", "ben")):
            assert player.finished.state == room.match.state
            monkeypatch.setenv("VILLA_HOME", str(tmp_path / home))
            keeper = Keeper()
            keeper.fresh()
            keeper.keep_replay(player.finished)
            assert saves.load(keeper.replay_path).state == room.match.state, "kept, and it loads back"
    finally:
        for player in players:
            player.close()
        server.close()
