"""What the interface relies on: no Panda3D, rule sets as data, whose move, surveys, blame."""

import subprocess
import sys

from villa.rules import (PUBLISHER, RULE_SETS, ChooseColour, Collapse, CollapseCause, ColumnPlaced, FamilyMode,
                         GameSetup, ProposeFloor, Scoring, SealRoll, TakeColumn, VillaSurvey, apply,
                         blamed_for_collapse, check_survey, family, legal_actions, new_game, whose_move)
from villa.rules.facts import fact_from_json, fact_to_json
from villa.rules.state import Step

from .helpers import BLUE, GREEN, RED, YELLOW, build, four_players, position, turn_of


def test_the_rules_never_import_panda3d():
    code = "import sys, villa.rules, villa.rules.engine, villa.rules.serialize; print('panda3d' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_rule_sets_are_data_for_a_menu():
    assert RULE_SETS["publisher"] == PUBLISHER
    assert {rs.edition.value for rs in RULE_SETS.values()} == {"publisher", "family"}
    assert sum(rs.family for rs in RULE_SETS.values()) == 6  # 3 modes x 2 scorings
    assert all(rs.summary for rs in RULE_SETS.values())
    five = family(FamilyMode.RANDOM, Scoring.TOURNAMENT, rounds=5)
    assert five.rounds == 5 and "5 rounds" in five.summary


def test_a_gui_drives_a_whole_turn_with_facts_from_json():
    state = new_game(GameSetup(PUBLISHER, ("A", "B", "C", "D")))
    assert whose_move(state) is None  # chance: the seal is rolled
    state = apply(state, SealRoll(RED))
    assert whose_move(state) == 1
    state = apply(state, ChooseColour(BLUE))
    state = apply(state, ChooseColour(GREEN))
    assert whose_move(state) == 3 and state.colours[3] == (YELLOW,)
    assert TakeColumn("yellow-thick") in legal_actions(state)
    state = apply(state, TakeColumn("yellow-thick"))  # the mouse grabbed it
    assert state.turn.step is Step.IN_HAND and blamed_for_collapse(state) == 3
    fact = fact_from_json(fact_to_json(ColumnPlaced("yellow-thick", 1, True)))  # from the physics layer
    state = apply(state, fact)
    assert state.levels["yellow-thick"] == 1 and whose_move(state) == 0


def test_blame_follows_the_action_under_way():
    state = position(four_players(), top=2, blue_thin_1=2, red_thin_1=2, yellow_thin_1=2)
    state = apply(turn_of(state, 0), ProposeFloor())
    assert whose_move(state) == 1 and blamed_for_collapse(state) == 0  # being asked is no action
    assert blamed_for_collapse(apply(state, Collapse(0.1, CollapseCause.FLOOR_TILTED, "floor-2"))) is None


def test_a_survey_that_agrees_and_one_that_does_not():
    state = build(four_players(), "green-thick")
    agree = VillaSurvey(dict(state.levels), {1: frozenset()}, top_level=1)
    assert check_survey(state, agree) == []
    moved = dict(state.levels, **{"red-hex": 1})
    assert check_survey(state, VillaSurvey(moved, top_level=1)) == ["red-hex: rules say level 0, physics says 1"]


def test_the_rules_modules_import_each_other_in_one_direction_only():
    """No import circle, and none dodged by an import inside a function."""
    import ast
    from pathlib import Path

    import villa.rules

    folder = Path(villa.rules.__file__).parent
    graph = {}
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        top = set(tree.body)
        graph[path.stem] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert node in top, f"{path.name}:{node.lineno} imports inside a function"
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                graph[path.stem] |= {node.module} if node.module else {a.name for a in node.names}
    done, path_ = set(), []

    def visit(module):
        assert module not in path_, " -> ".join(path_ + [module])
        if module in done or module not in graph:
            return
        path_.append(module)
        for imported in graph[module]:
            visit(imported)
        path_.pop()
        done.add(module)

    for module in graph:
        if module != "__init__":
            visit(module)
