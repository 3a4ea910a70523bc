"""Every word of the lessons: each lesson's title, each part's aim, hint and what its success shows, and
why an attempt failed, worded from the codes in `villa.match.lessons`, through gettext.

`{other}` in a sentence is the name of the other player the part is about (the first one its script plays).
"""

from __future__ import annotations

from villa.match.lessons import FELL, MISSED, Lesson
from villa.presentation.i18n import N_, _

TITLES = {
    "first-pull": N_("The first pull"),
    "under-load": N_("A column under load"),
    "give-up": N_("A column that will not come"),
    "lay-a-floor": N_("A new floor"),
    "objection": N_("Objection!"),
    "seal": N_("The Master Builder Seal"),
    "three-players": N_("Three players"),
    "the-end": N_("Who wins a fall"),
}

# (lesson, part) -> the aim, the hint, and what success shows
PARTS = {
    ("first-pull", 0): (
        N_("Pull one of your free columns, one that carries no floor, and set it on the top floor."),
        N_("Your blue and red thin columns in front of the villa stand free: press on one, drag it out, "
           "carry it over the blue floor and click."),
        N_("That is a turn: one of your own columns from below, set on the top floor.")),
    ("under-load", 0): (
        N_("Every column here carries the floor. Hold Space to steady the floor above, and pull one of "
           "yours out slowly: the gauge shows how hard it holds."),
        N_("Take one of your thin columns near the middle, hold Space, and drag it slowly straight out "
           "towards the edge."),
        N_("Steadied and slow: the floor stayed where it was.")),
    ("give-up", 0): (
        N_("Your thick blue column carries the floor and will not come. Take it, then give it up with Esc."),
        N_("Press on the thick blue column, then press Esc (or the right button): it goes back where it was."),
        N_("A column given up goes back and is blocked: nobody may choose it again this game, so choose "
           "with care.")),
    ("lay-a-floor", 0): (
        N_("Four columns stand on the blue floor. Propose the green floor (P), lay it on them, and hold it "
           "until it sits."),
        N_("Press P. Once {other} lets it go up, the floor follows the pointer: turn it with the wheel and "
           "bring it over the four columns. Press and hold to lower it, and let go only once it sits level."),
        N_("The floor rests on three columns or more: a new floor, and the turn is over.")),
    ("objection", 0): (
        N_("{other} proposes a floor. Object, then prove it by moving one of {other}'s columns to the "
           "top floor."),
        N_("Press Object (Y). Then take {other}'s thin blue column standing free in front and set it on "
           "the blue floor."),
        N_("Proved: that column is out of the game, and {other}'s turn is over without a floor.")),
    ("objection", 1): (
        N_("{other} proposes again, and none of {other}'s columns stand free. Object, try, and give the "
           "proof up (Esc)."),
        N_("Press Object (Y), take one of {other}'s columns, then press Esc. Watch what {other} does next."),
        N_("The objection failed: {other} pulled one of your columns out of the game, and the floor will "
           "go on.")),
    ("seal", 0): (
        N_("From the green floor on, the seal goes to whoever has the most points on the top floor. "
           "{other} has 1: take the seal with more."),
        N_("Your yellow hexagonal column on the blue floor is worth 2: pull it out and set it on the green "
           "floor."),
        N_("2 beat 1: the seal is yours, and it shows {other}'s colour, who held it before.")),
    ("seal", 1): (
        N_("{other} holds the seal with 1 point. Draw level with a column worth 1 and see what a tie does."),
        N_("Set your thin green column in front (1 point) on the green floor."),
        N_("A tie does not count: the seal stays with {other}.")),
    ("three-players", 0): (
        N_("With three players the fourth colour is neutral. First move a neutral red column to the top "
           "floor, then one of yours."),
        N_("The thin red columns in front stand free: set one on the blue floor, then your yellow one."),
        N_("Neutral first, then your own: that is every turn with three players.")),
    ("three-players", 1): (
        N_("{other} gave a neutral column up, but another could go up. Challenge, and prove it."),
        N_("Press Challenge (Y), then set the other free red column on the blue floor."),
        N_("Proved: a neutral column is up, and {other} may not move an own column this turn.")),
    ("the-end", 0): (
        N_("{other} holds the seal. Bring the villa down yourself, and see who is Master Builder."),
        N_("Pull your thin green column out from under the green floor, fast and without Space."),
        N_("You brought it down while {other} held the seal: {other} is Master Builder.")),
    ("the-end", 1): (
        N_("Take the seal from {other}, then bring the villa down while you hold it."),
        N_("Set your yellow hexagonal column (2 points) on the green floor; on your next turn pull your thin "
           "green column out from under it, fast."),
        N_("The holder brought it down, so the colour the seal shows wins: {other} is Master Builder. "
           "Never bring the villa down while you hold the seal!")),
}

