"""Starting a game: the colour roll and choices, or a seeded random deal, and the first player.

Publisher's rules: seat 0 (the youngest) rolls the seal and takes the colour shown, the
others choose in turn clockwise; the player left with the last colour starts. Two players
take two colours each (picks go 0, 1, 0, 1: seat 1 is left with the last and starts).
Three players: the colour nobody picked is neutral, and the last to choose starts.
Family edition, assigned colours: each player chooses one colour in seat order; seat 0 starts.
House variant "everyone rolls" (the later English edition 001): every player rolls in pick
order instead of choosing, a colour already taken is rolled again, and the last to roll
starts (the same seat as above).
"""

from __future__ import annotations

import random
from dataclasses import replace

from .actions import AssignColoursAtRandom, ChooseColour, SealRoll, SetUpHigher
from .errors import Rule
from .pieces import COLUMNS_BY_ID, TOP_FLOOR_LEVEL, Colour
from .rulesets import FamilyMode
from .state import GameSetup, GameState, Seal, Step, Turn
from .turns import begin_turn, expect, not_now


def pick_order(setup: GameSetup) -> tuple[int, ...]:
    """The seats in the order they take colours."""
    n = len(setup.players)
    if setup.ruleset.family:
        return tuple(range(n)) if setup.ruleset.mode is FamilyMode.ASSIGNED else ()
    return (0, 1, 0, 1) if n == 2 else tuple(range(n))


def starting_player(setup: GameSetup) -> int:
    order = pick_order(setup)
    return order[-1] if order and not setup.ruleset.family else 0


def colours_taken(state: GameState) -> tuple[Colour, ...]:
    return tuple(c for cs in state.colours for c in cs)


def colours_left(state: GameState) -> tuple[Colour, ...]:
    taken = colours_taken(state)
    return tuple(c for c in Colour if c not in taken)


def new_game(setup: GameSetup) -> GameState:
    """A fresh game: all twenty columns on the base plate, the blue floor on them."""
    n = len(setup.players)
    order = pick_order(setup)
    if order:
        step = Step.COLOUR_CHOICE if setup.ruleset.family else Step.COLOUR_ROLL
        turn = Turn(player=order[0], step=step, actor=order[0])
    else:
        turn = Turn(player=0, step=Step.START, actor=0)  # replaced by the turn's proper start below
    state = GameState(setup=setup, turn=turn, colours=tuple(() for _ in range(n)),
                      floors_laid_on={1: setup.blue_floor_supports},
                      scores=(0,) * n if setup.ruleset.family else ())
    # The family's free modes need no colours at all: the first turn starts at once.
    return state if order else begin_turn(state, 0)


def seeded_deal(setup: GameSetup, seed: int) -> tuple[Colour, ...]:
    """The colours a seeded random deal gives, in pick order (same seed, same deal)."""
    colours = list(Colour)
    random.Random(seed).shuffle(colours)
    return tuple(colours[: len(pick_order(setup))])


# --- the colour actions --------------------------------------------------------

def _give_colour(state: GameState, colour: Colour) -> GameState:
    player = state.turn.actor
    colours = list(state.colours)
    colours[player] = colours[player] + (colour,)
    state = replace(state, colours=tuple(colours))
    order = pick_order(state.setup)
    done = sum(len(cs) for cs in state.colours)
    left = colours_left(state)
    if done < len(order) and len(order) - done == 1 and len(left) == 1:
        # The last player takes the last colour: no choice (nor roll) left, so no action needed.
        return _give_colour(replace(state, turn=Turn(order[done], Step.COLOUR_CHOICE, order[done])), left[0])
    if done < len(order):
        step = Step.COLOUR_ROLL if state.ruleset.everyone_rolls else Step.COLOUR_CHOICE
        return replace(state, turn=Turn(order[done], step, order[done]))
    neutral = left[0] if state.n == 3 and not state.ruleset.family else None
    return begin_turn(replace(state, neutral=neutral), starting_player(state.setup))


