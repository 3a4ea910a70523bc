"""Every word a player reads about the game, in one place: worded from the rules' and the physics'
codes, through gettext.

    guide = guidance(state)                 # the rules' state in, plain data out
    guide.headline                          # the status line: who, with which colours, what now
    guide.commands                          # the buttons (and keys): each with the rules actions it sends
    guide.grabbable                         # the columns the mouse may take now (`rules.grabbable_columns`)
    why_not(state, column)                  # the rules' reason a column may not be taken
    narrate(before, action, after)          # what an action did, in a sentence (status line, replays)
    turn_story(before, moves, after)        # a whole turn in one line (replays, headless play)
    refusal(error, state)                   # a refusal of the referee or of the wood, in words (`REFUSALS`)
    headline(state), reasons(state)         # the end: the Master Builder (or none), and why

No rendering here, and no rule of its own: every question goes to the rules engine
(`legal_actions`, `task`, `grabbable_columns`, `why_not_grabbable`, `end_reasons`). The tests check that the
commands offered always match `legal_actions` exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from villa import rules
from villa.online.protocol import Online, OnlineError
from villa.online.wire.codec import WireError
from villa.match.face import is_floor
from villa.match.record import fell_laying, state_at
from villa.physics.pulling import Grip
from villa.physics.refusals import Refusal
from villa.presentation.holding import LEVEL_DEG
from villa.presentation.i18n import N_, _
from villa.rules import EndReason, Rule, Task
from villa.rules.pieces import COLUMNS_BY_ID, GREEN_LEVEL, TOP_FLOOR_LEVEL, floor_colour
from villa.rules.state import GameState, Role, Step


class Button(str, Enum):
    """The commands a turn may offer, each a button (and most a key)."""

    BUILD = "build"
    PROPOSE = "propose"
    ABORT = "abort"
    OBJECT = "object"
    CHALLENGE = "challenge"
    DECLINE = "decline"
    FORGO = "forgo"
    GIVE_UP = "give-up"
    PASS = "pass"
    ROLL = "roll"
    CHOOSE = "choose"


@dataclass(frozen=True)
class Command:
    """A button (and its key): the rules actions it may send. "build" sends `TakeColumn` for
    the column the mouse takes; the others send their one action (a roll: one of them)."""

    name: Button
    label: str
    key: str | None
    actions: tuple[rules.Action, ...]


@dataclass(frozen=True)
class Standing:
    """One player's line in the HUD."""

    player: int
    name: str
    colours: tuple[rules.Colour, ...]
    points: int                     # on the top level (publisher) or the family total
    to_act: bool
    holds_seal: bool


@dataclass(frozen=True)
class Guidance:
    task: Task
    actor: int | None               # who must act now (None: chance, or the game is over)
    player: int                     # whose turn it is
    colours: tuple[rules.Colour, ...]   # the colours the actor may take now
    headline: str                   # the status line
    commands: tuple[Command, ...]
    grabbable: tuple[str, ...]      # columns the mouse may take now
    asks: bool                      # another player is asked: the hot-seat hand-over panel
    question: str | None            # the question put to the asked player
    standings: tuple[Standing, ...]
    seal: str                       # who holds the Master Builder Seal and what it shows, in words
    blocked: tuple[str, ...]
    out: tuple[str, ...]
    floors_left: int
    rounds: str | None              # family edition: "round 2 of 3"

    def command(self, name: Button) -> Command | None:
        return next((c for c in self.commands if c.name == name), None)


# --- the words ---------------------------------------------------------------------

def player_name(state: GameState, player: int | None) -> str:
    return state.players[player] if player is not None else _("nobody")


def colour_words(colours) -> str:
    return "/".join(_(c.value) for c in colours)


def _kind(column: str) -> tuple[str, str]:
    piece = COLUMNS_BY_ID[column]
    kind = {"thin": _("thin"), "hex": _("hexagonal"), "thick": _("thick")}[piece.kind.value]
    return _(piece.colour.value), kind


def column_name(column: str) -> str:
    """'blue hexagonal', for lists."""
    colour, kind = _kind(column)
    return _("{colour} {kind}").format(colour=colour, kind=kind)


def column_words(column: str) -> str:
    """'the blue hexagonal column', for sentences."""
    colour, kind = _kind(column)
    return _("the {colour} {kind} column").format(colour=colour, kind=kind)


def _floor(level: int) -> str:
    return _(floor_colour(level)) if 1 <= level <= TOP_FLOOR_LEVEL else _("base plate")


# --- what to do now -------------------------------------------------------------------

def why_not(state: GameState, column: str) -> str | None:
    """None if the mouse may take `column` now; otherwise the rules' reason, in words, for the
    column's tooltip (which names the column above it)."""
    error = rules.why_not_grabbable(state, column)
    if error is None:
        return None
    said = Said.AFTER_NEUTRAL if error.code is Rule.OWN_COLUMN and rules.task(state) is Task.OWN else Said.TOOLTIP
    return refusal(error, state, said)


def _colours_now(state: GameState, task: Task) -> tuple[rules.Colour, ...]:
    columns = rules.grabbable_columns(state)
    if task is Task.PLACE and state.turn.column:
        return (COLUMNS_BY_ID[state.turn.column].colour,)
    return tuple(c for c in rules.Colour if any(COLUMNS_BY_ID[x].colour is c for x in columns))


def _commands(state: GameState, task: Task) -> tuple[Command, ...]:
    legal = rules.legal_actions(state)
    takes = tuple(a for a in legal if isinstance(a, rules.TakeColumn))
    commands: list[Command] = []
    if takes:
        commands.append(Command(Button.BUILD, _("Take a column"), None, takes))
    for action in legal:
        if isinstance(action, rules.ProposeFloor):
            commands.append(Command(Button.PROPOSE, _("Propose a floor (P)"), "p", (action,)))
        elif isinstance(action, rules.Abort):
            commands.append(Command(Button.ABORT, _("Give up this column (Esc)"), "escape", (action,)))
        elif isinstance(action, rules.Object):
            label = _("Object (Y)") if task is Task.ANSWER_OBJECTION else _("Challenge (Y)")
            commands.append(Command(Button.OBJECT, label, "y", (action,)))
        elif isinstance(action, rules.Challenge):
            commands.append(Command(Button.CHALLENGE, _("Challenge (Y)"), "y", (action,)))
        elif isinstance(action, rules.Decline):
            label = _("No objection (N)") if task is Task.ANSWER_OBJECTION else _("No challenge (N)")
            commands.append(Command(Button.DECLINE, label, "n", (action,)))
        elif isinstance(action, rules.ForgoPenalty):
            commands.append(Command(Button.FORGO, _("Take none out (N)"), "n", (action,)))
        elif isinstance(action, rules.GiveUpFloor):
            commands.append(Command(Button.GIVE_UP, _("Give up the floor (Esc)"), "escape", (action,)))
        elif isinstance(action, rules.Pass):
            commands.append(Command(Button.PASS, _("Pass"), None, (action,)))
    rolls = tuple(a for a in legal if isinstance(a, rules.SealRoll))
    if rolls:
        commands.append(Command(Button.ROLL, _("Roll the seal"), "r", rolls))
    choices = tuple(a for a in legal if isinstance(a, rules.ChooseColour))
    if choices:
        commands.append(Command(Button.CHOOSE, _("Choose a colour"), None, choices))
    return tuple(commands)


