"""`villa-paletti-server --port N` runs with no display: it prunes old room files at start, raises its limit of
open files, turns away a client of another version with one line in its log, ends when asked, and killed
mid-game and started again it takes the game up from its autosave and the players rejoin their seats."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from villa import rules
from villa.app import dedicated
from villa.match import record as records
from villa.match import requests as rq
from villa.online.client import Player
from villa.online.client import player as players
from villa.online.protocol import Online
from villa.online.server import Server
from villa.online.wire import messages as m
from villa.rules.state import Step
from tests.online.conftest import LOOPBACK, players_until
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]


def _start(home: Path, port: int, *extra: str, files: int | None = None) -> tuple[subprocess.Popen, list[str]]:
    """The server in a process of its own; the lines it printed up to its first room's."""
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["VILLA_HOME"] = str(home)

    def fewer_files() -> None:       # a machine's usual soft limit, below the hard one
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    server = subprocess.Popen([sys.executable, "-m", "villa.app.dedicated", "--port", str(port), "--address", LOOPBACK,
                               *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              preexec_fn=fewer_files if files else None)
    lines = []
    while not lines or not lines[-1].startswith("room "):
        line = server.stdout.readline()
        assert line, (lines, server.stderr.read() if server.poll() is not None else "")
        lines.append(line)
    return server, lines


def _player(port: int, code: str) -> Player:
    player = Player(LOOPBACK, port)
    assert players_until(lambda: player.ready)
    player.enter(code)
    assert players_until(lambda: player.room is not None)
    return player


def _kept(autosave: Path):
    """The rules' state the room's file keeps (None: it is being written)."""
    try:
        return records.from_document(json.loads(autosave.read_text(encoding="utf-8"))["record"]).state
    except (OSError, ValueError, KeyError):
        return None


def _stopped(server: subprocess.Popen) -> None:
    server.kill()
    server.wait(10)
    server.stdout.close()
    server.stderr.close()


def test_the_dedicated_server_serves_without_a_display_and_ends_when_asked(tmp_path, monkeypatch):
    online = tmp_path / "data" / "online"
    online.mkdir(parents=True)
    old, fresh = online / "QQQQQ.room.json", online / "WWWWW.room.json"
    for path in (old, fresh):
        path.write_text("{}", encoding="utf-8")
    month_ago = time.time() - 31 * 86400
    os.utime(old, (month_ago, month_ago))
    port = free_port()
    server, lines = _start(tmp_path, port, "--people", "2", "--keep-days", "30", files=1024)
    try:
        assert lines[0] == "pruned 1 room files and replays older than 30 days\n" and not old.exists() and fresh.exists()
        code = lines[-1].split()[1]
        anna = _player(port, code)
        anna.sit("Anna", 0)
        assert players_until(lambda: anna.seats and anna.table["seats"][0]["name"] == "Anna")

        monkeypatch.setattr(m, "GAME", "0.0.0-another")     # a window of another version of the game
        other = Player(LOOPBACK, port)
        assert players_until(lambda: other.lost)
        assert other.trouble.code is Online.VERSION and other.trouble.values["game"] != "0.0.0-another"

        limits = Path(f"/proc/{server.pid}/limits").read_text(encoding="utf-8")
        files = next(line for line in limits.splitlines() if line.startswith("Max open files")).split()
        assert int(files[3]) == int(files[4]) > 1024, "the soft limit raised to the hard one"

        server.send_signal(signal.SIGTERM)
        assert server.wait(10) == 128 + signal.SIGTERM
        assert players_until(lambda: anna.lost) and anna.trouble.code is Online.CLOSING
        said = (tmp_path / "data" / "villa.log").read_text(encoding="utf-8")
        assert len([line for line in said.splitlines() if ": version (" in line]) == 1
    finally:
        _stopped(server)


def _colours(*players: Player) -> None:
    """The youngest rolls the seal for a colour, the others choose theirs (the computer player by itself)."""
    for _ in range(8):
        assert players_until(lambda: players[0].state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE)
                             or players[0].state.turn.actor in (0, 1), 30)
        state = players[0].state
        if state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE):
            return
        seat = state.turn.actor
        if rules.is_chance_node(state):
            players[seat].request(rq.Roll(seat))
        else:
            choice = next(a for a in rules.legal_actions(state) if isinstance(a, rules.ChooseColour))
            players[seat].request(rq.ChooseColour(seat, choice.colour))
        assert players_until(lambda: players[0].state != state)
    raise AssertionError("the colours were never settled")


