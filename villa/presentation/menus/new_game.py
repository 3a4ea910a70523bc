"""A new game: 2, 3 or 4 seats (each a person with a name, or a computer player of some strength),
the rule set, the column layout.

`on_start(GameChoices)` with a plain record of the choices; `on_back()` to leave. Hosting an online game
uses the same screen, its way on worded by `start_words` (the people's seats are then whoever sits down).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from direct.gui.DirectGui import DirectFrame

from villa.match.setup import MAX_NAME, Seat, Strength, clean_name
from villa.physics.dimensions import Layout
from villa.physics.layouts import PRESETS
from villa.presentation.i18n import N_, _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.rules.rulesets import PUBLISHER, FamilyMode, RuleSet, Scoring, family

PRESET_NAMES = {"rings": N_("Rings"), "colonnade": N_("Colonnade"), "free corners": N_("Free corners")}
MODE_NAMES = {FamilyMode.FREESTYLE: N_("Freestyle"), FamilyMode.RANDOM: N_("Random colour"),
              FamilyMode.ASSIGNED: N_("Assigned colour")}
SCORING_NAMES = {Scoring.BASIC: N_("Basic"), Scoring.TOURNAMENT: N_("Tournament")}
VARIANTS = ("two_supports_from_orange", "floors_inside_base", "proposer_moves_column", "everyone_rolls")
VARIANT_NAMES = {"two_supports_from_orange": N_("From the orange floor on, two columns carry a floor"),
                 "floors_inside_base": N_("Floors may not reach beyond the base"),
                 "proposer_moves_column": N_("Who lays a floor also moves a column up"),
                 "everyone_rolls": N_("Every player rolls the seal for a colour")}
# who sits at a seat: a person, or a computer player of a strength (the seat's button goes round them)
SEAT_KINDS: tuple[Strength | None, ...] = (None, Strength.EASY, Strength.MEDIUM, Strength.HARD)
SEAT_NAMES = {None: N_("Person"), Strength.EASY: N_("Computer: easy"), Strength.MEDIUM: N_("Computer: medium"),
              Strength.HARD: N_("Computer: hard")}
STRENGTH_NAMES = {Strength.EASY: N_("easy"), Strength.MEDIUM: N_("medium"), Strength.HARD: N_("hard")}
MAX_ROUNDS = 9


def preset_name(name: str) -> str:
    """A preset layout's name as the player reads it."""
    return _(PRESET_NAMES[name]) if name in PRESET_NAMES else name


def computer_name(strength: Strength, taken) -> str:
    """A computer player's name in the player's language: "Computer (hard)", "Computer (hard) 2" ..."""
    base = _("Computer ({strength})").format(strength=_(STRENGTH_NAMES[strength]))
    name, n = base, 2
    while name in taken:
        name, n = f"{base} {n}", n + 1
    return name


@dataclass(frozen=True)
class GameChoices:
    """What the players chose for a new game (seat 0 is the youngest: they roll the seal)."""

    seats: tuple[Seat, ...]
    rules: RuleSet = PUBLISHER
    layout: str = "preset"         # "preset", "random" or "hand" (arranged by hand)
    preset: str | None = None      # the name in villa.physics.layouts.PRESETS, for "preset"
    seed: int | None = None        # for "random"
    arrangement: Layout | None = None   # for "hand": the columns where the players set them up

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)


@dataclass
class _Draft:
    count: int = 4
    names: list[str] = field(default_factory=lambda: ["", "", "", ""])
    kinds: list[Strength | None] = field(default_factory=lambda: [None, None, None, None])
    family: bool = False
    variants: dict[str, bool] = field(default_factory=lambda: {v: False for v in VARIANTS})
    mode: FamilyMode = FamilyMode.FREESTYLE
    scoring: Scoring = Scoring.BASIC
    rounds: int = 3
    layout: str = "preset"
    preset: str = next(iter(PRESETS))