def _headline(state: GameState, task: Task, colours) -> str:
    turn = state.turn
    who = player_name(state, turn.actor)
    top = _floor(state.top_level)
    proposer = player_name(state, turn.player)
    texts = {
        Task.COLOUR_ROLL: _("{who}: roll the seal for a colour"),
        Task.COLOUR_CHOICE: _("{who}: choose a colour"),
        Task.SEAL_ROLL: _("{who}: roll the seal for this turn's colour"),
        Task.BUILD: _("{who}: pull a {colours} column and set it on the {top} floor, or propose a floor"),
        Task.NEUTRAL: _("{who}: first a neutral ({colours}) column onto the {top} floor, or propose a floor"),
        Task.OWN: _("{who}: now one of your {colours} columns onto the {top} floor"),
        Task.PLACE: _("{who}: set {column} on the {top} floor (click), or give it up (Esc)"),
        Task.ANSWER_OBJECTION: _("{who}: does {proposer} get the floor? Object or not"),
        Task.ANSWER_CHALLENGE: _("{who}: could {proposer} have moved another neutral column? Challenge or not"),
        Task.ANSWER_FAMILY: _("{who}: can {proposer} really move no column? Challenge or not"),
        Task.PROOF: _("{who}: prove it: set one of {proposer}'s {colours} columns on the {top} floor"),
        Task.CHALLENGE_PROOF: _("{who}: prove it: set another neutral ({colours}) column on the {top} floor"),
        Task.FAMILY_PROOF: _("{who}: prove it: set a {colours} column on the {top} floor"),
        Task.TAKE_OUT: _("{who}: you may pull one of {objector}'s columns out of the villa (it leaves the game), "
                         "or take none out (N)"),
        Task.LAY_FLOOR: _("{who}: lay the {next} floor on the top columns (click), or give it up (Esc)"),
        Task.PASS: _("{who}: nothing can be built and no floor proposed: pass"),
        Task.OVER: _("The game is over"),
    }
    if not any(isinstance(a, rules.ProposeFloor) for a in rules.legal_actions(state)):
        texts[Task.BUILD] = _("{who}: pull a {colours} column and set it on the {top} floor")
        texts[Task.NEUTRAL] = _("{who}: first a neutral ({colours}) column onto the {top} floor")
    else:
        texts[Task.PASS] = _("{who}: nothing can be built: propose the next floor (it cannot be laid), or pass")
    if task is Task.LAY_FLOOR and not any(isinstance(f, rules.FloorLaid) for f in rules.expected_facts(state)):
        # 004: a floor that cannot cover three columns is given up, and the turn ends.
        texts[Task.LAY_FLOOR] = _("{who}: too few columns stand on the {top} floor to carry the {next} floor: "
                                  "give it up (Esc)")
    column = column_words(turn.column) if turn.column else ""
    text = texts[task].format(who=who, colours=colour_words(colours) or _("any"), top=top, column=column,
                              proposer=proposer, objector=player_name(state, turn.objector),
                              next=_floor(min(state.top_level + 1, TOP_FLOOR_LEVEL)))
    return text


def pulling_headline(state: GameState) -> str:
    """The status line while the column taken is still being drawn out from under its floor."""
    return _("{who}: draw {column} out (hold Space to steady the floor above), or give it up (Esc)").format(
        who=player_name(state, state.turn.actor), column=column_words(state.turn.column))


def computer_headline(state: GameState, player: int | None, hand, stand_in: bool = False) -> str:
    """The status line while a computer player acts: what its hand does, or that it is thinking (`stand_in`: online,
    a computer plays a person's seat, and the name says so)."""
    who = computer_marked(player_name(state, player)) if stand_in else player_name(state, player)
    if is_floor(hand):
        return _("{who} lays the {floor} floor").format(who=who, floor=_floor(hand.level))
    if hand is not None:
        column = column_words(hand.column)
        if hand.state == Grip.PULLING:
            return _("{who} pulls {column}").format(who=who, column=column)
        return _("{who} sets {column} on the {top} floor").format(who=who, column=column,
                                                                   top=_floor(state.top_level))
    return _("{who} is thinking …").format(who=who)


def waiting_for(state: GameState, player: int, away=False, hosting: bool = False) -> str:
    """Online: the rules ask a person at another screen (where the hot seat hands the mouse over); `away`: their
    connection dropped, and their seat waits for them to rejoin (a `villa.online.client.seats_now.Away`: how long
    the room keeps it, or that they gave it up for good); `hosting`: the host reads it, whose choice a computer
    player for that seat is."""
    who = player_name(state, player)
    if getattr(away, "for_good", False):
        return left_for_good(state, player, hosting)
    kept = getattr(away, "kept_s", None)
    if away and kept is not None:
        time = _("{minutes} min").format(minutes=math.ceil(kept / 60)) if kept >= 60 else \
            _("{seconds} s").format(seconds=math.ceil(kept))
        if hosting:
            return _("Waiting for {who} to come back: the room keeps the seat {time} more, or until you give it to a "
                     "computer player").format(who=who, time=time)
        return _("Waiting for {who} to come back: the room keeps the seat {time} more, or until the host gives it "
                 "to a computer player").format(who=who, time=time)
    if away:
        return _("Waiting for {who} to come back").format(who=who)
    return deciding(state, player) or _("Waiting for {who}").format(who=who)


def deciding(state: GameState, player: int) -> str | None:
    """Online: what the person at another screen decides, when the rules put a question to them (None: none)."""
    who = player_name(state, player)
    task = rules.task(state)
    if task is Task.ANSWER_OBJECTION:
        return _("{who} decides whether to object").format(who=who)
    if task is Task.ANSWER_CHALLENGE:
        return _("{who} decides whether to challenge the neutral column given up").format(who=who)
    if task is Task.ANSWER_FAMILY:
        return _("{who} decides whether to challenge the claim").format(who=who)
    return None


