"""The columns set up by hand, headless: where each of the twenty stands on the building site,
where the blue floor will lie, and the set-up checks, each with its reason in words.

    arrangement = Arrangement.from_layout(layouts.preset("rings"), need=3)
    arrangement.spot_for("red-thick", 2.0, -4.0)   # the nearest place it may stand, or None
    arrangement.move("red-thick", 2.0, -4.0)
    arrangement.move_floor(1.0, 0.5); arrangement.turn_floor(15)   # the blue floor's place
    arrangement.problems()                         # [] when the blue floor may be laid
    arrangement.layout()                           # the Layout to build the villa from

A column may only stand inside the building site and clear of the others (`spot_for` finds
the nearest such place); the checks are those of `villa.physics.layouts.flaws` for a
set-up, plus the rules' least number of columns under the blue floor. Anything that check
finds and these do not is reported too, so a layout passing here always builds.
No Panda3D here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import StrEnum

from villa.physics import geometry, layouts, picking
from villa.physics.dimensions import BASE, ColumnSpot, FloorSpot, Layout, column_spec
from villa.presentation.words import column_words
from villa.presentation.i18n import N_, _
from villa.rules.pieces import ALL_COLUMNS

NAME = "by hand"            # the layout's name in saves
EASE = 0.01                 # cm kept beyond every limit, so rounding never breaks a check
SEARCH_STEP = 0.25          # cm between the rings searched for a free place
SEARCH_REACH = 8.0          # cm: no free place this near the pointer: the column stays put

class SetUpCheck(StrEnum):
    """The check list of a villa set up by hand, in the order it is shown."""

    SITE = "site"
    APART = "apart"
    EDGE = "edge"
    CARRIED = "carried"
    STEADY = "steady"
    PLATE = "plate"
    OTHER = "other"   # anything else the physics' layout check finds (not listed: told in its sentence)


# The checks in the order the players read them, each with its line for the check list.
CHECKS = (SetUpCheck.SITE, SetUpCheck.APART, SetUpCheck.EDGE, SetUpCheck.CARRIED, SetUpCheck.STEADY,
          SetUpCheck.PLATE)
COLUMN_CHECKS = (SetUpCheck.SITE, SetUpCheck.APART, SetUpCheck.EDGE)   # those a column fails where it stands
CHECK_LINES = {
    SetUpCheck.SITE: N_("Every column on the building site"),
    SetUpCheck.APART: N_("No two columns too close together"),
    SetUpCheck.EDGE: N_("No column half under the floor's edge"),
    SetUpCheck.CARRIED: N_("Columns under the blue floor: {count} (at least {need})"),
    SetUpCheck.STEADY: N_("The blue floor rests steadily"),
    SetUpCheck.PLATE: N_("The blue floor stays on the base plate"),
}


@dataclass(frozen=True)
class Problem:
    """A check that fails: which one, the columns at fault, and (for "other") the layout check's sentence."""

    check: SetUpCheck
    columns: tuple[str, ...] = ()
    detail: str = ""


