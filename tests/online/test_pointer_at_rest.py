"""A window hears its own hand while its pointer rests, as the hot seat feels it: a floor pressed down onto its
columns and held is seen to sit level, a column set down and held to stand, and the strain of a pulled column fills
the gauge, with no further input.

The game screen aims every frame the pointer is over the window, resting or not (`play.AIMS_EVERY` spaces them).
Here a window draws about 30 frames a second and hosts the game: in each of its frames its server first runs two
frames and says what its hands hold, then the window aims and hears it (so the server's word on the hand always
trails the window's newest aim, as it does whenever a round trip outlasts the aims' spacing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import MatchSetup, Seat, layout_named
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import OnlineMatch, Player
from villa.online.server import Room
from villa.physics.laying import Laying
from villa.physics.pulling import Grip
from villa.rules.state import Step
from tests.match.test_held_hand import square_on_blue
from tests.online.conftest import LOOPBACK, run

WINDOW_FRAME = 0.034    # s: a window drawing about 30 frames a second (just over `play.AIMS_EVERY`: it aims in each)
SERVER_FRAMES = 2       # the hosted server's 60 Hz frames run in each of them
LEVEL_DEG = 0.5         # the builder's hands' "it sits level" (`villa.presentation.holding.LEVEL_DEG`)
HEARD_WITHIN = 3        # window frames after the server's hands feel it: its next news, heard


@dataclass
class Window:
    """The window of the player to move, its pointer resting at `pointer` (None: off the window)."""

    server: object
    room: Room
    match: OnlineMatch
    others: list
    now: list = field(default_factory=lambda: [0.0])
    pointer: Point3 | None = None

    @property
    def seat(self) -> int:
        return rules.acting_player(self.match.state)

    def frame(self, ask=None) -> None:
        """One frame: the server's frames and news, then the window's press (`ask`), its aim, and what it hears."""
        self.server.poll()
        self.server.frames(SERVER_FRAMES)
        self.server.poll()
        self.now[0] += WINDOW_FRAME
        if ask is not None:
            assert self.match.request(ask(self.seat)).sent
        if self.pointer is not None and self.match.hand is not None:
            self.match.request(rq.Aim(self.seat, tuple(self.pointer)))
        for match in (self.match, *self.others):
            match.advance(WINDOW_FRAME)

    def until(self, done, frames: int = 300) -> int:
        """Frames until `done()`; how many it took (AssertionError if it never came)."""
        for count in range(frames):
            if done():
                return count
            self.frame()
        assert done(), "never came"
        return frames


def _window(server, setup: MatchSetup) -> Window:
    """Anna's and Ben's windows at the game's start, on the windows' clock (one frame's worth a frame)."""
    room = server.open(Room(protocol.new_room_code(), setup))
    now = [0.0]
    players = [Player(LOOPBACK, server.port, clock=lambda: now[0]) for _ in range(2)]
    assert run(server, lambda: all(p.ready for p in players), seconds=10)
    for seat, (player, name) in enumerate(zip(players, ("Anna", "Ben"))):
        player.enter(room.code)
        player.sit(name, seat)
    assert run(server, lambda: room.match is not None and not room.match.busy
               and room.match.state.turn.step is Step.START
               and all(p.state == room.match.state and p.poses for p in players), seconds=60)
    matches = [OnlineMatch(p, clock=lambda: now[0]) for p in players]
    seat = room.match.actor
    return Window(server, room, matches[seat], [matches[1 - seat]], now)


def _sitting_level(hand) -> bool:
    return hand is not None and bool(hand.touching()) and hand.tilt_deg() < LEVEL_DEG


def test_a_floor_pressed_down_and_held_is_seen_to_sit_level_while_the_pointer_rests(server):
    window = _window(server, square_on_blue())
    proposer, other = window.match.actor, window.others[0]
    window.frame(lambda seat: rq.Propose(seat))
    window.until(lambda: other.state.turn.step is Step.ASK)
    assert other.request(rq.Answer(1 - proposer, False)).sent
    window.until(lambda: window.match.state.turn.step is Step.LAY_FLOOR and window.match.actor == proposer)

    window.frame(lambda seat: rq.LayFloor(seat))
    lay = window.match.hand
    middle = window.match.villa.nodes["floor-1"].getPos()
    window.pointer = Point3(middle.x, middle.y, lay.rest_z)      # over the four columns' middle
    window.until(lambda: room_hand(window) is not None and abs(room_hand(window).x - middle.x) < 0.05
                 and abs(lay.x - middle.x) < 0.05)
    window.frame(lambda seat: rq.Lower(seat, hold=True))         # the press, held; the pointer rests
    assert window.match.holding and not lay.touching(), "lowering it onto the columns"
    window.until(lambda: _sitting_level(room_hand(window)))
    took = window.until(lambda: _sitting_level(lay), HEARD_WITHIN)
    assert took < HEARD_WITHIN, "the server's hands feel it sit level: so does the window, with no input"
    for _ in range(30):
        window.frame()
        assert _sitting_level(lay), "and goes on saying so while the pointer rests"


def test_a_column_set_down_and_held_is_seen_to_stand_while_the_pointer_rests(server):
    window = _window(server, MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("free corners", 1), seed=1,
                                        deal_colours=True))
    match = window.match
    column = f"{match.state.colours[match.actor][0].value}-thin-3"      # free corners: it stands free
    start = match.villa.nodes[column].getPos()
    window.frame(lambda seat: rq.Take(seat, column, tuple(start)))
    pull = match.hand
    window.pointer = start + Vec3(0, 0, 3)
    window.until(lambda: pull.state == Grip.CARRYING)
    window.pointer = Point3(start.x + 500.0, start.y, start.z)   # a pointer near the horizon meets the plane far off
    window.frame()
    floor = match.villa.nodes["floor-1"].getPos()
    window.pointer = floor
    served = window.room.match.villa.nodes[column]
    window.until(lambda: all((node.getX() - floor.x) ** 2 + (node.getY() - floor.y) ** 2 < 0.01
                             for node in (served, match.villa.nodes[column])))
    assert not match.player.refusals and match.player.smoothing.held is not None, \
        "the point off the table was not sent: nothing refused is said, and the column is drawn at the pointer"
    window.frame(lambda seat: rq.SetDown(seat, hold=True))       # the press, held; the pointer rests
    assert pull.state == Grip.LOWERING
    window.until(lambda: room_hand(window) is not None and room_hand(window).state == Grip.HELD)
    took = window.until(lambda: pull.state == Grip.HELD, HEARD_WITHIN)
    assert took < HEARD_WITHIN and match.holding, "the server's hands hold it standing: so does the window"