class NewGameScreen(Screen):
    def __init__(self, parent=None, *, on_start: Callable[[GameChoices], None], on_back: Callable[[], None],
                 initial: GameChoices | None = None, rng: random.Random | None = None,
                 start_words: str | None = None, **options) -> None:
        self.on_start, self.on_back = on_start, on_back
        self.start_words = start_words
        self.rng = rng or random.Random()
        self.draft = _Draft()
        if initial is not None:
            self._load(initial)
        super().__init__(parent, **options)

    # --- the record ---
    def choices(self) -> GameChoices:
        """The choices as they stand now."""
        d = self.draft
        for i, widget in enumerate(self.widgets.get("names", ())):
            d.names[i] = clean_name(widget.get())
        seats: list[Seat] = []
        for i in range(d.count):
            kind = d.kinds[i]
            name = d.names[i] or (computer_name(kind, []) if kind else _("Player {number}").format(number=i + 1))
            base, n = name, 2
            while name in (s.name for s in seats):
                name, n = f"{base} {n}", n + 1
            seats.append(Seat(name, kind))
        if d.family:
            rules = family(d.mode, d.scoring, d.rounds)
        else:
            rules = PUBLISHER.with_variants(**d.variants)
        return GameChoices(tuple(seats), rules, d.layout, d.preset if d.layout == "preset" else None,
                           self.rng.randrange(2 ** 31) if d.layout == "random" else None)

    def _start(self) -> None:
        self.on_start(self.choices())

    def _load(self, initial: GameChoices) -> None:
        d = self.draft
        d.count = len(initial.seats)
        for i, seat in enumerate(initial.seats):
            d.names[i] = seat.name
            d.kinds[i] = seat.computer
        r = initial.rules
        d.family = r.family
        if r.family:
            d.mode, d.scoring, d.rounds = r.mode, r.scoring, r.rounds
        else:
            d.variants = {"two_supports_from_orange": r.orange_min_support is not None,
                          "floors_inside_base": r.floors_inside_base,
                          "proposer_moves_column": r.proposer_moves_column,
                          "everyone_rolls": r.everyone_rolls}
        d.layout = initial.layout
        if initial.preset in PRESETS:
            d.preset = initial.preset

    # --- widgets ---
    def build(self) -> None:
        root, d = self.root, self.draft
        for i, name in enumerate(d.names):
            d.names[i] = name or _("Player {number}").format(number=i + 1)
        style.panel(root, (-1.68, 1.68, -0.93, 0.93))
        style.title(root, _("New game"), pos=(0, 0.76), scale=0.1)

        # players, on the left
        left = -1.02
        style.text(root, _("Players"), pos=(left, 0.56), scale=style.HEADING_SCALE, kind="title")
        self.widgets["count"] = style.Choice(root, [(n, str(n)) for n in (2, 3, 4)], d.count, self._count,
                                             pos=(left, 0.44), width=0.6, height=0.09, text_scale=0.045)
        names = []
        self.widgets["name_rows"] = rows = []
        for i in range(4):
            row = DirectFrame(parent=root, relief=None, pos=(left, 0, 0.27 - i * 0.13))
            style.text(row, f"{i + 1}.", pos=(-0.50, -0.014), scale=0.04, align="right", kind="bold",
                       fg=style.INK_SOFT)
            names.append(style.entry(row, d.names[i], pos=(-0.20, 0), width=0.54, max_chars=MAX_NAME,
                                     on_change=lambda text, i=i: self._name(i, text)))
            self.widgets[f"seat_{i}"] = style.button(row, _(SEAT_NAMES[d.kinds[i]]), lambda i=i: self._next_kind(i),
                                                     pos=(0.40, 0), width=0.56, height=0.085, text_scale=0.03,
                                                     kind="wood" if d.kinds[i] else "quiet")
            rows.append(row)
        self.widgets["names"] = names
        style.text(root, _("Player 1 is the youngest and rolls the Master Builder Seal for a colour. "
                           "The button beside a name gives the seat to a computer player."),
                   pos=(left, -0.27), scale=0.032, fg=style.INK_SOFT, wordwrap=21, kind="serif")

        # rules, in the middle and to the right
        mid = 0.52
        style.text(root, _("Rules"), pos=(mid, 0.56), scale=style.HEADING_SCALE, kind="title")
        self.widgets["edition"] = style.Choice(root, [(False, _("The publisher's rules")),
                                                      (True, _("Family edition"))],
                                               d.family, self._family, pos=(mid, 0.44), width=1.4, height=0.09,
                                               text_scale=0.04)
        self.widgets["publisher_group"] = group = DirectFrame(parent=root, relief=None)
        style.text(group, _("House variants"), pos=(mid - 0.66, 0.29), scale=0.038, align="left",
                   fg=style.INK_SOFT, kind="bold")
        for i, key in enumerate(VARIANTS):
            self.widgets[key] = style.Toggle(group, _(VARIANT_NAMES[key]), d.variants[key],
                                             lambda value, key=key: self._variant(key, value),
                                             pos=(mid - 0.62, 0.2 - i * 0.08), width=1.34, text_scale=0.034)
        self.widgets["family_group"] = group = DirectFrame(parent=root, relief=None)
        style.text(group, _("Colours"), pos=(mid - 0.66, 0.27), scale=0.038, align="left", kind="bold")
        self.widgets["mode"] = style.Choice(group, [(m, _(MODE_NAMES[m])) for m in FamilyMode], d.mode,
                                            self._mode, pos=(mid + 0.18, 0.28), width=1.04, text_scale=0.032)
        style.text(group, _("Scoring"), pos=(mid - 0.66, 0.15), scale=0.038, align="left", kind="bold")
        self.widgets["scoring"] = style.Choice(group, [(s, _(SCORING_NAMES[s])) for s in Scoring], d.scoring,
                                               self._scoring, pos=(mid + 0.18, 0.16), width=1.04, text_scale=0.034)
        style.text(group, _("Rounds"), pos=(mid - 0.66, 0.03), scale=0.038, align="left", kind="bold")
        self.widgets["rounds"] = style.Stepper(group, d.rounds, 1, MAX_ROUNDS, self._rounds,
                                               pos=(mid - 0.1, 0.04))

        # the column layout, below the rules
        style.text(root, _("Column layout"), pos=(mid, -0.14), scale=style.HEADING_SCALE, kind="title")
        self.widgets["layout"] = style.Choice(root, [("preset", _("Preset")), ("random", _("Random")),
                                                     ("hand", _("Arrange by hand"))],
                                              d.layout, self._layout, pos=(mid, -0.26), width=1.4, height=0.09,
                                              text_scale=0.038)
        self.widgets["preset_group"] = group = DirectFrame(parent=root, relief=None)
        self.widgets["preset"] = style.Choice(group, [(name, preset_name(name)) for name in PRESETS], d.preset,
                                              self._preset, pos=(mid, -0.38), width=1.4, height=0.08,
                                              text_scale=0.034)
        self.widgets["layout_note"] = style.text(root, "", pos=(mid, -0.39), scale=0.032, fg=style.INK_SOFT,
                                                 kind="serif", wordwrap=40)

        self.widgets["back"] = style.button(root, _("Back"), self.on_back, pos=(-0.45, -0.76), width=0.5,
                                            kind="quiet")
        self.widgets["start"] = style.button(root, self.start_words or _("Start the game"), self._start,
                                             pos=(0.25, -0.76), width=0.8, kind="primary")
        self._update()

    def _update(self) -> None:
        d, w = self.draft, self.widgets
        for i, row in enumerate(w["name_rows"]):
            row.show() if i < d.count else row.hide()
        w["publisher_group"].hide() if d.family else w["publisher_group"].show()
        w["family_group"].show() if d.family else w["family_group"].hide()
        w["preset_group"].show() if d.layout == "preset" else w["preset_group"].hide()
        note = {"preset": "", "random": _("A new valid arrangement every game."),
                "hand": _("Before the game you set every column on the building site yourself; "
                          "then the blue floor goes on.")}[d.layout]
        w["layout_note"]["text"] = note

    # --- changes ---
    def _count(self, count: int) -> None:
        self.draft.count = count
        self._update()

    def _name(self, i: int, text: str) -> None:
        self.draft.names[i] = clean_name(text)

    def _next_kind(self, i: int) -> None:
        """The seat's button: person -> computer (easy) -> (medium) -> (hard) -> person. A computer's name
        follows its strength unless someone typed another."""
        d = self.draft
        d.names[i] = clean_name(self.widgets["names"][i].get())
        was = d.kinds[i]
        d.kinds[i] = SEAT_KINDS[(SEAT_KINDS.index(was) + 1) % len(SEAT_KINDS)]
        automatic = (d.names[i] in ("", _("Player {number}").format(number=i + 1))
                     or (was is not None and d.names[i] == computer_name(was, [])))
        if automatic:
            d.names[i] = computer_name(d.kinds[i], []) if d.kinds[i] else _("Player {number}").format(number=i + 1)
        self.refresh()

    def _family(self, on: bool) -> None:
        self.draft.family = on
        self._update()

    def _variant(self, key: str, on: bool) -> None:
        self.draft.variants[key] = on

    def _mode(self, mode: FamilyMode) -> None:
        self.draft.mode = mode

    def _scoring(self, scoring: Scoring) -> None:
        self.draft.scoring = scoring

    def _rounds(self, rounds: int) -> None:
        self.draft.rounds = rounds

    def _layout(self, kind: str) -> None:
        self.draft.layout = kind
        self._update()

    def _preset(self, name: str) -> None:
        self.draft.preset = name

