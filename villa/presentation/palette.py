"""The game's colours: the players' paint, and the inks for words on the dark game screen.

One table of the four player colours (`PAINT`); words written in a player's colour on a dark
panel use `ink(colour)`, the same paint lightened so it reads there.
"""

from __future__ import annotations

from villa.rules.pieces import Colour

PAINT = {Colour.BLUE: (0.22, 0.42, 0.90, 1), Colour.RED: (0.88, 0.20, 0.16, 1),
         Colour.YELLOW: (0.98, 0.80, 0.20, 1), Colour.GREEN: (0.22, 0.66, 0.32, 1)}

LIGHT_INK = (0.96, 0.93, 0.86, 1)      # words on the game screen's dark panels
SOFT_INK = (0.80, 0.76, 0.68, 1)
DIM_INK = (0.78, 0.74, 0.66, 1)
LIGHTEN = 0.4                          # how far toward white a player's ink is taken on dark panels


def ink(colour: Colour) -> tuple[float, float, float, float]:
    """A player's colour, lightened to be read on a dark panel."""
    r, g, b, a = PAINT[Colour(colour)]
    return (r + (1 - r) * LIGHTEN, g + (1 - g) * LIGHTEN, b + (1 - b) * LIGHTEN, a)
