"""The scripted games the conformance suite plays on both wires (and the fresh screens are built on), each a
setup and a script of steps (`tests.conformance.lockstep`). Every request in them is one a person's mouse or
keys would send; the checks say what the script means to reach, so a game that drifts from it fails there."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from villa import rules
from villa.match import MatchSetup, Seat
from villa.match import requests as rq
from villa.physics.dimensions import FloorSpot
from villa.physics.layouts import preset
from villa.rules import Task
from villa.rules.pieces import Colour
from villa.rules.rulesets import FamilyMode, Scoring, family

from tests.conformance.lockstep import Ask, Frames, Step, Until, ask
from tests.conformance.screen import READS
from tests.conformance.moves import (at_rest, build, carry_to, check, give_up_at_once, lay_floor, over_and_still,
                                     knock_down, pull_out, roll, set_down, set_down_held, slide_to, take)


VILLA_READS = frozenset(name for name, read in READS.items() if read.whens & {"rest", "moved", "each"})


@dataclass(frozen=True)
class Game:
    """`tells`: the kinds of event the game must come to (`lockstep.told`), and `compares` the screen's reads it must
    compare (`screen.READS`), so a script that drifts is noticed."""

    name: str
    setup: MatchSetup
    script: tuple[Step, ...]
    tells: frozenset[str] = frozenset()
    compares: frozenset[str] = VILLA_READS


def answer(objects: bool) -> Step:
    return ask(lambda seat: rq.Answer(seat, objects))


def task_is(task: Task):
    return lambda game: rules.task(game.state) is task


def square_on_blue(ruleset: rules.RuleSet = rules.PUBLISHER, seed: int = 4) -> MatchSetup:
    """Two players on rings, four columns built up onto the blue floor in a square (x ±4, y ±2.5): the green floor
    can be laid at once."""
    layout = preset("rings")
    middle = sorted(layout.columns, key=lambda c: abs(c.y) + abs(c.x) / 10)[:4]
    corners = iter([(-4.0, -2.5), (4.0, -2.5), (-4.0, 2.5), (4.0, 2.5)])
    columns = tuple(dataclasses.replace(c, level=1, **dict(zip("xy", next(corners)))) if c in middle else c
                    for c in layout.columns)
    return MatchSetup((Seat("Anna"), Seat("Ben")), dataclasses.replace(layout, columns=columns), ruleset, seed,
                      deal_colours=True)


# Ben (blue, red) begins; Anna plays yellow and green. The four columns of the square are Anna's.
OBJECTIONS = Game("objections", square_on_blue(), (
    *pull_out("blue-hex"), *carry_to(0.0, 0.0), *set_down_held(),
    *slide_to(11.0, 0.0), ask(rq.LetGo), Until(lambda g: g.hand is not None and g.hand.state == "carrying", 900),
    check(lambda g: isinstance(g.state.log[-1], rules.TakeColumn), "overhanging the edge: refused, in hand again"),
    *carry_to(0.0, 0.0), *set_down(hold=True),
    check(lambda g: g.state.levels["blue-hex"] == 1 and g.actor == 0, "Ben's column on the blue floor"),
    ask(rq.Propose), answer(True),
    check(task_is(Task.PROOF), "Ben objects and must prove it"),
    *build("yellow-hex", 1.8, -5.0),
    check(lambda g: "yellow-hex" in g.state.out and g.actor == 1, "the objection succeeds: Ben plays next"),
    ask(rq.Propose), answer(True),
    *give_up_at_once("red-thick"),
    check(lambda g: task_is(Task.TAKE_OUT)(g) and g.actor == 1, "the proof given up: Ben's penalty pull"),
    *pull_out("yellow-thick"), Until(at_rest, 900, both=True),
    check(lambda g: "yellow-thick" in g.state.out and task_is(Task.LAY_FLOOR)(g), "taken out: Ben lays the floor"),
    ask(rq.LayFloor), Frames(30), ask(rq.GiveUp), Until(at_rest, 300, both=True),
    check(lambda g: isinstance(g.state.log[-1], rules.GiveUpFloor) and "floor-2" not in g.villa.nodes,
          "Ben thought better of it: the green floor goes back in the box"),
    ask(rq.Propose), answer(False),
    *lay_floor(),
    check(lambda g: g.state.top_level == 2 and g.actor == 1, "Anna laid the green floor"),
    ask(rq.Propose), answer(False),
    check(lambda g: task_is(Task.LAY_FLOOR)(g) and not g.can_lay_floor(), "no columns on the green floor"),
    ask(rq.GiveUp), Until(at_rest, 300, both=True),
    knock_down(), Until(over_and_still, 1800),
    check(lambda g: g.over and g.state.result.fell, "the villa fell: the game is over"),
), frozenset({"accepted", "refused", "asked", "touched", "let go", "settled", "collapsed", "over"}), frozenset(READS))


GREEN_SUPPORTS = {"blue-hex": (-4.0, -2.5), "red-hex": (4.0, -2.5), "yellow-hex": (-4.0, 2.5), "green-hex": (4.0, 2.5)}
ALREADY_UP = {"blue-thin-1": (0.0, 3.5)}


def green_floor_on(players: tuple[str, ...] = ("Anna", "Ben", "Cleo"), ruleset: rules.RuleSet = rules.PUBLISHER,
                   seed: int = 4) -> MatchSetup:
    """The free corners layout (a thin column of each colour stands free in front) with the green floor laid on
    the four hexagonal columns set up on the blue floor, and one column already on it."""
    layout = preset("free corners")
    blue = layout.floors[0]

    def moved(spot):
        if spot.column in GREEN_SUPPORTS:
            x, y = GREEN_SUPPORTS[spot.column]
            return dataclasses.replace(spot, level=1, x=blue.x + x, y=blue.y + y)
        if spot.column in ALREADY_UP:
            x, y = ALREADY_UP[spot.column]
            return dataclasses.replace(spot, level=2, x=blue.x + x, y=blue.y + y)
        return spot
    built = dataclasses.replace(layout, columns=tuple(moved(c) for c in layout.columns),
                                floors=(blue, FloorSpot(2, blue.x, blue.y, 0.0)))
    return MatchSetup(tuple(Seat(name) for name in players), built, ruleset, seed)


# Three players: Cleo (green) begins, Anna plays yellow, Ben blue; red is neutral.
NEUTRAL_CHALLENGE = Game("neutral and challenge", green_floor_on(), (
    check(task_is(Task.NEUTRAL), "Cleo moves a neutral column first"),
    *build("red-thin-3", -3.0, -1.0),
    check(lambda g: task_is(Task.OWN)(g) and g.actor == 2, "then one of her own"),
    *build("green-thin-3", 3.0, -1.0),
    check(lambda g: g.state.seal.holder == 2 and g.actor == 0, "Cleo holds the seal; Anna's turn"),
    *give_up_at_once("red-thin-2"),
    check(lambda g: task_is(Task.ANSWER_CHALLENGE)(g), "Anna gave the neutral column up: a challenge is asked"),
    answer(True),
    check(task_is(Task.CHALLENGE_PROOF), "the challenger must prove another neutral column could go up"),
    *build("red-thin-1", 0.0, -2.5),
    check(lambda g: g.state.levels["red-thin-1"] == 2 and g.actor == 1, "proved: Anna loses her own move"),
    ask(rq.Propose), answer(False), answer(False),
    check(lambda g: g.can_lay_floor() and g.actor == 1, "nobody objects: Ben lays the yellow floor"),
    *lay_floor(0.0, -1.0),
    check(lambda g: g.state.top_level == 3, "the yellow floor is on"),
), frozenset({"accepted", "asked", "touched", "let go", "settled"}))


def four_rolling(ruleset: rules.RuleSet = rules.PUBLISHER, seed: int = 6) -> MatchSetup:
    """Four players on free corners, their colours still to be rolled and chosen."""
    return MatchSetup(tuple(Seat(name) for name in ("Anna", "Ben", "Cleo", "Dario")), preset("free corners"), ruleset,
                      seed)


def choose(colour: Colour, refused: str | None = None) -> Step:
    return ask(lambda seat: rq.ChooseColour(seat, colour), refused)


# Anna rolls the seal for her colour (green); Ben and Cleo choose; Dario, left with yellow, begins.
COLOURS = Game("colours rolled and chosen", four_rolling(), (
    Until(at_rest, 60, both=True),
    Ask(lambda seat, _game: rq.Roll((seat + 1) % 4), refused="not-now"),
    *roll(),
    check(lambda g: g.state.colours[0] == (Colour.GREEN,) and task_is(Task.COLOUR_CHOICE)(g), "Anna rolled green"),
    choose(Colour.GREEN, refused="colour-taken"), choose(Colour.BLUE), choose(Colour.RED),
    check(lambda g: g.state.colours[3] == (Colour.YELLOW,) and g.actor == 3, "Dario, left with yellow, begins"),
    take("blue-thin-3", refused="own-column"),
    *build("yellow-thin-3", 0.0, 0.0),
    check(lambda g: g.state.levels["yellow-thin-3"] == 1 and g.actor == 0, "Dario built; Anna's turn"),
), frozenset({"accepted", "settled"}))


# The family edition rolling for each turn's colour, two rounds: the first falls, the villa is built anew.
FAMILY_ROUNDS = Game("family rounds", MatchSetup(
    (Seat("Anna"), Seat("Ben")), preset("rings"), family(FamilyMode.RANDOM, Scoring.TOURNAMENT, rounds=2), seed=5,
    deal_colours=True), (
    *roll(),
    check(lambda g: g.state.turn.colours == (Colour.GREEN,), "Anna rolled green"),
    knock_down(), Until(at_rest, 1800, "the villa built anew", both=True),
    check(lambda g: g.state.round == 2 and not g.collapsed and task_is(Task.SEAL_ROLL)(g), "round two begins"),
    *roll(),
    *build("yellow-hex", 0.0, 0.0),
    check(lambda g: g.state.levels["yellow-hex"] == 1 and g.state.turn.player == 1, "Anna built; Ben's turn"),
    *roll(),
    knock_down(), Until(over_and_still, 1800),
    check(lambda g: g.over and g.state.result.fell, "the last round fell: the game is over"),
), frozenset({"accepted", "collapsed", "round", "settled", "over"}))


GAMES = (OBJECTIONS, NEUTRAL_CHALLENGE, COLOURS, FAMILY_ROUNDS)