def left_for_good(state: GameState, player: int, hosting: bool = False) -> str:
    """Online: a person gave their seat up for good (they opened or joined another game); the host may give it to a
    computer player."""
    who = player_name(state, player)
    if hosting:
        return _("{who} has left the game for good: a computer player may take the seat, with the button "
                 "below").format(who=who)
    return _("{who} has left the game for good: the host may give the seat to a computer player").format(who=who)


def game_paused(seconds: float) -> str:
    """Online: the room's server lost touch with the rest of its fleet: the game waits for it (or for another
    server to take it over)."""
    return _("The game pauses: this server lost touch with the others {seconds} s ago.").format(
        seconds=round(seconds))


def fleet_warning(code: str, values: dict) -> str:
    """A fleet's server at start: what in its Redis' settings costs games (see docs/online.md)."""
    if code == "evicts":
        return _("Redis evicts keys when full (maxmemory-policy {policy}): a room it evicts is written again by its "
                 "server, but a room nobody holds is lost. Set maxmemory-policy noeviction.").format(
            policy=values.get("policy", ""))
    if code == "no persistence":
        return _("Redis keeps nothing on disk (appendonly no, no save): if it restarts, a room whose server is gone "
                 "meanwhile is lost. Set appendonly yes.")
    if code == "snapshots only":
        return _("Redis keeps only snapshots on disk (appendonly no): if it restarts, what came since the last "
                 "snapshot is lost unless its server still holds the room. Set appendonly yes.")
    return _("Redis would not say how it keeps its data ({why}): see that it does not evict keys and writes an "
             "append-only file.").format(why=values.get("why", ""))


def stand_in_words(name: str) -> str:
    """The host's button: a computer player takes a person's seat from now on."""
    return _("A computer plays for {who}").format(who=name)


def stand_in_question(name: str) -> str:
    """Asked of the host before a computer takes the seat of a person still at the table."""
    return _("{who} is still at the table, and may only be thinking. Should a computer player take {who}'s seat "
             "from now on? {who} cannot have it back.").format(who=name)


def computer_plays_now(name: str) -> str:
    """Online: the host gave a person's seat to a computer player (or it waited too long for its player)."""
    return _("A computer plays for {who} from now on.").format(who=name)


def computer_marked(name: str) -> str:
    """Online: a person's seat a computer plays now, as the score list and the status line name it."""
    return _("{name} (computer)").format(name=name)


def hosted_elsewhere(port: int, now: int, address: str) -> str:
    """The host's room opened again on another port than before (another program took hers meanwhile)."""
    return _("Port {port} is taken by another program now, so this game is hosted on port {now}: your friends' "
             "windows look for it on the old port, so tell them to join {address} again.").format(
        port=port, now=now, address=address)


def leave_seat_question(code: str) -> str:
    """Asked before opening or joining another room while this window keeps a seat in a game under way."""
    return _("You still have a seat in {code}, a game under way: leave it for good? The others are told, and the "
             "host may give your seat to a computer player.").format(code=code)


def leave_seat_words() -> str:
    return _("Leave it for good")


def keep_seat_words() -> str:
    return _("Keep my seat")


def giving_up_seat(code: str) -> str:
    """While room `code` is told that this window's seat there is given up."""
    return _("Telling room {code} that you leave it …").format(code=code)


def lobby_refusal(error: Exception) -> str:
    """A refusal in the lobby: a seat someone else sat down at a moment before (two clicked it at once) names them."""
    if isinstance(error, OnlineError) and error.code is Online.SEAT_TAKEN and error.values.get("name"):
        return _("{name} sat down at that seat a moment before you: choose another.").format(name=error.values["name"])
    return refusal(error)


def watching() -> str:
    """Online: a window that entered a game under way with no seat of its own there."""
    return _("The game is under way and its seats are taken: you watch it.")


def cut_off(cut) -> str:
    """Online, in the game: why this window lost the game's server (`villa.online.client.seats_now.CutOff`), and how
    it comes back: it looks for the game by itself, as long as it is open."""
    code = cut.why.code if isinstance(cut.why, OnlineError) else None
    if cut.host:        # a game hosted in a person's own window
        if code is Online.SILENT:
            return _("{host}'s window, which hosts this game, has stopped answering: {host}'s computer may be asleep "
                     "or off the network. You will be back in the game as soon as it answers.").format(host=cut.host)
        if code is Online.HOST_LEFT and cut.why.values.get("menu"):
            return _("{host} went back to the menus, and the game stopped with it. It is kept on {host}'s computer "
                     "from the last settled turn: you will be back in it when {host} picks Continue."
                     ).format(host=cut.host)
        return _("{host}'s window, which hosted this game, has closed. The game is kept on {host}'s computer from "
                 "the last settled turn: you will be back in it when {host} opens the game and picks Continue."
                 ).format(host=cut.host)
    if code is Online.MOVED:
        return _("Another game server plays this game now: finding it …")
    if cut.fleet:
        return _("The game's server is gone: looking for the game on the fleet's other servers …")
    said = {Online.CLOSING: N_("The game server stopped. It keeps the game from the last settled turn: you will be "
                               "back in it when the server runs again."),
            Online.SILENT: N_("The game server has stopped answering. You will be back in the game as soon as it "
                              "answers again."),
            Online.HUNG_UP: N_("The game server closed the connection without a word. You will be back in the game "
                               "as soon as it answers again.")}
    return _(said.get(code, N_("The connection to the game server was reset. You will be back in the game as soon "
                               "as it answers again.")))


def cut_off_headline(cut) -> str:
    """The status line while cut off: from whom, and when the window tries again."""
    if cut.next_try_s >= 1:
        trying = _("trying again in {seconds} s").format(seconds=math.ceil(cut.next_try_s))
    else:
        trying = _("trying now …")
    if cut.host:
        return _("Cut off from {host}'s window: {trying}").format(host=cut.host, trying=trying)
    return _("Cut off from the game server: {trying}").format(trying=trying)


def back_in_game(fleet: bool) -> str:
    """Online: the window found its game again (on another server of a fleet: from its last settled turn)."""
    if fleet:
        return _("The game goes on on another server, from its last settled turn.")
    return _("Back in the game.")


def leave_words() -> str:
    """The button that leaves a game this window is cut off from (its seat stays kept: Continue comes back)."""
    return _("Leave")


def connection_lost() -> str:
    """Online: the server is gone (the seat waits for its token there, ten minutes)."""
    return _("The connection to the game server was lost.")


def connection_ended(trouble: Exception | None) -> str:
    """Online: why the connection ended, in one sentence: the server's goodbye (sent away, the seat given to a
    computer, the room broke down, the server stopped ...), something it sent that cannot be read, or just gone."""
    if isinstance(trouble, (OnlineError, WireError)):
        return refusal(trouble)
    return connection_lost()


