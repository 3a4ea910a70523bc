"""How the code is shaped, as JSON: the biggest class, the longest function, how often the rules' steps are
named outside `villa/rules` (knowledge of the rules that leaked upward), and with `--hops` the way a press on
a column travels to the villa, in the hot seat and online.

    python scripts/measure_structure.py            # the shape, read from the source
    python scripts/measure_structure.py --hops     # and the press's way, traced in a real window (Xvfb if need be)

"Naming a rule step": an attribute `Step.<MEMBER>` of the rules' `Step` enum, or a string literal equal to
one of its values ("take out", "in hand" ...), in any module of `villa/` outside `villa/rules`. The literal
counts whatever it names (a button called "start" too); `rule_step_meant` counts only the places where a step is
meant: the enum's members, and literals compared with something or given to `Step(...)`. Methods are the
functions defined directly in a class body; a function's length is its lines from `def` to its last line.

"Hops": the calls Python makes (`sys.setprofile`) from the game screen's press handler (`GameScreen.press`) to
the physics call that takes the column in hand (`Villa.grab`), counted as the frames between the two; "files":
the source files those frames are in. Online the way is cut by the wire: the window's chain from the press to
the message queued on its connection (`Link.send`), and the server's from the message read off the socket
(`Door._read`) to the villa. The same way but for the wire: online ∖ wire = hot seat.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from villa.rules import Step  # noqa: E402  (after the path: the worktree's own villa)

STEP_MEMBERS = {s.name for s in Step}
STEP_VALUES = {s.value for s in Step}
PRESS = ("villa/presentation/game.py", "GameScreen.press")
GRAB = ("villa/physics/world.py", "Villa.grab")
SENT = ("villa/online/wire/link.py", "Link.send")
READ = ("villa/online/wire/door.py", "Door._read")


def _modules():
    for path in sorted((ROOT / "villa").rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def measure() -> dict:
    biggest = ("", 0)
    longest = ("", 0)
    classes: list[tuple[int, str]] = []
    step_names: list[str] = []
    meant: list[str] = []
    for path, tree in _modules():
        compared = _compared_literals(tree)
        outside_rules = "rules" not in path.relative_to(ROOT / "villa").parts[:1]
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in node.body)
                classes.append((methods, f"{_where(path, node)} {node.name}"))
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
                meant.append(_where(path, node))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in STEP_VALUES:
                step_names.append(_where(path, node))
                if id(node) in compared:
                    meant.append(_where(path, node))
    layers = {layer: sum(1 for place in step_names if place.startswith(f"villa/{layer}/"))
              for layer in ("match", "online", "presentation", "app")}
    return {
        "biggest_class": biggest[0], "biggest_class_methods": biggest[1],
        "classes_over_30_methods": [f"{where} ({n})" for n, where in sorted(classes, reverse=True) if n > 30],
        "longest_function": longest[0], "longest_function_lines": longest[1],
        "rule_step_named_outside_rules": len(step_names),
        "rule_step_named_by_layer": layers,
        "rule_step_meant_outside_rules": len(meant),
        "rule_step_meant_by_layer": {layer: sum(1 for place in meant if place.startswith(f"villa/{layer}/"))
                                     for layer in layers},
        "rule_step_places": step_names,
    }


def _compared_literals(tree: ast.AST) -> set[int]:
    """The string literals of a module that are compared with something (`==`, `in` ...) or given to `Step(...)`."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                parts = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else (side,)
                found |= {id(part) for part in parts if isinstance(part, ast.Constant)}
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Step":
            found |= {id(arg) for arg in node.args if isinstance(arg, ast.Constant)}
    return found


# --- a press's way to the villa ----------------------------------------------------------------------------------

class Chain:
    """The Python calls from `start` to `target` (each a (file, qualified name) pair), caught the first time
    `target` is called while this is entered: the frames from the innermost `start` on the way to it."""

    def __init__(self, start: tuple[str, str], target: tuple[str, str]) -> None:
        self.start, self.target = start, target
        self.frames: list[tuple[str, str]] | None = None

    def __enter__(self) -> "Chain":
        sys.setprofile(self._event)
        return self

    def __exit__(self, *_exc) -> None:
        sys.setprofile(None)

    def _event(self, frame, event, _arg) -> None:
        if event != "call" or self.frames is not None or _named(frame) != self.target:
            return
        stack = []
        while frame is not None:
            stack.append(_named(frame))
            frame = frame.f_back
        stack.reverse()
        starts = [n for n, named in enumerate(stack) if named == self.start]
        self.frames = stack[starts[-1]:] if starts else []

    def figures(self) -> dict:
        frames = self.frames or []
        return {"hops": max(len(frames) - 1, 0), "files": len({path for path, _name in frames}),
                "way": [f"{path} {name}" for path, name in frames]}


