"""Scripted seats: a lesson's other players, and the tests' learner, each acting from a list of steps.

    script = Script(match, {1: (rules.ProposeFloor(),), 0: (Pull("blue-thin-3"),)})
    match.add_driver(script)

When a scripted seat must act and the match's hands are free, its next step is taken: a rules action
goes straight to the referee, a `Pull` or a `Lay` is drawn out and set on the top floor (or the floor laid) by the
computer players' own hand (`villa.match.computer.hands`), a `Knock` pushes the top floor hard (a mistake on purpose,
or the fall a lesson is about). A seat asked with no step left declines; one whose turn it is with no
step left tells `on_stuck` (the part has gone past what it was written for).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from villa import rules
from villa.match import requests as rq
from villa.match.computer import hands
from villa.match.computer.plans import Plan
from villa.match.table import Match
from villa.rules.state import Step

KNOCK_SPEED = 120.0   # cm/s sideways on the top floor: no villa stands that


@dataclass(frozen=True)
class Pull:
    """Take `column` (drawn out `direction`, `distance` cm, steadied or not), set it on the top floor;
    `give_up`: take it and give it up at once."""

    column: str
    direction: tuple[float, float] | None = None
    distance: float = 0.0
    steady: bool = False
    give_up: bool = False
    speed: float = 3.0


@dataclass(frozen=True)
class Lay:
    """Lay the next floor (proposed and granted) with its middle at (x, y), turned `yaw` degrees."""

    x: float
    y: float
    yaw: float = 0.0


@dataclass(frozen=True)
class Knock:
    """Push the top floor over."""


class Script:
    """A match's driver for the scripted seats: `steps[seat]` in order, one each time that seat must act."""

    def __init__(self, match: Match, steps: Mapping[int, Sequence],
                 on_stuck: Callable[[], None] = lambda: None) -> None:
        self.match, self.on_stuck = match, on_stuck
        self.steps = {seat: list(todo) for seat, todo in steps.items()}
        self.move: hands.Move | None = None

    def before_frame(self) -> bool:
        if self.move is not None:
            try:
                next(self.move)
            except StopIteration:
                self.move = None
            return True
        match = self.match
        actor = match.actor
        if match.over or match.busy or actor not in self.steps:
            return True
        todo = self.steps[actor]
        if not todo:
            if match.state.turn.step is Step.ASK:
                match.request(rq.Answer(actor, objects=False))
            else:
                self.on_stuck()
            return True
        self._do(todo.pop(0))
        return True

    def _do(self, step) -> None:
        match = self.match
        if isinstance(step, Knock):
            villa = match.villa
            villa.wake()
            villa.body(f"floor-{max(villa.floor_levels)}").setLinearVelocity((KNOCK_SPEED, 0, 0))
        elif isinstance(step, Pull):
            plan = Plan(column=step.column, direction=step.direction, distance=step.distance, speed=step.speed,
                        steady=step.steady, give_up=step.give_up)
            self.move = hands.pull(match, plan)
            self.before_frame()
        elif isinstance(step, Lay):
            self.move = hands.lay_floor(match, Plan(floor=(step.x, step.y, step.yaw)))
            self.before_frame()
        else:
            refusal = rq.ask(match, lambda seat: rq.request_for(seat, step)).refusal
            if refusal is not None:
                raise RuntimeError(f"a lesson's script asked for {step}, which the referee refused: {refusal}")