def continue_online(code: str) -> str:
    """The main menu's Continue, when it takes up a seat kept online."""
    return _("Continue in room {code}").format(code=code)


def time_left(seconds: float) -> str:
    """Online with a turn clock: the time left for the move asked now, after the status line's words."""
    whole = max(0, math.ceil(seconds))
    return _("{time} left").format(time=f"{whole // 60}:{whole % 60:02d}")


def time_up(state: GameState, player: int) -> str:
    """Online with a turn clock: a person's time for the move ran out, and the turn passes on as the rules allow."""
    return _("{who}'s time for the move ran out: the turn passes on.").format(who=player_name(state, player))


def _question(state: GameState, task: Task) -> str | None:
    proposer = player_name(state, state.turn.player)
    if task is Task.ANSWER_OBJECTION:
        return _("{proposer} proposes the next floor, claiming none of their columns can go up. Do you object? "
                 "Then you must set one of {proposer}'s columns on top.").format(proposer=proposer)
    if task is Task.ANSWER_CHALLENGE:
        return _("{proposer} gave up a neutral column. Could another neutral column have gone up? "
                 "If you challenge, you must prove it.").format(proposer=proposer)
    if task is Task.ANSWER_FAMILY:
        return _("{proposer} claims no column can be moved. Do you challenge? "
                 "Then you must move a column of the required colour.").format(proposer=proposer)
    return None


def seal_words(state: GameState) -> str:
    if state.ruleset.family:
        return ""
    seal = state.seal
    if seal.holder is None and state.top_level < GREEN_LEVEL:
        return _("Master Builder Seal: nobody yet (from the green floor on)")
    if seal.holder is None:   # a villa started higher: past the green floor, and nobody has built on it yet
        return _("Master Builder Seal: nobody yet")
    shows = colour_words(state.colours[seal.shows]) if seal.shows is not None else _("no colour")
    return _("Master Builder Seal: {holder}, showing {shows}").format(holder=player_name(state, seal.holder),
                                                                      shows=shows)


def standings(state: GameState) -> tuple[Standing, ...]:
    family = state.ruleset.family
    return tuple(
        Standing(p, name, state.colours[p], state.scores[p] if family else state.points(p),
                 p == rules.whose_move(state), state.seal.holder == p)
        for p, name in enumerate(state.players))


def guidance(state: GameState) -> Guidance:
    task = rules.task(state)
    colours = _colours_now(state, task)
    rounds = (_("round {n} of {total}").format(n=state.round, total=state.ruleset.rounds)
              if state.ruleset.family else None)
    return Guidance(
        task=task, actor=rules.whose_move(state), player=state.turn.player, colours=colours,
        headline=_headline(state, task, colours), commands=_commands(state, task),
        grabbable=rules.grabbable_columns(state), asks=rules.is_question(task), question=_question(state, task), standings=standings(state),
        seal=seal_words(state), blocked=tuple(sorted(state.blocked)), out=tuple(sorted(state.out)),
        floors_left=state.floors_left(), rounds=rounds)


# --- what just happened -------------------------------------------------------------

def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def last_said(state: GameState) -> str | None:
    """What the last move did, in the narrator's sentence, for a screen that did not see it (taken up again, or
    back online): the line a screen that saw it put above the question it asks (None: nothing to say)."""
    if not state.log:
        return None
    before = rules.replay(state.setup, state.log[:-1])
    return narrate(before, state.log[-1], state)


def narrate(before: GameState, action, after: GameState) -> str | None:
    """What an action or a fact did, in a sentence (None: nothing worth saying, e.g. a column taken up).

    The one narrator of the game: the status line, the replay viewer and headless play all say it so."""
    turn = before.turn
    proposer = player_name(before, turn.player)
    actor = player_name(before, turn.actor)
    if isinstance(action, rules.Collapse):
        culprit = after.result.collapsed_by if after.result is not None else rules.blamed_for_collapse(before)
        return _("The villa falls: {name} brought it down.").format(name=player_name(before, culprit))
    if isinstance(action, rules.SealRoll):
        if rules.task(before) is Task.COLOUR_ROLL:
            return _("{name} rolls the seal: {colour}.").format(name=actor, colour=_(action.colour.value))
        if action.colour is None:
            return _("The seal lands on an end face: {name} may move a column of any colour.").format(name=actor)
        return _("The seal shows {colour}: {name} moves a {colour} column.").format(
            name=actor, colour=_(action.colour.value))
    if isinstance(action, rules.ChooseColour):
        return _("{name} chooses {colour}.").format(name=actor, colour=_(rules.Colour(action.colour).value))
    if isinstance(action, rules.AssignColoursAtRandom):
        return _("The colours are dealt at random.")
    if isinstance(action, rules.ProposeFloor):
        return _("{name} proposes the {floor} floor.").format(name=actor, floor=_floor(before.top_level + 1))
    if rules.is_question(rules.task(before)):
        return _answered(before, action, after, actor, proposer)
    if isinstance(action, (rules.Abort, rules.ColumnPlaced)):
        return _built(before, action, actor, proposer)
    if isinstance(action, rules.ColumnTakenOut):
        return _("{column} leaves the game: {objector}'s objection failed, and it costs them a column. "
                 "{proposer} lays the floor.").format(column=_cap(column_words(action.column)),
                                                      objector=player_name(before, turn.objector), proposer=proposer)
    if isinstance(action, rules.ForgoPenalty):
        return _("{proposer} takes none of {objector}'s columns out, and lays the floor.").format(
            proposer=proposer, objector=player_name(before, turn.objector))
    if isinstance(action, rules.FloorLaid):
        return _("{name} laid the {floor} floor on {count} columns.").format(
            name=actor, floor=_floor(action.level), count=len(action.resting_on))
    if isinstance(action, rules.GiveUpFloor):
        return _("{name} gives up the {floor} floor.").format(name=actor, floor=_floor(before.top_level + 1))
    if isinstance(action, rules.Pass):
        return _("{name} passes: nothing can be built and no floor proposed.").format(name=actor)
    return None


def _answered(before: GameState, action, after: GameState, actor: str, proposer: str) -> str | None:
    role = before.turn.role
    if isinstance(action, rules.Decline):
        if rules.is_question(rules.task(after)):
            return None   # the next player is asked
        if role is Role.CHALLENGE:
            return _("Nobody challenges: {name} moves one of their own columns up.").format(name=proposer)
        if rules.task(after) is Task.LAY_FLOOR:
            return _("Nobody objects: {name} lays the {floor} floor.").format(
                name=proposer, floor=_floor(before.top_level + 1))
        return _("Nobody objects.")
    if role is Role.PROOF:
        return _("{name} objects, and must now set one of {proposer}'s columns on top.").format(
            name=actor, proposer=proposer)
    return _("{name} challenges, and must now prove it.").format(name=actor)


