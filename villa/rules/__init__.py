"""The referee: every rule of Villa Paletti as a pure-Python state machine (no Panda3D here).

    state = new_game(GameSetup(PUBLISHER, ("Anna", "Ben", "Cleo", "Dario")))
    state = apply(state, SealRoll(Colour.RED))   # chance, with its result written down
    legal_actions(state)                          # what the player to move may do
    state = apply(state, ColumnPlaced(...))       # physics facts go in the same way
"""

from .actions import (Abort, Action, AssignColoursAtRandom, Challenge, ChooseColour, Decline, ForgoPenalty,
                      GiveUpFloor, Object, Pass, ProposeFloor, SealRoll, SetUpHigher, TakeColumn)
from .engine import (apply, blamed_for_collapse, check_survey, expected_facts, is_chance_node, legal_actions, replay,
                     takeable_columns, whose_move)
from .errors import (DocumentError, GameOver, IllegalBuild, IllegalProposal, IllegalSetup, MalformedAction,
                     NotYourMove, Rule, RuleError)
from .facts import Collapse, CollapseCause, ColumnPlaced, ColumnTakenOut, FloorLaid, VillaSurvey
from .frozen import FrozenMap
from .pieces import ALL_COLUMNS, Colour, Column, ColumnKind
from .rulesets import PUBLISHER, RULE_SETS, Edition, FamilyMode, RuleSet, Scoring, family
from .serialize import dumps, loads, state_from_json, state_to_json
from .setup import new_game
from .state import GameSetup, GameState, Result, Role, Seal, Step, Turn

__all__ = [
    "Abort", "Action", "AssignColoursAtRandom", "Challenge", "ChooseColour", "Decline", "ForgoPenalty", "GiveUpFloor",
    "Object", "Pass", "ProposeFloor", "SealRoll", "SetUpHigher", "TakeColumn",
    "apply", "blamed_for_collapse", "check_survey", "expected_facts", "is_chance_node", "legal_actions", "replay",
    "takeable_columns", "whose_move",
    "DocumentError", "GameOver", "IllegalBuild", "IllegalProposal", "IllegalSetup", "MalformedAction", "NotYourMove",
    "Rule", "RuleError",
    "Collapse", "CollapseCause", "ColumnPlaced", "ColumnTakenOut", "FloorLaid", "VillaSurvey",
    "ALL_COLUMNS", "Colour", "Column", "ColumnKind",
    "PUBLISHER", "RULE_SETS", "Edition", "FamilyMode", "RuleSet", "Scoring", "family",
    "dumps", "loads", "state_from_json", "state_to_json",
    "new_game",
    "FrozenMap", "GameSetup", "GameState", "Result", "Role", "Seal", "Step", "Turn",
]
