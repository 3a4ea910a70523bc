"""Play online: friends at their own windows play one game on a server (docs/online.md).

- `wire`: what crosses the network and how: framed messages on plain TCP, each a frozen value (a seat's
  requests are the match's own), a codec made from their types, and the door a server meets the world at.
- `protocol`: the online refusals' codes, room codes, and the game's data packed for the wire.
- `server`: the rooms, each a `Match` played for the people at its table, behind the door.
- `client`: a player's connection, and the game in play seen through it (`OnlineMatch`).

Headless: no window here; the presentation draws what a player hears, and words its codes.
"""
