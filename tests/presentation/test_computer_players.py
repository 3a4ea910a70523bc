"""A person and two computer players in the real window (xdotool under Xvfb): the person pulls with the
real pointer, the computers think in their worker process (the window goes on drawing, no game time
passes) and then take their turns visibly, their hands pulling and carrying the column as a person's
would; the status line says what they do, and every action in the log is one the referee accepts."""

from __future__ import annotations

import pytest
from panda3d.core import Point3

from villa import rules

pytestmark = pytest.mark.gui

PLAYERS = ("Computer (hard)", "Computer (easy)", "Anna")   # the last to choose a colour starts: Anna


@pytest.fixture
def with_computers(stage):
    from villa.match import Match, MatchSetup, Seat, Strength, layout_named
    from villa.match.computer import seat_computers
    from villa.presentation.game import GameScreen
    seats = (Seat(PLAYERS[0], Strength.HARD), Seat(PLAYERS[1], Strength.EASY), Seat(PLAYERS[2]))
    match = Match(MatchSetup(seats, layout_named("free corners"), seed=3, deal_colours=True))
    computers = seat_computers(match, aside=True)
    screen = GameScreen(stage, match)
    yield screen, computers
    screen.close()


def test_a_person_and_two_computer_players_in_the_window(with_computers, frames, mouse, on_screen):
    screen, computers = with_computers
    match, villa = screen.match, screen.villa
    frames(5)
    assert match.actor == 2 and screen.mode == "Idle"
    top = villa.nodes["floor-1"].getPos()

    def build(column: str, dx: float, dy: float) -> None:
        """Anna presses on a free column, draws it out, carries it over the blue floor, sets it down."""
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
        assert match.hand is not None and match.hand.state == "carrying"
        mouse.move(*on_screen(Point3(top.x + dx, top.y + dy, top.z + 0.3)))
        for _ in range(300):
            frames()
            if screen.hint and screen.hint.startswith("click to set it down"):
                break
        frames(10)
        before = len(match.state.log)
        mouse.down()
        frames(2)
        mouse.up()
        for _ in range(900):
            frames()
            if len(match.state.log) > before:
                return
        raise AssertionError(f"the column did not settle: {screen.hint} | {match.state.turn}")

    state = match.state
    build(f"{state.neutral.value}-thin-3", -3.0, -2.0)   # the neutral column first
    build(f"{state.colours[2][0].value}-thin-3", 3.0, -2.0)
    assert match.state.turn.player == 0, "Anna's turn is over"

    seen = {"thinking": 0, "held": 0, "pulling": 0, "carrying": 0, "status": set()}
    for _ in range(60 * 60 * 8):
        if match.over or match.state.turn.player == 2:
            break
        before = villa.time
        frames()
        status = screen.hud.status.getText()
        if any(seat.doing == "thinking" for seat in computers):
            seen["thinking"] += 1
            seen["held"] += villa.time == before
        hand = match.hand
        if hand is not None and getattr(hand, "state", None) in ("pulling", "carrying"):
            seen[hand.state] += 1
        if "thinking" in status or "pulls" in status or "sets" in status:
            seen["status"].add(status.split(" ")[2] if " is thinking" not in status else "thinking")
    assert match.over or match.state.turn.player == 2, f"the computers did not finish their turns: {match.state.turn}"
    assert seen["thinking"] and seen["held"] == seen["thinking"], "no game time passes while a computer thinks"
    assert seen["carrying"], "a computer's hand carries its column across, as a person's would"
    assert seen["status"], "the status line says what the computer does"
    assert all(seat.plans for seat in computers)

    final = rules.replay(match.state.setup, match.state.log)   # every action one the referee accepts
    assert final == match.state