def _built(before: GameState, action, actor: str, proposer: str) -> str:
    turn = before.turn
    column = column_words(turn.column)
    placed = isinstance(action, rules.ColumnPlaced)
    if turn.role is Role.PROOF and placed:
        return _("{name} set {column} on top: the objection succeeds. {column_cap} leaves the game, "
                 "and {proposer}'s turn is over without a floor.").format(
            name=actor, column=column, column_cap=_cap(column), proposer=proposer)
    if turn.role is Role.PROOF:
        return _("{name} gave up the proof: the objection fails. {proposer} now pulls one of {name}'s "
                 "columns out of the game, then lays the floor.").format(name=actor, proposer=proposer)
    if turn.role is Role.CHALLENGE and placed:
        return _("{name} proved it: another neutral column could go up. {proposer} loses the own move."
                 ).format(name=actor, proposer=proposer)
    if turn.role is Role.CHALLENGE:
        return _("{name} could not prove it: {proposer} moves one of their own columns as normal.").format(
            name=actor, proposer=proposer)
    if turn.role is Role.FAMILY_CHALLENGE and placed:
        return _("{name} moved a column after all: the claim is dismissed, and play goes on.").format(name=actor)
    if placed:
        return _("{name} set {column} on the {floor} floor.").format(name=actor, column=column,
                                                                      floor=_floor(action.level))
    return _("{name} gave {column} up: it goes back, and may not be chosen again.").format(name=actor, column=column)


def turn_story(before: GameState, moves, after: GameState) -> str:
    """A whole turn in one line: whose it was, and what happened."""
    sentences = []
    state = before
    for move in moves:
        nxt = rules.apply(state, move)
        sentence = narrate(state, move, nxt)
        if sentence:
            sentences.append(sentence)
        state = nxt
    who = player_name(before, before.turn.player)
    return _("{name}: {what}").format(name=who, what=" ".join(sentences) or _("nothing happened."))


# --- refusals ---------------------------------------------------------------------------

class Said(Enum):
    """Where a refusal is worded: the same code may want another sentence there."""

    ALOUD = "aloud"                   # the status line and the log: a sentence naming what it speaks of
    TOOLTIP = "tooltip"               # under the column's name in its tooltip: the column is "it"
    AFTER_NEUTRAL = "after-neutral"   # the tooltip while the own column after the neutral one is due