class Arrangement:
    """Twenty columns on the base plate and the blue floor's place; `need` columns must carry the floor."""

    def __init__(self, spots: dict[str, ColumnSpot], floor: FloorSpot, need: int = 3) -> None:
        self.spots = dict(spots)
        self.floor = floor
        self.need = need
        self._standing: picking.StandingColumns | None = None   # built at the first pick

    @classmethod
    def from_layout(cls, layout: Layout, need: int = 3) -> "Arrangement":
        """Start from a set-up layout (a preset, a random one, or an earlier arrangement)."""
        floor = next((f for f in layout.floors if f.level == 1), None)
        if floor is None:
            raise ValueError(f"layout {layout.name!r} has no blue floor to arrange the columns under")
        spots = {c.column: ColumnSpot(c.column, 0, c.x, c.y, c.yaw) for c in layout.columns}
        missing = [c.id for c in ALL_COLUMNS if c.id not in spots]
        if missing:
            raise ValueError(f"layout {layout.name!r} leaves out {', '.join(missing)}")
        return cls(spots, floor, need)

    # --- what it is ---

    def layout(self) -> Layout:
        return Layout(NAME, tuple(self.spots[c.id] for c in ALL_COLUMNS if c.id in self.spots), (self.floor,))

    def outline(self) -> list[tuple[float, float]]:
        """The blue floor's outline on the plate (world x, y)."""
        return layouts.floor_outline(self.floor)

    def carrying(self) -> list[str]:
        """The columns the blue floor would rest on."""
        return [c.column for c in layouts.supports(self.layout(), 1)]

    # --- moving a column ---

    def free(self, column: str, x: float, y: float) -> bool:
        """May `column` stand at (x, y): inside the building site, clear of every other column?"""
        r = column_spec(column).radius
        if math.hypot(x, y) + r > BASE.site_radius - EASE / 2:
            return False
        return all(math.hypot(x - o.x, y - o.y) >= r + column_spec(o.column).radius + layouts.COLUMN_GAP + EASE / 2
                   for name, o in self.spots.items() if name != column)

    def spot_for(self, column: str, x: float, y: float) -> tuple[float, float] | None:
        """The nearest place to (x, y) where `column` may stand, or None when there is none close by."""
        r = column_spec(column).radius
        limit = BASE.site_radius - r - EASE
        reach = math.hypot(x, y)
        if reach > limit:   # the pointer beyond the site: the edge of the site below it
            x, y = x * limit / reach, y * limit / reach
        slid = self._pushed_clear(column, x, y)
        if self.free(column, *slid) and math.hypot(slid[0] - x, slid[1] - y) <= SEARCH_STEP * 2:
            return slid
        here = self.spots[column]
        for ring in range(1, round(SEARCH_REACH / SEARCH_STEP) + 1):
            reach = ring * SEARCH_STEP
            count = max(12, round(2 * math.pi * reach / SEARCH_STEP))
            found = [(round(x + reach * math.cos(a), 3), round(y + reach * math.sin(a), 3))
                     for a in (2 * math.pi * i / count for i in range(count))]
            found = [p for p in found if self.free(column, *p)]
            if found:  # of the places this near, the one nearest where it stands now: no jumps
                return min(found, key=lambda p: math.hypot(p[0] - here.x, p[1] - here.y))
        return slid if self.free(column, *slid) else None

    def _pushed_clear(self, column: str, x: float, y: float) -> tuple[float, float]:
        """(x, y) pulled into the site and pushed out of the columns it would overlap (sliding along them)."""
        r = column_spec(column).radius
        for _attempt in range(12):
            limit = BASE.site_radius - r - EASE
            reach = math.hypot(x, y)
            if reach > limit:
                x, y = x * limit / reach, y * limit / reach
            pushed = False
            for name, other in self.spots.items():
                if name == column:
                    continue
                clear = r + column_spec(name).radius + layouts.COLUMN_GAP + EASE
                dx, dy = x - other.x, y - other.y
                apart = math.hypot(dx, dy)
                if apart < clear:
                    if apart < 1e-9:
                        dx, dy, apart = 1.0, 0.0, 1.0
                    x, y = other.x + dx / apart * clear, other.y + dy / apart * clear
                    pushed = True
            if not pushed:
                break
        return round(x, 3), round(y, 3)

    def move(self, column: str, x: float, y: float) -> bool:
        """Stand `column` at the nearest free place to (x, y); False when there is none (it stays)."""
        spot = self.spot_for(column, x, y)
        if spot is None:
            return False
        old = self.spots[column]
        self.spots[column] = ColumnSpot(column, 0, spot[0], spot[1], old.yaw)
        return True

    # --- moving the blue floor ---

    def on_floor(self, x: float, y: float) -> bool:
        """Is (x, y) on the plate inside the blue floor's outline?"""
        return geometry.contains(self.outline(), x, y)

    def move_floor(self, x: float, y: float) -> None:
        """Put the blue floor's middle at (x, y), kept over the building site (it may still
        reach past the plate: the "plate" check says so)."""
        reach = math.hypot(x, y)
        if reach > BASE.site_radius:
            x, y = x * BASE.site_radius / reach, y * BASE.site_radius / reach
        self.floor = replace(self.floor, x=round(x, 3), y=round(y, 3))

    def turn_floor(self, degrees: float) -> None:
        """Turn the blue floor about its middle (counter-clockwise seen from above)."""
        self.floor = replace(self.floor, yaw=round((self.floor.yaw + degrees) % 360.0, 3))

    # --- the pointer ---

    def pick(self, origin, direction, lifted: dict[str, float] | None = None) -> tuple[str, tuple] | None:
        """The column a ray (origin, direction: x, y, z) first hits, and where; None for none.
        The physics' own pick, on the columns standing where they are arranged, `lifted` by so
        many cm where a hand holds them."""
        if self._standing is None:
            self._standing = picking.StandingColumns(self.spots)
        spots = {name: (s.x, s.y, s.yaw, (lifted or {}).get(name, 0.0)) for name, s in self.spots.items()}
        hit = self._standing.pick(origin, direction, spots)
        return None if hit is None else (hit[0], tuple(hit[1]))

    # --- the checks ---

    def problems(self) -> list[Problem]:
        """Every check that fails, in the order of CHECKS (empty: the blue floor may be laid): the
        physics' layout check, with the number of columns the rules ask to carry the floor."""
        flaws = layouts.flaws(self.layout(), setup=True)

        def at_fault(check: layouts.Check) -> tuple[str, ...]:
            return tuple(c for f in flaws if f.check is check for c in f.columns)

        found = [Problem(check, at_fault(flaw)) for check, flaw in ((SetUpCheck.SITE, layouts.Check.SITE),
                                                                   (SetUpCheck.APART, layouts.Check.APART),
                                                                   (SetUpCheck.EDGE, layouts.Check.EDGE))
                 if any(f.check is flaw for f in flaws)]
        carrying = tuple(self.carrying())
        if len(carrying) < max(1, self.need):
            found.append(Problem(SetUpCheck.CARRIED, carrying))
        if any(f.check is layouts.Check.TIPS for f in flaws):
            found.append(Problem(SetUpCheck.STEADY, carrying))
        if any(f.check is layouts.Check.PLATE for f in flaws):
            found.append(Problem(SetUpCheck.PLATE))
        if not found:
            found = [Problem(SetUpCheck.OTHER, detail=f.sentence) for f in flaws]
        return found

    @property
    def valid(self) -> bool:
        return not self.problems()


