"""The house's layers, read from every module's imports with `ast`: rules <- physics <- match <- online
<- presentation <- app, never back; no import circle between files; the match and the online game need no
window; and no import of the game's own modules hidden inside a function."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "villa"
LAYERS = ("rules", "physics", "match", "online", "presentation", "app")   # from the ground up


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The game's own modules an import statement names (a package's submodule when one is named)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] == "villa"]
    base = node.module or ""
    if node.level:
        here = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        here = here[:len(here) - (node.level - 1)]
        base = ".".join(here + ([base] if base else []))
    if base.split(".")[0] != "villa":
        return []
    found = []
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        found.append(submodule if submodule in MODULES else base)
    return found


@cache
def _imports(module: str) -> tuple[set[str], list[tuple[int, str]], list[tuple[int, str]]]:
    """(the game's modules it imports at its top, those imported inside functions, third-party imports anywhere)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    top: set[str] = set()
    hidden: list[tuple[int, str]] = []
    foreign: list[tuple[int, str]] = []
    functions = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for n in ast.walk(f)}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        own = _resolve(module, node)
        if id(node) in functions:
            hidden += [(node.lineno, name) for name in own]
        else:
            top |= set(own)
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        foreign += [(node.lineno, name) for name in names
                    if name and not name.startswith("villa") and not getattr(node, "level", 0)]
    return top, hidden, foreign


@cache
def _graph() -> dict[str, set[str]]:
    """Every module's imports of the game's own at its top (read when a test asks, not as the suite gathers)."""
    return {module: _imports(module)[0] for module in MODULES}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return None


def test_every_layer_folder_exists_and_holds_the_game():
    assert {_layer(m) for m in MODULES} - {None} == set(range(len(LAYERS)))


def test_no_import_runs_back_up_a_layer():
    upward = [f"{module} ({LAYERS[_layer(module)]}) imports {target} ({LAYERS[_layer(target)]})"
              for module, targets in _graph().items() for target in targets
              if _layer(module) is not None and _layer(target) is not None and _layer(target) > _layer(module)]
    assert upward == []


def test_no_import_circle_between_files():
    circles = []
    state: dict[str, int] = {}   # 1: on the path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(_graph().get(module, ())):
            if target == module or target not in MODULES:
                continue
            if state.get(target) == 1:
                circles.append(" -> ".join(path[path.index(target):] + [target]))
            elif state.get(target) is None:
                visit(target, path + [target])
        state[module] = 2

    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_no_import_of_the_game_is_hidden_inside_a_function():
    hidden = [f"{module}:{line} imports {name}" for module in MODULES for line, name in _imports(module)[1]]
    assert hidden == []


def test_the_match_needs_no_window():
    """The game in play runs headless: nothing of Panda3D's `direct` (ShowBase, GUI, tasks) nor of the screens."""
    for module in (m for m in MODULES if _layer(m) == LAYERS.index("match")):
        _top, _hidden, foreign = _imports(module)
        assert not [name for _line, name in foreign if name.split(".")[0] == "direct"], module
        assert not [t for t in _graph()[module] if _layer(t) is not None and _layer(t) > LAYERS.index("match")], module


def test_the_online_game_opens_no_window():
    """The server and the players' repositories run headless: no ShowBase, no GUI, nothing of the screens."""
    for module in (m for m in MODULES if _layer(m) == LAYERS.index("online")):
        _top, _hidden, foreign = _imports(module)
        assert not [name for _line, name in foreign
                    if name.startswith(("direct.showbase.ShowBase", "direct.gui", "direct.filter"))], module


def test_the_rules_need_nothing_but_python():
    for module in (m for m in MODULES if _layer(m) == LAYERS.index("rules")):
        _top, _hidden, foreign = _imports(module)
        assert not [name for _line, name in foreign if name.split(".")[0] in ("panda3d", "direct", "numpy")], module
