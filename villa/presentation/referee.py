"""The rules engine as the interface needs it: who is to move, which columns they may take and why not.

Every change goes through `villa.rules.apply`; a refused action comes back as the
rules' own words, for a tooltip or the status line. What the screen shows and offers at
each moment comes from the turn flow (`villa.presentation.flow`).
"""

from __future__ import annotations

from villa import rules
from villa.presentation import flow
from villa.presentation.i18n import N_, _
from villa.rules.pieces import COLUMNS_BY_ID, Colour

# What marks each colour's columns, for players who cannot tell the colours apart.
COLOUR_MARKS = {
    Colour.BLUE: N_("rings"),
    Colour.RED: N_("dots"),
    Colour.YELLOW: N_("flutes"),
    Colour.GREEN: N_("stripes"),
}


class Referee:
    def __init__(self, players: tuple[str, ...], blue_floor_supports: frozenset[str], seed: int = 0,
                 ruleset: rules.RuleSet = rules.PUBLISHER) -> None:
        setup = rules.GameSetup(ruleset, tuple(players), frozenset(blue_floor_supports))
        state = rules.new_game(setup)
        if state.turn.step is rules.Step.COLOUR_ROLL:
            state = rules.apply(state, rules.AssignColoursAtRandom(seed))
        self._take_up(state)

    @classmethod
    def from_state(cls, state: rules.GameState) -> "Referee":
        """A referee taking up a game where `state` left it (a saved game)."""
        referee = cls.__new__(cls)
        referee._take_up(state)
        return referee

    def _take_up(self, state: rules.GameState) -> None:
        self.state = state
        self.last_change: tuple | None = None    # (before, action, after) of the last accepted action
        self._guidance: tuple = (None, None)
        self._reasons: tuple = (None, {})

    def continue_from(self, column_levels: dict[str, int | None], floor_supports: dict[int, frozenset[str]]) -> None:
        """Take up the game with a villa already built higher (a picture of later play):
        columns not listed are out of the game."""
        carrying = {lv: [c for c in cs if column_levels.get(c) == lv - 1] for lv, cs in floor_supports.items()}
        self.state = rules.apply(self.state, rules.SetUpHigher.of(column_levels, carrying))

    # --- questions ---

    @property
    def actor(self) -> int | None:
        return rules.whose_move(self.state)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def step(self) -> rules.Step:
        return self.state.turn.step

    @property
    def turn_count(self) -> int:
        """How many actions have been accepted (tests watch it to see a turn pass)."""
        return len(self.state.log)

    def name(self, player: int | None) -> str:
        return self.state.colour_name(player)

    def colours(self, player: int) -> tuple[Colour, ...]:
        return self.state.colours[player] if player < len(self.state.colours) else ()

    def guidance(self) -> flow.Guidance:
        """What the screen shows and offers now (worked out once per state)."""
        if self._guidance[0] is not self.state:
            self._guidance = (self.state, flow.guidance(self.state))
        return self._guidance[1]

    def why_not_take(self, column: str) -> str | None:
        """None if the player to move may take `column` now; otherwise the rule, in words."""
        state, reasons = self._reasons   # asked every frame the pointer rests on a column
        if state is not self.state:
            reasons = {}
            self._reasons = (self.state, reasons)
        if column not in reasons:
            reasons[column] = self._why_not_take(column)
        return reasons[column]

    def _why_not_take(self, column: str) -> str | None:
        return flow.why_not(self.state, column)

    def takeable(self) -> list[str]:
        """The columns the mouse may take now (for a build, or the objector's to pull out)."""
        return list(self.guidance().grabbable)

    def may_propose_floor(self) -> bool:
        return any(isinstance(a, rules.ProposeFloor) for a in rules.legal_actions(self.state))

    def in_hand(self) -> str | None:
        return self.state.turn.column

    # --- changes (each returns the refusal's words, or None when accepted) ---

    def submit(self, action) -> str | None:
        before = self.state
        try:
            self.state = rules.apply(before, action)
        except rules.RuleError as refusal:
            return refusal.message
        self.last_change = (before, action, self.state)
        return None

    def status(self) -> str:
        """One line for the top of the screen."""
        return self.guidance().headline


def column_label(column: str) -> str:
    """'blue hexagonal (rings, 2 pt)': the column, its mark and its points, for tooltips."""
    piece = COLUMNS_BY_ID[column]
    return _("{column} ({mark}, {points} pt)").format(column=flow.column_name(column),
                                                       mark=_(COLOUR_MARKS[piece.colour]), points=piece.points)
