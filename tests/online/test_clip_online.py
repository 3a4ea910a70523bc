"""A fall online can be saved as a clip by every window of the room and by one that only watches: the finished
game's record that each of them is sent holds the fall's motion, as the server's game recorded it."""

from __future__ import annotations

from villa import rules
from villa.match import requests as rq
from villa.match.motion import RATE
from villa.online.server import Room
from villa.online import protocol
from villa.presentation import i18n, words
from tests.online.conftest import joined, run, two_seats
from tests.online.test_play import _pull_through


def test_every_window_and_a_watcher_get_the_fall_to_make_a_clip_of(server):
    room = Room(protocol.new_room_code(), two_seats(seed=5))
    server.open(room)
    anna, ben, watcher = joined(server, room.code, "Anna", "Ben", "")
    assert not watcher.seats, "the third window only watches"
    assert run(server, lambda: anna.state is not None and room.match is not None, seconds=20)
    for _turn in range(8):
        assert run(server, lambda: room.match.over or (not room.match.busy and room.match.actor is not None),
                   seconds=120)
        if room.match.over:
            break
        seat = room.match.actor
        player = (anna, ben)[seat]
        if rules.is_question(rules.task(player.state)):
            player.request(rq.Answer(seat, False))
            assert run(server, lambda: room.match.actor != seat or room.match.over, seconds=10)
            continue
        assert run(server, lambda: player.state == room.match.state, seconds=10)
        _pull_through(server, room, player, seat)
        assert run(server, lambda: room.match.over or not room.match.busy, seconds=60)
    assert room.match.over and room.match.state.result.fell
    assert run(server, lambda: all(p.finished for p in (anna, ben, watcher)), seconds=60)
    kept = room.match.motion
    assert kept is not None and kept.fell
    i18n.install("en")
    for window in (anna, ben, watcher):
        motion = window.finished.motion
        assert motion is not None and motion.fell and motion.fell_at == kept.fell_at
        assert len(motion.frames) == len(kept.frames) and motion.seconds * RATE == len(kept.frames)
        culprit = room.match.state.players[room.match.state.result.collapsed_by]
        assert words.clip_caption(window.finished, motion).startswith(culprit)