# why an attempt failed: the lesson's own sentence, else the one for every lesson
WHYS = {
    ("first-pull", "gave-up"): N_("You gave the column up: it goes back and may not be chosen again. "
                                  "Take a free one and carry it up."),
    ("under-load", "gave-up"): N_("You gave it up. Hold Space and keep pulling slowly: it will come."),
    ("under-load", FELL): N_("The floor came down with it. Hold Space the whole time you pull, and pull "
                             "slowly."),
    ("give-up", "came-out"): N_("It came out this time. In play, a column that will not come is given up "
                                "with Esc before the floor goes with it."),
    ("give-up", FELL): N_("The villa fell. When a column will not come, give it up before the floor goes "
                          "with it."),
    ("lay-a-floor", "floor-given-up"): N_("You gave the floor up: it goes back in the box and the turn is "
                                          "over. Lay it on three columns or more."),
    ("objection", "declined"): N_("You let the floor go up. Object (Y) when you think a column of the "
                                  "proposer's can still be moved."),
    ("objection", "proof-given-up"): N_("You gave the proof up: the objection fails, and {other} pulls out "
                                        "a column of yours."),
    ("objection", "proved"): N_("The proof came off this time. Here the aim was to see one fail: give it "
                                "up with Esc."),
    ("objection", FELL): N_("The villa fell while you proved it: the objector brought it down."),
    ("seal", "tie"): N_("1 against 1 is a tie, and a tie does not take the seal: it stays with {other}."),
    ("seal", "more"): N_("That was more than {other}'s, so the seal came to you. Draw level instead: a thin "
                         "column, 1 point."),
    ("three-players", "neutral-given-up"): N_("You gave the neutral column up though another could go "
                                              "up: the others may challenge you and prove it."),
    ("three-players", "not-challenged"): N_("Another red column stands free: challenge (Y) and move it up, "
                                            "and {other} may not move an own column this turn."),
    ("the-end", "stood"): N_("The villa still stands. Pull a column that carries the floor, fast."),
    ("the-end", "fell-without-seal"): N_("You did not hold the seal yet: take it first (2 points beat 1), "
                                         "then bring the villa down."),
}
FELL_WHY = N_("The villa fell. Pull more slowly, and straight out.")
MISSED_WHY = N_("The turn went by without it. Read the aim once more, or ask for a hint.")


def title(lesson: Lesson) -> str:
    return _(TITLES[lesson.code])


def aim(lesson: Lesson, part: int, other: str) -> str:
    return _(PARTS[lesson.code, part][0]).format(other=other)


def hint(lesson: Lesson, part: int, other: str) -> str:
    return _(PARTS[lesson.code, part][1]).format(other=other)


def done(lesson: Lesson, part: int, other: str) -> str:
    return _(PARTS[lesson.code, part][2]).format(other=other)


def why(lesson: Lesson, code: str, other: str) -> str:
    """Why the attempt failed, in a sentence."""
    return _(WHYS.get((lesson.code, code), MISSED_WHY if code == MISSED else FELL_WHY)).format(other=other)
