"""`villa-paletti-server --port N` runs with no display; killed mid-game and started again, it takes the game
up from its autosave and the players rejoin their seats."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from villa import rules
from villa.app import saves
from villa.online import loop
from villa.online.client import Player
from villa.rules.state import Step
from tests.online.conftest import LOOPBACK, free_port

ROOT = Path(__file__).resolve().parents[2]


def _start(home: Path, port: int, *extra: str) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["VILLA_HOME"] = str(home)
    server = subprocess.Popen([sys.executable, "-m", "villa.app.dedicated", "--port", str(port), "--address", LOOPBACK,
                               *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    assert line.startswith("room "), (line, server.stderr.read() if server.poll() is not None else "")
    return server, line


def _player(port: int, code: str) -> Player:
    player = Player(LOOPBACK, port)
    assert loop.run_until(lambda: player.ready, 10)
    player.enter(code)
    assert loop.run_until(lambda: player.room is not None, 10)
    return player


def _colours(*players: Player) -> None:
    """The youngest rolls the seal for a colour, the others choose theirs (the computer player by itself)."""
    for _ in range(8):
        assert loop.run_until(lambda: players[0].state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE)
                              or players[0].state.turn.actor in (0, 1), 30)
        state = players[0].state
        if state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
            return
        seat = state.turn.actor
        if rules.is_chance_node(state):
            players[seat].ask("roll", seat)
        else:
            choice = next(a for a in rules.legal_actions(state) if isinstance(a, rules.ChooseColour))
            players[seat].ask("chooseColour", seat, choice.colour.value)
        assert loop.run_until(lambda: players[0].state != state, 10)
    raise AssertionError("the colours were never settled")


@pytest.mark.parametrize("shards", ["0", "1"])    # its own process plays the room, or a shard of it does
def test_the_dedicated_server_serves_without_a_display_and_ends_when_asked(tmp_path, shards):
    port = free_port()
    server, line = _start(tmp_path, port, "--people", "2", "--shards", shards)
    try:
        code = line.split()[1]
        anna = _player(port, code)
        anna.sit("Anna", 0)
        assert loop.run_until(lambda: anna.seats and anna.table["seats"][0]["name"] == "Anna", 10)
        server.send_signal(signal.SIGTERM)
        assert server.wait(10) == 128 + signal.SIGTERM
        assert loop.run_until(lambda: anna.lost, 10)
    finally:
        server.kill()
        server.wait(10)


@pytest.mark.slow
def test_the_dedicated_server_killed_mid_game_takes_it_up_again(tmp_path):
    port = free_port()
    server, line = _start(tmp_path, port, "--computers", "1", "--strength", "easy", "--seed", "3")
    try:
        code = line.split()[1]
        anna, ben = _player(port, code), _player(port, code)
        anna.sit("Anna", 0)
        ben.sit("Ben", 1)
        assert loop.run_until(lambda: anna.seats and ben.seats and anna.state is not None
                              and anna.table.get("started"), 20)
        tokens = {0: anna.seats[0], 1: ben.seats[1]}
        _colours(anna, ben)
        autosave = tmp_path / "data" / "online" / f"{code}.json"
        assert loop.run_until(lambda: autosave.exists() and anna.state.turn.step is Step.START
                              and anna.state.turn.actor in (0, 1), 120), "no turn was settled"
        kept = saves.load(autosave)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        assert loop.run_until(lambda: anna.lost and ben.lost, 10)

        server, line = _start(tmp_path, port)
        assert line.startswith(f"room {code} on port {port}: taken up at turn {kept.turn}"), line
        back = _player(port, code)
        seat = kept.state.turn.actor
        back.rejoin(tokens[seat])
        assert loop.run_until(lambda: back.seats and back.poses and back.state is not None, 10)
        assert back.seats == {seat: tokens[seat]} and back.state == kept.state
        back.ask("answer", seat, "propose")      # the rules' answer, from the game taken up
        assert loop.run_until(lambda: back.refusals or back.state != kept.state, 10)
    finally:
        server.kill()
        server.wait(10)
