"""A clumsy hand: it steers a game of computer players to one chosen moment and knocks the villa down there,
so that every way a game can end is met on purpose (the save sweep, the tests).

    hand = ClumsyHand(match, Ending.LAYING)
    match.add_driver(hand)
    hand.lead(seat_computers(match, everyone=True))   # it answers and steers before the seats act

Every move goes through the match's own methods, as a person's would; only the slip is a knock on the
top floor. The computer seats play everything the hand leaves to them; a proof or a challenge it pulls
itself (a computer player may give a hopeless one up at once), and that player's seat waits meanwhile. In the
family edition a fallen villa ends only the round, so the hand knocks it down again in every round until
the game is over.
"""

from __future__ import annotations

from enum import StrEnum

from villa import rules
from villa.match import requests as rq
from villa.match.table import Match
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull
from villa.rules import eligibility
from villa.rules.pieces import COLUMNS_BY_ID
from villa.rules.state import Role, Step

KNOCK_SPEED = 90.0    # cm/s sideways on the top floor: enough to bring any villa down
KNOCK_AGAIN = 30      # frames before a knock that brought nothing down is tried harder


class Ending(StrEnum):
    """The moment the villa falls."""

    PULLING = "pulling"            # (a) a column of the turn's build is being pulled
    SETTING_DOWN = "setting down"  # (b) a column is coming down on the top floor
    LAYING = "laying"              # (c) a floor has just been let go onto the columns
    PROVING = "proving"            # (d) an objector pulls one of the proposer's columns
    PENALTY = "penalty"            # (e) the proposer pulls out a column of the failed objector's
    CHALLENGE = "challenge"        # (f) a challenger pulls a neutral column (the family: a challenged claim)

    def fits(self, ruleset: rules.RuleSet, players: int) -> bool:
        """Can a game with these rules and players come to this moment?"""
        if self in (Ending.PROVING, Ending.PENALTY):
            return not ruleset.family
        if self is Ending.CHALLENGE:
            return (players == 3) if not ruleset.family else ruleset.scoring is rules.Scoring.TOURNAMENT
        return True

    def came(self, fell_from: rules.GameState) -> bool:
        """Did the villa fall at this moment? `fell_from`: the rules' state the fall came to."""
        turn = fell_from.turn
        if self in (Ending.PULLING, Ending.SETTING_DOWN):
            return turn.step is Step.IN_HAND and turn.role in (Role.BUILD, Role.OWN)
        if self is Ending.LAYING:
            return turn.step is Step.LAY_FLOOR
        if self is Ending.PROVING:
            return turn.step is Step.IN_HAND and turn.role is Role.PROOF
        if self is Ending.PENALTY:   # a column pulled right out before the fall counts as taken out
            return turn.step in (Step.TAKE_OUT, Step.LAY_FLOOR) and turn.objector is not None
        return turn.step is Step.IN_HAND and turn.role in (Role.CHALLENGE, Role.FAMILY_CHALLENGE)


DOUBTS = {Role.PROOF: (Ending.PROVING, Ending.PENALTY),   # asked about a claim or a neutral column: raise
          Role.CHALLENGE: (Ending.CHALLENGE,),               # the doubt only toward one's own ending
          Role.FAMILY_CHALLENGE: (Ending.CHALLENGE,)}


PULLS_ITSELF = {Role.PROOF: (Ending.PROVING,),     # a computer player may give a hopeless proof or
                Role.CHALLENGE: (Ending.CHALLENGE,),   # challenge up at once: the hand pulls it instead
                Role.FAMILY_CHALLENGE: (Ending.CHALLENGE,)}


