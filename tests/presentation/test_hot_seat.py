"""A three-player game in the real window, hot-seat, with real mouse and key events (xdotool under Xvfb):
a neutral column and an own column, a proposal with an objection answered on the hand-over
panel and proved with the mouse, then a collapse, its slow-motion replay and the end panel."""

from __future__ import annotations

import dataclasses

import pytest
from panda3d.core import Point3, Vec3

from villa import rules
from villa.physics.dimensions import FloorSpot
from villa.presentation import words
from villa.rules import Task
from villa.rules.state import Step
from villa.match import requests as rq

pytestmark = pytest.mark.gui

PLAYERS = ("Anna", "Ben", "Cleo")
GREEN_SUPPORTS = {"blue-hex": (-4.0, -2.5), "red-hex": (4.0, -2.5), "yellow-hex": (-4.0, 2.5), "green-hex": (4.0, 2.5)}
ALREADY_UP = {"blue-thin-1": (0.0, 3.5)}   # one column on the green floor, so a third makes a floor possible


def _villa_with_the_green_floor_on():
    """The free corners layout (a thin column of each colour stands free in front), with the green
    floor laid on the four hexagonal columns set up on the blue floor."""
    from villa.physics.layouts import preset
    layout = preset("free corners")
    blue = layout.floors[0]

    def moved(spot):
        if spot.column in GREEN_SUPPORTS:
            x, y = GREEN_SUPPORTS[spot.column]
            return dataclasses.replace(spot, level=1, x=blue.x + x, y=blue.y + y)
        if spot.column in ALREADY_UP:
            x, y = ALREADY_UP[spot.column]
            return dataclasses.replace(spot, level=2, x=blue.x + x, y=blue.y + y)
        return spot

    built = dataclasses.replace(layout, columns=tuple(moved(c) for c in layout.columns),
                                floors=(blue, FloorSpot(2, blue.x, blue.y, 0.0)))
    return built


class Ears:
    """Stands in for the sound: counts what the game asks it to play."""

    def __init__(self) -> None:
        self.clacks, self.crashes, self.creaks = [], 0, []

    def clack(self, speed: float) -> None:
        self.clacks.append(speed)

    def creak(self, load: float) -> None:
        self.creaks.append(load)

    def crash(self) -> None:
        self.crashes += 1

    def stop_creak(self) -> None:
        pass

    def update(self) -> None:
        pass


@pytest.fixture
def three_players(stage):
    from villa.match import Match, MatchSetup, Seat
    from villa.presentation.game import GameScreen
    match = Match(MatchSetup(tuple(Seat(name) for name in PLAYERS), _villa_with_the_green_floor_on(), seed=4))
    assert match.state.floor_supports[2] == frozenset(GREEN_SUPPORTS)
    ended = []
    screen = GameScreen(stage, match, on_end=ended.append, sound=Ears())
    screen.ended_with = ended
    yield screen
    screen.close()


