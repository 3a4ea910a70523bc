"""The game screen's match over a server (`OnlineMatch`): each player asks for their own seat only, holds the
column in hand at once, and both hear the pull and the rules' news as the hot seat's match tells them."""

from __future__ import annotations

from panda3d.core import Vec3

from villa import rules
from villa.match import Accepted, MatchSetup, Refused, RoundStarted, Seat, layout_named
from villa.match import requests as rq
from villa.match.face import GameInPlay
from villa.online import protocol
from villa.online.client import OnlineMatch
from villa.online.client.hands import HeldColumn
from villa.online.client.play import RESTS_AFTER
from villa.online.client.puppet import Puppet
from villa.online.client.smoothing import BLEND_S, DELAY
from villa.online.server import Room
from villa.physics.pulling import Grip
from tests.online.conftest import joined, run


def _two_people(seed: int = 4) -> MatchSetup:
    return MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("random", seed), seed=seed, deal_colours=True)


def _frames(server, matches, done, seconds=20.0):
    def step():
        for match in matches:
            match.advance(1 / 60)
        return done()
    return run(server, step, seconds=seconds)


def _playing(server, setup: MatchSetup) -> tuple[Room, list[OnlineMatch]]:
    room = server.open(Room(protocol.new_room_code(), setup))
    players = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: all(p.table.get("started") and p.poses and p.state is not None for p in players))
    return room, [OnlineMatch(p) for p in players]


def test_each_plays_their_own_seat_and_both_see_the_pull(server):
    room, (ann, bens) = _playing(server, _two_people())
    assert isinstance(ann, GameInPlay)
    assert ann.here == {0} and bens.here == {1}
    heard = {0: [], 1: []}
    for seat, match in ((0, ann), (1, bens)):
        match.events.subscribe(None, heard[seat].append)
    mover, waiter = (ann, bens) if room.match.actor == 0 else (bens, ann)
    seat = room.match.actor

    column = max(sorted(rules.grabbable_columns(mover.state)),                  # on the rim: out without a fall
                 key=lambda c: mover.villa.nodes[c].getPos().getXy().length())
    start = waiter.villa.nodes[column].getPos()
    assert waiter.request(rq.Take(1 - seat, column)).code == "not-now"   # not their seat's move: nothing is asked
    assert waiter.request(rq.Take(seat, column)).code == "not-now"       # nor another's seat
    assert mover.request(rq.Take(seat, column, tuple(start))).sent
    assert isinstance(mover.hand, HeldColumn) and mover.hand.state == Grip.PULLING   # in hand at once
    assert _frames(server, (ann, bens), lambda: room.match.hand is not None)
    out = Vec3(start.x, start.y, 0).normalized()
    mover._aimed_at = -1.0                                  # (aims are spaced 1/30 s apart)
    mover.request(rq.Aim(seat, tuple(start + out * 0.6)))
    mover.advance(0.0)                                      # no frame of the server's yet: drawn at the pointer
    assert (mover.villa.nodes[column].getPos().getXy() - (start + out * 0.6).getXy()).length() < 1e-3
    for step in range(1, 50):                               # drawn gently straight out, away from the villa
        mover.request(rq.Aim(seat, tuple(start + out * step * 0.6)))
        _frames(server, (ann, bens), lambda: False, seconds=0.04)
    assert _frames(server, (ann, bens), lambda: (waiter.villa.nodes[column].getPos() - start).length() > 3.0)
    assert _frames(server, (ann, bens), lambda: mover.hand is not None and mover.hand.state == Grip.CARRYING)
    for seat_heard in (0, 1):                               # the rules' news, as the hot-seat match tells it
        assert any(isinstance(e, Accepted) and isinstance(e.action, rules.TakeColumn) for e in heard[seat_heard])

    assert mover.request(rq.GiveUp(seat)).sent and mover.hand is None   # back, and blocked
    assert _frames(server, (ann, bens), lambda: column in waiter.state.blocked and column in mover.state.blocked)


def test_a_refusal_comes_back_as_an_event_and_the_piece_goes_back(server):
    room, matches = _playing(server, _two_people())
    seat = room.match.actor
    mover = matches[seat]
    refused = []
    mover.events.subscribe(Refused, refused.append)
    blocked = next(c for c in mover.villa.columns if c not in rules.grabbable_columns(mover.state))
    assert not mover.request(rq.Take(seat, blocked)).accepted    # the rules here say no at once, as the match would
    mover.player.request(rq.Take(seat, blocked))                 # a window that asks all the same: the server says no
    assert _frames(server, matches, lambda: refused)
    assert isinstance(refused[0].error, rules.RuleError) and mover.hand is None


