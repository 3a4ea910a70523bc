"""Play online, on Panda3D's distributed networking (`direct.distributed`, the `.dc` model):

- `villa.dc`: the room's distributed object, its requests and its updates.
- `protocol`: the online refusals' codes, answers' words, room codes, a room's plan, the state and poses as
  bytes, and where the `.dc` file is.
- `rooms`: a room on the server: its seats, its match, every request checked against both.
- `objects`: the `.dc` classes: `DistributedMatch` (a client's view), `DistributedMatchAI` (the authority's).
- `authority`: the authority that holds the rooms and the lobby; `shards`: more of them, in processes of
  their own, for the machine's other cores.
- `server`: the router (`ServerRepository` with a guard at the door), the authority and any shards, on one port.
- `client`: a player's headless repository; `smoothing`: the poses it draws between the ones it hears.
- `loop`: the task loop they run in without a window.

Headless: no window here; the presentation draws what a client hears, and words its codes.
"""
