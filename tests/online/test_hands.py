"""The builder's hands online: the server's hands hold what a player lowers (a floor tips or sits in them, is
lifted, moved and let go; a column stands held), the player sees it as the server has it, and hears the strain
of a pulled column and the floor held steady above it while, and only while, it is pulled."""

from __future__ import annotations

from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import MatchSetup, Seat, layout_named
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import OnlineMatch
from villa.online.server import Room
from villa.physics.laying import Laying
from villa.physics.pulling import Grip
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.state import Step
from tests.match.test_held_hand import OFF_BALANCE_X, square_on_blue
from tests.online.conftest import connected, joined, killed, run


def _playing(server, setup: MatchSetup):
    room = server.open(Room(protocol.new_room_code(), setup))
    players = joined(server, room.code, "Anna", "Ben")
    assert run(server, lambda: room.match is not None and not room.match.busy
               and room.match.state.turn.step is Step.START
               and all(p.state == room.match.state and p.poses for p in players), seconds=60)
    return room, [OnlineMatch(p) for p in players]


def _until(server, matches, done, seconds=30.0) -> bool:
    def step():
        for match in matches:
            match.advance(1 / 60)
        return done()
    return run(server, step, seconds=seconds)


def _frames(server, matches, count: int) -> None:
    """`count` frames of the server (the players' news heard between them)."""
    def step():
        for match in matches:
            match.advance(1 / 60)
        return False
    run(server, step, frames=count)


def _aim(match: OnlineMatch, seat: int, point: Point3) -> None:
    """Aim at once, as a pointer that rested longer than the aims' spacing (`play.AIMS_EVERY`) would."""
    match._aimed_at = -1.0
    assert match.request(rq.Aim(seat, tuple(point))).sent


def test_a_floor_held_online_tips_is_lifted_moved_lowered_again_sits_and_is_laid(server):
    room, matches = _playing(server, square_on_blue())
    proposer = room.match.actor
    mover, other = matches[proposer], matches[1 - proposer]
    assert mover.request(rq.Propose(proposer)).sent
    assert _until(server, matches, lambda: other.actor in other.here and other.state.turn.step is Step.ASK)
    assert other.request(rq.Answer(1 - proposer, False)).sent
    assert _until(server, matches, lambda: mover.state.turn.step is Step.LAY_FLOOR and mover.actor == proposer)

    assert mover.request(rq.Lift(proposer)).code == mover.request(rq.LetGo(proposer)).code == "not-now", \
        "nothing held: the hot seat's refusals"
    assert mover.request(rq.LayFloor(proposer)).sent
    lay = mover.hand
    _aim(mover, proposer, Point3(60.0, 60.0, lay.rest_z))        # off the villa: nothing under it
    assert _until(server, matches, lambda: not lay.columns_under())
    refusal = mover.request(rq.Lower(proposer, hold=True)).refusal
    assert isinstance(refusal, PlacementError) and refusal.code is Refusal.NO_COLUMN_UNDER
    _aim(mover, proposer, Point3(OFF_BALANCE_X, 0, lay.rest_z))
    assert _until(server, matches, lambda: abs(room.match.hand.x - OFF_BALANCE_X) < 0.05    # there, and seen there
                  and abs(lay.x - OFF_BALANCE_X) < 0.05)
    assert mover.request(rq.Lower(proposer, hold=True)).sent and mover.holding, "held at once, as the press is"
    held = room.match.hand
    assert _until(server, matches, lambda: lay.confirmed and lay.touching() and lay.tilt_deg() > 1.0), \
        "it tips onto the two columns it reaches, seen as the server's hands hold it"
    assert held.state == Laying.HELD and held.tilt_deg() > 1.0 and not room.match.collapsed
    assert _until(server, matches, lambda: other.villa.tilt_deg("floor-2") > 1.0), \
        "and the other player sees it tip (a moment later: the others' pieces are drawn a little in the past)"

    assert mover.request(rq.Lift(proposer)).sent
    assert _until(server, matches, lambda: not held.touching() and not lay.touching()), "lifted clear, still held"
    _frames(server, matches, 40)
    assert mover.holding and room.match.holding
    high_x, high_y = held.high_side()
    grip = held.grip_point()
    aim = Point3(grip.x + 5 * high_x, grip.y + 5 * high_y, lay.rest_z)    # towards the side that stayed up
    _aim(mover, proposer, aim)
    assert _until(server, matches, lambda: abs(held.aim_x - aim.x) < 1e-3)
    _frames(server, matches, 40)
    assert mover.request(rq.Lower(proposer, hold=True)).sent
    assert _until(server, matches, lambda: held.touching() and held.tilt_deg() < 0.5 and lay.touching()
                  and lay.tilt_deg() < 0.5), "over its columns it sits level"
    assert mover.state.turn.step is Step.LAY_FLOOR, "nothing counts while it is held"

    token = mover.player.seats[proposer]
    killed(mover.player)                                    # the connection lost with the floor sitting in the hands
    assert run(server, lambda: room.seating.connection(proposer) is None, seconds=10)
    (back,) = connected(server)
    back.rejoin(token, room.code)
    assert run(server, lambda: back.seats and back.poses and back.state is not None
               and back.hand_holder == proposer, seconds=10)   # (the hand's news names the seat once it is sat)
    mover = matches[proposer] = OnlineMatch(back)           # a window anew: it takes up the floor the server holds
    lay = mover.hand
    assert lay is not None and lay.piece == held.piece, "the floor in the server's hands is in this window's"
    assert _until(server, matches, lambda: mover.holding and lay.confirmed and lay.touching()), \
        "the server's answer says the floor is still held"
    assert room.match.hand is held

    assert mover.request(rq.LetGo(proposer)).sent and not mover.holding
    assert _until(server, matches, lambda: mover.state.top_level == 2 and mover.actor != proposer
                  and mover.hand is None and other.state == mover.state), "laid: the turn settles"
    assert not back.refusals and not other.player.refusals


