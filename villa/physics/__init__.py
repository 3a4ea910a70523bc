"""The wooden villa in Bullet physics: headless, no rendering; units are centimetres.

Modules
- `dimensions`: the one table of the pieces' sizes (estimates), the floors' outlines
  (shared with the renderer), and the layout records `Layout`, `ColumnSpot`, `FloorSpot`.
- `layouts`: `PRESETS` / `preset(name)`, `random_layout(seed, floors=1)`,
  `validate_layout(layout, setup=False)` raising `LayoutError` with every problem.
- `pieces`: `Pieces`, the table, the base plate, the floors and the columns as Bullet bodies,
  and where each lies.
- `world`: `Villa`, those pieces stepped at a fixed rate, watched, and put to sleep at rest;
  `rest`: `RestWatch`, when it has come to rest; `table`: what the table does to pieces on it.
- `pulling`: `Pull`, the hand on a column, and its states `Grip`; `hand`: what every hand
  shares, and `Hands`, the villa's hands at work.
- `laying`: `FloorLay`, the next floor being carried, turned and lowered; its states `Laying`.
- `refusals`: `PlacementError`, raised when the hand cannot do what was asked, with its
  `Refusal` code.
- `friction`, `loads`: static friction (anchors at the resting contacts) and the statics
  that sets its limits.
- `survey`, `collapse`: the facts for the rules engine (`villa.rules.facts`).

A GUI drives it like this:

    villa = Villa.from_layout(preset("rings"), setup=True)   # or Villa.from_snapshot(saved)
    villa.run_until_settled()
    each frame:  villa.step(elapsed_real_seconds); draw villa.poses()
                 # {piece id: ((x, y, z), (w, x, y, z))} of each body frame, see `dimensions`

    hit = villa.pick(ray_origin, ray_direction)      # (piece id, point) or None
    pull = villa.grab(column_id, hit_point)          # pull.steady = True holds the floor above
    each frame:  pull.aim_ray(ray_origin, ray_direction)  # or pull.aim(point)
    pull.state goes Grip.PULLING -> Grip.CARRYING once the column is free; then hover it
    over the top floor (pull.preview() tells what setting it down there would report) and
    pull.place(); or pull.abort() (the villa is put back as it was), or pull.take_out().
    when villa.settled: pull.result() -> ColumnPlaced / ColumnTakenOut
    a refused action raises PlacementError: .code (a Refusal), .values, str() in English

    lay = villa.lay_floor()                          # the next floor, hovering above the top
    each frame:  lay.aim_ray(...); lay.turn(degrees) # lay.preview() -> FloorLaid so far
    lay.lower()  (or lay.cancel());  when villa.settled: lay.result() -> FloorLaid
    or held: lay.lower(hold=True); each frame lay.tilt_deg(), lay.touching(); lay.lift(),
    lay.lower(hold=True) again; lay.let_go().  A column likewise: pull.place(hold=True),
    pull.lift(), pull.let_go();  pull.strain: the force (N) the column resists the hand with

    villa.collapse -> Collapse (time, cause, first piece) as soon as one happens
    villa.survey() -> VillaSurvey;  villa.snapshot() -> plain JSON for saved games

A computer player plans on copies: once `villa.settled`, `villa.copy()` (or
`Villa.from_snapshot(villa.snapshot())`, in any process) goes on bit for bit as the live
villa does under the same calls (frame times, grabs, aims).

Whenever it comes to rest with nothing in hand (and when a pull is aborted) the villa
builds its Bullet world anew from its poses: `villa.world`, the NodePaths in `villa.nodes`
and their bodies are then new objects. Look pieces up by id when needed; never keep them
across a settle.
"""

from villa.physics.dimensions import BASE, COLUMNS, FLOORS, ColumnSpot, FloorSpot, Layout
from villa.physics.layouts import PRESETS, LayoutError, preset, random_layout, validate_layout
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull
from villa.physics.refusals import PlacementError, Refusal
from villa.physics.world import STEP, Villa

__all__ = [
    "BASE", "COLUMNS", "FLOORS", "ColumnSpot", "FloorSpot", "Layout",
    "PRESETS", "LayoutError", "preset", "random_layout", "validate_layout",
    "FloorLay", "Laying", "Grip", "Pull", "PlacementError", "Refusal", "STEP", "Villa",
]
