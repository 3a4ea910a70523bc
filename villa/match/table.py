"""The game in play, headless: the rules' state with its log, the wooden villa, and the hand.

    match = Match(setup)                          # a new game (or Match(setup, record): one taken up again)
    match.request(Take(seat, "red-thin-2", point)) # a person's press, or a computer's plan
    match.request(Aim(seat, point))               # every frame while pulling or carrying
    match.request(SetDown(seat, hold=True))       # once the column is free, over the top floor: the builder's
    match.request(LetGo(seat))                    # hands hold it, felt (`holding`), lifted again or let go
    match.advance(dt)                             # the villa steps in whole frames; once it settles the
                                                  # hand's fact goes to the referee, whose verdict is the state
    match.events.subscribe(TurnSettled, autosave)

Every change of the rules' state goes through `rules.apply`; what the villa did reaches the
referee only as a fact, once the villa has settled. People, computers, lessons and the server
send the same request values (`villa.match.requests`) to `request`, the one way in, which
answers with a `Reply`: accepted, or refused with the referee's or the wood's code (each request is
carried out in `villa.match.carrying_out`). The window calls `advance` once per drawn frame,
`--headless` as fast as it can.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import replace
from typing import Callable, Protocol

from villa import rules
from villa.match import building
from villa.match import events as ev
from villa.match import requests as rq
from villa.match.carrying_out import HANDLERS, CarryingOut
from villa.match.motion import Motion, MotionRecorder
from villa.match.record import Record, TurnRecord
from villa.match.setup import MatchSetup, Seat, Strength
from villa.physics import layouts, survey
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull, landing_refusal
from villa.physics.refusals import PlacementError, Refusal
from villa.physics.world import Villa, give_back_free_memory
from villa.rules.state import Step

FRAME = 1.0 / 60.0          # the hand acts and the referee looks once per frame of simulated time
MAX_FRAMES_PER_ADVANCE = 6  # a stalled window slows the villa down rather than piling up work
SETTLE_TIMEOUT = 6.0        # s of simulated time a placement may tremble before it is judged as it stands
FALL_TIMEOUT = 12.0         # s of simulated time the pieces of a fallen villa may roll before they are stopped
COLOUR_STEPS = (Step.COLOUR_ROLL, Step.COLOUR_CHOICE)
DONE = (Grip.PLACED, Grip.TAKEN_OUT, Laying.LAID)


class Driver(Protocol):
    """A computer seat's hand: called before every frame; False holds the frame (still thinking)."""

    def before_frame(self) -> bool: ...


def opening_state(setup: MatchSetup) -> rules.GameState:
    """The rules' state before the first move: colours dealt when asked to, a villa started higher taken up."""
    state = rules.new_game(setup.rules_setup())
    if (setup.deal_colours or setup.started_higher) and state.turn.step in COLOUR_STEPS:
        state = rules.apply(state, rules.AssignColoursAtRandom(setup.seed))
    if setup.started_higher:
        state = _take_up_higher(state, setup)
    return state


def _take_up_higher(state: rules.GameState, setup: MatchSetup) -> rules.GameState:
    """The referee takes the villa up as the layout has it built (columns it leaves out are out of the game)."""
    levels = {spot.column: spot.level for spot in setup.layout.columns}
    supports = {f.level: [s.column for s in layouts.supports(setup.layout, f.level)] for f in setup.layout.floors}
    return rules.apply(state, rules.SetUpHigher.of(levels, supports))


