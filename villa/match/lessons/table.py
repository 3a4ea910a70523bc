"""The eight lessons, in order. Adding a lesson adds a row here and its words in
`villa.presentation.lesson_words` (docs/lessons.md)."""

from __future__ import annotations

from villa import rules
from villa.match.lessons import positions as at
from villa.match.lessons.aims import Did, Seal, Who
from villa.match.lessons.lesson import Lesson, Part
from villa.match.lessons.script import Knock, Lay, Pull
from villa.rules.state import Role

# Seed 1 deals two players green and yellow (seat 0), blue and red (seat 1, who starts); three players
# green, blue and yellow, red neutral, seat 2 starting.

FIRST_PULL = Lesson("first-pull", (
    Part(at.FREE_CORNERS, players=2, learner=1,
         aim=Did(rules.ColumnPlaced, roles=(Role.BUILD,)),
         mistakes=((Did(rules.Abort), "gave-up"),),
         solution=(Pull("blue-thin-3"),), mistake=(Knock(),)),
))

UNDER_LOAD = Lesson("under-load", (
    Part(at.RINGS, players=2, learner=1,
         aim=Did(rules.ColumnPlaced, roles=(Role.BUILD,)),
         mistakes=((Did(rules.Abort), "gave-up"),),
         solution=(Pull("blue-thin-1", direction=(1.0, 0.0), distance=8.0, steady=True),), mistake=(Knock(),),
         builders_eye=True),
))

GIVE_UP = Lesson("give-up", (
    Part(at.RINGS, players=2, learner=1,
         aim=Did(rules.Abort, roles=(Role.BUILD,)),
         mistakes=((Did(rules.ColumnPlaced), "came-out"),),
         solution=(Pull("blue-thick", give_up=True),), mistake=(Knock(),)),
))

OBJECTION = Lesson("objection", (
    Part(at.FREE_CORNERS, players=2, learner=0, script={1: (rules.ProposeFloor(),)},
         aim=Did(rules.ColumnPlaced, roles=(Role.PROOF,)),
         mistakes=((Did(rules.Decline), "declined"), (Did(rules.Abort, roles=(Role.PROOF,)), "proof-given-up")),
         solution=(rules.Object(), Pull("blue-thin-3")), mistake=(rules.Decline(),), mistake_why="declined"),
    Part(at.without(at.FREE_CORNERS, "blue-thin-3", "red-thin-3"), players=2, learner=0,
         script={1: (rules.ProposeFloor(), Pull("green-thin-3"))},
         aim=Did(rules.ColumnTakenOut, by=Who.OTHER),
         mistakes=((Did(rules.Decline), "declined"), (Did(rules.ColumnPlaced, roles=(Role.PROOF,)), "proved")),
         solution=(rules.Object(), Pull("blue-thick", give_up=True)), mistake=(rules.Decline(),),
         mistake_why="declined"),
))

LAY_A_FLOOR = Lesson("lay-a-floor", (
    Part(at.FOUR_UP, players=2, learner=1,
         aim=Did(rules.FloorLaid),
         mistakes=((Did(rules.GiveUpFloor), "floor-given-up"),),
         solution=(rules.ProposeFloor(), Lay(0.0, 0.6)), mistake=(rules.ProposeFloor(), rules.GiveUpFloor()),
         mistake_why="floor-given-up", builders_eye=True),
))

THREE_PLAYERS = Lesson("three-players", (
    Part(at.TWO_FREE_REDS, players=3, learner=2,
         aim=Did(rules.ColumnPlaced, roles=(Role.OWN,)),
         mistakes=((Did(rules.Abort, neutral=True), "neutral-given-up"),),
         solution=(Pull("red-thin-3"), Pull("yellow-thin-3")), mistake=(Pull("red-thin-3", give_up=True),),
         mistake_why="neutral-given-up"),
    Part(at.TWO_FREE_REDS, players=3, learner=0, script={2: (Pull("red-thin-3", give_up=True),)},
         aim=Did(rules.ColumnPlaced, roles=(Role.CHALLENGE,)),
         mistakes=((Did(rules.Decline, roles=(Role.CHALLENGE,)), "not-challenged"),),
         solution=(rules.Challenge(), Pull("red-thin-2")), mistake=(rules.Decline(),), mistake_why="not-challenged"),
))

HEX_OUT = Pull("yellow-hex", direction=(-1.0, 0.0), distance=4.0)   # from under the green floor's edge

SEAL = Lesson("seal", (
    Part(at.GREEN_ON_TOP, players=2, learner=0, script={1: (Pull("red-thin-3"),)},
         aim=Did(rules.ColumnPlaced, seal=Seal.TAKEN),
         mistakes=((Did(rules.ColumnPlaced, seal=Seal.NOT_TAKEN), "tie"),),
         solution=(HEX_OUT,), mistake=(Pull("green-thin-3"),), mistake_why="tie"),
    Part(at.GREEN_ON_TOP, players=2, learner=0, script={1: (Pull("red-thin-3"),)},
         aim=Did(rules.ColumnPlaced, seal=Seal.NOT_TAKEN),
         mistakes=((Did(rules.ColumnPlaced, seal=Seal.TAKEN), "more"),),
         solution=(Pull("green-thin-3"),), mistake=(HEX_OUT,), mistake_why="more"),
))

GREEN_OUT = Pull("green-thin-1", direction=(0.951, -0.309), distance=6.0, speed=20.0)   # fast, not steadied

THE_END = Lesson("the-end", (
    Part(at.GREEN_ON_THREE, players=2, learner=0, script={1: (Pull("red-thin-3"),)},
         aim=Did(rules.Collapse, holder=Who.OTHER, winner=Who.OTHER),
         mistakes=((Did(rules.ColumnPlaced), "stood"),),
         solution=(GREEN_OUT,), mistake=(Pull("green-thin-3"),), mistake_why="stood"),
    Part(at.GREEN_ON_THREE, players=2, learner=0, script={1: (Pull("red-thin-3"), Pull("blue-thin-3"))},
         aim=Did(rules.Collapse, holder=Who.LEARNER, winner=Who.OTHER),
         mistakes=((Did(rules.Collapse, holder=Who.OTHER), "fell-without-seal"),
                   (Did(rules.ColumnPlaced, holder=Who.LEARNER), "stood")),
         solution=(HEX_OUT, GREEN_OUT), mistake=(GREEN_OUT,), mistake_why="fell-without-seal"),
))

LESSONS: tuple[Lesson, ...] = (FIRST_PULL, UNDER_LOAD, GIVE_UP, LAY_A_FLOOR, OBJECTION, SEAL, THREE_PLAYERS, THE_END)
