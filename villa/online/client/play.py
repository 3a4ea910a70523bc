"""A game in play on a server, as one player's window sees it: the same face as the hot seat's `Match`
(`villa.match.face.GameInPlay`), so the game screen plays it unchanged.

    match = OnlineMatch(player)                 # once the player's room has started (or rejoined)
    match.request(Take(seat, column, point))    # checked here as the match would, then sent to the server
    match.advance(dt)                           # what was heard: the moves, the villa, the hand, as events

The server's `Match` decides everything. What a window hears is the game's own news: the referee's moves,
which the same rules apply here and which this module tells as the match tells them (`events.of_change`), and
the events the moves do not tell, passed on by the server in the order the game had them. A request is checked
here as the match would check it (`checks`: whose move, the rules' verdict, the spot under the carried column),
so a refusal is said at once; the server's own refusal comes back as an event.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace

from panda3d.core import Point3

from villa import rules
from villa.match import events as ev
from villa.match import requests as rq
from villa.match import MatchSetup, Seat, Strength, layout_named
from villa.match.face import is_floor
from villa.match.table import seal_roll
from villa.online import protocol
from villa.online.client import checks
from villa.online.client.hands import HeldColumn, HeldFloor, held_piece, in_others_hands, still_in_hand, taken_up
from villa.online.client.player import Player
from villa.online.client.puppet import Puppet
from villa.physics.laying import Laying
from villa.physics.pulling import Grip, landing_refusal
from villa.physics.refusals import PlacementError, Refusal
from villa.rules.pieces import floor_id

log = logging.getLogger(__name__)

MOVABLE = frozenset(protocol.PIECES)     # the villa's pieces (not the table, nor the base plate)
HOLDING = frozenset((Grip.PULLING, Grip.CARRYING, Grip.LOWERING, Grip.HELD, Laying.CARRYING, Laying.LOWERING,
                     Laying.HELD))      # a piece's phases in hand, until it is let go
RESTS_AFTER = 0.3            # s without a pose heard: the villa lies still
AIMS_EVERY = 1.0 / 30.0      # s between aims sent: the server's frames take one in two, its door caps the rate


class OnlineMatch:
    """`here`: the seats this window's person plays (the others are waited for)."""

    def __init__(self, player: Player, clock: Callable[[], float] = time.monotonic) -> None:
        self.player, self.clock = player, clock
        self.events = ev.Events()
        self.state: rules.GameState = player.state
        self.setup = setup_of(player)
        self.villa = Puppet()
        self.hand: HeldColumn | HeldFloor | None = None
        self._hand_asked = 0          # the request that last changed the hand drawn here ahead: older news is stale
        self._hand_heard = -1         # the server's words on the hand taken in so far (what was heard is news)
        self._aimed_at = -1.0
        self._heard = player.pose_updates
        self._heard_at = clock()
        self._shown_at_rest: rules.GameState | None = None   # the state the resting villa was last shown for
        self._collapsed = self.state.result is not None and self.state.result.fell
        self._pulled: tuple[str, Point3] | None = None     # the column in a hand, and where it stood (for the log)
        self._turn = int(player.table.get("turn", 0))
        player.news.clear()           # what came before is in the state and the villa heard
        self._show_villa()
        self._follow_hand()           # back in the middle of a move: the piece in the server's hands is taken up

    # --- what is going on -----------------------------------------------------------------------------

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
    def turn(self) -> int:
        """The turns settled so far (the table says how many there were when this window came in)."""
        return self._turn

    @property
    def collapsed(self) -> bool:
        return self._collapsed

    @property
    def busy(self) -> bool:
        return self.hand is not None or self.collapsed or not self.villa.settled

    @property
    def holding(self) -> bool:
        """A floor or column held in this player's hands (as the server's hands hold it)."""
        return self.hand is not None and self.hand.state in (Laying.HELD, Grip.HELD)

    @property
    def strain(self) -> float:
        """N: the force the column in this player's hand resists with, as the server felt it."""
        return 0.0 if self.hand is None or is_floor(self.hand) else self.hand.strain

    def seat(self, player: int | None) -> Seat | None:
        """The seat as the table says it now: the host may give a person's seat to a computer player mid-game."""
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
        return not self.player.lost and self.player.room is not None

    def next_roll(self) -> rules.SealRoll | None:
        """What the seal shows when rolled now: the game's seed decides, as on the server."""
        return seal_roll(self.setup.seed, self.state)

    def can_lay_floor(self) -> bool:
        return rules.floor_to_lay(self.state)

    def landing_refusal(self) -> Exception | None:
        """Why the carried column may not be set down straight below it now, as the match says it."""
        preview = self.hand.preview() if isinstance(self.hand, HeldColumn) else None
        if preview is None:
            return PlacementError(Refusal.NO_FLOOR_UNDER)
        return checks.verdict(self.state, preview) or landing_refusal(self.villa, self.hand.column)

    # --- requests: checked here as the match would, then sent ---------------------------------------------

    def request(self, request: rq.Request) -> rq.Reply:
        if request.seat not in self.here or request.seat != rules.acting_player(self.state) or not self.connected:
            return rq.Reply(rq.not_now(self.state, type(request).__name__))
        refusal = checks.refusal(self, request)
        if refusal is not None:
            return rq.Reply(refusal)
        if type(request) is rq.Aim:
            if self.clock() - self._aimed_at < AIMS_EVERY:
                return rq.SENT       # drawn at the pointer meanwhile; the next aim carries it on
            self._aimed_at = self.clock()
        self.player.request(request)
        if type(request) in checks.DRAWN_AHEAD:
            self._hand_asked = self.player.asked
        checks.sent(self, request)
        return rq.SENT

    def drop_hand(self) -> None:
        """Nothing in this window's hand any more: what it held is drawn as heard again (a villa that fell takes the
        column from the hand's pointer)."""
        self.hand = None
        self.villa.in_hand = set()
        self.player.smoothing.let_go(self.clock())

    # --- time: what was heard since the last frame ---------------------------------------------------------

    def advance(self, seconds: float) -> int:
        self.villa.clock += seconds
        self.player.poll()
        self._hand_asked = min(self._hand_asked, self.player.asked)   # back in the room: counted from its entering
        if not self.connected:
            self.drop_hand()       # nothing in hand can be moved any more
        news = self.player.news
        while news:
            kind, *what = news.popleft()
            _NEWS[kind](self, *what)
        self._show_villa()
        if self.connected:
            self._follow_hand()     # (cut off from the server: nothing is taken up from what was heard before)
        self.events.hand_out()
        return 1

    def _heard_move(self, before: rules.GameState, move, after: rules.GameState) -> None:
        """A move of the referee, told as the match tells it. A floor given up goes back in the box: it has no pose
        any more (the server's villa no longer holds it, and says nothing of it)."""
        self.state = after
        if isinstance(move, rules.GiveUpFloor):
            self.player.poses.pop(floor_id(before.top_level + 1), None)
        if self.hand is not None and not still_in_hand(self.hand, after):
            self.drop_hand()
        for event in ev.of_change(before, move, after):
            self.events.emit(event)

    def _heard_state(self, _before, after: rules.GameState) -> None:
        """The state whole (the start, a plan changed, or the game found again on another server as it was last
        kept): nothing happened in it to tell, and what was in hand may be no more."""
        self.state = after
        self._collapsed = after.result is not None and after.result.fell
        if self.hand is not None and not still_in_hand(self.hand, after):
            self.drop_hand()

    def _heard_event(self, event) -> None:
        if isinstance(event, ev.Refused) and self.hand is not None:
            self._taken_up_again()
        elif isinstance(event, ev.Collapsed):
            self._collapsed = True
            self.drop_hand()
        elif isinstance(event, ev.RoundStarted):
            self._collapsed = False     # the villa built anew came before it
        elif isinstance(event, ev.TurnSettled):
            self._turn = event.record.turn
        self.events.emit(event)

    def _taken_up_again(self) -> None:
        """The referee refused where the piece let go came to rest: a column still in hand for the rules is taken
        up again by the server's hands, to be set down better (or given up); a floor is not."""
        hand = self.hand
        if isinstance(hand, HeldColumn) and still_in_hand(self.hand, self.state):
            hand.state = Grip.CARRYING
            self.player.smoothing.hold(hand.column, None, self.player.asked, self.clock())
        else:
            self.drop_hand()

    def _heard_refusal(self, refusal: Exception) -> None:
        """The server refused what was asked: the piece shown in hand goes back to what the rules' state says."""
        hand = self.hand
        if hand is not None and hand.state in (Grip.PLACED, Laying.LAID):
            hand.state = Grip.HELD if isinstance(hand, HeldColumn) else Laying.HELD   # not let go: still held
        elif isinstance(hand, HeldColumn):
            if hand.state == Grip.LOWERING:
                hand.state = Grip.CARRYING       # not there: still in hand, to be set down better
            elif not still_in_hand(self.hand, self.state):
                self.drop_hand()
        elif isinstance(hand, HeldFloor):
            if hand.state == Laying.LOWERING or (hand.state == Laying.HELD and not hand.confirmed):
                hand.state = Laying.CARRYING
            elif not rules.floor_to_lay(self.state):
                self.drop_hand()
        self.events.emit(ev.Refused(None, refusal))

    def _heard_villa(self, _poses) -> None:
        pass    # drawn by `_show_villa` from the smoothing, which heard it whole

    def _hand_news(self):
        """The server's word on this player's hand, new since the last frame, once it carried out the request that
        last changed the hand as this window draws it; None: nothing new, another's hand, or older news. Aims (and
        Space, a floor turned) do not count: the pointer sends one every frame it is over the window, so news
        always trails the newest whenever a round trip outlasts their spacing, and the hand would never be heard
        while the pointer rests."""
        player = self.player
        if player.hand_updates == self._hand_heard:
            return None
        self._hand_heard = player.hand_updates
        if player.hand_holder not in self.here or player.hand_done < self._hand_asked:
            return None
        return player.hand

    def _follow_hand(self) -> None:
        news = self._hand_news()
        if self.hand is None and news is not None:
            self._take_up(news)
        hand = self.hand
        if isinstance(hand, HeldColumn):
            hand.heard(news, hand.is_free(self.player.poses.get(hand.column)))
        elif isinstance(hand, HeldFloor):
            hand.heard(news)
        # in hand as at the hot seat: this window's piece while its hands hold it, or another's in the server's hands
        self.villa.in_hand = in_others_hands(self.villa, self.state, self.player.hand) if hand is None else (
            {held_piece(hand)} if hand.state in HOLDING else set())

    def _take_up(self, news) -> None:
        """The server's hands hold this player's piece, and this window holds none: it came back online (or was
        opened) in the middle of the move. The piece is taken up where those hands hold it (`hands.taken_up`)."""
        self.hand = taken_up(self.villa, self.state, self.player.hand_holder, news)
        if self.hand is not None:
            point = tuple(self.villa.nodes[self.hand.column].getPos()) if isinstance(self.hand, HeldColumn) else None
            self.player.smoothing.hold(held_piece(self.hand), point, self.player.asked, self.clock())

    def _show_villa(self) -> None:
        now = self.clock()
        if self.player.pose_updates != self._heard:
            self._heard, self._heard_at = self.player.pose_updates, now
        self.villa.resting = now - self._heard_at > RESTS_AFTER and self.hand is None
        if self.villa.resting and self._shown_at_rest is self.state:
            return      # drawn as it lies already: RESTS_AFTER outlasts the smoothing's delay and blends
        smoothing = self.player.smoothing
        poses = {piece: pose for piece in self.player.poses if (pose := smoothing.pose(piece, now)) is not None}
        unheard = frozenset(piece for piece in self.villa.nodes if piece in MOVABLE and piece not in poses)
        self.villa.show(poses, self.state.out | unheard)
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

    def close(self) -> None:
        """Off the screen: the events stop (the player's connection is its owner's to close)."""
        self.events.clear()
        self.drop_hand()


_NEWS: dict[str, Callable] = {
    "moves": OnlineMatch._heard_move, "state": OnlineMatch._heard_state, "event": OnlineMatch._heard_event,
    "refused": OnlineMatch._heard_refusal, "villa": OnlineMatch._heard_villa,
}


def setup_of(player: Player) -> MatchSetup:
    """The game's setup as the room's table says it (its plan; the seed rolls the seal as the server does). A game
    played with the builder's eye shows it here too, read off the villa as this window draws it."""
    plan = player.plan
    if plan is not None:
        return plan
    seats = tuple(Seat(s["name"], Strength(s["computer"]) if s.get("computer") else None)
                  for s in player.table.get("seats", ()))
    return MatchSetup(seats, layout_named("rings", 1), game=str(player.table.get("game", "")) or "online")