# --- in words ---

def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def reason(problem: Problem, need: int = 3) -> str:
    """Why a check fails, and what to do about it, as the players read it."""
    columns = problem.columns
    if problem.check is SetUpCheck.SITE:
        return _sentence(_("{column} stands in the border ring, outside the building site.").format(
            column=column_words(columns[0])))
    if problem.check is SetUpCheck.APART:
        return _sentence(_("{column} and {other} stand too close together: leave a gap between them.").format(
            column=column_words(columns[0]), other=column_words(columns[1])))
    if problem.check is SetUpCheck.EDGE:
        return _sentence(_("{column} stands half under the edge of the blue floor: move it fully under the "
                           "floor or clear of it.").format(column=column_words(columns[0])))
    if problem.check is SetUpCheck.CARRIED:
        if not columns:
            return _("The blue floor would rest on no column: move some inside the blue outline.")
        return _("Only {count} columns would carry the blue floor; it needs at least {need}.").format(
            count=len(columns), need=need)
    if problem.check is SetUpCheck.STEADY:
        return _("The blue floor would tip: its weight is not well inside the columns that carry it. "
                 "Spread them out under it.")
    if problem.check is SetUpCheck.PLATE:
        return _("The blue floor would reach beyond the base plate.")
    return _("The villa cannot be built like this: {reason}.").format(reason=problem.detail)


def check_line(check: SetUpCheck, arrangement: Arrangement) -> str:
    """A line of the check list."""
    if check == SetUpCheck.CARRIED:   # a plain "carried" names it as well
        return _(CHECK_LINES[check]).format(count=len(arrangement.carrying()), need=arrangement.need)
    return _(CHECK_LINES[check])
