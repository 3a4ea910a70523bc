"""What a screen reads of the villa and of the piece in hand is listed in one place (`villa.match.face`: the members of
`VillaInPlay`, `ColumnInHand` and `FloorInHand`, and the `MEASURES` taken of them), and the conformance suite compares
every one of them on the hot seat and online (`tests.conformance.screen.READS`). Here `villa/presentation` is read
for what it reads of them, so a read the list lacks (and the suite would not compare) fails."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from villa.match import face
from tests.conformance import screen

PRESENTATION = Path(__file__).resolve().parents[2] / "villa" / "presentation"
OF = {"villa": "villa", "hand": "hand"}      # an attribute of anything by these names is the villa, the piece in hand
NAMED = {"villa": {"villa"}, "hand": {"hand", "pull", "lay"}}   # names that hold them, found below besides
HARMLESS = {"isinstance"}                    # builtins given them that read nothing of them


def members(protocol) -> set[str]:
    return {name for klass in protocol.__mro__ if klass is not object and klass.__module__ == face.__name__
            for name in (*klass.__dict__.get("__annotations__", {}), *klass.__dict__) if not name.startswith("_")}


def listed() -> dict[str, set[str]]:
    return {"villa": members(face.VillaInPlay), "hand": members(face.ColumnInHand) | members(face.FloorInHand)}


@functools.cache
def read() -> "Reads":
    return Reads()


class Reads:
    """Every attribute read of the villa or the piece in hand in `villa/presentation`, and every function they are
    given to (where each is, for the message)."""

    def __init__(self) -> None:
        self.trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(PRESENTATION.rglob("*.py"))}
        self.nodes = {path: list(ast.walk(tree)) for path, tree in self.trees.items()}
        self.defined: dict[str, list] = {}
        for nodes in self.nodes.values():
            for node in nodes:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.defined.setdefault(node.name, []).append(node)
                elif isinstance(node, ast.ClassDef):      # made by its class's name: its __init__ is given them
                    self.defined.setdefault(node.name, []).extend(
                        item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__")
        self.binding = [node for nodes in self.nodes.values() for node in nodes
                        if isinstance(node, (ast.Assign, ast.Call))]
        self.names = {kind: set(names) for kind, names in NAMED.items()}
        while self._follow():
            pass
        self.reads: dict[tuple[str, str], list[str]] = {}
        self.given: dict[tuple[str, str], list[str]] = {}
        for path, nodes in self.nodes.items():
            name = str(path.relative_to(PRESENTATION.parents[1]))
            for node in nodes:
                where = f"{name}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Attribute) and (kind := self.kind(node.value)):
                    self.reads.setdefault((kind, node.attr), []).append(where)
                elif isinstance(node, ast.Call):
                    for argument in (*node.args, *(k.value for k in node.keywords)):
                        if kind := self.kind(argument):
                            self.given.setdefault((kind, _name(node.func)), []).append(where)

    def kind(self, node) -> str | None:
        if isinstance(node, ast.Attribute) and node.attr in OF:
            return OF[node.attr]
        if isinstance(node, ast.Name):
            return next((kind for kind, names in self.names.items() if node.id in names), None)
        return None

    def _follow(self) -> bool:
        """Names bound to the villa or the hand (`x = match.hand`, `a, b = c, match.villa`), and the parameters of the
        presentation's own functions they are given to, hold them too. True: a name was found."""
        found = False
        for node in self.binding:
            pairs = []
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
                if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                    pairs = list(zip(target.elts, value.elts))
                else:
                    pairs = [(target, value)]
            elif isinstance(node, ast.Call):
                for called in self._fitting(node):      # a method's name may be defined by several classes
                    parameters = [a.arg for a in called.args.args if a.arg != "self"]
                    pairs += [(ast.Name(parameter), argument) for parameter, argument in zip(parameters, node.args)]
                    pairs += [(ast.Name(k.arg), k.value) for k in node.keywords if k.arg]
            for target, value in pairs:
                kind = self.kind(value)
                if kind and isinstance(target, ast.Name) and target.id not in self.names[kind]:
                    self.names[kind].add(target.id)
                    found = True
        return found


    def _fitting(self, call: ast.Call) -> list:
        """The presentation's functions by the called name that take the call's arguments."""
        fitting = []
        for called in self.defined.get(_name(call.func), ()):
            parameters = [a.arg for a in (*called.args.posonlyargs, *called.args.args) if a.arg != "self"]
            keywords = {*parameters, *(a.arg for a in called.args.kwonlyargs)}
            if (len(call.args) <= len(parameters) or called.args.vararg) and all(
                    k.arg in keywords or called.args.kwarg for k in call.keywords if k.arg):
                fitting.append(called)
        return fitting


def _name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def test_every_read_of_the_villa_and_the_hand_on_screen_is_listed_on_the_face():
    reads, known = read(), listed()
    unlisted = {f"{kind}.{attr}": where for (kind, attr), where in reads.reads.items() if attr not in known[kind]}
    assert not unlisted, f"read on screen, not on the face (villa.match.face) nor compared: {unlisted}"
    measures = {measure.__name__ for measure in face.MEASURES}
    own = set(reads.defined) | HARMLESS
    given = {f"{name}({kind})": where for (kind, name), where in reads.given.items()
             if name not in own and name not in measures}
    assert not given, f"the villa or the hand measured on screen by what face.MEASURES lacks: {given}"


def test_the_reads_found_are_the_screen_s_own():
    """The reading is not blind: the pick, the poses, the tooltip's hand and the builder's eye's statics are found."""
    reads = read()
    assert {("villa", "pick"), ("villa", "poses"), ("hand", "surface_below"), ("hand", "columns_under")} <= set(
        reads.reads)
    assert ("villa", "resting") in reads.given and {"pull", "lay"} <= reads.names["hand"]


def test_the_conformance_suite_compares_every_read_on_the_face():
    known = listed()
    compared = {name for name in screen.READS if not name.startswith("game.")}    # the face's own, besides
    wanted = {f"villa.{name}" for name in known["villa"]} | {f"hand.{name}" for name in known["hand"]} | {
        f"measure.{measure.__name__}" for measure in face.MEASURES}
    assert compared == wanted, f"compared but not on the face: {compared - wanted}; not compared: {wanted - compared}"
