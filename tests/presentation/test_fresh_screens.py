"""The screen follows the state: a game screen built fresh on any step a scripted game reaches shows the controls
that step asks for and answers their keys, as a screen that watched the game get there would.

At the hot seat the screen is built on a save made at the step (written as a document and read back, as the
autosave is); online, on a window that comes back at the step with its seat's token (the
floor question of the issue among them). The scripts are the conformance suite's (`tests.conformance.games`)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from panda3d.core import Point3

from villa import rules
from villa.match import Match
from villa.match import record as records
from villa.match.face import is_floor
from villa.online.server import Room
from villa.physics.laying import Laying
from villa.physics.pulling import Grip
from villa.presentation import words
from villa.presentation.modes import Mode
from villa.presentation.view import PLAY_PITCH
from villa.presentation.words import Button
from villa.rules import Task
from villa.rules.pieces import floor_id
from tests.conformance import games
from tests.conformance.lockstep import LOOPBACK, Lockstep, Reached

pytestmark = pytest.mark.gui

ROLLED_WITHIN = 600      # frames: the seal tumbles and lands, then the roll counts


def saved_and_loaded(match: Match) -> Match:
    """The game as a save made now brings it back: the document written, read again, taken up. At a turn's end it is
    the autosave; within a turn the villa as it stands is written as the last turn (the game itself saves only at
    turns' ends: this is what a screen built there would be given)."""
    record = match.record
    if record.turns[-1].actions != len(record.state.log):
        now = records.TurnRecord(record.turn + 1, len(record.state.log), match.villa.snapshot())
        record = dataclasses.replace(record, turns=(*record.turns, now))
    document = json.loads(json.dumps(records.to_document(record, "save")))
    record = records.from_document(document)
    return Match(record.setup, record)


def asked_for(game) -> Mode:
    """The mode the rules ask for, with a person of this screen to act: what a player expects to see."""
    state = game.state
    if state.over:
        return Mode.ENDED
    if rules.is_question(rules.task(state)):
        return Mode.ASKING
    return Mode.LAYING if rules.floor_to_lay(state) else Mode.IDLE


def key_for(state, yes: bool) -> tuple[str, type] | None:
    """The key that answers what the step asks, and the action the rules then take (None: the mouse's)."""
    task = rules.task(state)
    if rules.is_question(task):
        return ("y" if yes else "n"), type(rules.answer_for(state, yes))
    if task in (Task.SEAL_ROLL, Task.COLOUR_ROLL):
        return "r", rules.SealRoll
    if task is Task.TAKE_OUT:
        return "n", rules.ForgoPenalty
    giving_up = rules.giving_up(state)
    if giving_up is not None:
        return "Escape", type(giving_up)
    if rules.ProposeFloor() in rules.legal_actions(state):
        return "p", rules.ProposeFloor
    return None


def shows_what_is_asked(screen, game, online: bool = False) -> None:
    """The mode, the status line, and the panel's or the command bar's buttons the state asks for."""
    state, expected = game.state, asked_for(game)
    assert screen.mode == expected, f"{rules.task(state)}: the screen is {screen.mode}, the step asks {expected}"
    guide = words.guidance(state)
    if expected is Mode.ENDED:
        return
    assert screen.hud.status.getText() == guide.headline
    if expected is Mode.ASKING:
        assert screen.panel is not None and [b["text"] for b in screen.panel.buttons] == [
            c.label for c in guide.commands], "the question's panel, its answers as buttons"
        return
    shown = {c.name.value for c in guide.commands if online or c.name is not Button.CHOOSE}
    if online:
        shown = {name for name in shown if name != Button.CHOOSE.value} | {
            f"{Button.CHOOSE.value} {a.colour.value}" for c in guide.commands if c.name is Button.CHOOSE
            for a in c.actions}
    assert set(screen.hud.commands.buttons) == shown, "the command bar has the step's commands"


def answers_its_key(game, key: str, action: type, mouse, frames, serve=lambda: None) -> None:
    """The key pressed, the rules take the action it stands for (the seal's roll once it has landed)."""
    before = len(game.state.log)
    mouse.key(key)
    for _ in range(ROLLED_WITHIN):
        frames()
        serve()
        if len(game.state.log) > before:
            break
    assert len(game.state.log) > before, f"{key} did nothing"
    assert isinstance(game.state.log[before], action), f"{key}: {game.state.log[before]} is not {action.__name__}"


class EveryRest:
    """After each step of a hot-seat script that comes to rest on a state not seen before: a screen built on a save
    made there shows what the state asks, and its key works (the loaded game is the screen's own: the script's game
    goes on as it was)."""

    def __init__(self, stage, frames, mouse) -> None:
        self.stage, self.frames, self.mouse = stage, frames, mouse
        self.seen: set[int] = set()
        self.tasks: list[Task] = []
        self.yes = False

    def __call__(self, tables: Lockstep) -> None:
        from villa.presentation.game import GameScreen
        match = tables.local
        if match.busy and not match.over or len(match.state.log) in self.seen:
            return
        self.seen.add(len(match.state.log))
        loaded = saved_and_loaded(match)
        screen = GameScreen(self.stage, loaded)
        try:
            self.frames(3)
            shows_what_is_asked(screen, loaded)
            self.tasks.append(rules.task(loaded.state))
            key = key_for(loaded.state, self.yes)
            if key is not None and screen.mode is not Mode.ENDED:
                self.yes = not self.yes
                answers_its_key(loaded, *key, self.mouse, self.frames)
        finally:
            screen.close()
            loaded.close()


@pytest.mark.parametrize("game", [games.OBJECTIONS, games.NEUTRAL_CHALLENGE,
                                  pytest.param(games.FAMILY_ROUNDS, marks=pytest.mark.slow)],
                         ids=lambda game: game.name)
def test_a_screen_built_on_a_save_made_at_any_step_shows_what_it_asks_and_answers_its_keys(game, stage, frames,
                                                                                           mouse):
    every_rest = EveryRest(stage, frames, mouse)
    tables = Lockstep(game.setup, online=False, watch=every_rest)
    try:
        every_rest(tables)
        tables.play(game.script)
    finally:
        tables.close()
    assert REACHED[game.name] <= set(every_rest.tasks)


REACHED = {
    games.OBJECTIONS.name: {Task.BUILD, Task.ANSWER_OBJECTION, Task.PROOF, Task.TAKE_OUT, Task.LAY_FLOOR, Task.OVER},
    games.NEUTRAL_CHALLENGE.name: {Task.NEUTRAL, Task.OWN, Task.ANSWER_CHALLENGE, Task.CHALLENGE_PROOF,
                                   Task.ANSWER_OBJECTION, Task.LAY_FLOOR},
    games.FAMILY_ROUNDS.name: {Task.SEAL_ROLL, Task.BUILD, Task.OVER},
}


# --- online: a window comes back at the step ------------------------------------------------------------------

def at(task: Task, layable: bool = False):
    def reached(tables: Lockstep) -> None:
        game = tables.local
        if rules.task(game.state) is task and not game.busy and (not layable or rules.floor_to_lay(game.state)):
            raise Reached
    return reached


def in_hand(floor: bool):
    def reached(tables: Lockstep) -> None:
        hand = tables.local.hand
        if hand is not None and is_floor(hand) == floor and hand.state in (Grip.PULLING, Laying.CARRYING):
            raise Reached
    return reached


def over(tables: Lockstep) -> None:
    if tables.local.over and tables.local.villa.settled:
        raise Reached


REJOINS = {
    "the floor question": (games.OBJECTIONS, at(Task.ANSWER_OBJECTION)),
    "a challenge's question": (games.NEUTRAL_CHALLENGE, at(Task.ANSWER_CHALLENGE)),
    "a floor granted, to lay": (games.OBJECTIONS, at(Task.LAY_FLOOR, layable=True)),
    "the penalty pull": (games.OBJECTIONS, at(Task.TAKE_OUT)),
    "the seal rolled for a colour": (games.COLOURS, at(Task.COLOUR_ROLL)),
    "a colour to choose": (games.COLOURS, at(Task.COLOUR_CHOICE)),
    "the family's roll for the turn": (games.FAMILY_ROUNDS, at(Task.SEAL_ROLL)),
    "a column being pulled": (games.OBJECTIONS, in_hand(floor=False)),
    "a floor being carried": (games.OBJECTIONS, in_hand(floor=True)),
    "the end, the villa fallen": (games.FAMILY_ROUNDS, over),
}
HELD = {Grip.PULLING: Mode.PULLING, Laying.CARRYING: Mode.LAYING}     # the server's hands hold the window's piece


def turns_view(screen) -> None:
    """The screen looks at the villa as a turn begins (the villa filling most of the view, from a little above), not
    from afar or from high up (framing again from there comes within a few per cent: it is not a fixed point)."""
    goal = screen.view.camera.goal
    shown = (Point3(goal.target), goal.pitch, goal.distance)
    screen.view.focus_top()
    assert shown[1] == PLAY_PITCH and abs(shown[2] - goal.distance) < 0.1 * goal.distance \
        and (shown[0] - goal.target).length() < 5.0, f"the view is at {shown}, the turn's at {goal}"


def come_back(stage, frames, tables, serve, seat: int, held=None):
    """The player of `seat` back in a window of its own with the seat's token: (its player, its game, its screen);
    `held`: the piece the server's hands hold, which the window's player is to hear of first."""
    from villa.online.client import OnlineMatch, Player
    from villa.presentation.game import GameScreen
    window = Player(LOOPBACK, tables.server.port)
    for _ in range(600):
        if window.ready:
            break
        serve()
        window.poll()
    window.rejoin(tables.player.seats[seat], tables.room.code)
    for _ in range(600):
        if window.seats and window.state is not None and window.poses and (
                held is None or window.hand_holder == rules.acting_player(tables.local.state)):
            break
        serve()
        window.poll()
    assert set(window.seats) == {seat}, window.refusals
    match = OnlineMatch(window)
    screen = GameScreen(stage, match, here=match.here)
    frames(30)       # the window's villa is heard at rest
    return window, match, screen


def watches_a_floor_laid(stage, frames, snapshot, tables, serve, seat: int) -> None:
    """A window waiting while another lays a floor draws it as the hot seat draws a floor in hand: see-through, its
    outline at the tops it would rest on, which glow."""
    window, match, screen = come_back(stage, frames, tables, serve, seat)
    try:
        floor = floor_id(match.state.top_level + 1)
        assert screen.mode is Mode.COMPUTER and match.hand is None and floor in match.villa.in_hand
        assert screen.sight.floor == screen.view.scene.pieces[floor], "the floor in their hands is drawn solid"
        assert not screen.sight.drawing.root.isEmpty() and screen.sight.drawing.root.getNumChildren(), "no outline"
        snapshot("online-floor-laid-at-another-window")
    finally:
        screen.close()
        window.close()


@pytest.mark.parametrize("step", REJOINS)
def test_a_window_back_online_at_a_step_shows_what_it_asks_and_answers_its_keys(step, stage, frames, mouse,
                                                                                press_button, monkeypatch, snapshot):
    """The room is brought to the step by the script (online alone); then the acting seat's player comes back in a
    window of its own with the seat's token, and that window's screen is the one checked."""
    game, reached = REJOINS[step]
    if reached is over:
        # a window gone at the end has not had the game's record, and its room waits for it; here the script's
        # own connection for that seat gets the record, and the room, done with, could be closed (the rooms are
        # looked over every second) while the script's villa comes to rest, or before this window connects
        monkeypatch.setattr(Room, "closable", property(lambda room: False))
    tables = Lockstep(game.setup, hot_seat=False, watch=reached)
    window = screen = None
    try:
        with pytest.raises(Reached):
            reached(tables)
            tables.play(game.script)
        server = tables.server

        def serve(task=None):
            server.poll()
            server.frames(1)
            server.poll()
            return task.cont if task is not None else None
        stage.task_mgr.add(serve, "tests: the server", sort=-30)
        seat = rules.acting_player(tables.local.state)
        seat = 0 if seat is None else seat      # the game over: anyone of it comes back
        held = tables.local.hand
        if is_floor(held):                      # first, another's window: the floor in the others' hands
            watches_a_floor_laid(stage, frames, snapshot, tables, serve, next(n for n in tables.player.seats
                                                                               if n != seat))
        window, match, screen = come_back(stage, frames, tables, serve, seat, held)
        if held is not None:     # the window takes the piece up where the server's hands hold it
            assert match.hand is not None and screen.mode is HELD[held.state], f"{screen.mode}, {match.hand}"
            answers_its_key(match, "Escape", type(rules.giving_up(match.state)), mouse, frames)
            return
        shows_what_is_asked(screen, match, online=True)
        if screen.mode is Mode.ASKING:      # as at a screen that saw the move: what it did, above the question
            said = words.last_said(match.state)
            assert said and screen.panel.words.getText().startswith(said), screen.panel.words.getText()
        turns_view(screen)
        if match.over:
            return
        if rules.task(match.state) is Task.COLOUR_CHOICE:
            before = len(match.state.log)
            press_button(next(button for name, button in screen.hud.commands.buttons.items()
                              if name.startswith(Button.CHOOSE.value)))
            frames(10)
            assert isinstance(match.state.log[before], rules.ChooseColour)
        else:
            answers_its_key(match, *key_for(match.state, True), mouse, frames)
    finally:
        stage.task_mgr.remove("tests: the server")
        if screen is not None:
            screen.close()
        if window is not None:
            window.close()
        tables.close()