def test_a_column_set_down_held_online_stands_in_the_hand_until_let_go(server):
    room, matches = _playing(server, MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("free corners", 1),
                                                seed=1, deal_colours=True))
    player = room.match.actor
    mover = matches[player]
    column = f"{mover.state.colours[player][0].value}-thin-3"      # free corners: it stands free
    start = mover.villa.nodes[column].getPos()
    assert mover.request(rq.Take(player, column, tuple(start))).sent
    pull = mover.hand
    _aim(mover, player, start + Vec3(0, 0, 3))
    assert _until(server, matches, lambda: pull.state == Grip.CARRYING)
    floor = mover.villa.nodes["floor-1"].getPos()
    served, drawn = room.match.villa.nodes[column], mover.villa.nodes[column]

    _aim(mover, player, floor)       # (once: a pointer at rest sends no more aims than the window's rate)

    def over_floor():     # where the server has it, and where its player sees it
        return all((node.getX() - floor.x) ** 2 + (node.getY() - floor.y) ** 2 < 0.01 for node in (served, drawn))
    assert _until(server, matches, over_floor)
    assert mover.request(rq.SetDown(player, hold=True)).sent and not mover.holding
    assert _until(server, matches, lambda: mover.holding and room.match.hand.state == Grip.HELD)
    _frames(server, matches, 30)
    assert mover.holding and mover.state.turn.step is Step.IN_HAND, "held upright: not yet placed"
    assert mover.request(rq.LetGo(player)).sent
    assert _until(server, matches, lambda: mover.actor != player and mover.hand is None)
    assert mover.state.levels[column] == 1 and not mover.player.refusals


def test_the_strain_and_the_steadied_floor_are_heard_while_pulling_and_nothing_at_rest(server):
    room, matches = _playing(server, MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings", 1),
                                                seed=1, deal_colours=True))
    seat = room.match.actor
    mover = matches[seat]
    watcher = matches[1 - seat].player
    column = max(sorted(rules.grabbable_columns(mover.state)),          # on the rim, under the blue floor
                 key=lambda c: mover.villa.nodes[c].getPos().getXy().length())
    start = mover.villa.nodes[column].getPos()
    assert mover.request(rq.Take(seat, column, tuple(start))).sent
    outward = Vec3(start.x, start.y, 0).normalized()

    def pulled(strain=0.1):         # (aimed at each frame as the pointer is: the window sends 30 a second)
        mover.request(rq.Aim(seat, tuple(start + outward * 1.0)))    # a gentle pull against the floor's load
        return mover.strain > strain
    assert _until(server, matches, pulled), "the load holds the column: the gauge fills"
    assert watcher.hand.strain > 0.1 and mover.hand.steadied is None
    assert mover.request(rq.Steady(seat, True)).sent   # Space: the floor above lifted off it, held steady
    assert _until(server, matches, lambda: pulled(0.0) and mover.hand.steadied == "floor-1")
    assert watcher.hand.grip == "pulling" and watcher.hand.steadied == "floor-1", "everyone hears it"
    heard, reach = mover.player.hand_updates, [1.0]

    def drawn_out():      # on out, slowly: the strain changes as it slides, and is heard each time
        reach[0] += 0.02
        mover.request(rq.Aim(seat, tuple(start + outward * reach[0])))
        return mover.player.hand_updates > heard + 5
    assert _until(server, matches, drawn_out), "news while pulling"

    assert mover.request(rq.GiveUp(seat)).sent
    assert _until(server, matches, lambda: not room.match.busy and room.match.villa.still
                  and mover.player.hand.grip == "" and mover.hand is None)
    _frames(server, matches, 10)
    heard = (mover.player.hand_updates, watcher.hand_updates, watcher.pose_updates)
    _frames(server, matches, 60)
    assert (mover.player.hand_updates, watcher.hand_updates, watcher.pose_updates) == heard, "nothing at rest"
    assert mover.strain == 0.0
