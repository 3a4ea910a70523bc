"""A player's side of play online: the connection to a server and the game in play seen through it.

- `player`: `Player`, one connection to a server and what it heard there (the table, the state, the poses).
- `play`: `OnlineMatch`, the game in play with the face of a hot-seat `Match`, over a `Player`.
- `hands`: the piece in this player's hand as the screen sees it; `puppet`: the villa as heard.
- `smoothing`: what the window draws between the poses it hears, and its own piece ahead of them.
- `seats_now`: `SeatsNow`, the table as the game screen reads it: who is away and for how long, whose seat a
  computer plays, and a window cut off from its game (why, who hosted it) while it looks for the game again.
"""

from villa.online.client.play import OnlineMatch
from villa.online.client.player import Player

__all__ = ["OnlineMatch", "Player"]