def test_a_three_player_game_from_the_neutral_column_to_the_master_builder(three_players, frames, mouse, on_screen,
                                                                           press_button, snapshot):
    screen, match, villa = three_players, three_players.match, three_players.villa
    frames(5)
    state = match.state
    neutral = state.neutral.value
    starter = match.actor
    own = state.colours[starter][0].value
    green = villa.nodes["floor-2"].getPos()

    def settle(before: int) -> None:
        for _ in range(900):
            frames()
            if len(match.state.log) > before:
                return
        raise AssertionError(f"the villa did not settle: {screen.hint} | {screen.mode} | "
                             f"{screen.hud.message.getText()} | {match.state.turn}")

    def build(column: str, dx: float, dy: float) -> None:
        """Press on a free column, pull it out, carry it over the green floor and set it down."""
        x, y = on_screen(villa.nodes[column].getPos())
        mouse.move(x, y)
        frames(3)
        assert screen.hover == column, (column, screen.hint)
        mouse.down()
        frames(3)
        for step in range(1, 6):
            mouse.move(x, y - 8 * step)
            frames(2)
        mouse.up()
        frames(10)
        assert match.hand is not None and match.hand.state == "carrying" and screen.mode == "Carrying"
        mouse.move(*on_screen(Point3(green.x + dx, green.y + dy, green.z + 0.3)))
        for _ in range(300):   # the column rises clear of the villa and glides over the spot
            frames()
            if screen.hint and screen.hint.startswith("click to set it down"):
                break
        frames(10)
        before = len(match.state.log)
        mouse.down()
        frames(2)
        mouse.up()
        settle(before)

    # Cleo's turn: the neutral column first, then one of her own.
    assert words.guidance(match.state).task is Task.NEUTRAL and "neutral" in screen.hud.status.getText()
    snapshot("hot-seat-1-neutral-first")
    build(f"{neutral}-thin-3", -3.0, -1.0)
    assert match.state.levels[f"{neutral}-thin-3"] == 2
    assert words.guidance(match.state).task is Task.OWN and match.actor == starter
    build(f"{own}-thin-3", 3.0, -1.0)
    assert match.state.seal.holder == starter, "the first own column on the green floor takes the seal"
    assert "\u2605" in screen.hud.players.getText()

    # The next player proposes a floor with the button; the one after is asked on the hand-over panel.
    proposer = match.actor
    asked = (proposer + 1) % 3
    frames(3)
    if screen.panel is not None:
        press_button(screen.panel.buttons[0])
    press_button(screen.hud.commands.buttons["propose"])
    assert words.guidance(match.state).task is Task.ANSWER_OBJECTION
    assert screen.panel is not None and screen.panel.title.getText() == PLAYERS[asked]
    snapshot("hot-seat-2-hand-over")
    press_button(screen.panel.buttons[0])   # "Object"
    assert words.guidance(match.state).task is Task.PROOF and match.actor == asked
    assert screen.panel is None

    # The objector proves it: one of the proposer's columns goes up, and leaves the game.
    proof = f"{match.state.colours[proposer][0].value}-thin-3"
    build(proof, 0.0, -3.5)
    assert proof in match.state.out and proof not in villa.nodes
    assert "objection succeeds" in screen.hud.message.getText()
    frames(2)
    snapshot("hot-seat-3-objection-succeeded")
    assert match.state.turn.player == asked, "the proposer's turn is over; the objector plays next"
    frames(3)
    if screen.panel is not None:
        press_button(screen.panel.buttons[0])

    # The villa is driven into a collapse during the objector's turn.
    villa = match.villa
    villa.wake()
    villa.body("floor-2").setLinearVelocity(Vec3(60, 0, 0))
    for _ in range(600):
        frames()
        if screen.mode == "Replay":
            break
    assert match.over and match.state.result.collapsed_by == asked
    assert screen.mode == "Replay", "the fall is shown again in slow motion"
    assert screen.sound.crashes == 1 and screen.sound.clacks, "a crash, and the pieces clack as they land"
    frames(90)
    snapshot("hot-seat-4-slow-motion")
    mouse.key("Escape")   # skips the rest of it
    frames(3)
    holder = match.state.seal.holder
    expected = holder if holder != asked else match.state.seal.shows
    assert holder == starter and expected == starter
    assert screen.ended_with == [match.state.result] and match.state.result.winner == expected
    assert screen.panel.title.getText() == f"{PLAYERS[expected]} is the Master Builder!"
    assert f"{PLAYERS[asked]} brought the villa down" in screen.panel.words.getText()
    snapshot("hot-seat-5-end")


def test_a_failed_objection_lets_the_proposer_forgo_the_penalty_pull_with_the_n_key(three_players, frames, mouse):
    """004: after a failed proof the proposer *may* remove one of the objector's columns; N forgoes it."""
    screen, match = three_players, three_players.match
    frames(5)
    if screen.panel is not None:
        screen.panel.buttons[0]["command"]()
    proposer = match.actor
    objector = (proposer + 1) % 3
    assert rq.ask(match, rq.Propose).accepted
    assert rq.ask(match, lambda s: rq.Answer(s, True)).accepted and match.actor == objector
    column = f"{match.state.colours[proposer][0].value}-thin-2"
    assert rq.ask(match, lambda s: rq.Take(s, column, match.villa.nodes[column].getPos())).accepted
    frames(5)
    assert rq.ask(match, rq.GiveUp).accepted   # the proof is abandoned: the objection has failed
    frames(30)
    assert match.state.turn.step is Step.TAKE_OUT and match.actor == proposer
    if screen.panel is not None:   # the seat changes hands
        screen.panel.buttons[0]["command"]()
        frames(3)
    assert words.guidance(match.state).task is Task.TAKE_OUT
    assert "forgo" in screen.hud.commands.buttons, "the right to the penalty pull is offered, not imposed"
    out_before = set(match.state.out)
    mouse.key("n")
    frames(3)
    assert match.state.turn.step is Step.LAY_FLOOR and match.actor == proposer
    assert match.state.out == out_before, "no column of the objector's left the game"
    assert isinstance(match.state.log[-1], rules.ForgoPenalty)
    assert words.guidance(match.state).task is Task.LAY_FLOOR


def test_the_game_can_be_left_while_a_fall_is_shown_again(stage, frames):
    # A player who leaves for the main menu during the slow-motion replay: the screen closes cleanly.
    from villa.match import Match, MatchSetup, Seat
    from villa.presentation.game import GameScreen
    match = Match(MatchSetup(tuple(Seat(name) for name in PLAYERS), _villa_with_the_green_floor_on(), seed=4))
    screen = GameScreen(stage, match, sound=Ears())
    match.villa.wake()
    match.villa.body("floor-2").setLinearVelocity(Vec3(60, 0, 0))
    for _ in range(600):
        frames()
        if screen.mode == "Replay":
            break
    frames(60)
    assert screen.mode == "Replay"
    screen.close()
    frames(2)
