"""Setting up a game from the command line's choices: the players, the villa's layout, the seed."""

from __future__ import annotations

from dataclasses import dataclass

from villa.app.logs import PlayerError

DEFAULT_NAMES = ("Anna", "Ben", "Cleo", "Dario")


@dataclass(frozen=True)
class MatchOptions:
    players: tuple[str, ...] = DEFAULT_NAMES
    layout: str = "rings"      # a preset's name, or "random"
    seed: int = 1
    floors: int = 1            # more than one: a random villa in mid-game (for pictures of later play)


def parse_players(text: str) -> tuple[str, ...]:
    """'3' gives three default names; 'Anna,Ben' gives those players in seat order."""
    text = text.strip()
    if text.isdigit():
        count = int(text)
        if not 2 <= count <= 4:
            raise PlayerError("Villa Paletti is played by 2, 3 or 4 players")
        return DEFAULT_NAMES[:count]
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    if not 2 <= len(names) <= 4:
        raise PlayerError("name 2, 3 or 4 players, separated by commas (e.g. --players Anna,Ben)")
    return names


def build_layout(options: MatchOptions):
    from villa.physics import layouts
    if options.floors > 1:
        return layouts.random_layout(options.seed, floors=options.floors)
    if options.layout == "random":
        return layouts.random_layout(options.seed)
    try:
        return layouts.preset(options.layout)
    except ValueError as error:
        raise PlayerError(f"{error} (or random)") from None


def new_match(options: MatchOptions, settle_seconds: float = 4.0):
    """The villa built and settled, and the referee ready for the first move."""
    from villa.physics import layouts
    from villa.physics.world import Villa
    from villa.presentation.game import Match
    from villa.presentation.referee import Referee
    layout = build_layout(options)
    villa = Villa.from_layout(layout, setup=options.floors == 1)
    villa.run_until_settled(settle_seconds)
    blue_supports = frozenset(spot.column for spot in layouts.supports(layout, 1))
    referee = Referee(options.players, blue_supports, seed=options.seed)
    if options.floors > 1:
        referee.continue_from({spot.column: spot.level for spot in layout.columns},
                              {f.level: frozenset(s.column for s in layouts.supports(layout, f.level))
                               for f in layout.floors})
    return Match(layout, villa, referee)
