"""A simple computer player: what to do, and where, read off the rules and the villa's poses.

It decides; it does not move anything (`villa.match.computer.hands` drives the hand with its
answers). Its choices depend only on its seed and the game so far, so a game taken up
again from a save goes on with the same choices it would have made.

The policy, plainly:
- build with a column that stands free (no floor over it) when there is one;
- else propose the next floor when one can be laid well on the top columns;
- else pull the column whose floor stays steadiest without it, along a path clear of
  the other columns;
- set columns down on the top floor spread round its middle, clear of the others;
- object to a proposal only when the proposer has a free column to prove it with.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from villa import rules
from villa.physics import geometry, survey
from villa.physics.pulling import FREE_MARGIN, under_a_floor
from villa.physics.dimensions import FLOORS, column_spec

PATH_GAP = 0.4           # cm kept between a pulled column and the others on its way out
LANDING_EDGE = 0.8       # cm kept between a set-down column and its floor's edge
LANDING_GAP = 0.8        # cm kept between columns on the top floor
FLOOR_EDGE = 0.3         # cm a new floor's supports lie inside its outline
FLOOR_MARGIN = 1.0       # cm the new floor's centre lies inside its supports
STEADY_ENOUGH = 1.0      # cm the load over a pulled column must stay inside the other supports


@dataclass(frozen=True)
class PullPlan:
    column: str
    direction: tuple[float, float] | None   # horizontal way out from under its floor; None: it stands free
    distance: float                          # cm to go until it is free


@dataclass(frozen=True)
class FloorSpot:
    x: float
    y: float
    yaw: float
    supports: frozenset[str]


class ComputerPlayer:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def rng(self, state: rules.GameState, what: str = "") -> random.Random:
        return random.Random(f"{self.seed}:{len(state.log)}:{what}")

    # --- the rules' questions ---

    def choose(self, state: rules.GameState, villa) -> rules.Action | None:
        """The next player or chance action; None when the hand must act (lay a floor, take a column out)."""
        step = state.turn.step
        rng = self.rng(state)
        if step is rules.Step.OVER:
            return None
        if rules.is_chance_node(state):
            return rng.choice(rules.legal_actions(state))
        if step is rules.Step.COLOUR_CHOICE:
            return rules.legal_actions(state)[0]
        if step is rules.Step.ASK:
            return self._answer(state, villa)
        if step in (rules.Step.START, rules.Step.TAKE):
            return self._build(state, villa, rng)
        return None

    def _build(self, state, villa, rng) -> rules.Action:
        legal = rules.legal_actions(state)
        takeable = [c for c in rules.takeable_columns(state) if c in villa.columns]
        free = [c for c in takeable if stands_free(villa, c)]
        if free:
            return rules.TakeColumn(rng.choice(sorted(free)))
        if any(isinstance(a, rules.ProposeFloor) for a in legal) and self.floor_spot(villa, state) is not None:
            return rules.ProposeFloor()
        plans = [p for p in (pull_plan(villa, c) for c in takeable) if p is not None]
        steadiness = {p.column: steadiness_without(villa, p.column) for p in plans}
        safe = sorted((p for p in plans if steadiness[p.column] >= STEADY_ENOUGH),
                      key=lambda p: (p.distance, p.column))
        if safe:
            return rules.TakeColumn(rng.choice(safe[:3]).column)
        if any(isinstance(a, rules.ProposeFloor) for a in legal):
            return rules.ProposeFloor()
        if plans:
            return rules.TakeColumn(max(plans, key=lambda p: (steadiness[p.column], p.column)).column)
        if takeable:
            return rules.TakeColumn(rng.choice(sorted(takeable)))
        return rules.Pass() if any(isinstance(a, rules.Pass) for a in legal) else legal[0]

    def _answer(self, state, villa) -> rules.Action:
        turn = state.turn
        if turn.role is rules.Role.PROOF:
            proposer = state.colours[turn.player]
            proof = [c for c in villa.columns if state.levels.get(c) is not None
                     and state.levels[c] < state.top_level and c not in state.blocked
                     and rules.pieces.column(c).colour in proposer and stands_free(villa, c)]
            if proof:
                return rules.Object()
        return rules.Decline()

    def column_to_take_out(self, state: rules.GameState, villa) -> str:
        """A failed objection: which of the objector's columns the proposer pulls out."""
        objector = state.turn.objector
        own = state.colours[objector]
        columns = sorted(c for c in villa.columns if state.levels.get(c) is not None
                         and rules.pieces.column(c).colour in own)
        free = [c for c in columns if stands_free(villa, c)]
        return self.rng(state, "out").choice(free or columns)

    # --- where ---

    def landing(self, villa, column: str, level: int, state: rules.GameState) -> tuple[float, float] | None:
        """A spot on the floor forming `level` to set `column` down: inside, clear of the others,
        round the floor's middle so that the next floor finds supports all round."""
        if level < 1:
            return None
        floor = villa.nodes[f"floor-{level}"]
        fx, fy, yaw = floor.getX(), floor.getY(), floor.getH()
        outline = FLOORS[level].outline
        r = column_spec(column).radius
        others = [(villa.nodes[c].getX(), villa.nodes[c].getY(), column_spec(c).radius)
                  for c in villa.columns if c != column and c not in villa.in_hand
                  and (s := survey.standing(villa, c)) is not None and s.level == level]
        reach = min(math.hypot(x, y) for x, y in outline)
        ring = 0.55 * reach
        rng = self.rng(state, "landing")
        best, best_score = None, -math.inf
        for i in range(-14, 15):
            for j in range(-14, 15):
                lx, ly = i * 0.6, j * 0.6
                if geometry.signed_distance(outline, lx, ly) < r + LANDING_EDGE:
                    continue
                wx, wy = _to_world(lx, ly, fx, fy, yaw)
                gaps = [math.hypot(wx - ox, wy - oy) - orr - r for ox, oy, orr in others]
                if gaps and min(gaps) < LANDING_GAP:
                    continue
                spread = min(min(gaps, default=8.0), 8.0)
                score = -abs(math.hypot(lx, ly) - ring) + 0.5 * spread + rng.uniform(0, 0.3)
                if score > best_score:
                    best, best_score = (wx, wy), score
        return best

    def floor_spot(self, villa, state: rules.GameState) -> FloorSpot | None:
        """Where the next floor lies best: on enough top columns, its centre well inside them."""
        level = state.top_level + 1
        if level not in FLOORS or f"floor-{level}" in villa.nodes:
            return None
        need = state.ruleset.min_support(level)
        tops = [c for c in villa.columns if c not in villa.in_hand and state.levels.get(c) == state.top_level
                and (s := survey.standing(villa, c)) is not None and s.level == state.top_level]
        if len(tops) < need:
            return None
        points = {c: (villa.nodes[c].getX(), villa.nodes[c].getY()) for c in tops}
        cx = sum(x for x, _ in points.values()) / len(points)
        cy = sum(y for _, y in points.values()) / len(points)
        outline = FLOORS[level].outline
        best, best_score = None, -math.inf
        for dx in (-1.5, -0.75, 0.0, 0.75, 1.5):
            for dy in (-1.5, -0.75, 0.0, 0.75, 1.5):
                x, y = cx + dx, cy + dy
                for yaw in range(0, 360, 15):
                    under, edge = [], False
                    for c, (px, py) in points.items():
                        lx, ly = geometry.to_local(px, py, x, y, yaw)
                        d = geometry.signed_distance(outline, lx, ly)
                        rc = column_spec(c).radius
                        if d > rc + FLOOR_EDGE:
                            under.append(c)
                        elif d > -(rc + FREE_MARGIN):
                            edge = True     # half under the edge: it would tip the floor
                    if edge or len(under) < need:
                        continue
                    feet = [p for c in under for p in geometry.transform(column_spec(c).footprint(8), *points[c], 0)]
                    margin = geometry.support_margin(feet, x, y)
                    if margin < FLOOR_MARGIN:
                        continue
                    score = margin - 0.1 * math.hypot(dx, dy)
                    if score > best_score:
                        best, best_score = FloorSpot(x, y, float(yaw), frozenset(under)), score
        return best