# Every refusal, of the referee (`villa.rules.Rule`), of the wood (`villa.physics.refusals.Refusal`) and of the
# online server (`villa.online.protocol.Online`),
# by its code: the sentence said aloud, and where it is worded otherwise, that sentence too. The words take
# the refusal's details, worded for a player (a column by its colour and kind, a level by its floor, a
# player by name).
REFUSALS: dict[Rule | Refusal | Online, dict[Said, str]] = {
    Rule.GAME_OVER: {Said.ALOUD: N_("The game is over.")},
    Rule.UNKNOWN_ACTION: {Said.ALOUD: N_("That is not a move of this game.")},
    Rule.MALFORMED_ACTION: {Said.ALOUD: N_("That is not a move of this game.")},
    Rule.NOT_NOW: {Said.ALOUD: N_("That is not possible now."),
                   Said.TOOLTIP: N_("no column may be taken now")},
    Rule.NOT_STARTED: {Said.ALOUD: N_("The game has not started yet.")},
    Rule.SURVEY: {Said.ALOUD: N_("That is not a move of this game.")},
    Rule.COLOUR_ROLL: {Said.ALOUD: N_("A colour roll must show a colour.")},
    Rule.COLOUR_TAKEN: {Said.ALOUD: N_("{colour} is already taken.")},
    Rule.COLOUR_DEAL: {Said.ALOUD: N_("The colours can be dealt at random only before anyone has one.")},
    Rule.SET_UP_TOO_LATE: {Said.ALOUD: N_("The villa cannot be set up so.")},
    Rule.SET_UP_TWICE: {Said.ALOUD: N_("The villa cannot be set up so.")},
    Rule.SET_UP_LEVEL: {Said.ALOUD: N_("The villa cannot be set up so.")},
    Rule.SET_UP_FLOORS: {Said.ALOUD: N_("The villa cannot be set up so.")},
    Rule.SET_UP_SUPPORT: {Said.ALOUD: N_("The villa cannot be set up so.")},
    Rule.NO_SUCH_COLUMN: {Said.ALOUD: N_("There is no such column."),
                          Said.TOOLTIP: N_("there is no such column")},
    Rule.OUT_OF_GAME: {Said.ALOUD: N_("{column} is out of the game."),
                       Said.TOOLTIP: N_("it is out of the game")},
    Rule.ABORTED_COLUMN: {Said.ALOUD: N_("{column} was given up in an aborted build and may not be chosen again."),
                          Said.TOOLTIP: N_("it was given up in an aborted build and may not be chosen again")},
    Rule.REGULATION_7: {
        Said.ALOUD: N_("{column} already stands on the top level and may not be used to build (regulation 7)."),
        Said.TOOLTIP: N_("it already stands on the top level and may not be used to build")},
    Rule.OBJECTION_PROOF: {Said.ALOUD: N_("The objector must move one of {proposer}'s columns."),
                           Said.TOOLTIP: N_("the objector must move one of the proposer's columns")},
    Rule.NEUTRAL_CHALLENGE: {Said.ALOUD: N_("The challenger must move a different neutral column."),
                             Said.TOOLTIP: N_("the challenger must move a different neutral column")},
    Rule.LAST_NEUTRAL: {Said.ALOUD: N_("{column} is the last neutral column on its level and must stay."),
                        Said.TOOLTIP: N_("it is the last neutral column on its level and must stay")},
    Rule.NEUTRAL_FIRST: {Said.ALOUD: N_("A neutral column must go up first."),
                         Said.TOOLTIP: N_("a neutral column must go up first")},
    Rule.SEAL_COLOUR: {Said.ALOUD: N_("The seal asks for a {colours} column."),
                       Said.TOOLTIP: N_("the seal asks for a {colours} column")},
    Rule.OWN_COLUMN: {Said.ALOUD: N_("{column} is not one of the columns you may move now."),
                      Said.TOOLTIP: N_("it is not one of your columns"),
                      Said.AFTER_NEUTRAL: N_("after the neutral column comes one of your own")},
    Rule.NO_ABORT: {Said.ALOUD: N_("These rules know no aborted build: the column must be placed.")},
    Rule.REGULATION_6: {Said.ALOUD: N_("Only the chosen column ({chosen}) may be moved (regulation 6).")},
    Rule.ONTO_TOP_FLOOR: {Said.ALOUD: N_("A column goes onto the top floor ({top}).")},
    Rule.REGULATION_3: {Said.ALOUD: N_("No column may overhang the edge of the floor it stands on (regulation 3).")},
    Rule.REGULATION_8: {Said.ALOUD: N_("Columns may stand on columns only on the red floor (regulation 8).")},
    Rule.MUST_BUILD: {Said.ALOUD: N_("A player who can build must build, or propose a floor.")},
    Rule.NO_FLOOR_LEFT: {Said.ALOUD: N_("The red floor is on: no floor is left.")},
    Rule.FLOOR_SUPPORT: {Said.ALOUD: N_("The {level} floor must rest on at least {need} columns, not {have}.")},
    Rule.FLOOR_ON_TOP_COLUMNS: {Said.ALOUD: N_("The floor rests only on columns of the top level.")},
    Rule.REGULATION_4: {Said.ALOUD: N_("The floors go on in their order: next is the {next} floor (regulation 4).")},
    Rule.FLOOR_INSIDE_BASE: {Said.ALOUD: N_("Under this house rule no floor may overhang the base plate.")},
    Rule.OBJECTION_PENALTY: {Said.ALOUD: N_("Pull out one of {objector}'s columns."),
                             Said.TOOLTIP: N_("pull out one of {objector}'s columns")},
    Refusal.COLLAPSED: {Said.ALOUD: N_("The villa has collapsed.")},
    Refusal.NOT_IN_VILLA: {Said.ALOUD: N_("{column} is not in the villa.")},
    Refusal.NOT_FREE_TO_SET_DOWN: {Said.ALOUD: N_("Only a column that is free of the villa can be set down.")},
    Refusal.NOT_FREE_TO_TAKE_OUT: {Said.ALOUD: N_("Only a column that is free of the villa can be taken out.")},
    Refusal.NO_FLOOR_UNDER: {Said.ALOUD: N_("There is no floor under the column.")},
    Refusal.ON_A_RIM: {Said.ALOUD: N_("{column} would come down on the rim of {on_column}.")},
    Refusal.CANNOT_PUT_BACK: {Said.ALOUD: N_("The villa has collapsed: nothing can be put back.")},
    Refusal.ALL_FLOORS_LAID: {Said.ALOUD: N_("All five floors are laid.")},
    Refusal.FLOOR_ALREADY_LAID: {Said.ALOUD: N_("The {level} floor is laid already.")},
    Refusal.NO_COLUMN_UNDER: {Said.ALOUD: N_("There is no column under the floor.")},
    # online: what the server refused before the rules saw it
    Online.WRONG_ROOM: {Said.ALOUD: N_("No room has that code.")},
    Online.TOO_MANY_TRIES: {Said.ALOUD: N_("Too many wrong room codes came from here: try again in {seconds} s.")},
    Online.TOO_MANY_PLANS: {Said.ALOUD: N_("Too many games were set up from here: try again in {seconds} s.")},
    Online.NOT_IN_ROOM: {Said.ALOUD: N_("Enter a room first.")},
    Online.NO_SUCH_SEAT: {Said.ALOUD: N_("There is no such seat at this table.")},
    Online.SEAT_TAKEN: {Said.ALOUD: N_("Someone else sits there.")},
    Online.NOT_SEATED: {Said.ALOUD: N_("Sit down at the table first.")},
    Online.NOT_YOUR_SEAT: {Said.ALOUD: N_("That is another player's seat.")},
    Online.UNKNOWN_TOKEN: {Said.ALOUD: N_("No seat waits for you here any more.")},
    Online.NO_NAME: {Said.ALOUD: N_("Type a name first.")},
    Online.NAME_TAKEN: {Said.ALOUD: N_("{name} sits at this table already: choose another name.")},
    Online.NOT_ON_TABLE: {Said.ALOUD: N_("That is not a point on the table.")},
    Online.NOT_STARTED: {Said.ALOUD: N_("The game waits for its players.")},
    Online.NOT_HOST: {Said.ALOUD: N_("Only the host may do that.")},
    Online.STARTED: {Said.ALOUD: N_("The game has begun: its players and rules stay as they are.")},
    Online.EMPTY_SEATS: {Said.ALOUD: N_("A seat is still empty: someone sits down there, or it goes to a computer player.")},
    Online.BAD_PLAN: {Said.ALOUD: N_("That is not a game this server can play.")},
    Online.SERVER_FULL: {Said.ALOUD: N_("The server has no room for another table now.")},
    Online.OWN_SEAT: {Said.ALOUD: N_("That is your own seat: leave the room instead.")},
    Online.ROOMS_HERE: {Said.ALOUD: N_("Tables opened from your address are open on this server already ({rooms}), "
                                       "and it keeps the others for other players: finish or leave one first.")},
    Online.ROOMS_WAITING: {Said.ALOUD: N_("Tables opened from your address still wait for someone to sit down "
                                          "({rooms}): sit at one of them, or wait a minute for them to close.")},
    Online.ONE_WATCHED: {Said.ALOUD: N_("A game of computer players opened from your address is open already: watch "
                                        "that one, or leave it and wait a minute for it to close.")},
    Online.FLEET_BUSY: {Said.ALOUD: N_("The fleet cannot take new games now: try again in a while.")},
    Online.ROOM_MOVING: {Said.ALOUD: N_("That game is moving to another server: try again in a moment.")},
    Online.PAUSED: {Said.ALOUD: N_("The game pauses: this server lost touch with the others {seconds} s ago.")},
    Online.MOVE_LOST: {Said.ALOUD: N_("Your last move did not reach the game before its server went: make it "
                                      "again.")},
    Online.VERSION: {Said.ALOUD: N_("The server plays another version of the game ({game}): both must have the "
                                    "same version.")},
    Online.HELLO_FIRST: {Said.ALOUD: N_("The server did not understand this game.")},
    Online.TOO_SLOW: {Said.ALOUD: N_("The server waited too long for this game to say who it is.")},
    Online.FULL: {Said.ALOUD: N_("The server is full: too many connections, from here or in all.")},
    Online.SILENT: {Said.ALOUD: N_("The server has stopped answering.")},
    Online.MALFORMED: {Said.ALOUD: N_("A message between the game and the server was garbled, and the "
                                      "connection closed.")},
    Online.TOO_FAST: {Said.ALOUD: N_("The game sent the server more than it takes, and the connection closed.")},
    Online.NOT_READING: {Said.ALOUD: N_("This game did not take in what the server sent it for too long, and the "
                                        "connection closed.")},
    Online.ROOM_FAILED: {Said.ALOUD: N_("The room broke down on the server. Its game is kept: rejoin it "
                                        "later.")},
    Online.SENT_AWAY: {Said.ALOUD: N_("The host took you out of the room.")},
    Online.SEAT_GIVEN: {Said.ALOUD: N_("The host gave your seat to a computer player.")},
    Online.CLOSING: {Said.ALOUD: N_("The game server stopped.")},
    Online.MOVED: {Said.ALOUD: N_("Another game server plays this game now.")},
    Online.HOST_LEFT: {Said.ALOUD: N_("{host}'s window, which hosted this game, has closed.")},
    Online.HUNG_UP: {Said.ALOUD: N_("The server closed the connection without a word.")},
    Online.RESET: {Said.ALOUD: N_("The connection to the server was reset: the server stopped all at once, or the "
                                  "network broke it off.")},
    Online.UNREACHABLE: {Said.ALOUD: N_("The server could not be reached.")},
    # online: the connection's encryption, and the check of the server's certificate
    Online.TLS_NEEDED: {Said.ALOUD: N_("The server speaks only with encryption, and this game was started with "
                                       "--insecure: start it without.")},
    Online.NOT_TLS: {Said.ALOUD: N_("The server at {address} speaks without encryption (it was started with "
                                    "--insecure): the game joins it only when started with --insecure too.")},
    Online.TLS_FAILED: {Said.ALOUD: N_("No encrypted connection could be made with the server at {address} "
                                       "({why}).")},
    Online.NOT_INVITED: {Said.ALOUD: N_("The server at {address} is not the one the invite names: its certificate "
                                        "is {shown}, the invite's {pin}. Someone may be in between; nothing was "
                                        "sent to it.")},
    Online.CERT_CHANGED: {Said.ALOUD: N_("The server at {address} shows another certificate than before ({shown}, "
                                         "not {was}). Someone may be in between; nothing was sent to it. If its "
                                         "host made a new one, join with a new invite from them.")},
    Online.CERT_UNVOUCHED: {Said.ALOUD: N_("The server at {address} showed a certificate from an authority before, "
                                           "and now one that no authority vouches for ({shown}). Someone may be in "
                                           "between; nothing was sent to it.")},
}