def test_the_strain_of_a_column_pulled_with_the_pointer_resting_is_heard(server):
    window = _window(server, MatchSetup((Seat("Anna"), Seat("Ben")), layout_named("rings", 1), seed=1,
                                        deal_colours=True))
    match = window.match
    column = max(sorted(rules.grabbable_columns(match.state)),          # on the rim, under the blue floor
                 key=lambda c: match.villa.nodes[c].getPos().getXy().length())
    start = match.villa.nodes[column].getPos()
    window.frame(lambda seat: rq.Take(seat, column, tuple(start)))
    window.pointer = start + Vec3(start.x, start.y, 0).normalized() * 1.0    # a gentle pull, held there
    # (the news rounds the strain to a tenth: a gentle pull may rest at 0.14, told as 0.1)
    window.until(lambda: room_hand(window) is not None and protocol.hand_news(room_hand(window)).strain > 0)
    took = window.until(lambda: match.strain > 0, HEARD_WITHIN)
    assert took < HEARD_WITHIN, "the load holds the column: the gauge fills as the server's hand feels it"
    window.frame(lambda seat: rq.Steady(seat, True))             # Space, the pointer resting
    window.until(lambda: protocol.hand_news(room_hand(window)).steadied == "floor-1")
    took = window.until(lambda: match.hand.steadied == "floor-1", HEARD_WITHIN)
    assert took < HEARD_WITHIN, "the floor above is held steady"
    for _ in range(10):
        window.frame()
        assert match.strain == match.player.hand.strain, "the gauge reads the newest strain heard"


def room_hand(window: Window):
    """The hand as the server's match holds it."""
    return window.room.match.hand
