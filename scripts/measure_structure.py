"""How the code is shaped, as JSON: the biggest class, the longest function, and how often the
rules' steps are named outside `villa/rules` (knowledge of the rules that leaked upward).

    python scripts/measure_structure.py

"Naming a rule step": an attribute `Step.<MEMBER>` of the rules' `Step` enum, or a string
literal equal to one of its values ("take out", "in hand" ...), in any module of `villa/`
outside `villa/rules`. Methods are the functions defined directly in a class body; a
function's length is its lines from `def` to its last line.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from villa.rules import Step  # noqa: E402  (after the path: the worktree's own villa)

STEP_MEMBERS = {s.name for s in Step}
STEP_VALUES = {s.value for s in Step}


def _modules():
    for path in sorted((ROOT / "villa").rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def measure() -> dict:
    biggest = ("", 0)
    longest = ("", 0)
    step_names: list[str] = []
    for path, tree in _modules():
        outside_rules = "rules" not in path.relative_to(ROOT / "villa").parts[:1]
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in node.body)
                if methods > biggest[1]:
                    biggest = (f"{_where(path, node)} {node.name}", methods)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > longest[1]:
                    longest = (f"{_where(path, node)} {node.name}", length)
            if not outside_rules:
                continue
            if isinstance(node, ast.Attribute) and node.attr in STEP_MEMBERS and (
                    (isinstance(node.value, ast.Name) and node.value.id == "Step")
                    or (isinstance(node.value, ast.Attribute) and node.value.attr == "Step")):
                step_names.append(_where(path, node))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in STEP_VALUES:
                step_names.append(_where(path, node))
    return {
        "biggest_class": biggest[0], "biggest_class_methods": biggest[1],
        "longest_function": longest[0], "longest_function_lines": longest[1],
        "rule_step_named_outside_rules": len(step_names),
        "rule_step_places": step_names,
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