def on_colour_roll(state: GameState, action: SealRoll) -> GameState:
    expect(state, action, Step.COLOUR_ROLL)
    if action.colour is None:
        raise Rule.COLOUR_ROLL.refuse()
    if action.colour not in colours_left(state):
        if state.ruleset.everyone_rolls:
            return state  # 001: a colour already taken is rolled again (the roll stays in the log)
        raise Rule.COLOUR_TAKEN.refuse(colour=action.colour.value)
    return _give_colour(state, action.colour)


def on_choose_colour(state: GameState, action: ChooseColour) -> GameState:
    expect(state, action, Step.COLOUR_CHOICE)
    if action.colour not in colours_left(state):
        raise Rule.COLOUR_TAKEN.refuse(colour=action.colour.value)
    return _give_colour(state, action.colour)


def on_random_colours(state: GameState, action: AssignColoursAtRandom) -> GameState:
    expect(state, action, Step.COLOUR_ROLL, Step.COLOUR_CHOICE)
    if any(state.colours):
        raise Rule.COLOUR_DEAL.refuse()
    for colour in seeded_deal(state.setup, action.seed):
        if state.over or state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
            break
        state = _give_colour(state, colour)
    return state


# --- a villa set up higher -------------------------------------------------------

def _no_move_yet(state: GameState) -> bool:
    """Only colours have been settled so far: the first turn has not begun to play."""
    if state.turn.step not in (Step.START, Step.FAMILY_ROLL) or state.turn.neutral_done:
        return False
    colour_rolls = not state.ruleset.family  # the family's rolls are the turns' own
    return all(isinstance(a, (ChooseColour, AssignColoursAtRandom)) or (colour_rolls and isinstance(a, SealRoll))
               for a in state.log)


def on_set_up_higher(state: GameState, action: SetUpHigher) -> GameState:
    """A villa already built higher replaces the one built at the start; the first turn begins
    again on it. Nobody holds the seal yet: the first own column set on its top floor takes it."""
    if state.turn.step in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
        raise not_now(state, action)
    if not _no_move_yet(state):
        raise Rule.SET_UP_TOO_LATE.refuse()
    levels: dict[str, int] = {}
    for c, lv in action.levels:
        if c not in COLUMNS_BY_ID:
            raise Rule.NO_SUCH_COLUMN.refuse(column=c)
        if c in levels:
            raise Rule.SET_UP_TWICE.refuse(column=c)
        levels[c] = lv
    floors = [lv for lv, _ in action.floor_supports]
    top = max(floors, default=0)
    if sorted(floors) != list(range(1, top + 1)) or not 1 <= top <= TOP_FLOOR_LEVEL:
        raise Rule.SET_UP_FLOORS.refuse(floors=floors)
    for c, lv in levels.items():
        if not 0 <= lv <= top:
            raise Rule.SET_UP_LEVEL.refuse(column=c, level=lv, top=top)
    for floor, under in action.floor_supports:
        for c in under:
            if c not in COLUMNS_BY_ID:
                raise Rule.NO_SUCH_COLUMN.refuse(column=c)
            if levels.get(c) != floor - 1:
                raise Rule.SET_UP_SUPPORT.refuse(floor=floor, column=c, level=levels.get(c))
        need = state.ruleset.min_support(floor)
        if len(set(under)) < need:
            raise Rule.FLOOR_SUPPORT.refuse(level=floor, need=need, have=len(set(under)))
    state = replace(state, levels={c: levels.get(c) for c in COLUMNS_BY_ID},
                    out=frozenset(COLUMNS_BY_ID) - set(levels), blocked=frozenset(), top_level=top,
                    floors_laid_on={floor: frozenset(under) for floor, under in action.floor_supports},
                    seal=Seal(), quiet_turns=0)
    return begin_turn(state, state.turn.player)