class Match:
    """A game in play. One constructor for every start: a new game from its setup, or a game taken up
    again from its record (a save, an autosave, a replay)."""

    def __init__(self, setup: MatchSetup, record: Record | None = None) -> None:
        self.setup = setup
        self.events = ev.Events()
        self.hand: Pull | FloorLay | None = None
        self._drivers: list[Driver] = []
        self._clock = 0.0
        self._settling_since: float | None = None
        self._collapse_seen = False
        self._fell_at = 0.0
        me = weakref.proxy(self)    # the match holds its carrying-out: a match dropped is freed at once by its
        self._carrying_out = CarryingOut(me, lambda action: me._apply(action))    # count, villa and all (megabytes)
        self.heard: Callable[[rq.Request], None] | None = None   # told of every request before it is carried out
        self._moving = MotionRecorder()
        self.motion: Motion | None = record.motion if record is not None else None   # the last turn's
        if record is None:
            self.start = self.state = opening_state(setup)
            self.villa = self._build_villa()
            self.turns: list[TurnRecord] = [TurnRecord(0, len(self.state.log), self.villa.snapshot())]
        else:
            self.start, self.state, self.turns = record.start, record.state, list(record.turns)
            self.villa = Villa.from_snapshot(self.turns[-1].villa)
            self._collapse_seen = self.state.over and self.state.result.fell
        self._round = self.state.round
        self._mark = self._turn_mark()

    def _build_villa(self) -> Villa:
        return building.settled_villa(self.setup.layout, setup=not self.setup.started_higher)

    # --- what is going on ---

    @property
    def record(self) -> Record:
        """The game as far as it went, for a save."""
        return Record(self.setup, self.start, self.state, tuple(self.turns), self.motion)

    @property
    def turn(self) -> int:
        return self.turns[-1].turn

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def actor(self) -> int | None:
        """Who must act now (None: chance, or the game is over)."""
        return rules.whose_move(self.state)

    def seat(self, player: int | None) -> Seat | None:
        return None if player is None else self.setup.seats[player]

    def away(self, player: int) -> bool:
        """Has this person left the table for a while? Never round one table (online: a dropped connection)."""
        return False

    def change_seat(self, player: int, computer: Strength | None) -> None:
        """A person takes over a computer player's seat, or hands theirs to one (the names stay: they are
        the rules' players). Saves from now on record the seats as they are."""
        seats = list(self.setup.seats)
        seats[player] = replace(seats[player], computer=computer)
        self.setup = replace(self.setup, seats=tuple(seats))

    @property
    def drivers(self) -> tuple[Driver, ...]:
        return tuple(self._drivers)

    @property
    def collapsed(self) -> bool:
        return self.villa.collapse is not None

    @property
    def busy(self) -> bool:
        """Hands off: something is in hand, settling, or the fallen villa has yet to come to rest."""
        return self.hand is not None or self.collapsed or not self.villa.settled

    def can_lay_floor(self) -> bool:
        """Is there a floor to lay now (proposed and granted), with enough columns to carry it?"""
        return rules.floor_to_lay(self.state)

    # --- the players' requests: one way in ---------------------------------------------------

    def request(self, request: rq.Request) -> rq.Reply:
        """A seat's request (`villa.match.requests`), from a person's window, a computer player, a lesson's
        script or the server: carried out, or refused with the referee's or the wood's code. A seat the rules
        do not ask now is refused as the referee refuses a move out of turn."""
        if self.heard is not None:
            self.heard(request)         # (an online room writes it ahead, to be played again elsewhere)
        if request.seat != rules.acting_player(self.state):
            refusal = rq.not_now(self.state, type(request).__name__)
        else:
            refusal = HANDLERS[type(request)](self._carrying_out, request)
        self.events.hand_out()
        return rq.Reply(refusal)

    def landing_refusal(self) -> Exception | None:
        """Why the carried column may not be set down straight below it now (None: it may): the
        referee's own verdict on what the villa would report, then the wood's."""
        pull = self.hand
        preview = pull.preview() if isinstance(pull, Pull) else None
        if preview is None:
            return PlacementError(Refusal.NO_FLOOR_UNDER)
        try:
            rules.apply(self.state, preview)
        except rules.RuleError as refusal:
            return refusal
        return landing_refusal(self.villa, pull.column)     # the rules allow it: does the wood?

    # --- held in the hands: felt ---

    @property
    def holding(self) -> bool:
        """Is a floor or a column held in the hands (a floor: touching its columns or lifted clear)?
        A held column lifted again is carried, as before it was set down."""
        return self.hand is not None and self.hand.state in (Laying.HELD, Grip.HELD)

    @property
    def strain(self) -> float:
        """N: the force the column in hand resists the hand with (0 when no column is in hand)."""
        return self.hand.strain if isinstance(self.hand, Pull) else 0.0

    def next_roll(self) -> rules.SealRoll | None:
        """What the Master Builder Seal will show when rolled now (chance, decided by the seed and the
        moves so far: the same game rolls the same way, taken up again or not); None: no roll is due."""
        return seal_roll(self.setup.seed, self.state)

    def _apply(self, action) -> Exception | None:
        """An action or fact to the referee: the verdict is the new state, and the news goes out."""
        before = self.state
        try:
            self.state = rules.apply(before, action)
        except rules.RuleError as refusal:
            return refusal
        self._accepted(before, action)
        self.events.hand_out()
        return None

    # --- time -------------------------------------------------------------------------------

    def add_driver(self, driver: Driver) -> None:
        self._drivers.append(driver)

    def remove_driver(self, driver: Driver) -> None:
        if driver in self._drivers:
            self._drivers.remove(driver)

    def advance(self, seconds: float) -> int:
        """Let `seconds` of real time pass, in whole frames; returns the frames run."""
        self._clock += seconds
        frames = 0
        while self._clock >= FRAME - 1e-9 and frames < MAX_FRAMES_PER_ADVANCE:
            self._clock -= FRAME
            frames += self.frame()
        if frames >= MAX_FRAMES_PER_ADVANCE:
            self._clock = 0.0
        return frames

    def frame(self) -> int:
        """One frame: the hands act, the villa steps, the referee judges what came to rest.
        Returns 0 when a computer player held the frame to think (no time passed)."""
        held = False
        for driver in list(self._drivers):
            held |= driver.before_frame() is False
        if held:
            self.events.hand_out()
            return 0
        self.villa.step(FRAME)
        self._moving.frame(self.villa)
        self._judge()
        self.events.hand_out()
        return 1

    def _judge(self) -> None:
        """The settle -> fact -> verdict step."""
        villa = self.villa
        if villa.collapse is not None:
            if not self._collapse_seen:
                self._collapse_seen = True
                self._fell_at = villa.time
                self._moving.fell()
                hand = self.hand
                if isinstance(hand, Pull) and hand.state == Grip.TAKEN_OUT and not self.over:
                    self._submit(rules.ColumnTakenOut(hand.column))   # it was out before the villa fell
                self.hand = None
                self._settling_since = None
                if not self.over and self.state.turn.step not in COLOUR_STEPS:
                    self._submit(villa.collapse)
                self.events.emit(ev.Collapsed(villa.collapse))
            if not villa.settled and villa.time - self._fell_at > FALL_TIMEOUT:
                villa.sleep()   # a column rolling on and on across the table
            self._record_when_settled()
            return
        hand = self.hand
        if isinstance(hand, Pull) and hand.state is Grip.CARRYING and self.state.turn.step is Step.TAKE_OUT:
            hand.take_out()   # out of the villa: out of the game
        if not self._carrying_out.touched and self.holding and (isinstance(hand, Pull) or hand.touching()):
            self._carrying_out.touched = True
            self.events.emit(ev.Touched(hand.piece if isinstance(hand, FloorLay) else hand.column))
        if hand is not None and hand.state in (Grip.ABORTED, Laying.CANCELLED, Grip.DROPPED):
            self.hand = hand = None
        if hand is not None and hand.state in DONE:
            if self._settling_since is None:
                self._settling_since = villa.time
            fact = hand.result()
            if fact is None and villa.time - self._settling_since > SETTLE_TIMEOUT:
                fact = _fact_now(villa, hand)   # still trembling: judged as it stands
            if fact is not None:
                self.hand = None
                self._settling_since = None
                refused = self._submit(fact)
                if refused and isinstance(fact, rules.ColumnPlaced) and self.state.turn.step is Step.IN_HAND:
                    # still in hand for the rules: taken up again, to be set down better (or given up)
                    self.hand = villa.grab(fact.column)
        self._record_when_settled()

    def _submit(self, fact) -> bool:
        """A fact to the referee; True if it was refused (the refusal is an event)."""
        refusal = self._apply(fact)
        if refusal is not None:
            self.events.emit(ev.Refused(fact, refusal))
        return refusal is not None

    def _accepted(self, before: rules.GameState, action) -> None:
        after = self.state
        for column in sorted(after.out - before.out):
            if column in self.villa.nodes and column not in self.villa.in_hand:
                self.villa.remove(column)   # out of the game: off the table (a proof that succeeded)
        if before.turn.step in COLOUR_STEPS and after.turn.step not in COLOUR_STEPS and len(self.turns) == 1:
            # the colours are settled: turn 0 is the villa as built, with everyone's colours
            self.turns[0] = TurnRecord(0, len(after.log), self.turns[0].villa)
            self._mark = self._turn_mark()
        for event in ev.of_change(before, action, after):
            self.events.emit(event)

    # --- settled turns ---------------------------------------------------------------------

    def _turn_mark(self) -> tuple[int, int, bool]:
        return self.state.turn.player, len(self.state.log), self.state.over

    def _record_when_settled(self) -> None:
        """Once a turn is over and the villa lies still, write the turn down (a family round that
        ended first gets its villa built anew)."""
        state = self.state
        player, log, over = self._mark
        ended = (state.turn.player != player or state.over != over or state.round != self._round)
        if not ended or state.turn.step in COLOUR_STEPS or self.hand is not None or not self.villa.settled:
            return
        if state.turn.column is not None and not state.over:
            return
        if state.round != self._round:
            self._round = state.round
            self.villa = self._build_villa()
            self._collapse_seen = False
            self.events.emit(ev.RoundStarted(state.round))
        record = TurnRecord(len(self.turns), len(state.log), self.villa.snapshot())
        self.motion = self._moving.turn_over(record.turn) or self.motion
        self.turns.append(record)
        self._mark = self._turn_mark()
        self.events.emit(ev.TurnSettled(record))

    def close(self, give_back: bool = True) -> None:
        """Let go of everything (a game left for the menu), and hand back the memory the game freed (`give_back`;
        a server does so every few seconds instead, for all its rooms closed meanwhile: it takes milliseconds).
        Nothing it holds holds it any more: once let go it is freed at once, its villa's world with it, without
        waiting for Python's collection of cycles (a server closing rooms one after another would otherwise grow
        by worlds)."""
        self._drivers.clear()
        self.events.clear()
        self.heard = None
        self.hand = None
        self._carrying_out.match = self._carrying_out.refer = None
        if give_back:
            give_back_free_memory()


def seal_roll(seed: int, state: rules.GameState) -> rules.SealRoll | None:
    """What the seal shows when rolled in this state of the game seeded `seed` (chance, decided by the seed and the
    moves so far: the same game rolls the same way, taken up again, or seen from another window); None: no roll
    is due."""
    if not rules.is_chance_node(state):
        return None
    return random.Random(f"{seed}:{len(state.log)}:seal").choice(rules.legal_actions(state))


def _fact_now(villa: Villa, hand):
    if hand.state is Grip.PLACED:
        return survey.column_placed(villa, hand.column)
    if hand.state is Grip.TAKEN_OUT:
        return rules.ColumnTakenOut(hand.column)
    return survey.floor_laid(villa, hand.level)
