"""What a game starts from: the seats (people or computers), the rules, the villa's layout, the seed.

    setup = MatchSetup(seats=(Seat("Anna"), Seat("Computer (hard)", Strength.HARD)),
                       layout=layout_named("rings"), seed=7)

A layout of all twenty columns on the base plate under the blue floor is a set-up, and the
players take their colours in the game. Any other is a villa started higher (for pictures of
later play): the colours are dealt from the seed and the rules take the villa up by a logged
action, as if it had been built so.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from enum import Enum

from villa import rules
from villa.physics import layouts
from villa.physics.dimensions import Layout
from villa.rules.pieces import ALL_COLUMNS

LAYOUT_NAMES = (*layouts.PRESETS, "random")
MAX_NAME = 24   # characters of a player's name


def clean_name(text: str) -> str:
    """A name as typed (in the menu or sent over the network): printable characters only, at most MAX_NAME."""
    return "".join(ch for ch in text.strip() if ch.isprintable())[:MAX_NAME]


class Strength(str, Enum):
    """How well a computer player plays."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True)
class Seat:
    """A place at the table: a person, or a computer player of some strength."""

    name: str
    computer: Strength | None = None

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


def new_game_id() -> str:
    return secrets.token_hex(8)


@dataclass(frozen=True)
class MatchSetup:
    """A game's recipe. Seat 0 is the youngest player (who rolls the seal for a colour)."""

    seats: tuple[Seat, ...]
    layout: Layout
    ruleset: rules.RuleSet = rules.PUBLISHER
    seed: int = 1
    deal_colours: bool = False      # colours dealt from the seed instead of rolled and chosen
    game: str = field(default_factory=new_game_id)   # the same in every save of one game
    builders_eye: bool = False      # played with the builder's eye (a learning aid): its end and record say so

    def __post_init__(self) -> None:
        if not 2 <= len(self.seats) <= 4:
            raise ValueError("Villa Paletti is played by 2, 3 or 4 players")
        if len({seat.name for seat in self.seats}) != len(self.seats):
            raise ValueError("every player needs a name of their own")
        if not self.layout.floors:
            raise ValueError("a villa has at least the blue floor")

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def floors(self) -> int:
        return len(self.layout.floors)

    @property
    def started_higher(self) -> bool:
        """Is the villa already built higher than a set-up (more floors, columns up or out of the game)?"""
        return (self.floors > 1 or any(spot.level > 0 for spot in self.layout.columns)
                or len(self.layout.columns) < len(ALL_COLUMNS))

    def rules_setup(self) -> rules.GameSetup:
        supports = frozenset(spot.column for spot in layouts.supports(self.layout, 1))
        return rules.GameSetup(self.ruleset, self.players, supports)

    def again(self, seed: int) -> "MatchSetup":
        """The same players and rules on a fresh villa (a new game id): "Play again"."""
        layout = self.layout
        if self.layout.name.startswith("random "):
            layout = layout_named("random", seed, self.floors)
        return MatchSetup(self.seats, layout, self.ruleset, seed, self.deal_colours, builders_eye=self.builders_eye)


def layout_named(name: str, seed: int = 1, floors: int = 1) -> Layout:
    """A preset's layout, or "random" (from `seed`); more than one floor: a random villa that high.

    Raises ValueError naming the choices for an unknown name."""
    if floors > 1:
        return layouts.random_layout(seed, floors=floors)
    if name == "random":
        return layouts.random_layout(seed)
    try:
        return layouts.preset(name)
    except ValueError:
        raise ValueError(f"no layout is called {name!r}; there are {', '.join(LAYOUT_NAMES)}") from None