def _detail(state: GameState | None, key: str, value):
    """A refusal's detail as a player reads it."""
    if key in ("column", "on_column", "chosen") and isinstance(value, str) and value in COLUMNS_BY_ID:
        return column_words(value)
    if key == "columns":
        return ", ".join(column_name(c) for c in value if c in COLUMNS_BY_ID)
    if key in ("level", "top", "next", "floor") and isinstance(value, int):
        return _floor(value)
    if key in ("player", "proposer", "objector", "actor") and isinstance(value, int) and state is not None \
            and 0 <= value < state.n:
        return player_name(state, value)
    if key == "colours":
        return colour_words(rules.Colour(c) for c in value)
    if key == "colour":
        return _(rules.Colour(value).value)
    return value


def refusal(error: Exception, state: GameState | None = None, said: Said = Said.ALOUD) -> str:
    """A refusal of the referee (a `RuleError`) or of the wood (a `PlacementError`), by its code, with its
    details, in the player's language: the sentence for `said` if the code has one there, else the one
    said aloud."""
    if isinstance(error, WireError):
        return _("The server sent something this game cannot read, and the connection closed.")
    if isinstance(error, rules.RuleError):
        fallback, values = N_("That is not allowed now."), error.params
    else:
        fallback, values = N_("That is not possible here."), getattr(error, "values", {})
    if getattr(error, "code", None) is Online.HOST_LEFT and values.get("menu"):     # the window is still open
        return _("{host} went back to the menus, and the game stopped with it.").format(host=values.get("host", ""))
    sentences = REFUSALS.get(getattr(error, "code", None), {})
    template = sentences.get(said) or sentences.get(Said.ALOUD, fallback)
    details = {k: _detail(state, k, v) for k, v in values.items()}
    try:
        text = _(template).format(**details)
    except (KeyError, IndexError, ValueError):
        return _(fallback)
    return _cap(text) if said is Said.ALOUD or said not in sentences else text


# --- files -------------------------------------------------------------------------------

def save_trouble(what: str, where, error: OSError) -> str:
    """A save that could not be written, and that the game goes on all the same."""
    reason = error.strerror or str(error)
    if what == "replay":
        return _("The replay could not be kept in {where} ({reason}).").format(where=where, reason=reason)
    return _("The game could not be saved to {where} ({reason}). It goes on, and the next turn tries again."
             ).format(where=where, reason=reason)


def settings_trouble(path, aside) -> str:
    """The settings file was broken: set aside (or not), and the defaults used."""
    if aside is None:
        return _("The settings in {path} could not be read; the game uses its defaults.").format(path=path)
    return _("The settings in {path} could not be read; they are kept as {aside} and the game uses its "
             "defaults.").format(path=path, aside=aside)


def unloadable(reason: str) -> str:
    """The kept game that would not load, and why (the reason is the file check's own sentence)."""
    return _("The last game could not be taken up: {reason}").format(reason=reason)


# --- columns ------------------------------------------------------------------------------

# What marks each colour's columns, for players who cannot tell the colours apart.
COLOUR_MARKS = {
    rules.Colour.BLUE: N_("rings"),
    rules.Colour.RED: N_("dots"),
    rules.Colour.YELLOW: N_("flutes"),
    rules.Colour.GREEN: N_("stripes"),
}


def column_label(column: str) -> str:
    """'blue hexagonal (rings, 2 pt)': the column, its mark and its points, for tooltips."""
    piece = COLUMNS_BY_ID[column]
    return _("{column} ({mark}, {points} pt)").format(column=column_name(column),
                                                       mark=_(COLOUR_MARKS[piece.colour]), points=piece.points)


# --- the builder's hands ---------------------------------------------------------------------

def carried_floor(count: int, need: int) -> str:
    """The tooltip while a floor follows the pointer."""
    return _("rests on {count} columns (needs {need}): click to lay it, or press and hold to feel it sit first; "
             "Q/E turn it, T looks down, Esc gives up").format(count=count, need=need)


def held_floor(touching: bool, tilt_deg: float, lowering: bool) -> str:
    """The tooltip while a floor is in the builder's hands: whether it sits level or tips."""
    if not lowering:
        return _("held clear of the columns: press or wheel down to lower it, Esc gives up")
    if not touching:
        return _("lowering it onto the columns")
    if tilt_deg < LEVEL_DEG:
        return _("it sits level: let go of the button (or click) to lay it; wheel up lifts it")
    return _("it tips ({degrees}°): slide it toward the side that stays up, or wheel up to lift it").format(
        degrees=f"{tilt_deg:.1f}")