@pytest.mark.slow
def test_the_dedicated_server_killed_mid_game_takes_it_up_again(tmp_path):
    port = free_port()
    server, lines = _start(tmp_path, port, "--computers", "1", "--strength", "easy", "--seed", "3")
    try:
        code = lines[-1].split()[1]
        anna, ben = _player(port, code), _player(port, code)
        anna.sit("Anna", 0)
        ben.sit("Ben", 1)
        assert players_until(lambda: anna.seats and ben.seats and anna.state is not None
                             and anna.table.get("started"), 20)
        tokens = {0: anna.seats[0], 1: ben.seats[1]}
        _colours(anna, ben)
        autosave = tmp_path / "data" / "online" / f"{code}.room.json"
        assert players_until(lambda: autosave.exists() and anna.state.turn.step is Step.START
                             and anna.state.turn.actor in (0, 1) and _kept(autosave) == anna.state, 120), \
            "no turn was settled (and kept)"
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        assert players_until(lambda: anna.rejoining is not None and ben.rejoining is not None)
        assert anna.lost_why.code in (Online.HUNG_UP, Online.RESET) and not anna.lost, "looking for it, not lost"
        _stopped(server)
        kept = records.from_document(json.loads(autosave.read_text(encoding="utf-8"))["record"])
        assert kept.state == anna.state, "the turn settled, kept as one file"

        server, lines = _start(tmp_path, port)
        assert lines[-1].startswith(f"room {code} on port {port}: taken up at turn {kept.turn} "), lines
        assert players_until(lambda: anna.came_back == 1 and ben.came_back == 1 and anna.ready and ben.ready, 60), \
            "both back by themselves, with their tokens"
        seat = anna.state.turn.actor
        back = (anna, ben)[seat]
        assert players_until(lambda: back.poses and back.state == kept.state)
        assert back.seats.keys() == {seat} and back.seats[seat] != tokens[seat], "a new token at each rejoin"
        back.request(rq.Propose(seat))      # the rules' answer, from the game taken up
        assert players_until(lambda: back.refusals or back.state != kept.state)
    finally:
        _stopped(server)


def test_a_dedicated_server_stopped_mid_game_and_started_again_has_its_players_back_by_themselves(tmp_path,
                                                                                                  monkeypatch):
    """SIGTERM: every room kept, every player told the server stopped (said so, not "cannot read"); the players
    look for the game all the while, and are back in it by themselves once the server runs again on its port."""
    monkeypatch.setattr(players, "BACKOFF", ((1.0, 0.5),))     # the minutes of waiting longer, in seconds
    monkeypatch.setattr(players, "RETRY_MAX_S", 2.0)
    port = free_port()
    server, lines = _start(tmp_path, port, "--people", "2", "--seed", "3")
    try:
        code = lines[-1].split()[1]
        anna, ben = _player(port, code), _player(port, code)
        anna.sit("Anna", 0)
        ben.sit("Ben", 1)
        assert players_until(lambda: anna.seats and ben.seats and anna.table.get("started") and ben.poses, 30)
        state = ben.state
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 128 + signal.SIGTERM
        assert players_until(lambda: anna.rejoining is not None and ben.rejoining is not None)
        assert ben.lost_why.code is Online.CLOSING and not ben.lost
        assert players_until(lambda: ben.next_try_in and ben.next_try_in >= 1.0, 10), \
            "nobody listens: it waits longer between tries"
        _stopped(server)

        server, lines = _start(tmp_path, port)
        assert lines[-1].startswith(f"room {code} on port {port}: taken up at turn 0 "), lines
        assert players_until(lambda: anna.came_back == 1 and ben.came_back == 1 and ben.ready and anna.ready, 60)
        assert players_until(lambda: ben.state == state and ben.poses and ben.seats.keys() == {1})
        assert not anna.lost and not ben.lost
    finally:
        _stopped(server)


def test_an_end_asked_mid_turn_waits_for_the_turns_end_and_the_goodbyes_go_whole(tmp_path, monkeypatch):
    """SIGTERM (or Ctrl+C) lands wherever the server is: raised there, between a TLS record taken from its buffer
    and its write, every later record (the goodbyes too) would fail to decrypt at the players. It is seen between
    two turns of the loop, and the server then closes in order and exits as asked."""
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    turns, served, closing, closed = [], Server.serve, Server.close, []

    def serve(self, until, stats=0.0):
        def turn() -> bool:
            if not turns:
                os.kill(os.getpid(), signal.SIGTERM)     # mid-turn: the handler runs here, and must not raise
            turns.append(until())
            return turns[-1]
        served(self, until=turn, stats=stats)
    monkeypatch.setattr(Server, "serve", serve)
    monkeypatch.setattr(Server, "close", lambda self, **kw: (closed.append(len(turns)), closing(self, **kw)))
    assert dedicated.main(["--port", str(free_port()), "--address", LOOPBACK, "--people", "2"]) == 128 + signal.SIGTERM
    assert turns == [True] and closed == [1], "the turn ran to its end, then the server closed"
