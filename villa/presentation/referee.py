"""The rules engine as the interface needs it: who is to move, which columns they may take and why not.

Every change goes through `villa.rules.apply`; a refused action comes back as the
rules' own words, for a tooltip or the status line.
"""

from __future__ import annotations

from villa import rules
from villa.rules.pieces import COLUMNS_BY_ID, Colour

# What marks each colour's columns, for players who cannot tell the colours apart.
COLOUR_MARKS = {
    Colour.BLUE: "rings",
    Colour.RED: "dots",
    Colour.YELLOW: "flutes",
    Colour.GREEN: "stripes",
}


class Referee:
    def __init__(self, players: tuple[str, ...], blue_floor_supports: frozenset[str], seed: int = 0,
                 ruleset: rules.RuleSet = rules.PUBLISHER) -> None:
        setup = rules.GameSetup(ruleset, tuple(players), frozenset(blue_floor_supports))
        state = rules.new_game(setup)
        if state.turn.step is rules.Step.COLOUR_ROLL:
            state = rules.apply(state, rules.AssignColoursAtRandom(seed))
        self.state = state
        self._takeable: tuple = (None, [])
        self._reasons: tuple = (None, {})

    def continue_from(self, column_levels: dict[str, int | None], floor_supports: dict[int, frozenset[str]]) -> None:
        """Take up the game with a villa already built higher (a picture of later play):
        columns not listed are out of the game."""
        from dataclasses import replace
        levels = {c: column_levels.get(c) for c in self.state.levels}
        self.state = replace(self.state, levels=levels, top_level=max(floor_supports, default=1),
                             floor_supports=dict(floor_supports),
                             out=frozenset(c for c, lv in levels.items() if lv is None))

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
        if column in self.takeable():
            return None
        try:
            rules.apply(self.state, rules.TakeColumn(column))
        except rules.RuleError as refusal:
            return refusal.message
        return None

    def takeable(self) -> list[str]:
        if self._takeable[0] is not self.state:
            self._takeable = (self.state, rules.takeable_columns(self.state))
        return self._takeable[1]

    def may_propose_floor(self) -> bool:
        return any(isinstance(a, rules.ProposeFloor) for a in rules.legal_actions(self.state))

    def in_hand(self) -> str | None:
        return self.state.turn.column

    # --- changes (each returns the refusal's words, or None when accepted) ---

    def submit(self, action) -> str | None:
        try:
            self.state = rules.apply(self.state, action)
        except rules.RuleError as refusal:
            return refusal.message
        return None

    def status(self) -> str:
        """One line for the top of the screen."""
        state = self.state
        if state.over:
            return f"Game over: {state.result.reason}"
        who = self.name(self.actor)
        step = state.turn.step
        top = rules.pieces.floor_colour(state.top_level) if state.top_level else "base"
        if step is rules.Step.START or step is rules.Step.TAKE:
            takeable = self.takeable()
            neutral = state.neutral
            if neutral is not None and takeable and all(c.startswith(neutral.value) for c in takeable):
                return f"{who}: first pull a neutral ({neutral.value}) column and set it on the {top} floor"
            return f"{who}: pull one of your columns from under the {top} floor and set it on top"
        if step is rules.Step.IN_HAND:
            return f"{who}: set {state.turn.column} on the {top} floor (click), or Esc to give it up"
        if step is rules.Step.LAY_FLOOR:
            return f"{who}: lay the next floor on the top columns (wheel turns it, click lays it)"
        if step is rules.Step.ASK:
            return f"{who}: object to the new floor? (Y objects, N lets it go on)"
        if step is rules.Step.TAKE_OUT:
            return f"{who}: pull one of the objector's columns out of the villa"
        return who


def column_label(column: str) -> str:
    column_ = COLUMNS_BY_ID[column]
    return f"{column_.colour.value} {column_.kind.value} ({COLOUR_MARKS[column_.colour]}, {column_.points} pt)"