class ClumsyHand:
    """A match's driver that steers toward its ending's moment and knocks the villa down there."""

    def __init__(self, match: Match, ending: Ending, after_turn: int = 1) -> None:
        self.match, self.ending, self.after_turn = match, Ending(ending), after_turn
        self.knocks = 0          # knocks at this moment so far: each one harder
        self._since_knock = 0
        self.seats: list = []    # the computer seats it leads (see `lead`)
        self._held = None        # the pull it makes itself, for a proof or a challenge

    def lead(self, seats) -> None:
        """Call these computer seats after itself each frame, rather than the match calling them."""
        for seat in seats:
            self.match.remove_driver(seat)
        self.seats = list(seats)

    def before_frame(self) -> bool:
        self._act()
        if self._held is not None and self.match.hand is not self._held:
            self._held = None
        waiting = self.match.actor if self._held is not None else None
        held = False
        for seat in self.seats:
            if seat.player != waiting:
                held |= seat.before_frame() is False
        return not held

    def _act(self) -> None:
        match = self.match
        if match.over or match.collapsed:
            return
        if self._moment():
            self._knock()
            return
        self.knocks, self._since_knock = 0, 0   # the next moment starts with a gentle knock again
        for _ in range(4):   # a decision may lead straight to the next
            if match.busy or match.over or match.turn < self.after_turn or not self._steer(match.state):
                break

    # --- the moment --------------------------------------------------------------------------

    def _moment(self) -> bool:
        hand, turn = self.match.hand, self.match.state.turn
        pulling = isinstance(hand, Pull) and hand.state in (Grip.PULLING, Grip.CARRYING)
        if self.match.turn < self.after_turn:
            return False
        if self.ending is Ending.PULLING:
            return pulling and turn.role in (Role.BUILD, Role.OWN)
        if self.ending is Ending.SETTING_DOWN:
            return isinstance(hand, Pull) and hand.state in (Grip.LOWERING, Grip.PLACED)
        if self.ending is Ending.LAYING:
            return isinstance(hand, FloorLay) and hand.state == Laying.LAID
        if self.ending is Ending.PROVING:
            return pulling and turn.role is Role.PROOF
        if self.ending is Ending.PENALTY:
            return isinstance(hand, Pull) and turn.step is Step.TAKE_OUT
        return pulling and turn.role in (Role.CHALLENGE, Role.FAMILY_CHALLENGE)

    def _knock(self) -> None:
        self._since_knock -= 1
        if self._since_knock > 0:
            return
        villa = self.match.villa
        top = max(villa.floor_levels)
        villa.wake()
        villa.body(f"floor-{top}").setLinearVelocity((KNOCK_SPEED * (1 + self.knocks), 0, 0))
        self.knocks += 1
        self._since_knock = KNOCK_AGAIN

    # --- steering toward it ------------------------------------------------------------------

    def _steer(self, state: rules.GameState) -> bool:
        """Take the decisions that lead to the moment; everything else is the computer seats'.
        Returns whether it did something."""
        match, turn, ending = self.match, state.turn, self.ending
        legal = rules.legal_actions(state) if turn.step in (Step.START, Step.ASK) else []
        if turn.step is Step.START:
            if ending in (Ending.LAYING, Ending.PROVING, Ending.PENALTY, Ending.CHALLENGE) \
                    and eligibility.floor_can_be_laid(state) and rules.ProposeFloor() in legal:
                if ending is not Ending.CHALLENGE or state.ruleset.family:
                    return rq.ask(match, rq.Propose).accepted
            if ending is Ending.CHALLENGE and not state.ruleset.family and not turn.neutral_done:
                return self._try_neutral(state)
        elif turn.step is Step.ASK:
            wanted = ending in DOUBTS.get(turn.role, ()) and rules.answer_for(state, True) in legal
            return rq.ask(match, lambda seat: rq.Answer(seat, wanted)).accepted
        elif turn.step is Step.TAKE and turn.role is Role.PROOF and ending is Ending.PENALTY:
            return self._fail_the_proof(state)
        elif turn.step is Step.TAKE and ending in PULLS_ITSELF.get(turn.role, ()):
            for column in rules.takeable_columns(state):
                if rq.ask(match, lambda seat, column=column: rq.Take(seat, column)).accepted:
                    self._held = match.hand
                    return True
        return False

    def _try_neutral(self, state: rules.GameState) -> bool:
        """Take a neutral column and give it up at once: the others may challenge that another could go up."""
        neutral = [c for c in rules.takeable_columns(state) if COLUMNS_BY_ID[c].colour is state.neutral]
        if len(eligibility.neutral_takeable(state)) > 1 and neutral \
                and rq.ask(self.match, lambda seat: rq.Take(seat, neutral[0])).accepted:
            return rq.ask(self.match, rq.GiveUp).accepted
        return False

    def _fail_the_proof(self, state: rules.GameState) -> bool:
        """The objector takes one of the proposer's columns and gives it up: the objection fails."""
        for column in rules.takeable_columns(state):
            if rq.ask(self.match, lambda seat, column=column: rq.Take(seat, column)).accepted:
                return rq.ask(self.match, rq.GiveUp).accepted
        return False
