"""Reading screens: how to play (the goal and the controls) and a summary of the rules as implemented."""

from __future__ import annotations

from typing import Callable

from direct.gui.DirectGui import DirectFrame

from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.rules.rulesets import PUBLISHER, FamilyMode, RuleSet, Scoring


def controls() -> list[tuple[str, str]]:
    """(what you do, what it does), as the game reads the mouse and keys."""
    return [
        (_("Drag a glowing column"), _("pull it out")),
        (_("Click"), _("set it down on the top floor")),
        (_("Esc or right click"), _("give up the attempt")),
        (_("Hold Space"), _("steady the floor above while pulling")),
        (_("P"), _("propose the next floor")),
        (_("Wheel or Q / E"), _("turn a floor while laying it")),
        (_("Y / N"), _("answer a question")),
        (_("Right drag or arrow keys"), _("turn the view")),
        (_("Wheel or + / −"), _("zoom")),
        (_("Middle drag or W A S D"), _("move the view")),
        (_("F"), _("look at the top floor")),
        (_("Esc, with nothing in hand"), _("pause")),
    ]


class _Sheet(Screen):
    """A paper sheet with a title, two columns of sections, and a Back button."""

    heading = ""

    def __init__(self, parent=None, *, on_back: Callable[[], None], **options) -> None:
        self.on_back = on_back
        super().__init__(parent, **options)

    def sections(self) -> tuple[list[tuple[str, list[str]]], list[tuple[str, list[str]]]]:
        raise NotImplementedError

    def build(self) -> None:
        root = self.root
        style.panel(root, (-1.68, 1.68, -0.93, 0.93))
        style.title(root, self.title(), pos=(0, 0.77), scale=0.09)
        for x, column in zip((-1.56, 0.08), self.sections()):
            self._column(root, x, column)
        self.widgets["back"] = style.button(root, _("Back"), self.on_back, pos=(0, -0.82), width=0.5,
                                            kind="primary")

    def title(self) -> str:
        raise NotImplementedError

    def _column(self, root, x: float, sections: list[tuple[str, list[str]]]) -> None:
        y = 0.6
        frame = DirectFrame(parent=root, relief=None)
        for heading, paragraphs in sections:
            if heading:
                style.text(frame, heading, pos=(x, y), scale=0.045, align="left", kind="title")
                y -= 0.075
            for paragraph in paragraphs:
                label = style.text(frame, paragraph, pos=(x, y), scale=0.037, align="left", wordwrap=40)
                lines = label.component("text0").textNode.getNumRows() if label.hascomponent("text0") else 1
                y -= 0.037 * 1.2 * lines + 0.024
            y -= 0.03


class HowToPlayScreen(_Sheet):
    def title(self) -> str:
        return _("How to play")

    def build(self) -> None:
        root = self.root
        style.panel(root, (-1.68, 1.68, -0.93, 0.93))
        style.title(root, self.title(), pos=(0, 0.77), scale=0.09)
        self._column(root, -1.56, [
            (_("The goal"), [
                _("Pull your own columns out of the lower levels and set them on the top floor. "
                  "The columns on the top level score: thin round 1, hexagonal 2, thick round 3."),
                _("Whoever scores most on the top level holds the Master Builder Seal. "
                  "When the villa falls, the holder wins, unless they brought it down: "
                  "then the player the seal shows wins."),
                _("When you cannot move a column up safely, propose the next floor. "
                  "The others may object and must then prove you wrong."),
            ]),
            (_("Hot-seat"), [
                _("Everyone plays at this computer. When someone else must answer, the game asks you "
                  "to pass the mouse."),
            ]),
        ])
        style.text(root, _("Controls"), pos=(0.08, 0.6), scale=0.045, align="left", kind="title")
        for i, (what, effect) in enumerate(controls()):
            y = 0.51 - i * 0.092
            style.text(root, what, pos=(0.08, y), scale=0.037, align="left", kind="bold")
            style.text(root, effect, pos=(0.8, y), scale=0.037, align="left", fg=style.INK_SOFT)
        self.widgets["back"] = style.button(root, _("Back"), self.on_back, pos=(0, -0.82), width=0.5,
                                            kind="primary")


