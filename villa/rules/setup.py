"""Starting a game: the colour roll and choices, or a seeded random deal, and the first player.

Publisher's rules: seat 0 (the youngest) rolls the seal and takes the colour shown, the
others choose in turn clockwise; the player left with the last colour starts. Two players
take two colours each (picks go 0, 1, 0, 1: seat 1 is left with the last and starts).
Three players: the colour nobody picked is neutral, and the last to choose starts.
Family edition, assigned colours: each player chooses one colour in seat order; seat 0 starts.
"""

from __future__ import annotations

import random
from dataclasses import replace

from .actions import AssignColoursAtRandom, ChooseColour, SealRoll
from .errors import Rule
from .pieces import Colour
from .rulesets import FamilyMode
from .state import GameSetup, GameState, Step, Turn
from .turns import begin_turn, expect


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
                      floor_supports={1: setup.blue_floor_supports},
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
        # The last player takes the last colour: no choice left, so no action needed.
        return _give_colour(replace(state, turn=Turn(order[done], Step.COLOUR_CHOICE, order[done])), left[0])
    if done < len(order):
        return replace(state, turn=Turn(order[done], Step.COLOUR_CHOICE, order[done]))
    neutral = left[0] if state.n == 3 and not state.ruleset.family else None
    return begin_turn(replace(state, neutral=neutral), starting_player(state.setup))


def on_colour_roll(state: GameState, action: SealRoll) -> GameState:
    expect(state, action, Step.COLOUR_ROLL)
    if action.colour is None:
        raise Rule.COLOUR_ROLL.refuse()
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
