"""A computer player's decisions: `think(request) -> Plan`, from plain data to plain data.

It reads the rules' state and a copy of the villa, lists what the rules allow, tries the
promising pulls on copies of the villa (`trials`), and weighs each by its outcome (did anything
fall, how far did the floors move, how firmly does the villa stand afterwards) and by what it
brings (points, the Master Builder Seal). The strategic calls (propose a floor or pull, object,
challenge, the penalty pull, where the floor goes) are read off the same trials and the seal.

Its choices depend only on the request (state, villa snapshot, strength, seed, seat), so the
worker process and this process decide alike, and a game taken up again goes on the same way.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from enum import Enum

from villa import rules
from villa.match.computer import reading, trials
from villa.match.computer.plans import Plan, Request
from villa.match.setup import Strength
from villa.physics.world import Villa
from villa.rules import Task
from villa.rules.pieces import COLUMNS_BY_ID, GREEN_LEVEL, TOP_FLOOR_LEVEL
from villa.rules.state import Role
SAFE_FIRM = 0.8          # cm the weakest floor must stay inside its supports for a pull to count as safe
SAFE_SHIFT = 0.4         # cm the floors may move in a trial for a pull to count as safe
PROOF_FIRM = 1.2         # proving an objection or a challenge risks more (a fall is the prover's): firmer
CONTEST_FIRM = 0.1       # cm: on the red floor, a pull that keeps the seal from a rival's next column or takes it
                         # back is made at this margin (the physics tips within 0.4 mm of the true edge, and the
                         # hand pulls as the copy did)
BUILD_ON_FIRM = 0.5      # cm: ... and one behind that only brings points nearer it at this one
RETAKE = 2.5             # the gain of a pull that takes the seal back
FELL = -100.0


class Stakes(Enum):
    """On the red floor, where building stops for good: what the seal means for this player."""

    AHEAD = "ahead"     # it holds the seal claimed there: only a fall can lose it the game
    BEHIND = "behind"   # another holds it: stopping loses


@dataclass(frozen=True)
class Profile:
    """How a strength plays."""

    shortlist: int        # columns tried on a copy of the villa
    trials: int           # pulls it may try on copies for one decision, looking past its shortlist
    ways: int             # ways out tried for the best of them
    speed: float          # cm/s it pulls at
    shake_deg: float      # noise on its pull direction
    shake_speed: float    # noise on its speed (a fraction)
    seal: bool            # plays for the seal (takes it, times floors, lets a floor it builds on first stand)
    contest: frozenset    # the red floor's contest for the seal it plays (`Stakes`): holding it there, it
                          # risks nothing (and claims floors in vain); behind, it builds past the holder
    prudent: bool         # objects and challenges only on a trial's word, not on a glance
    aim_cm: float         # how far off its planned place it lowers a floor (a normal error, cm)
    shifts: int           # times it lifts a held floor that tips and shifts it, before giving it up
    rash: float           # the chance it pulls a column it should give up, or lets go a floor that tips


PROFILES = {   # by `Strength` (a str enum: the request's plain value finds its profile too)
    Strength.EASY: Profile(shortlist=1, trials=2, ways=1, speed=7.0, shake_deg=8.0, shake_speed=0.25,
                    seal=False, contest=frozenset(), prudent=False, aim_cm=1.2, shifts=1, rash=0.3),
    Strength.MEDIUM: Profile(shortlist=2, trials=5, ways=1, speed=8.0, shake_deg=2.0, shake_speed=0.1,
                      seal=True, contest=frozenset({Stakes.AHEAD}), prudent=True, aim_cm=0.4, shifts=3, rash=0.0),
    Strength.HARD: Profile(shortlist=3, trials=6, ways=2, speed=9.0, shake_deg=0.0, shake_speed=0.0,
                    seal=True, contest=frozenset(Stakes), prudent=True, aim_cm=0.0, shifts=4, rash=0.0),
}


@dataclass(frozen=True)
class Option:
    """A pull weighed: the plan, how safe it looked, what it brings."""

    plan: Plan
    safety: float         # firm (cm, capped) less the floors' shift; FELL when a trial fell
    firm: float
    shift: float
    gain: float

    @property
    def score(self) -> float:
        return self.safety + self.gain

    def safe(self, firm: float = SAFE_FIRM) -> bool:
        return self.safety > FELL and self.firm >= firm and self.shift <= SAFE_SHIFT

    def survives(self, firm: float = 0.0) -> bool:
        """The copy came through and statics leave every floor at least `firm` inside its supports: a copy
        that still stands with a floor's load outside them is only slow to fall (it tips in the live villa
        once the column is carried off)."""
        return self.safety > FELL and self.firm >= firm


def think(request: Request) -> Plan:
    """The decision for the player `request.player`, who must act now."""
    state = rules.state_from_json(request.state)
    return Brain(state, request).decide()


class Brain:
    def __init__(self, state: rules.GameState, request: Request) -> None:
        self.state = state
        self.snapshot = request.villa
        self.villa = Villa.from_snapshot(request.villa)
        self.frame = reading.Frame(self.villa)
        self.me = request.player
        self.profile = PROFILES[request.strength]
        self.rng = random.Random(f"{request.seed}:{request.player}:{len(state.log)}")
        self._tried: dict[tuple, trials.Outcome] = {}

    # --- the step ---

    def decide(self) -> Plan:
        state, task = self.state, rules.task(self.state)
        if task is Task.COLOUR_CHOICE:
            return self.choose_colour()
        if task in (Task.BUILD, Task.NEUTRAL, Task.PASS):
            return self.start_turn()
        if task in (Task.OWN, Task.PROOF, Task.CHALLENGE_PROOF, Task.FAMILY_PROOF):
            return self.must_take()
        if rules.is_question(task):
            return self.answer()
        if task is Task.LAY_FLOOR:
            return self.lay_floor()
        if task is Task.TAKE_OUT:
            return self.penalty()
        legal = rules.legal_actions(state)
        return Plan(action=legal[0] if legal else None, why="the only thing to do")

    # --- colours ---

    def choose_colour(self) -> Plan:
        choices = rules.legal_actions(self.state)
        if self.profile.shortlist <= 1:
            return Plan(action=self.rng.choice(choices), why="a colour it likes")
        ease = {a: sum(self._ease(c.id) for c in rules.ALL_COLUMNS if c.colour is a.colour) for a in choices}
        best = max(choices, key=lambda a: (ease[a], a.colour.value))
        return Plan(action=best, why="the colour whose columns come out most easily")

    def _ease(self, column: str) -> float:
        if column not in self.frame.pieces:
            return 0.0
        if self.frame.carried_by(column) is None:
            return 1.0
        return max(-1.0, min(self.frame.weakest(without=column), 3.0)) / 3.0

    # --- a turn's start: build, propose, pass ---

    def start_turn(self) -> Plan:
        state = self.state
        legal = rules.legal_actions(state)
        takes = [a.column for a in legal if isinstance(a, rules.TakeColumn)]
        may_claim = any(isinstance(a, rules.ProposeFloor) for a in legal)
        floor = self._floor_plan() if may_claim else None
        stakes = self._last_floor_stakes()
        options = self.weigh(takes, budget=2 if stakes is Stakes.BEHIND else 1) if takes else []
        best = options[0] if options else None
        if floor is not None and self._propose_now(best):
            return Plan(action=rules.ProposeFloor(), why=f"proposes the next floor ({floor.why})")
        if stakes is Stakes.AHEAD and best is not None:
            return self._hold(best)
        if stakes is Stakes.BEHIND and best is not None:
            return self._build_past(options, takes)
        if best is not None and (best.safe() or (best.safety > FELL and best.firm > 0.2) or self._slips()):
            return best.plan
        if may_claim and self._claim_in_vain(best):
            return Plan(action=rules.ProposeFloor(),
                        why="claims the floor though it cannot be laid: no pull is safe, and the turn passes")
        if best is not None and (state.ruleset.abort_allowed or best.safety > FELL):
            return self._token(best.plan) if state.ruleset.abort_allowed else best.plan
        if any(isinstance(a, rules.Pass) for a in legal):
            return Plan(action=rules.Pass(), why="nothing can be built")
        if best is not None:
            return best.plan
        return Plan(action=rules.ProposeFloor(), why="the floor is claimed, though it cannot be laid")

    def _last_floor_stakes(self) -> Stakes | None:
        """On the red floor, where building stops for good, the seal's holder wins: a fall is
        the only way the holder of the seal claimed there can still lose (AHEAD), and the others lose
        unless they build past it (BEHIND); a strength plays the stakes its profile knows."""
        state = self.state
        if not self.profile.contest or state.ruleset.family or state.top_level != TOP_FLOOR_LEVEL \
                or not state.ruleset.abort_allowed or state.seal.holder is None:
            return None
        if state.seal.holder != self.me:
            stakes = Stakes.BEHIND
        else:   # claimed on a floor below, the next column takes it
            stakes = Stakes.AHEAD if state.seal.level == TOP_FLOOR_LEVEL else None
        return stakes if stakes in self.profile.contest else None

    def _hold(self, best: Option) -> Plan:
        """Holding the seal claimed on the red floor, only a fall can lose the game: it gives a column up
        rather than risk one, unless a rival's next column would outscore it, when standing still loses
        too and any pull that leaves the floors firmly enough inside their supports is worth it."""
        if best.safe(PROOF_FIRM) or (self._overtaken_next() and best.safe(CONTEST_FIRM)):
            return best.plan
        return self._token(best.plan, why="holds the seal on the red floor: risks nothing, gives a column up")

    def _overtaken_next(self) -> bool:
        """Could one column of a rival's outscore this player on the top floor?"""
        state = self.state
        lead = state.points(self.me) - max(state.points(p) for p in range(state.n) if p != self.me)
        reach = max((COLUMNS_BY_ID[c].points for p in range(state.n) if p != self.me
                     for c in rules.takeable(state, state.colours[p])), default=0)
        return reach > lead

    def _build_past(self, options: list[Option], takes: list[str]) -> Plan:
        """Behind on the red floor, where stopping loses: take the seal back if a pull can, else build
        nearer it where that is fairly safe; else give up a column no pull brings out, so the holder must
        pull again, and keep the risky pull for when nothing is left to give up."""
        back = [o for o in options if o.gain >= RETAKE and o.survives(CONTEST_FIRM)]
        if back:
            return max(back, key=lambda o: (o.firm, o.gain)).plan
        nearer = [o for o in options if o.safe(BUILD_ON_FIRM)]
        if nearer:
            return nearer[0].plan
        came_out = {o.plan.column for o in options if o.survives()}
        hopeless = [c for c in takes if c not in came_out]
        if hopeless:
            tried = {o.plan.column for o in options}
            worst = min(hopeless, key=lambda c: (c not in tried, c))   # one that fell on a copy first
            return self._token(Plan(column=worst), why="gives up a column no pull brings out, and waits")
        risky = [o for o in options if o.survives()]
        if risky:
            return risky[0].plan
        return self._token(options[0].plan)

    def _claim_in_vain(self, best: Option | None) -> bool:
        """Claim a floor that cannot be laid (it is given up, the turn passes quietly) rather than pull:
        when the only pull would bring the villa down and no column can be given up instead, or when it
        holds the seal (quiet turns run the game towards its end, which the holder wins), rather than
        block a column of its own. Never in the family edition: there a column must move all the same."""
        state = self.state
        if state.ruleset.family or rules.floor_can_be_laid(state):
            return False
        if best is None:
            return True
        if not state.ruleset.abort_allowed:
            return best.safety <= FELL
        return Stakes.AHEAD in self.profile.contest and state.seal.holder == self.me

    def _propose_now(self, best: Option | None) -> bool:
        """Propose rather than pull: when no pull is safe, or the floor below thins out while the top
        fills up; the seal's holder keeps the floor it holds the seal on for as long as it can, and a
        proposer who moves a column next may claim early."""
        state = self.state
        if best is None or not best.safe():
            return True
        holds = self.profile.seal and state.seal.holder == self.me and state.seal.level == state.top_level
        crowded = len(state.columns_on(state.top_level)) >= state.ruleset.min_support(state.top_level + 1) + 3
        if crowded and best.firm < 1.5 and not holds:
            return True
        if not self.profile.seal or state.ruleset.family or holds:
            return False
        return state.ruleset.proposer_moves_column and state.seal.holder != self.me and best.gain <= 2

    def _token(self, plan: Plan, why: str = "no pull is safe: takes a column and gives it up") -> Plan:
        """Take the column and give it up at once: blocked for good, but the villa stays up."""
        return Plan(column=plan.column, steady=plan.steady, give_up=True, why=why)

    # --- a column must be taken (the own move, a proof, a challenge) ---

    def must_take(self) -> Plan:
        takes = rules.takeable_columns(self.state)
        options = self.weigh(takes, firm=PROOF_FIRM if self.state.turn.role is not Role.OWN else SAFE_FIRM)
        best = options[0]
        if not best.survives() and self.state.ruleset.abort_allowed and not self._slips():
            return self._token(best.plan)
        return best.plan

    def _slips(self) -> bool:
        """A weaker hand now and then goes on where it should give up, as a person hoping for the best does."""
        return self.profile.rash > 0.0 and self.rng.random() < self.profile.rash

    # --- answers ---

    def answer(self) -> Plan:
        state = self.state
        turn = state.turn
        yes = rules.Challenge() if turn.role is Role.CHALLENGE else rules.Object()
        candidates = list(rules.proof_columns(state))
        if turn.role is Role.PROOF and self.profile.seal and self._floor_is_mine(turn.player):
            return Plan(action=rules.Decline(), why="lets the floor go on: it builds first on it")
        if not candidates:
            return Plan(action=rules.Decline(), why="nothing to prove it with")
        if not self.profile.prudent:
            free = [c for c in candidates if self.frame.carried_by(c) is None and c in self.frame.pieces]
            return Plan(action=yes if free else rules.Decline(), why="a column stands free" if free else "")
        options = self.weigh(candidates, firm=PROOF_FIRM, proof=True)
        if options and options[0].safe(PROOF_FIRM):
            return Plan(action=yes, why=f"can prove it with {options[0].plan.column}")
        return Plan(action=rules.Decline(), why="cannot prove it safely")

    def _floor_is_mine(self, proposer: int) -> bool:
        """Will the player after the proposer (this one) set the first own column on the new floor?"""
        state = self.state
        return (rules.floor_can_be_laid(state) and (proposer + 1) % state.n == self.me and state.seal.holder != self.me
                and state.top_level + 1 >= GREEN_LEVEL and not state.ruleset.proposer_moves_column)

    # --- floors ---

    def _floor_plan(self) -> Plan | None:
        state = self.state
        level = state.top_level + 1
        need = state.ruleset.min_support(level)
        if len(state.columns_on(state.top_level)) < need:
            return None
        spots = reading.floor_spots(self.villa, self.frame, level, need, state.ruleset.floors_inside_base)
        if not spots:
            return None
        own = set(state.colours[self.me]) if self.me < len(state.colours) else set()

        def worth(spot: reading.FloorSpot) -> float:
            mine = sum(COLUMNS_BY_ID[c].colour in own for c in spot.supports)
            return min(spot.margin, 4.0) + 0.15 * len(spot.supports) - (0.3 * mine if self.profile.seal else 0.0)
        spot = max(spots, key=lambda s: (worth(s), -s.x, -s.y, -s.yaw))
        return Plan(floor=(spot.x, spot.y, spot.yaw),
                    why=f"on {len(spot.supports)} columns, {spot.margin:.1f} cm inside them")

    def lay_floor(self) -> Plan:
        plan = self._floor_plan()
        if plan is None:
            return Plan(action=rules.GiveUpFloor(), why="the floor finds no footing")
        x, y, yaw = plan.floor
        if self.profile.aim_cm:   # the hand lowers it a little off the place it meant (it feels it tip)
            x, y = x + self.rng.gauss(0.0, self.profile.aim_cm), y + self.rng.gauss(0.0, self.profile.aim_cm)
        return replace(plan, floor=(x, y, yaw), shifts=self.profile.shifts, rash=self._slips())

    # --- the penalty pull after a failed objection ---

    def penalty(self) -> Plan:
        """The penalty pull after a failed objection, or forgoing it. A column of the objector's on the top
        floor costs it its points there and stands free, but only one the floor to be laid can spare is
        taken; one from lower down is taken only when it comes out without moving the floors or leaving
        any floor less firmly carried, since the villa it would weaken is the one the proposer must now lay
        a floor on."""
        state = self.state
        columns = list(rules.grabbable_columns(state))
        top = state.top_level
        spare = len(state.columns_on(top)) - state.ruleset.min_support(top + 1)
        if rules.can_propose(state) and spare <= 0:
            columns = [c for c in columns if state.levels.get(c) != top]
        options = self.weigh(columns, firm=PROOF_FIRM, taking_out=True) if columns else []
        if options:
            best = options[0]
            on_top = state.levels.get(best.plan.column) == top
            unfelt = best.shift <= SAFE_SHIFT / 2 and best.firm >= min(PROOF_FIRM, self.frame.weakest() - 0.1)
            if best.survives() and (on_top or unfelt):
                return best.plan
        return Plan(action=rules.ForgoPenalty(), why="forgoes the penalty pull: no column of the objector's "
                                                     "comes out without weakening the villa")

    # --- weighing pulls ---

    def weigh(self, columns: list[str], firm: float = SAFE_FIRM, proof: bool = False,
              taking_out: bool = False, budget: int = 1) -> list[Option]:
        """The pulls of `columns`, best first: all weighed by statics, the most promising tried on copies
        (`budget` times the strength's trials)."""
        frame, top = self.frame, self.state.top_level
        present = [c for c in columns if c in frame.pieces]
        landing = {}
        for c in present:
            spots = [] if taking_out else reading.landings(self.villa, c, top, frame)
            landing[c] = spots[0] if spots else None
        if not taking_out and not self.state.ruleset.abort_allowed and top != TOP_FLOOR_LEVEL:
            # with no giving up, a column taken must go up: none the top floor has no room for
            present = [c for c in present if landing[c] is not None
                       or reading.has_room(self.villa, c, top, frame)] or present
        if not present:
            return [Option(Plan(column=c, why="a column it cannot see"), FELL, -math.inf, math.inf, 0.0)
                    for c in sorted(columns)[:1]]
        prior = {}
        for c in present:
            added = None if landing[c] is None else reading.Piece(c, frame.pieces[c].mass, *landing[c], top)
            free = frame.carried_by(c) is None
            prior[c] = min(frame.weakest(without=c, added=added), 4.0) + (0.5 if free else 0.0) \
                + 0.3 * self._gain(c, proof, taking_out)
        ranked = sorted(present, key=lambda c: (-prior[c], c))
        profile = self.profile
        options: list[Option] = []
        tried = 0
        for rank, c in enumerate(ranked):
            if tried >= budget * profile.trials or (rank >= profile.shortlist and any(o.safe(firm) for o in options)):
                break   # past its shortlist it looks further only while nothing is safe, up to its budget
            ways = reading.ways_out(self.villa, c, frame)
            if not ways:
                continue
            carried = frame.carried_by(c) is not None
            for way in ways[:profile.ways if rank == 0 else 1]:
                option = self._try(c, way, carried, landing[c], proof, taking_out)
                tried += way.direction is not None
                options.append(option)
                # the floor held steady did not help (or the copy fell with it): without steadying
                if carried and way.direction is not None and not option.safe(firm):
                    options.append(self._try(c, way, False, landing[c], proof, taking_out))
                    tried += 1
        if not options:   # no clear way out for any: the least bad straight pull
            c = ranked[0]
            options.append(Option(self._plan(c, None, True, landing[c]), FELL, -math.inf, math.inf, 0.0))
        options.sort(key=lambda o: (-o.score, o.plan.column, o.plan.steady))
        return options

    def _try(self, column: str, way: reading.WayOut, steady: bool, landing, proof: bool,
             taking_out: bool) -> Option:
        speed = self.profile.speed
        if way.direction is None:   # it stands free: lifted straight up, it moves nothing else
            outcome = trials.Outcome(False, True, 0.0, 0.0, self.frame.weakest(without=column), 0)
        else:
            outcome = trials.try_pull(self.snapshot, column, way.direction, steady, speed, way.distance)
        plan = self._plan(column, way, steady, landing, outcome)
        if outcome.fell or not outcome.free:
            return Option(plan, FELL, -math.inf, outcome.shift, 0.0)
        firm = outcome.firm
        if landing is not None:
            added = reading.Piece(column, self.frame.pieces[column].mass, *landing, self.state.top_level)
            firm = min(firm, self.frame.weakest(without=column, added=added))
        safety = min(firm, 3.0) - 4.0 * outcome.shift
        return Option(plan, safety, firm, outcome.shift, self._gain(column, proof, taking_out))

    def _plan(self, column: str, way, steady: bool, landing, outcome: trials.Outcome | None = None) -> Plan:
        """The pull as the hand will make it: a shaky hand turns the way and changes the speed."""
        direction = None if way is None else way.direction
        distance = 0.0 if way is None else way.distance
        speed = self.profile.speed
        if direction is not None and self.profile.shake_deg:
            a = math.atan2(direction[1], direction[0]) + math.radians(self.rng.gauss(0.0, self.profile.shake_deg))
            direction = (math.cos(a), math.sin(a))
            speed *= 1.0 + self.rng.uniform(-self.profile.shake_speed, self.profile.shake_speed)
        if way is None and self.frame.carried_by(column) is not None:
            direction = _outward(self.frame.pieces[column].x, self.frame.pieces[column].y)
            distance = 12.0
        return Plan(column=column, direction=direction, distance=distance, speed=speed, steady=steady,
                    landing=landing, predicted_shift=outcome.shift_free if outcome else 0.0,
                    forecast=outcome.forecast if outcome else (), why=f"pulls {column}")

    def _gain(self, column: str, proof: bool, taking_out: bool) -> float:
        """What the pull brings besides safety: points on the top floor and the seal."""
        state = self.state
        piece = COLUMNS_BY_ID[column]
        if state.ruleset.family:
            if state.ruleset.scoring is rules.Scoring.TOURNAMENT and rules.seal_contested(state) and not taking_out:
                return 0.3 * piece.points
            return 0.0
        if proof or piece.colour is state.neutral:
            return 0.0
        holder = state.seal.holder
        if taking_out:
            objector = state.turn.objector
            on_top = state.levels.get(column) == state.top_level
            return 0.4 * piece.points if on_top and objector == holder else 0.0
        if not rules.seal_contested(state):
            return 0.0
        if not self.profile.seal:
            return 0.1 * piece.points
        last = state.top_level == TOP_FLOOR_LEVEL          # points on the red floor stand for good
        placed = rules.placement(state, self.me, column)
        if placed.claims_new_floor:                        # the first own column on a new floor takes it
            return (2.0 if holder != self.me else 1.0) + (0.4 * piece.points if last else 0.0)
        if holder == self.me:
            return (0.4 if last else 0.2) * piece.points
        if placed.seal.holder == self.me:
            return RETAKE                                  # the seal comes back
        return (0.5 if last else 0.1) * piece.points       # on the red floor: the way back to it


def _outward(x: float, y: float) -> tuple[float, float]:
    length = math.hypot(x, y) or 1.0
    return x / length, y / length
