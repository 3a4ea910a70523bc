"""What a computer player is asked and what it answers, as plain data: a request holds everything a
decision depends on (the rules' state as JSON, the villa's snapshot, the strength, the seed, the
seat), so it can be worked out in this process or in a worker process with the same result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Request:
    state: dict[str, Any]        # villa.rules.state_to_json
    villa: dict[str, Any]        # Villa.snapshot()
    player: int
    strength: str                # a Strength's value
    seed: int


@dataclass(frozen=True)
class Plan:
    """A decision. `action` goes straight to the referee; a pull names the column, the way out
    (None: straight up), the speed, whether the floor is steadied, and where it is set down;
    a floor names its place and turn."""

    action: Any = None                              # a rules action (ChooseColour, Object, ProposeFloor ...)
    column: str | None = None
    direction: tuple[float, float] | None = None
    distance: float = 0.0
    speed: float = 3.0
    steady: bool = False
    landing: tuple[float, float] | None = None
    floor: tuple[float, float, float] | None = None  # x, y, yaw
    shifts: int = 4                                 # times a held floor that tips is lifted and shifted
    rash: bool = False                              # a floor that will not sit is let go all the same
    predicted_shift: float = 0.0                    # cm the trial saw the floors move until it came free
    forecast: tuple = ()                            # (floor, x, y, z) the trial saw the moment it came free
    give_up: bool = False                           # take it and give it up at once (nothing is safe)
    why: str = ""

    @property
    def pulls(self) -> bool:
        return self.column is not None

    @property
    def lays(self) -> bool:
        return self.floor is not None
