"""The Master Builder Seal, and the winner it decides.

From the green floor on, the first player to set one of their own columns on a newly laid
floor takes the seal; after that it passes only to a player whose points on the top level
are strictly higher than the holder's. Whoever takes it shows the previous holder's colour,
which decides the winner when the holder brings the villa down.
"""

from __future__ import annotations

from dataclasses import replace

from .actions import SetUpHigher
from .pieces import GREEN_LEVEL
from .state import GameState, Seal


def _take(seal: Seal, player: int, level: int) -> Seal:
    if seal.holder == player:
        return Seal(player, seal.shows, level)  # keeping it changes nothing it shows
    return Seal(player, seal.holder, level)


def after_placement(state: GameState, player: int) -> GameState:
    """`player` has just set one of their own columns on the top level."""
    top = state.top_level
    if top < GREEN_LEVEL:
        return state
    seal = state.seal
    if seal.level != top:
        # The first own column on a new floor takes the seal, whatever the points.
        return replace(state, seal=_take(seal, player, top))
    if seal.holder != player and state.points(player) > state.points(seal.holder):
        return replace(state, seal=_take(seal, player, top))
    return state


def after_loss(state: GameState) -> GameState:
    """A column left the top level (a failed objection's penalty): someone may now lead."""
    seal = state.seal
    if seal.holder is None or seal.level != state.top_level:
        return state
    held = state.points(seal.holder)
    best = max(state.points(p) for p in range(state.n))
    if best <= held:
        return state
    # Several may now lead: the first of them clockwise from the holder takes it.
    for step in range(1, state.n):
        p = (seal.holder + step) % state.n
        if state.points(p) == best:
            return replace(state, seal=_take(seal, p, state.top_level))
    return state


def holder_is_consistent(state: GameState) -> bool:
    """Nobody out-scores the holder on the floor where the seal was claimed, and before any
    own column stands on a new floor nobody has points there."""
    seal = state.seal
    if state.ruleset.family:
        return seal.holder is None  # the family edition plays without the seal
    points = [state.points(p) for p in range(state.n)] if all(state.colours) else []
    if not points:
        return seal.holder is None
    if _set_up_top(state) == state.top_level:
        # The points standing on a floor set up higher were set there by nobody: the first own
        # column built there takes the seal, whatever they are, and it passes on from there.
        return seal.holder is None or seal.level == state.top_level
    if seal.level != state.top_level:
        return max(points) == 0 or state.top_level < GREEN_LEVEL
    return seal.holder is not None and points[seal.holder] == max(points)


def _set_up_top(state: GameState) -> int | None:
    """The top floor of a villa set up higher, if the game was started on one."""
    set_up = [a for a in state.log if isinstance(a, SetUpHigher)]
    return max((lv for lv, _ in set_up[-1].floor_supports), default=None) if set_up else None


def winner_after_collapse(state: GameState, culprit: int) -> tuple[int | None, str]:
    name = state.colour_name
    holder, shows = state.seal.holder, state.seal.shows
    down = f"{name(culprit)} brought the villa down"
    if holder is None:
        return None, f"{down} before anyone held the Master Builder Seal: there is no Master Builder"
    if holder != culprit:
        return holder, f"{down}; {name(holder)} holds the Master Builder Seal and wins"
    if shows is None:
        return None, (f"{down} while holding the Master Builder Seal, and the seal shows no earlier "
                      f"holder: there is no Master Builder")
    return shows, (f"{down} while holding the Master Builder Seal; the seal shows {name(shows)}, "
                   f"who wins")


def winner_when_stalled(state: GameState) -> tuple[int | None, str]:
    holder = state.seal.holder
    if holder is None:
        return None, "nobody can build any further and nobody holds the Master Builder Seal: no Master Builder"
    return holder, f"nobody can build any further; {state.colour_name(holder)} holds the Master Builder Seal and wins"