class RulesSummaryScreen(_Sheet):
    """The rules as this game implements them, for the given rule set (default: the publisher's)."""

    def __init__(self, parent=None, *, on_back: Callable[[], None], rules: RuleSet = PUBLISHER, **options) -> None:
        self.rules = rules
        super().__init__(parent, on_back=on_back, **options)

    def title(self) -> str:
        return _("The rules in brief")

    def sections(self):
        r = self.rules
        if r.family:
            return self._family()
        left = [
            (_("Your turn: one of these"), [
                _("Build: take one of your columns from below the top level and set it on the top floor."),
                _("Give up a build: the column goes back and may not be chosen again."),
                _("Propose a floor, at the start of your turn, while floors are left."),
                _("With nothing left to build and no floor to lay, pass."),
            ]),
            (_("Building"), [
                _("Touch only one column per turn. While pulling you may steady the floor above; "
                  "while setting down, hold no floor."),
                _("A column may not overhang the floor it stands on, nor stand on another column, "
                  "except on the red floor."),
            ]),
            (_("Proposing a floor"), [
                _("The others are asked in turn; the first to object must set one of your columns on top. "
                  "If that works, the column leaves the game and your turn ends."),
                _("If it fails, you may pull one of the objector's columns out of the game; "
                  "then you lay the floor."),
                _("A floor must cover enough columns of the top level; if it cannot, it is given up "
                  "and your turn ends."),
            ]),
        ]
        support = _("A new floor must rest on at least {count} columns.").format(count=r.min_floor_support)
        if r.orange_min_support is not None:
            support += " " + _("From the orange floor on, {count} are enough.").format(count=r.orange_min_support)
        floor_rules = [support]
        floor_rules.append(_("A floor must lie wholly within the base.") if r.floors_inside_base
                           else _("A floor may reach beyond the base."))
        if r.proposer_moves_column:
            floor_rules.append(_("Who lays a floor then also moves one column up."))
        colours = [_("Every player rolls the seal for a colour; a colour already taken is rolled again. "
                     "The last to roll begins.")] if r.everyone_rolls else [
            _("The youngest rolls the seal for a colour; the others choose theirs in turn. "
              "Who is left with the last colour begins.")]
        right = [
            (_("Floors"), floor_rules + [_("They go on in order: blue, green, yellow, orange, red.")]),
            (_("The Master Builder Seal"), [
                _("From the green floor on, the first to set a column on a new floor takes the seal. "
                  "It passes to whoever scores strictly more than its holder, and shows the previous holder."),
            ]),
            (_("The end"), [
                _("When the villa falls, the holder wins, unless they brought it down: then the player "
                  "the seal shows wins. With nobody to name, there is no Master Builder."),
            ]),
            (_("Colours"), colours),
            (_("Two or three players"), [
                _("Two players play two colours each. With three, the fourth colour is neutral: "
                  "first move a neutral column up, then one of your own."),
            ]),
        ]
        return left, right

    def _family(self):
        r = self.rules
        modes = {FamilyMode.FREESTYLE: _("Move a column of any colour."),
                 FamilyMode.RANDOM: _("Roll the seal each turn: move a column of the colour it shows "
                                      "(an end face: any colour)."),
                 FamilyMode.ASSIGNED: _("Each player keeps one colour for the whole game.")}
        scoring = {Scoring.BASIC: _("Who brings the villa down gets a point; the fewest points win."),
                   Scoring.TOURNAMENT: _("Once the green floor is on, each column moved up scores its points "
                                         "(1, 2 or 3) and bringing the villa down costs 5; before it, nothing "
                                         "scores. The most points win.")}
        left = [
            (_("Family edition"), [modes[r.mode]]),
            (_("Your turn"), [
                _("Move one column up to the top floor. When you cannot, lay the next floor, "
                  "then move a column as usual."),
            ]),
        ]
        right = [
            (_("Scoring"), [scoring[r.scoring],
                            _("The game lasts {rounds} rounds.").format(rounds=r.rounds)]),
        ]
        return left, right