def test_pieces_out_of_the_game_are_not_in_the_villa_drawn():
    puppet = Puppet()
    pose = ((0.0, 0.0, 5.0), (1.0, 0.0, 0.0, 0.0))
    puppet.show({"red-thin-1": pose, "blue-thin-1": pose}, frozenset())
    puppet.show({"red-thin-1": pose, "blue-thin-1": pose}, frozenset({"red-thin-1"}))
    assert "red-thin-1" not in puppet.nodes and "blue-thin-1" in puppet.nodes


def test_a_piece_drawn_somewhere_new_is_pointed_at_where_it_is_drawn():
    """The villa drawn here never steps: a column moved by the other player's hand, and a floor carried and turned,
    are found by a ray where they are drawn now, and no more where they stood."""
    puppet = Puppet()
    upright, quarter = (1.0, 0.0, 0.0, 0.0), (0.7071068, 0.0, 0.0, 0.7071068)
    puppet.show({"blue-thin-1": ((-6.0, 0.0, 5.2), upright), "floor-1": ((0.0, 0.0, 10.7), upright)}, frozenset())
    down = Vec3(0, 0, -1)
    assert puppet.pick((-6.0, 0.0, 8.0), down)[0] == "blue-thin-1"
    assert puppet.pick((0.0, 0.0, 30.0), down)[0] == "floor-1"
    puppet.show({"blue-thin-1": ((30.0, 5.0, 5.2), upright), "floor-1": ((-40.0, 0.0, 10.7), quarter)}, frozenset())
    assert puppet.pick((-6.0, 0.0, 8.0), down)[0] == "base", "the column is found where it stood"
    assert puppet.pick((0.0, 0.0, 30.0), down)[0] == "base", "the floor is found where it stood"
    assert puppet.pick((30.0, 5.0, 30.0), down)[0] == "blue-thin-1", "the column is missed where it is drawn"
    hit = puppet.pick((-40.0, 0.0, 30.0), down)
    assert hit[0] == "floor-1" and abs(hit[1].z - 11.0) < 0.05, "the floor is missed where it is drawn"


def test_a_family_round_ends_in_the_fall_and_the_next_begins_on_a_fresh_villa_in_both(server):
    """The rules begin the next round the moment the villa falls; each screen shows the fall first (Collapsed),
    and the round (RoundStarted) once the server's villa, built anew, has come."""
    setup = MatchSetup((Seat("Seat 1"), Seat("Seat 2")), layout_named("random", 3), seed=3, deal_colours=True,
                       ruleset=rules.RULE_SETS["family-assigned-basic"])
    room, matches = _playing(server, setup)
    heard, gaps = {0: [], 1: []}, []

    def on_round(_event, match):     # the villa built anew has come (drawn a tenth of a second behind, as every pose)
        poses = match.player.poses
        gaps.append(max((Vec3(*poses[p][0]) - node.getPos()).length()
                        for p, node in room.match.villa.nodes.items() if p in poses))
    for seat, match in enumerate(matches):
        match.events.subscribe(None, lambda e, seat=seat: heard[seat].append(type(e).__name__))
        match.events.subscribe(RoundStarted, lambda e, match=match: on_round(e, match))
    assert _frames(server, matches, lambda: not room.match.busy and room.match.actor in (0, 1), seconds=60)
    seat = room.match.actor
    mover = matches[seat].player
    column = sorted(rules.grabbable_columns(mover.state))[0]
    (x, y, z), _quat = mover.poses[column]
    mover.request(rq.Take(seat, column, (x, y, z)))
    for _ in range(60):                                  # shoved through the villa
        mover.request(rq.Aim(seat, (-3 * x, -3 * y, z + 40)))
        _frames(server, matches, lambda: False, seconds=0.01)
    assert _frames(server, matches, lambda: all("RoundStarted" in h for h in heard.values()), seconds=60)
    for seat in (0, 1):
        events = [name for name in heard[seat] if name in ("Collapsed", "RoundStarted")]
        assert events == ["Collapsed", "RoundStarted"]
    assert room.match.state.round == 2 and all(m.state.round == 2 for m in matches)
    assert max(gaps) < 0.5, "the next round is drawn on the fresh villa"


def test_a_villa_is_called_at_rest_only_once_the_smoothing_has_drawn_its_last_pose():
    assert RESTS_AFTER > DELAY + BLEND_S, "a resting villa is not drawn again, so nothing may still glide then"

