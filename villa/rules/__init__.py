"""The referee: every rule of Villa Paletti as a pure-Python state machine (no Panda3D here).

    state = new_game(GameSetup(PUBLISHER, ("Anna", "Ben", "Cleo", "Dario")))
    state = apply(state, SealRoll(Colour.RED))   # chance, with its result written down
    legal_actions(state)                          # what the player to move may do
    task(state), grabbable_columns(state)         # what now, and which columns the hand may take
    acting_player(state), giving_up(state)        # who acts, chance included; what giving up means now
    why_not_grabbable(state, column)              # the refusal (a `Rule` code), or None
    state = apply(state, ColumnPlaced(...))       # physics facts go in the same way
"""

from .actions import (Abort, Action, AssignColoursAtRandom, Challenge, ChooseColour, Decline, ForgoPenalty,
                      GiveUpFloor, Object, Pass, ProposeFloor, SealRoll, SetUpHigher, TakeColumn)
from .answers import (Because, EndReason, Placement, Task, acting_player, answer_for, end_reasons, floor_to_lay,
                      giving_up, grabbable_columns, is_question, mouse_changes_hands, passing_moves, placement, proof_columns,
                      seal_contested, task, turn_colours, why_not_grabbable)
from .engine import (apply, blamed_for_collapse, check_survey, expected_facts, is_chance_node, legal_actions, replay,
                     takeable_columns, whose_move)
from .eligibility import (can_propose, floor_can_be_laid, neutral_takeable, objector_columns_in_villa,
                          takeable)
from .errors import (DocumentError, GameOver, IllegalBuild, IllegalProposal, IllegalSetup, MalformedAction,
                     NotYourMove, Rule, RuleError)
from .facts import Collapse, CollapseCause, ColumnPlaced, ColumnTakenOut, FloorLaid, VillaSurvey
from .frozen import FrozenMap
from .pieces import ALL_COLUMNS, Colour, Column, ColumnKind
from .rulesets import PUBLISHER, RULE_SETS, Edition, FamilyMode, RuleSet, Scoring, family
from .serialize import (dumps, loads, moves_from_json, moves_to_json, ruleset_from_json, ruleset_to_json,
                        state_from_json, state_to_json)
from .setup import new_game
from .state import Ending, GameSetup, GameState, Result, Role, Seal, Step, Turn

__all__ = [
    "Abort", "Action", "AssignColoursAtRandom", "Challenge", "ChooseColour", "Decline", "ForgoPenalty", "GiveUpFloor",
    "Object", "Pass", "ProposeFloor", "SealRoll", "SetUpHigher", "TakeColumn",
    "apply", "blamed_for_collapse", "check_survey", "expected_facts", "is_chance_node", "legal_actions", "replay",
    "takeable_columns", "whose_move",
    "Because", "EndReason", "Placement", "Task", "acting_player", "answer_for", "end_reasons", "floor_to_lay",
    "giving_up", "grabbable_columns", "is_question", "mouse_changes_hands", "passing_moves", "placement", "proof_columns",
    "seal_contested", "task", "turn_colours", "why_not_grabbable",
    "can_propose", "floor_can_be_laid", "neutral_takeable", "objector_columns_in_villa", "takeable",
    "DocumentError", "GameOver", "IllegalBuild", "IllegalProposal", "IllegalSetup", "MalformedAction", "NotYourMove",
    "Rule", "RuleError",
    "Collapse", "CollapseCause", "ColumnPlaced", "ColumnTakenOut", "FloorLaid", "VillaSurvey",
    "ALL_COLUMNS", "Colour", "Column", "ColumnKind",
    "PUBLISHER", "RULE_SETS", "Edition", "FamilyMode", "RuleSet", "Scoring", "family",
    "dumps", "loads", "moves_from_json", "moves_to_json", "ruleset_from_json", "ruleset_to_json", "state_from_json",
    "state_to_json",
    "new_game",
    "Ending", "FrozenMap", "GameSetup", "GameState", "Result", "Role", "Seal", "Step", "Turn",
]
