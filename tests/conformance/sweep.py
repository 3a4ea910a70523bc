"""A game for every rule set, played by a simple policy rather than a fixed script (`Policy`): the sweep of the
conformance suite (`test_every_rule_set.py`). Each move is chosen from the hot seat's game when the script gets
there, so the same script plays whatever the rule set makes of it: colours rolled or dealt, the neutral column,
objections, floors laid, proposers' extra columns, the family edition's rolls and rounds, and a fall to the end."""

from __future__ import annotations

from villa import rules
from villa.match import MatchSetup, Seat
from villa.match import requests as rq
from villa.physics import pulling
from villa.physics.layouts import preset
from villa.rules import RULE_SETS, Task
from villa.rules.rulesets import FamilyMode

from tests.conformance.games import Game, four_rolling, green_floor_on, square_on_blue
from tests.conformance.lockstep import Repeat, Step, Then, Until, ask
from tests.conformance.moves import (at_rest, free_spots, lay_floor, over_and_still, pull_out, put_away, roll,
                                     set_down_somewhere, yank)

BUILDS = {Task.BUILD, Task.NEUTRAL, Task.OWN, Task.PROOF, Task.CHALLENGE_PROOF, Task.FAMILY_PROOF}
QUESTIONS = {Task.ANSWER_OBJECTION, Task.ANSWER_CHALLENGE, Task.ANSWER_FAMILY}


class Policy:
    """Builds with the first column the rules let it take, proposes a floor every third turn, objects to the first
    proposal and challenges the first neutral column given up, lays floors over the top floor's middle, and after
    `knock_after` moves yanks columns sideways until the villa falls (every round of the family edition)."""

    def __init__(self, knock_after: int = 8) -> None:
        self.knock_after = knock_after
        self.moves = 0
        self.answered = 0

    def __call__(self, game) -> tuple[Step, ...]:
        if game.over:
            return ()
        self.moves += 1
        task = rules.task(game.state)
        if game.next_roll() is not None:
            return roll()
        if task is Task.COLOUR_CHOICE:
            colour = next(a.colour for a in rules.legal_actions(game.state) if isinstance(a, rules.ChooseColour))
            return (ask(lambda seat: rq.ChooseColour(seat, colour)),)
        if task in QUESTIONS:
            self.answered += 1
            objects = self.answered == 1
            return ask(lambda seat: rq.Answer(seat, objects)), Until(at_rest, 600, "answered", both=True)
        if task is Task.LAY_FLOOR:
            if game.can_lay_floor():
                return lay_floor()
            return ask(rq.GiveUp), Until(at_rest, 600, "given up", both=True)
        if task is Task.TAKE_OUT:
            column = rules.grabbable_columns(game.state)[0]
            return *pull_out(column), Until(at_rest, 900, "taken out", both=True)
        if task is Task.PASS:
            return ask(rq.Pass), Until(at_rest, 600, both=True)
        if task is Task.PLACE:
            return ask(rq.GiveUp), Until(at_rest, 600, both=True)
        if task in BUILDS:
            return self._build(game, task)
        raise AssertionError(f"the policy has no move for {task}")

    def _build(self, game, task: Task) -> tuple[Step, ...]:
        proposes = rules.ProposeFloor() in rules.legal_actions(game.state)
        if self.moves > self.knock_after:
            column = _nearest_thin(game)
            return *yank(column), Then(put_away), Until(at_rest_or_over, 1800, "the villa at rest", both=True)
        if proposes and self.moves % 3 == 0:
            return ask(rq.Propose), Until(at_rest, 300, both=True)
        if not free_spots(game):
            return ask(rq.Propose) if proposes else ask(rq.Pass), Until(at_rest, 300, both=True)
        return *pull_out(_first_to_come_free(game)), *set_down_somewhere()


def at_rest_or_over(game) -> bool:
    return game.over or at_rest(game)


def _first_to_come_free(game) -> str:
    """The column the rules let the hand take that will come free soonest: one standing free, else a hexagonal or
    thick one of the outer ring (a thin one, pulled harder for longer, drags the floor more), farthest out."""
    villa, levels = game.villa, game.state.levels

    def soonest(column: str):
        at = villa.nodes[column].getPos()
        free = not pulling.under_a_floor(villa, column, at.x, at.y, levels[column])
        return not free, levels[column], "thin" in column, -at.getXy().length()
    return min(rules.grabbable_columns(game.state), key=soonest)


def _nearest_thin(game) -> str:
    grabbable = rules.grabbable_columns(game.state)
    return min([c for c in grabbable if "thin" in c] or grabbable,
               key=lambda c: game.villa.nodes[c].getPos().getXy().length())


def played_by_policy(setup: MatchSetup, name: str) -> Game:
    policy = Policy()
    return Game(name, setup, (Repeat((Then(policy),), lambda game: game.over, 80, "the game never ended"),
                              Until(over_and_still, 1800)))


def setup_for(name: str) -> MatchSetup:
    """Where each rule set's game is played: the publisher's with three players over the green floor, the house
    variants of floors on two players' square, colours rolled by everyone among four, the family edition's on
    rings between two."""
    ruleset = RULE_SETS[name]
    if ruleset.family:
        seed = 5 + list(FamilyMode).index(ruleset.mode)
        return MatchSetup((Seat("Anna"), Seat("Ben")), preset("rings"), ruleset, seed, deal_colours=True)
    if ruleset.everyone_rolls:
        return four_rolling(ruleset)
    if ruleset.proposer_moves_column or ruleset.orange_min_support or ruleset.floors_inside_base:
        return square_on_blue(ruleset)
    return green_floor_on(ruleset=ruleset)