# --- reading the villa ---------------------------------------------------------

def _to_world(lx: float, ly: float, ox: float, oy: float, yaw_deg: float) -> tuple[float, float]:
    a = math.radians(yaw_deg)
    return ox + lx * math.cos(a) - ly * math.sin(a), oy + lx * math.sin(a) + ly * math.cos(a)


def _level_of(villa, column: str) -> int | None:
    where = survey.standing(villa, column)
    return where.level if where else None


def stands_free(villa, column: str) -> bool:
    """No floor above it reaches over it: it can be lifted straight up."""
    level = _level_of(villa, column)
    if level is None:
        return False
    np = villa.nodes[column]
    return not under_a_floor(villa, column, np.getX(), np.getY(), level)


def pull_plan(villa, column: str) -> PullPlan | None:
    """The shortest straight way out from under the floors that passes clear of every other column
    on its level; None when every way is blocked."""
    level = _level_of(villa, column)
    if level is None:
        return None
    np = villa.nodes[column]
    x0, y0 = np.getX(), np.getY()
    if not under_a_floor(villa, column, x0, y0, level):
        return PullPlan(column, None, 0.0)
    r = column_spec(column).radius
    others = [(villa.nodes[c].getX(), villa.nodes[c].getY(), column_spec(c).radius) for c in villa.columns
              if c != column and c not in villa.in_hand and _level_of(villa, c) == level]
    best = None
    for k in range(48):
        a = 2 * math.pi * k / 48
        dx, dy = math.cos(a), math.sin(a)
        distance = None
        for step in range(1, 81):
            d = step * 0.25
            if not under_a_floor(villa, column, x0 + dx * d, y0 + dy * d, level):
                distance = d + 0.5
                break
        if distance is None:
            continue
        end = (x0 + dx * distance, y0 + dy * distance)
        # a neighbour already nearer than the gap is passed if the way leads away from it
        if any(geometry.segment_distance(ox, oy, (x0, y0), end)
               < min(r + orr + PATH_GAP, math.hypot(ox - x0, oy - y0) - 1e-6) for ox, oy, orr in others):
            continue
        if best is None or distance < best.distance:
            best = PullPlan(column, (dx, dy), distance)
    return best


def steadiness_without(villa, column: str) -> float:
    """How far inside its remaining supports the load on the floor over `column` would lie
    without it (cm; negative: that floor would tip)."""
    carried = [lv for lv in villa.floor_levels if survey.carries(villa, column, lv)]
    if not carried:
        return math.inf
    level = carried[0]
    mass = sx = sy = 0.0
    for piece, np in villa.nodes.items():
        if piece in ("table", "base") or piece in villa.in_hand:
            continue
        above = int(piece[6:]) >= level if piece.startswith("floor-") else (_level_of(villa, piece) or 0) >= level
        if above:
            m = np.node().getMass()
            mass, sx, sy = mass + m, sx + m * np.getX(), sy + m * np.getY()
    supports = [c for c in villa.columns if c != column and c not in villa.in_hand
                and survey.carries(villa, c, level)]
    feet = [p for c in supports
            for p in geometry.transform(column_spec(c).footprint(8), villa.nodes[c].getX(), villa.nodes[c].getY(), 0)]
    if not feet or mass == 0:
        return -math.inf
    return geometry.support_margin(feet, sx / mass, sy / mass)
