"""A match played on a server, with the face the game screen knows of a local `Match`: the rules' state the
server broadcast, the villa as the player's client draws it (`Player.smoothing`), the hand's requests sent to
the server, and the match's events derived from what it hears. Nothing is decided here: the server's
authority plays the match; a refusal comes back as its code, and is told as an event like any other.

    match = RemoteMatch(player)            # once the player's room has started
    match.take(column, point)              # asks the server (only for the seats `match.here`)
    match.advance(dt)                      # the villa as heard, the state's news as events

The villa here is a puppet: every piece a kinematic body at the pose the client draws, so a press finds the
column under the pointer and the screen's hints measure the same wood as the hot-seat game's.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace

from panda3d.core import Point3, Quat, Vec3

from villa import rules
from villa.match import events as ev
from villa.match import requests as rq
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.physics import geometry
from villa.physics.dimensions import COLUMN_HEIGHT, FLOOR_THICKNESS
from villa.physics.laying import HOVER, FloorLay, Laying
from villa.physics.pulling import IN_HAND, Grip, Pull, under_a_floor
from villa.physics.refusals import PlacementError, Refusal
from villa.physics.world import Villa
from villa.rules.pieces import floor_id, level_of_floor
from villa.rules.state import Step

log = logging.getLogger(__name__)

AIMS_EVERY = 1.0 / 30.0      # s between aims sent
RESTS_AFTER = 0.3            # s without a pose heard: the villa lies still
ANSWER_WORDS = {rules.ProposeFloor: "propose", rules.Object: "object", rules.Challenge: "challenge",
                rules.Decline: "decline", rules.ForgoPenalty: "forgo", rules.Pass: "pass"}


class Puppet(Villa):
    """The villa as heard: pieces posed where the client draws them; nothing falls here."""

    def __init__(self) -> None:
        super().__init__()
        self.world.setGravity(Vec3(0, 0, 0))
        self.clock = 0.0
        self.resting = True

    @property
    def time(self) -> float:
        return self.clock

    @property
    def settled(self) -> bool:
        return self.resting

    def show(self, poses: dict, out: frozenset[str]) -> None:
        for piece in [p for p in self.nodes if p in out]:
            self.remove(piece)
        for piece, ((x, y, z), (qw, qx, qy, qz)) in poses.items():
            if piece in out:
                continue
            if piece not in self.nodes:
                level = level_of_floor(piece)
                at = Point3(x, y, z)
                node = self.add_floor(level, at) if level is not None else self.add_column(piece, at)
                node.node().setKinematic(True)
            self.nodes[piece].setPosQuat(Point3(x, y, z), Quat(qw, qx, qy, qz))
        self.world.doPhysics(0.0)     # the bodies' bounds follow their nodes, for picking


class RemoteColumn(Pull):
    """A column in this player's hand, held by the server's hand: a `Pull` for what the screen measures on
    the villa drawn here (free of the floors yet, the surface below, the spot's verdict), while its moves are
    requests. Pulling until the server has it clear of the floors above, then carried, then set down."""

    def __init__(self, match: "RemoteMatch", seat: int, column: str, point: Point3, steady: bool,
                 from_level: int) -> None:   # not Pull's: the hand and its springs are the server's
        self.match, self.seat = match, seat
        self.villa, self.column = match.villa, column
        self.np = self.villa.nodes[column]
        self.body = self.np.node()
        self.grab_z = point.z
        self.from_level = from_level
        self.state = Grip.PULLING
        self.strain = 0.0
        self.steadied = None
        self._steady = steady
        self._aimed_at = -1.0
        self.villa.in_hand = {column}

    @property
    def steady(self) -> bool:
        return self._steady

    @steady.setter
    def steady(self, on: bool) -> None:
        if bool(on) != self._steady and self.state == Grip.PULLING and self.match.connected:
            self._steady = bool(on)
            self.match.player.ask("steady", self.seat, self._steady)

    def aim(self, point: Point3) -> None:
        if self.state in (Grip.PULLING, Grip.CARRYING, Grip.HELD):    # held: it slides where it stands
            _aim(self, Point3(point))

    def is_free(self) -> bool:
        """Out from under the floors where the server has it (drawn at the pointer, it is ahead of the
        server; aimed at the carrying height too soon, the server's hand would lift it into the floor)."""
        heard = self.match.player.poses.get(self.column)
        if heard is None:
            return False
        (x, y, _z), _quat = heard
        return not under_a_floor(self.villa, self.column, x, y, self.from_level)

    def follow(self) -> None:
        if self.state == Grip.PULLING and self.is_free():
            self.state = Grip.CARRYING
        news = self.match.hand_news()
        if news is not None:
            if news.grip in (Grip.CARRYING, Grip.LOWERING, Grip.HELD) and self.state in IN_HAND:
                self.state = Grip(news.grip)     # set down, held, lifted, or taken up again after a refused spot
            self.strain = news.strain
            self.steadied = news.steadied if self.state == Grip.PULLING else None


class RemoteFloor(FloorLay):
    """The next floor in this player's hands, carried over the top columns by the server's hands: a
    `FloorLay` for what the screen measures (the columns under it), while its moves are requests."""

    def __init__(self, match: "RemoteMatch", seat: int, level: int) -> None:   # not FloorLay's: see RemoteColumn
        self.match, self.seat = match, seat
        self.villa, self.level, self.piece, self.below = match.villa, level, floor_id(level), level - 1
        self.state = Laying.CARRYING
        tops = [self.villa.nodes[c].getZ() + COLUMN_HEIGHT / 2 for c in self._top_columns()]
        self.rest_z = max(tops, default=COLUMN_HEIGHT)
        self.z = self._hand_z = self.rest_z + HOVER + FLOOR_THICKNESS / 2
        self.x = self.y = self.yaw = 0.0
        self.strain = 0.0
        self.confirmed = False    # the server's hands are heard to hold it (until then held is this screen's guess)
        self._aimed_at = -1.0
        self.villa.in_hand = {self.piece}

    def aim(self, point: Point3) -> None:
        if self.state in (Laying.CARRYING, Laying.HELD):     # held: the hands slide it
            _aim(self, Point3(point))

    def turn(self, degrees: float) -> None:
        if self.state in (Laying.CARRYING, Laying.HELD) and self.match.connected:
            self.match.player.ask("turnFloor", self.seat, float(degrees))

    def follow(self) -> None:
        node = self.villa.nodes.get(self.piece)
        if node is not None:
            self.x, self.y, self.yaw = node.getX(), node.getY(), node.getH()
        news = self.match.hand_news()
        if news is not None and news.grip in (Laying.CARRYING, Laying.LOWERING, Laying.HELD) \
                and self.state in (Laying.CARRYING, Laying.LOWERING, Laying.HELD):
            self.state = Laying(news.grip)
            self.confirmed = self.state == Laying.HELD

    def touching(self) -> frozenset[str]:
        """The columns the held floor touches, as the server's hands feel it (the puppet's bodies feel nothing)."""
        news = self.match.hand_news()
        return news.touching if news is not None and self.state == Laying.HELD else frozenset()


def _aim(hand, point: Point3) -> None:
    """An aim to the server, at most `AIMS_EVERY`: its frames take one in two, its guard caps the rate."""
    now = hand.match.clock()
    if now - hand._aimed_at >= AIMS_EVERY and hand.match.connected:
        hand._aimed_at = now
        hand.match.player.aim(point)      # drawn there at once (`Player.smoothing`), sent to the server


class RemoteMatch:
    """A game in play on a server, as one player's client sees it. `here`: the seats this client holds
    (its person acts for them; the others are waited for)."""

    # the same questions of the rules' state and of the wood in hand as the hot-seat game asks them
    next_roll = Match.next_roll          # what the seal shows is the seed's: the server rolls the same
    can_lay_floor = Match.can_lay_floor
    landing_refusal = Match.landing_refusal
    _not_now = Match._not_now

    @property
    def turn(self) -> int:
        return 0

    def __init__(self, player, clock: Callable[[], float] = time.monotonic) -> None:
        self.player, self.clock = player, clock
        self.events = ev.Events()
        self.state: rules.GameState = player.state
        self.setup = setup_of(player)
        self.villa = Puppet()
        self.hand: RemoteColumn | RemoteFloor | None = None
        self._hand_asked = 0          # the player's request that last changed the hand: news older than it is stale
        self._refused = len(player.refusals)
        self._heard = player.pose_updates
        self._heard_at = clock()
        self._shown_at_rest: rules.GameState | None = None   # the state the resting villa was last shown for
        self._collapse_seen = self.collapsed
        self._round_next: tuple[int, int] | None = None   # a family round begun in the rules, and the villas heard
                                                          # then: the screen begins it with the villa built anew
        self._pulled: tuple[str, Point3] | None = None     # the column in a hand, and where it stood (for the log)
        self._show_villa()

    # --- what is going on ---

    @property
    def here(self) -> frozenset[int]:
        return frozenset(self.player.seats)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def actor(self) -> int | None:
        return rules.whose_move(self.state)

    @property
    def collapsed(self) -> bool:
        return self.state.result is not None and self.state.result.fell

    @property
    def holding(self) -> bool:
        """A floor or column held in this player's hands (as the server's hands hold it)."""
        return self.hand is not None and self.hand.state in (Laying.HELD, Grip.HELD)

    @property
    def strain(self) -> float:
        """N: the force the column in this player's hand resists with, as the server felt it."""
        return self.hand.strain if isinstance(self.hand, RemoteColumn) else 0.0

    def hand_news(self):
        """The server's word on this player's hand (`protocol.HandNews`), once it has carried out the request
        that last changed it; None: another's hand, or older news."""
        player = self.player
        if player.hand_holder not in self.here or player.hand_done < self._hand_asked:
            return None
        return player.hand

    def _asked_hand(self) -> None:
        self._hand_asked = self.player.asked

    @property
    def busy(self) -> bool:
        return self.hand is not None or self.collapsed or not self.villa.settled

    def seat(self, player: int | None) -> Seat | None:
        """The seat as the table says it now: the host may give a left seat to a computer player mid-game."""
        if player is None:
            return None
        seat, at = self.setup.seats[player], self.player.table.get("seats", ())
        if not seat.is_computer and player < len(at) and at[player].get("computer"):
            return replace(seat, computer=Strength(at[player]["computer"]))
        return seat

    def away(self, player: int) -> bool:
        """The table says this person's connection dropped: their seat waits for them (or for the host's computer)."""
        seats = self.player.table.get("seats", ())
        return player < len(seats) and bool(seats[player].get("taken")) and not seats[player].get("here")

    @property
    def connected(self) -> bool:
        """Still in the room (a lost connection takes the room's object away: nothing more can be asked)."""
        room = self.player.room
        return not self.player.lost and room is not None and room.cr is not None

    def _mine(self) -> int | None:
        """The seat of this client the rules ask now (None: another seat's move, the game's over or the
        connection lost)."""
        actor = self.state.turn.actor if rules.is_chance_node(self.state) else self.actor
        return actor if actor in self.here and not self.state.over and self.connected else None

    # --- the requests: sent, and the piece in hand shown at once; the server's state decides ---

    def take(self, column: str, point=None, steady: bool = False) -> Exception | None:
        seat = self._mine()
        if seat is None or self.hand is not None or self.collapsed:
            return self._not_now("taking a column")
        point = Point3(point) if point is not None else self.villa.nodes[column].getPos()
        self.player.take(seat, column, point, bool(steady))
        self._asked_hand()
        standing = self.villa.nodes[column].getZ() - COLUMN_HEIGHT / 2
        from_level = max([lv for lv in self.villa.floor_levels
                          if self.villa.nodes[floor_id(lv)].getZ() < standing], default=0)
        self.hand = RemoteColumn(self, seat, column, point, steady, from_level)
        return None

    def set_down(self, hold: bool = False) -> Exception | None:
        """As the hot seat: refused here as it would be there, else asked; held, the hand keeps it upright
        once down (`holding` once the server says so)."""
        if not isinstance(self.hand, RemoteColumn) or self.hand.state != Grip.CARRYING:
            return PlacementError(Refusal.NOT_FREE_TO_SET_DOWN)
        if not self.connected:
            return self._not_now("setting down")
        refusal = self.landing_refusal()
        if refusal is None:
            self.player.ask("setDown", self.hand.seat, bool(hold))
            self._asked_hand()
            self.hand.state = Grip.LOWERING
        return refusal

    def give_up(self) -> Exception | None:
        seat = self._mine()
        if seat is None:
            return self._not_now("giving up")
        self.player.ask("giveUp", seat)
        self._drop_hand()
        return None

    def start_laying(self) -> Exception | None:
        seat = self._mine()
        if seat is None or self.hand is not None or not self.can_lay_floor():
            return self._not_now("laying a floor")
        self.player.lay_floor(seat)
        self._asked_hand()
        self.hand = RemoteFloor(self, seat, self.state.top_level + 1)
        return None

    def lower_floor(self, hold: bool = False, grip=None) -> Exception | None:
        """Lower the floor onto the columns under it (held: in the hands, at its centre, as the hot seat's
        press holds it). From then on it is drawn where the server has it: sitting, or tipping in the hands."""
        lay = self.hand
        if not isinstance(lay, RemoteFloor) or lay.state not in (Laying.CARRYING, Laying.HELD) or not self.connected:
            return self._not_now("lowering a floor")
        if lay.state == Laying.CARRYING and not lay.columns_under():
            return PlacementError(Refusal.NO_COLUMN_UNDER, level=lay.level)    # the server's own check, here at once
        self.player.ask("lower", lay.seat, bool(hold))
        self._asked_hand()
        if lay.state == Laying.CARRYING:
            lay.state, lay.confirmed = (Laying.HELD, False) if hold else (Laying.LOWERING, False)
        return None

    def lift(self) -> Exception | None:
        """Lift the held floor or column clear again (a column is carried again, drawn at the pointer)."""
        if not self.holding or not self.connected:
            return self._not_now("lifting")
        column = self.hand.column if isinstance(self.hand, RemoteColumn) else None
        self.player.lift(self.hand.seat, column)
        self._asked_hand()
        if column is not None:
            self.hand.state = Grip.CARRYING
        return None

    def let_go(self) -> Exception | None:
        """Let go of the held floor or column: the server judges it once its villa settles."""
        if not self.holding or not self.connected:
            return self._not_now("letting go")
        self.player.ask("letGo", self.hand.seat)
        self._asked_hand()
        self.hand.state = Grip.PLACED if isinstance(self.hand, RemoteColumn) else Laying.LAID
        return None

    def act(self, action) -> Exception | None:
        """An answer or a choice of colour, for the seat the rules ask."""
        seat = self._mine()
        word = ANSWER_WORDS.get(type(action))
        if seat is None or (word is None and not isinstance(action, rules.ChooseColour)):
            return self._not_now("acting")
        if word is not None:
            self.player.ask("answer", seat, word)
        else:
            self.player.ask("chooseColour", seat, action.colour.value)
        return None

    def roll(self) -> rules.SealRoll | None:
        seat = self._mine()
        roll = self.next_roll()
        if seat is not None and roll is not None:
            self.player.ask("roll", seat)
        return roll

    def request(self, request) -> rq.Reply:
        """A seat's request, asked of the server (the server's verdict comes as events)."""
        kind = type(request)
        if kind is rq.Take:
            refusal = self.take(request.column, request.point, request.steady)
        elif kind is rq.Aim:
            refusal = None if self.hand is None else self.hand.aim(Point3(*request.point))
        elif kind is rq.Steady:
            refusal = None
            if isinstance(self.hand, RemoteColumn):
                self.hand.steady = request.on
        elif kind is rq.TurnFloor:
            refusal = None if not isinstance(self.hand, RemoteFloor) else self.hand.turn(request.degrees)
        elif kind is rq.SetDown:
            refusal = self.set_down(request.hold)
        elif kind is rq.LayFloor:
            refusal = self.start_laying()
        elif kind is rq.Lower:
            refusal = self.lower_floor(request.hold, request.grip)
        elif kind is rq.Lift:
            refusal = self.lift()
        elif kind is rq.LetGo:
            refusal = self.let_go()
        elif kind is rq.GiveUp:
            refusal = self.give_up()
        elif kind is rq.Roll:
            refusal = None
            self.roll()
        else:
            refusal = self.act(rq.rules_action(self.state, request))
        return rq.Reply(refusal, sent=refusal is None)

    def _drop_hand(self) -> None:
        self.hand = None
        self.villa.in_hand = set()

    # --- time: what was heard since the last frame ---

    def advance(self, seconds: float) -> int:
        self.villa.clock += seconds
        if not self.connected:
            self._drop_hand()       # nothing in hand can be moved any more
        if self.player.state is not None and self.player.state is not self.state:
            self._heard_state(self.player.state)
        for refusal in self.player.refusals[self._refused:]:
            self._refusal(refusal)
        self._refused = len(self.player.refusals)
        self._show_villa()
        if self._round_next is not None and self.player.villas > self._round_next[1]:
            self._round_next, (round_now, _villas) = None, self._round_next
            self.events.emit(ev.RoundStarted(round_now))
        if self.hand is not None:
            self.hand.follow()
        self.events.hand_out()
        return 1

    def _show_villa(self) -> None:
        now = self.clock()
        if self.player.pose_updates != self._heard:
            self._heard, self._heard_at = self.player.pose_updates, now
        self.villa.resting = now - self._heard_at > RESTS_AFTER and self.hand is None
        if self.villa.resting and self._shown_at_rest is self.state:
            return      # drawn as it lies already: RESTS_AFTER outlasts the smoothing's delay and blends
        smoothing = self.player.smoothing
        poses = {piece: pose for piece in self.player.poses if (pose := smoothing.pose(piece, now)) is not None}
        self.villa.show(poses, self.state.out)
        self._shown_at_rest = self.state if self.villa.resting else None
        self._log_pull()

    def _log_pull(self) -> None:
        """The log says once when the column in anyone's hand is drawn out of its place (what a player saw)."""
        column = self.state.turn.column
        if column is None or column not in self.villa.nodes:
            self._pulled = None
            return
        where = self.villa.nodes[column].getPos()
        if self._pulled is None or self._pulled[0] != column:
            self._pulled = (column, Point3(where))
        elif self._pulled[1] is not None and (where - self._pulled[1]).length() > 2.0:
            log.info("%s's column %s is drawn %.1f cm from where it stood", self.state.players[self.state.turn.actor],
                     column, (where - self._pulled[1]).length())
            self._pulled = (column, None)
    def _heard_state(self, after: rules.GameState) -> None:
        before, self.state = self.state, after
        if self.hand is not None and not self._still_in_hand(after):
            self._drop_hand()
        news = after.log[len(before.log):] if after.log[:len(before.log)] == before.log else after.log[-1:]
        fell = next((a for a in news if isinstance(a, rules.Collapse)), None)
        action = news[-1] if news else None
        self.events.emit(ev.Accepted(before, action, after))
        if after.turn.step is Step.ASK and not after.over:
            self.events.emit(ev.AnswerNeeded(after.turn.actor, after.turn.role))
        if (self.collapsed or fell is not None) and not self._collapse_seen:
            # a family round's collapse begins the next round at once in the rules: the fall is shown first
            self._collapse_seen = True
            self._drop_hand()
            self.events.emit(ev.Collapsed(fell or next((a for a in reversed(after.log) if isinstance(a, rules.Collapse)),
                                                       None)))
        if after.round != before.round:
            self._collapse_seen = self.collapsed
            if fell is not None:
                self._round_next = (after.round, self.player.villas)   # as the hot-seat match: once it lies still
            else:
                self.events.emit(ev.RoundStarted(after.round))
        if after.over and not before.over:
            self.events.emit(ev.GameOver(after.result))

    def _still_in_hand(self, state: rules.GameState) -> bool:
        """Is the piece in hand still in hand for the rules (a floor: still to be laid; a column taken out:
        still to go)?"""
        if isinstance(self.hand, RemoteFloor):
            return state.turn.step is Step.LAY_FLOOR
        if state.turn.step is Step.TAKE_OUT:
            return self.hand.column not in state.out
        return state.turn.step is Step.IN_HAND and state.turn.column == self.hand.column

    def _refusal(self, refusal: Exception) -> None:
        """The server refused what was asked: the piece shown in hand goes back to what the rules' state says."""
        hand = self.hand
        if hand is not None and hand.state in (Grip.PLACED, Laying.LAID):
            hand.state = Grip.HELD if isinstance(hand, RemoteColumn) else Laying.HELD   # not let go: still held
        elif isinstance(hand, RemoteColumn):
            if hand.state == Grip.LOWERING:
                hand.state = Grip.CARRYING       # not there: still in hand, to be set down better
            elif not self._still_in_hand(self.state):
                self._drop_hand()
        elif isinstance(hand, RemoteFloor):
            if hand.state == Laying.LOWERING or (hand.state == Laying.HELD and not hand.confirmed):
                hand.state = Laying.CARRYING
            elif self.state.turn.step is not Step.LAY_FLOOR:
                self._drop_hand()
        self.events.emit(ev.Refused(None, refusal))

    def close(self) -> None:
        """Off the screen: the events stop (the player's connection is its owner's to close)."""
        self.events.clear()
        self._drop_hand()


def setup_of(player) -> MatchSetup:
    """The game's setup as the room's table says it (its plan; the seed rolls the seal as the server does).
    The builder's eye is left out: it reads the wood's statics, which the puppet villa does not have."""
    plan = player.plan
    if plan is not None:
        return replace(plan, builders_eye=False)
    seats = tuple(Seat(s["name"], Strength(s["computer"]) if s.get("computer") else None)
                  for s in player.table.get("seats", ()))
    return MatchSetup(seats, layout_named("rings", 1), game=str(player.table.get("game", "")) or "online")
