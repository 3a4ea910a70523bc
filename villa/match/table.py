"""The game in play, headless: the rules' state with its log, the wooden villa, and the hand.

    match = Match(setup)                   # a new game (or Match(setup, record): one taken up again)
    match.take("red-thin-2", point)        # a person's press, or a computer's plan
    match.hand.aim(point)                  # every frame while pulling or carrying
    match.set_down()                       # once the column is free, over the top floor
    match.lower_floor(hold=True)           # the builder's hands: lowered and held (set_down too),
    match.let_go()                         # felt (`holding`, `hand.tilt_deg()`), lifted again or let go
    match.advance(dt)                      # the villa steps in whole frames; once it settles the
                                           # hand's fact goes to the referee, whose verdict is the state
    match.events.subscribe(TurnSettled, autosave)

Every change of the rules' state goes through `rules.apply`; what the villa did reaches the
referee only as a fact, once the villa has settled. People and computers drive the same
methods; the window calls `advance` once per drawn frame, `--headless` as fast as it can.
Each method that a player's request calls returns the refusal (a `RuleError` or a
`PlacementError`, with its code) or None when it was done.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Protocol

from panda3d.core import Point3

from villa import rules
from villa.match import events as ev
from villa.match.record import Record, TurnRecord
from villa.match.setup import MatchSetup, Seat, Strength
from villa.physics import layouts, survey
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull
from villa.physics.refusals import PlacementError, Refusal
from villa.physics.world import Villa, give_back_free_memory
from villa.rules.state import Step

FRAME = 1.0 / 60.0          # the hand acts and the referee looks once per frame of simulated time
MAX_FRAMES_PER_ADVANCE = 6  # a stalled window slows the villa down rather than piling up work
BUILD_SETTLE_S = 4.0        # a villa built from a layout comes to rest before the first move
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
        self._touched = False   # the held piece has touched down since it was last lowered
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
        villa = Villa.from_layout(self.setup.layout, validate=False, setup=not self.setup.started_higher)
        villa.run_until_settled(BUILD_SETTLE_S)
        return villa

    # --- what is going on ---

    @property
    def record(self) -> Record:
        """The game as far as it went, for a save."""
        return Record(self.setup, self.start, self.state, tuple(self.turns))

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
        return (self.state.turn.step is Step.LAY_FLOOR
                and any(isinstance(f, rules.FloorLaid) for f in rules.expected_facts(self.state)))

    # --- the players' requests --------------------------------------------------------

    def take(self, column: str, point=None, steady: bool = False) -> Exception | None:
        """Take hold of `column` (at a world point on it): for a build, a proof or a challenge the referee
        is told it is chosen; at a failed objection's penalty it is the column to pull out of the game."""
        if self.hand is not None or self.collapsed or self.over:
            return self._not_now("taking a column")
        if column not in self.villa.nodes:
            return PlacementError(Refusal.NOT_IN_VILLA, column=column)
        if rules.task(self.state) is rules.Task.TAKE_OUT:
            refusal = rules.why_not_grabbable(self.state, column)
            if refusal is not None:
                return refusal
        else:
            refusal = self.act(rules.TakeColumn(column))
            if refusal is not None:
                return refusal
        self.hand = self.villa.grab(column, point, steady)
        self._finish()
        return None

    def set_down(self, hold: bool = False) -> Exception | None:
        """Set the carried column down straight below it, if the referee would accept it there; with
        `hold`, the hand keeps it upright once it touches down, until `let_go()` (or `lift()`)."""
        pull = self.hand
        if not isinstance(pull, Pull) or pull.state != Grip.CARRYING:
            return PlacementError(Refusal.NOT_FREE_TO_SET_DOWN)
        refusal = self.landing_refusal()
        if refusal is None:
            try:
                pull.place(hold=hold)
                self._touched = False
            except PlacementError as error:
                refusal = error
        return refusal

    def landing_refusal(self) -> Exception | None:
        """Why the carried column may not be set down straight below it now (None: it may): the
        referee's own verdict on what the villa would report."""
        pull = self.hand
        preview = pull.preview() if isinstance(pull, Pull) else None
        if preview is None:
            return PlacementError(Refusal.NO_FLOOR_UNDER)
        try:
            rules.apply(self.state, preview)
        except rules.RuleError as refusal:
            return refusal
        return None

    def give_up(self) -> Exception | None:
        """Give up what is in hand: the column goes back (blocked for the rest of the game), the floor
        goes back in the box; a penalty pull goes back and another of the objector's may be tried."""
        hand = self.hand
        if isinstance(hand, FloorLay):
            refusal = self.act(rules.GiveUpFloor())
            if refusal is None:
                hand.cancel()
                self.hand = None
            return refusal
        if isinstance(hand, Pull) and hand.state in (Grip.PULLING, Grip.CARRYING, Grip.HELD):
            if self.state.turn.step is not Step.TAKE_OUT:
                refusal = self.act(rules.Abort())
                if refusal is not None:
                    return refusal
            hand.abort()
            self.hand = None
            return None
        if hand is None and self.state.turn.step is Step.LAY_FLOOR:
            return self.act(rules.GiveUpFloor())
        return self._not_now("giving up")

    def start_laying(self) -> Exception | None:
        """Bring the next floor over the top columns, to be carried, turned and lowered."""
        if self.hand is not None or self.collapsed or not self.can_lay_floor():
            return self._not_now("laying a floor")
        try:
            self.hand = self.villa.lay_floor()
        except PlacementError as error:
            return error
        return None

    def lower_floor(self, hold: bool = False, grip: Point3 | None = None) -> Exception | None:
        """Lower the carried floor onto the columns beneath it and let go on touching them; with `hold`,
        keep holding it (at the world point `grip` on it; its centre if None) until `let_go()`. A held
        floor lifted clear is lowered again, held."""
        lay = self.hand
        if not isinstance(lay, FloorLay) or lay.state not in (Laying.CARRYING, Laying.HELD):
            return self._not_now("lowering a floor")
        try:
            lay.lower(hold=hold, grip=grip)
        except PlacementError as error:
            return error
        self._touched = False
        return None

    # --- held in the hands: felt, lifted again, let go ---

    @property
    def holding(self) -> bool:
        """Is a floor or a column held in the hands (a floor: touching its columns or lifted clear)?
        A held column lifted again is carried, as before it was set down."""
        return self.hand is not None and self.hand.state in (Laying.HELD, Grip.HELD)

    @property
    def strain(self) -> float:
        """N: the force the column in hand resists the hand with (0 when no column is in hand)."""
        return self.hand.strain if isinstance(self.hand, Pull) else 0.0

    def lift(self) -> Exception | None:
        """Lift the held floor or column clear again: it is carried, to be moved and lowered elsewhere."""
        if not self.holding:
            return self._not_now("lifting")
        self.hand.lift()
        return None

    def let_go(self) -> Exception | None:
        """Let go of the held floor or column: it counts as laid or placed once the villa settles."""
        hand = self.hand
        if not self.holding:
            return self._not_now("letting go")
        hand.let_go()
        self.events.emit(ev.LetGo(hand.piece if isinstance(hand, FloorLay) else hand.column))
        self._finish()
        return None

    def next_roll(self) -> rules.SealRoll | None:
        """What the Master Builder Seal will show when rolled now (chance, decided by the seed and the
        moves so far: the same game rolls the same way, taken up again or not); None: no roll is due."""
        if not rules.is_chance_node(self.state):
            return None
        dice = random.Random(f"{self.setup.seed}:{len(self.state.log)}:seal")
        return dice.choice(rules.legal_actions(self.state))

    def roll(self) -> rules.SealRoll | None:
        """Roll the seal: `next_roll()`, applied."""
        roll = self.next_roll()
        if roll is not None:
            self.act(roll)
        return roll

    def _not_now(self, what: str) -> rules.RuleError:
        turn = self.state.turn
        return rules.Rule.NOT_NOW.refuse(action=what, step=turn.step.value, role=turn.role.value, actor=turn.actor)

    def act(self, action) -> Exception | None:
        """Any player's (or chance's) action, straight to the referee."""
        before = self.state
        try:
            self.state = rules.apply(before, action)
        except rules.RuleError as refusal:
            return refusal
        self._accepted(before, action)
        self._finish()
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
            self._finish()
            return 0
        self.villa.step(FRAME)
        self._judge()
        self._finish()
        return 1

    def _judge(self) -> None:
        """The settle -> fact -> verdict step."""
        villa = self.villa
        if villa.collapse is not None:
            if not self._collapse_seen:
                self._collapse_seen = True
                self._fell_at = villa.time
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
        if not self._touched and self.holding and (isinstance(hand, Pull) or hand.touching()):
            self._touched = True
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
        refusal = self.act(fact)
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
        self.events.emit(ev.Accepted(before, action, after))
        if after.turn.step is Step.ASK and not after.over:
            self.events.emit(ev.AnswerNeeded(after.turn.actor, after.turn.role))
        if after.over and not before.over:
            self.events.emit(ev.GameOver(after.result))

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
        self.turns.append(record)
        self._mark = self._turn_mark()
        self.events.emit(ev.TurnSettled(record))

    def _finish(self) -> None:
        self.events.hand_out()

    def close(self) -> None:
        """Let go of everything (a game left for the menu), and hand back the memory the game freed."""
        self._drivers.clear()
        self.events.clear()
        self.hand = None
        give_back_free_memory()


def _fact_now(villa: Villa, hand):
    if hand.state is Grip.PLACED:
        return survey.column_placed(villa, hand.column)
    if hand.state is Grip.TAKEN_OUT:
        return rules.ColumnTakenOut(hand.column)
    return survey.floor_laid(villa, hand.level)
