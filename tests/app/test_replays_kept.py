"""Every finished game is kept among the replays once: each game of an evening its own (Play again), a game
online from the record its server sent, and a replay that cannot be written is said and loses nothing."""

from __future__ import annotations

import errno

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