def held_column(standing: bool) -> str:
    """The tooltip while a column set down on the top floor is still held."""
    if standing:
        return _("it stands: let go of the button (or click) to leave it there; wheel up lifts it")
    return _("setting it down; Esc gives up")


STRAIN = N_("strain")   # the gauge beside a column being pulled: how hard the column holds against the hand


# --- the end ------------------------------------------------------------------------------

PLAYED_WITH_BUILDERS_EYE = N_("Played with the builder's eye")


def headline(state: GameState) -> str:
    result = state.result
    name = state.players
    if result is None:
        return _("The game is not over")
    if state.ruleset.family:
        if result.winner is not None:
            return _("{name} wins!").format(name=name[result.winner])
        return _("A tie!")
    if result.winner is None:
        return _("No Master Builder")
    return _("{name} is the Master Builder!").format(name=name[result.winner])


# Why a game ended, by the rules' reason codes; {name} is the player the reason names.
END_WORDS = {
    EndReason.TOPPLED: N_("{name} brought the villa down."),
    EndReason.NOTHING_MOVES: N_("Nobody could move a column any more."),
    EndReason.TIED: N_("Tied for first: {names}."),
    EndReason.AFTER_ROUNDS: N_("After {rounds} rounds:"),
    EndReason.DOWN_BEFORE_SEAL: N_("{name} brought the villa down before anyone held the Master Builder Seal."),
    EndReason.DOWN: N_("{name} brought the villa down."),
    EndReason.HOLDER_WINS: N_("{holder} holds the Master Builder Seal and wins."),
    EndReason.DOWN_HOLDING_UNMARKED: N_("{name} brought the villa down while holding the Master Builder Seal, "
                                        "and the seal shows no earlier holder."),
    EndReason.DOWN_HOLDING: N_("{name} brought the villa down while holding the Master Builder Seal."),
    EndReason.SHOWN_WINS: N_("The seal shows {previous}, the holder before: {previous} wins."),
    EndReason.STALLED_NO_SEAL: N_("Nobody could build any further, and nobody held the Master Builder Seal."),
}


def reasons(state: GameState) -> list[str]:
    """Why the game ended as it did, sentence by sentence (the rules' `end_reasons`, worded)."""
    lines: list[str] = []
    for because in rules.end_reasons(state):
        values = because.values
        name = state.players[values["player"]] if "player" in values else ""
        if because.reason is EndReason.STALLED:   # two sentences in one line
            lines.append(_("Nobody could build any further.") + " " +
                         _(END_WORDS[EndReason.HOLDER_WINS]).format(holder=name))
            continue
        lines.append(_(END_WORDS[because.reason]).format(
            name=name, holder=name, previous=name, rounds=values.get("rounds", ""),
            names=", ".join(state.players[p] for p in values.get("players", ()))))
    return lines


def result_words(state: GameState) -> tuple[str, str]:
    """The end: the headline, and the reasons (the family edition's totals after them)."""
    if state.result is None:
        return "", ""
    lines = reasons(state)
    if state.ruleset.family:  # the totals, in one line
        lines.append("   ".join(_("{name}: {points}").format(name=s.name, points=s.points) for s in standings(state)))
    return headline(state), "\n".join(lines)


# --- a clip of the fall ------------------------------------------------------------------------

MONTHS = (N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"), N_("July"),
          N_("August"), N_("September"), N_("October"), N_("November"), N_("December"))


def clip_caption(record, motion) -> str:
    """Who pulled which column from under which floor (or laid which floor) in the recorded motion's turn, and
    whether the villa fell: the clip's caption."""
    turns = record.turns
    if not 1 <= motion.turn < len(turns):
        return _("The villa falls") if motion.fell else _("The last move")
    state = state_at(record, turns[motion.turn - 1])
    done = None
    for action in record.state.log[turns[motion.turn - 1].actions:turns[motion.turn].actions]:
        after = rules.apply(state, action)
        if isinstance(action, rules.TakeColumn):
            done = ("pull", rules.acting_player(state), action.column, state.levels.get(action.column))
        elif isinstance(action, rules.FloorLaid) or fell_laying(state, after):
            done = ("lay", rules.acting_player(state), None, state.top_level + 1)
        if isinstance(action, rules.Collapse):
            break
        state = after
    fell = motion.fell
    if done is None or done[1] is None:
        result = record.state.result
        if fell and result is not None and result.collapsed_by is not None:
            return _("{name} brought the villa down").format(name=record.state.players[result.collapsed_by])
        return _("The villa falls") if fell else _("The last move")
    what, player, column, level = done
    name = record.state.players[player]
    if what == "lay":
        said = _("{name} laid the {floor} floor, and the villa fell") if fell else _("{name} laid the {floor} floor")
        return said.format(name=name, floor=_floor(level))
    if level is not None and level + 1 <= TOP_FLOOR_LEVEL:
        said = (_("{name} pulled {column} from under the {floor} floor, and the villa fell") if fell
                else _("{name} pulled {column} from under the {floor} floor"))
        return said.format(name=name, column=column_words(column), floor=_floor(level + 1))
    said = _("{name} pulled {column}, and the villa fell") if fell else _("{name} pulled {column}")
    return said.format(name=name, column=column_words(column))


def clip_date(moment) -> str:
    """'1 December 2026': the day of the game, in the player's time zone."""
    local = moment.astimezone()
    return _("{day} {month} {year}").format(day=local.day, month=_(MONTHS[local.month - 1]), year=local.year)


def clip_saved(path) -> str:
    return _("The clip is saved: {path}").format(path=path)


def clip_trouble(where, error: OSError | None) -> str:
    """A clip that could not be written; the game goes on."""
    reason = (error.strerror or str(error)) if error is not None else _("the clip could not be made")
    return _("The clip could not be saved in {where} ({reason}); nothing else is lost.").format(
        where=where, reason=reason)


def clip_progress(done: int, total: int) -> str:
    return _("Making the clip: frame {done} of {total}").format(done=done, total=total)


CLIP_BUTTON = N_("Save the fall as a clip")
CLIP_LAST_MOVE_BUTTON = N_("Save the last move as a clip")
CLIP_CANCEL = N_("Cancel")
CLIP_OPEN_FOLDER = N_("Open folder")
CLIP_CANCELLED = N_("The clip was cancelled; no file was left behind.")
NO_CLIP = N_("This game recorded no move to make a clip of.")
CLIP_NOT_YET = N_("The game's record has not come from the server yet; try again in a moment.")
