"""The wooden villa in Bullet physics: headless, no rendering; units are centimetres.

Modules
- `dimensions`: the one table of the pieces' sizes (estimates), the floors' outlines
  (shared with the renderer), and the layout records `Layout`, `ColumnSpot`, `FloorSpot`.
- `layouts`: `PRESETS` / `preset(name)`, `random_layout(seed, floors=1)`,
  `validate_layout(layout, setup=False)` raising `LayoutError` with every problem.
- `world`: `Villa`, the Bullet world with the base plate, the floors laid and the columns.
- `pulling`: `Pull`, the hand on a column; `PlacementError`.
- `laying`: `FloorLay`, the next floor being carried, turned and lowered.
- `survey`, `collapse`: the facts for the rules engine (`villa.rules.facts`).

A GUI drives it like this:

    villa = Villa.from_layout(preset("rings"), setup=True)   # or Villa.from_snapshot(saved)
    villa.run_until_settled()
    each frame:  villa.step(elapsed_real_seconds); draw villa.poses()
                 # {piece id: ((x, y, z), (w, x, y, z))} of each body frame, see `dimensions`

    hit = villa.pick(ray_origin, ray_direction)      # (piece id, point) or None
    pull = villa.grab(column_id, hit_point)          # pull.steady = True holds the floor above
    each frame:  pull.aim_ray(ray_origin, ray_direction)  # or pull.aim(point)
    pull.state goes "pulling" -> "carrying" once the column is free; then hover it over
    the top floor (pull.preview() tells what setting it down there would report) and
    pull.place(); or pull.abort() (the villa is put back as it was), or pull.take_out().
    when villa.settled: pull.result() -> ColumnPlaced / ColumnTakenOut

    lay = villa.lay_floor()                          # the next floor, hovering above the top
    each frame:  lay.aim_ray(...); lay.turn(degrees) # lay.preview() -> FloorLaid so far
    lay.lower()  (or lay.cancel());  when villa.settled: lay.result() -> FloorLaid

    villa.collapse -> Collapse (time, cause, first piece) as soon as one happens
    villa.survey() -> VillaSurvey;  villa.snapshot() -> plain JSON for saved games
"""

from villa.physics.dimensions import BASE, COLUMNS, FLOORS, ColumnSpot, FloorSpot, Layout
from villa.physics.layouts import PRESETS, LayoutError, preset, random_layout, validate_layout
from villa.physics.laying import FloorLay
from villa.physics.pulling import PlacementError, Pull
from villa.physics.world import STEP, Villa

__all__ = [
    "BASE", "COLUMNS", "FLOORS", "ColumnSpot", "FloorSpot", "Layout",
    "PRESETS", "LayoutError", "preset", "random_layout", "validate_layout",
    "FloorLay", "PlacementError", "Pull", "STEP", "Villa",
]