def _named(frame) -> tuple[str, str]:
    path = Path(frame.f_code.co_filename)
    try:
        shown = path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        shown = "/".join(path.parts[-3:])     # a library's file: its package and module
    return shown, frame.f_code.co_qualname


def hops() -> dict:
    """A press on a column in a real game window, traced at the hot seat and online (over loopback)."""
    from villa.presentation import xvfb
    from villa.presentation.stage import WindowOptions, close_window, open_window, stage
    import os
    if not os.environ.get("DISPLAY"):
        screen = xvfb.VirtualScreen(640, 360)
        os.environ["DISPLAY"] = screen.display
    open_window(WindowOptions(width=640, height=360, sync_video=False, fixed_frame_rate=60, sound=False))
    try:
        return {"hot_seat": _hot_seat(stage), **_online(stage)}
    finally:
        close_window()


def _setup():
    from villa.match import MatchSetup, Seat
    from villa.physics.layouts import preset
    return MatchSetup((Seat("Anna"), Seat("Ben")), preset("free corners"), seed=4, deal_colours=True)


def _on_a_column(stage, screen) -> tuple[float, float]:
    """The pointer (-1..1 each way) over the middle of a column the rules let the hand take."""
    from panda3d.core import Point2
    from villa import rules
    villa = screen.match.villa
    for column in rules.grabbable_columns(screen.match.state):
        film = Point2()
        lens = stage.cam.node().getLens()
        if lens.project(stage.cam.getRelativePoint(stage.render, villa.nodes[column].getPos()), film):
            hit = screen.pick((film.x, film.y))
            if hit is not None and hit[0] == column:
                return film.x, film.y
    raise RuntimeError("no column to take is in view")


def _hot_seat(stage) -> dict:
    from villa.match import Match
    from villa.presentation.game import GameScreen
    screen = GameScreen(stage, Match(_setup()))
    try:
        for _ in range(3):
            stage.base.taskMgr.step()
        with Chain(PRESS, GRAB) as chain:
            screen.press(_on_a_column(stage, screen))
        return chain.figures()
    finally:
        screen.close()


def _online(stage) -> dict:
    from villa.online import protocol
    from villa.online.client import OnlineMatch, Player
    from villa.online.server import Room, Server
    from villa.presentation.game import GameScreen
    setup = _setup()
    server = Server(0, "127.0.0.1")
    room = server.open(Room(protocol.new_room_code(), setup))
    player = Player("127.0.0.1", server.port)

    def until(done) -> None:
        for _ in range(5000):
            if done():
                return
            server.poll(0.001)
            player.poll()
        raise RuntimeError("the server did not answer")
    try:
        until(lambda: player.ready)
        player.enter(room.code)
        until(lambda: player.room is not None)
        for seat, at in enumerate(setup.seats):
            player.sit(at.name, seat)
        until(lambda: len(player.seats) == 2 and player.poses and player.table.get("started"))
        match = OnlineMatch(player)
        screen = GameScreen(stage, match, here=match.here)
        try:
            for _ in range(3):
                stage.base.taskMgr.step()
            with Chain(PRESS, SENT) as window:
                screen.press(_on_a_column(stage, screen))
            with Chain(READ, GRAB) as serving:
                until(lambda: room.match.hand is not None)
        finally:
            screen.close()
        client, served = window.figures(), serving.figures()
        return {"online_window": client, "online_server": served,
                "online": {"hops": client["hops"] + served["hops"], "files": len(
                    {way.split()[0] for way in client["way"] + served["way"]})}}
    finally:
        player.close()
        server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hops", action="store_true", help="also trace a press's way to the villa (opens a window)")
    figures = measure()
    if parser.parse_args().hops:
        figures["press_to_villa"] = hops()
    print(json.dumps(figures, indent=1))
