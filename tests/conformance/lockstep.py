"""One scripted game played twice at once, in lockstep: on the hot seat's `Match`, and online through the real
server over loopback, by a window's `OnlineMatch` whose one player sits at every seat.

    tables = Lockstep(setup)
    tables.play(script)          # every step on both; after each, the two games are compared
    tables.finish()              # the same end: state, villa, turns, the finished game's record
    tables.close()

A script is a sequence of steps read once by both games: a request for the seat the rules ask now (`Ask`, made
from the hot seat's game as it stands), a number of frames, frames until something holds, steps repeated until
something holds, steps chosen when the script gets there, and the script's own checks. The villa's physics is
deterministic given the same requests at the same frames, so the server's villa moves as the hot seat's does: a
request goes to both games, and the network is polled until the server's room has carried it out, without a
frame stepped; then both villas step the same frames (the window's clock with them), and after each step the
window hears everything the server said and the two games are compared: the events by kind and content
(`told`), and what a screen reads of them (`face`). Online a hand's new phase is heard with the server's next
pose news, so the window's hand may trail the hot seat's by that many frames.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from villa import rules
from villa.match import FRAME, Match, MatchSetup
from villa.match import events as ev
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import OnlineMatch, Player
from villa.online.server import Room, Server
from villa.online.server.news import POSES_EVERY, STILL_CM
from villa.online.wire.door import Limits
from tests.conformance import screen

LOOPBACK = "127.0.0.1"
MOVABLE = frozenset(protocol.PIECES)
OPEN = Limits(rate=1e6, burst=1e6, silent_s=1e6)   # the script's pace is the test's, not a person's
QUIET_ROUNDS = 3        # network rounds in a row with nothing heard: the player has heard everything
ROUNDS = 2000           # network rounds at most to hear it (of 1 ms at most each)
HEARD_CM = 2 * STILL_CM        # a piece's pose heard is within what the server leaves unsaid of the last one
HAND_NEWS_EVERY = POSES_EVERY   # frames: online, a hand's new phase (or a pose) may trail the hot seat's by as long


# --- the script's steps ----------------------------------------------------------------------------------------

Make = Callable[[int, Match], rq.Request]


@dataclass(frozen=True)
class Ask:
    """A request for the seat the rules ask now, made from the hot seat's game as it stands (a column's place, the
    top floor's middle); `refused`: the code it must be refused with (None: accepted)."""

    make: Make
    refused: str | None = None


@dataclass(frozen=True)
class Frames:
    count: int


@dataclass(frozen=True)
class Until:
    """Frames until `holds(match)` comes true of the hot seat's game (at most `limit`): the online game steps as many."""

    holds: Callable[[Match], bool]
    limit: int = 1200
    why: str = ""
    both: bool = False      # online too: `holds` reads only the face both games have
    must: bool = True       # False: after `limit` frames the script goes on all the same


@dataclass(frozen=True)
class Repeat:
    """The steps again and again (at most `times`) until `holds(match)` comes true of the hot seat's game."""

    steps: tuple
    holds: Callable[[Match], bool]
    times: int = 200
    why: str = ""


@dataclass(frozen=True)
class Then:
    """Steps chosen when the script gets here, from the hot seat's game as it stands (which column to yank)."""

    choose: Callable[[Match], Iterable]


@dataclass(frozen=True)
class Check:
    """The script's own claim about the hot seat's game here (that it reached what it means to show)."""

    holds: Callable[[Match], bool]
    why: str


Step = Ask | Frames | Until | Repeat | Then | Check


class Reached(Exception):
    """Raised by a `watch` to end the script where it is."""


def ask(make: Callable[[int], rq.Request] | type, refused: str | None = None) -> Ask:
    """`ask(rq.Propose)`, `ask(lambda seat: rq.Answer(seat, True))`: a request needing nothing of the game."""
    return Ask(lambda seat, _match: make(seat), refused)


# --- what the two games are compared by ------------------------------------------------------------------------

def told(event) -> tuple:
    """An event as the conformance compares it: its kind and what it says."""
    if isinstance(event, ev.Accepted):
        return "accepted", event.action, event.after
    if isinstance(event, ev.Refused):
        return "refused", event.action, _code(event.error)
    if isinstance(event, ev.AnswerNeeded):
        return "asked", event.player, event.role
    if isinstance(event, ev.Collapsed):
        return "collapsed", event.collapse
    if isinstance(event, ev.RoundStarted):
        return "round", event.round
    if isinstance(event, ev.TurnSettled):
        return "settled", event.record.turn, event.record.actions
    if isinstance(event, ev.Touched):
        return "touched", event.piece
    if isinstance(event, ev.LetGo):
        return "let go", event.piece
    if isinstance(event, ev.GameOver):
        return "over", event.result
    if isinstance(event, ev.TimeUp):
        return "time up", event.player
    raise AssertionError(f"an event of no kind the game has: {event!r}")


def _code(error: Exception | None) -> str | None:
    return rq.Reply(error).code


def face(game) -> dict:
    """What a screen reads of a game in play (`villa.match.face.GameInPlay`), where no time has to pass for it."""
    hand = game.hand
    return {"state": game.state, "actor": game.actor, "over": game.over, "collapsed": game.collapsed,
            "floor to lay": game.can_lay_floor(), "roll": game.next_roll(), "holding": game.holding,
            "hand": None if hand is None else (getattr(hand, "piece", None) or hand.column, str(hand.state))}


# --- the two tables ----------------------------------------------------------------------------------------------

class Clock:
    """The online side's time: one frame's worth for each frame the villas step (and the player's aims with it)."""

    def __init__(self) -> None:
        self.frames = 0

    def __call__(self) -> float:
        return self.frames * FRAME


class Lockstep:
    """`online` False: the hot seat's game alone (to find a script's way, or to build screens on its steps);
    `hot_seat` False: the online game alone, the script reading the server's match (to bring a room to a step).
    `watch(tables)`, if given, is called after every step (it may raise `Reached` to end the script there)."""

    def __init__(self, setup: MatchSetup, online: bool = True, hot_seat: bool = True,
                 watch: Callable[["Lockstep"], None] | None = None) -> None:
        assert online or hot_seat, "a game is played somewhere"
        self.setup, self.hot_seat, self.watch = setup, hot_seat, watch
        self.heard: dict[str, list] = {"hot seat": [], "server": [], "online": []}
        self.steps = 0
        self.online: OnlineMatch | None = None
        self.seen = screen.Seen()     # what the screen's reads were compared by, and how often
        if hot_seat:
            self.local = Match(setup)
            self.local.events.subscribe(None, self.heard["hot seat"].append)
        if online:
            self._open()
            if not hot_seat:
                self.local = self.room.match     # what the script reads: the server's game
            self.compare("the game's start")

    def _open(self) -> None:
        """The server, its room for the game, and one player sitting at every seat."""
        setup = self.setup
        self.clock = Clock()
        self.server = Server(0, LOOPBACK, limits=OPEN)
        self.room = self.server.open(Room(protocol.new_room_code(), setup))
        self.carried_out = 0
        request = self.room.request

        def counted(client, message):
            self.carried_out += 1
            return request(client, message)
        self.room.request = counted
        self.player = Player(LOOPBACK, self.server.port, clock=self.clock)
        self._network(lambda: self.player.ready, "the player was never welcomed")
        self.player.enter(self.room.code)
        self._network(lambda: self.player.room is not None, "the player never entered the room")
        for seat, at in enumerate(setup.seats):
            self.player.sit(at.name, seat)
        self._network(lambda: len(self.player.seats) == len(setup.seats) and self.player.poses
                      and self.player.table.get("started"), "the game never started")
        self.online = OnlineMatch(self.player, clock=self.clock)
        self._hands: deque = deque(maxlen=HAND_NEWS_EVERY + 1)    # the hot seat's hand, frame by frame
        self.room.match.events.subscribe(None, self.heard["server"].append)
        self.online.events.subscribe(None, self.heard["online"].append)

    # --- the script ---

    def play(self, script: Iterable[Step]) -> None:
        for step in script:
            if isinstance(step, Repeat):
                self._repeat(step)
                continue
            if isinstance(step, Then):
                self.play(step.choose(self.local))
                continue
            self.steps += 1
            if isinstance(step, Ask):
                self.ask(step)
            elif isinstance(step, Frames):
                self.frames(step.count)
            elif isinstance(step, Until):
                self.until(step)
            elif isinstance(step, Check):
                assert step.holds(self.local), f"step {self.steps}: the script did not get there: {step.why}"
                continue
            if self.online is not None:
                self.compare(f"step {self.steps} ({_named(step)})")
            if self.watch is not None:
                self.watch(self)

    def _repeat(self, step: Repeat) -> None:
        for _ in range(step.times):
            if step.holds(self.local):
                return
            self.play(step.steps)
        assert step.holds(self.local), f"step {self.steps}: {step.why or 'repeat'} never came in {step.times} times"

    def ask(self, step: Ask) -> None:
        seat = rules.acting_player(self.local.state)
        assert seat is not None, f"step {self.steps}: nobody is asked, the game is over"
        request = step.make(seat, self.local)
        here = self.local.request(request) if self.hot_seat else _expected(step.refused)
        assert here.code == step.refused, f"step {self.steps}: {request} -> {here} on the hot seat"
        if self.online is None:
            return
        asked = self.player.asked
        there = self.online.request(request)
        if here.accepted:
            assert there.accepted and there.sent, f"step {self.steps}: {request} accepted on the hot seat, online {there}"
            assert self.player.asked == asked + 1, f"step {self.steps}: {request} sooner than a window sends aims"
            self._network(lambda: self.carried_out == self.player.asked, f"the server never carried out {request}")
        else:
            assert there.code == here.code, f"step {self.steps}: {request} refused as {here.code}, online {there}"

    def frames(self, count: int) -> None:
        for _ in range(count):
            self.frame()

    def until(self, step: Until) -> None:
        def holds() -> bool:
            return step.holds(self.local) and (not step.both or self.online is None or step.holds(self.online))
        for _ in range(step.limit):
            if holds():
                return
            self.frame()
        assert holds() or not step.must, f"step {self.steps}: {step.why or 'until'} never came in {step.limit} frames"

    def frame(self) -> None:
        """One frame of both villas; the online window hears what the server had to say of it."""
        if self.hot_seat:
            self.local.frame()
        if self.online is None:
            return
        self._hands.append((face(self.local)["hand"], self.local.holding))
        self.seen.felt = [*self.seen.felt[-HAND_NEWS_EVERY:], screen.felt(self.local)]
        self.server.frames(1)
        self.server.poll()
        self.clock.frames += 1
        self.online.advance(FRAME)

    # --- hearing everything, and comparing ---

    def _network(self, done: Callable[[], bool], why: str) -> None:
        for _ in range(ROUNDS):
            if done():
                return
            self.server.poll(0.001)
            self.player.poll()
        raise AssertionError(f"step {self.steps}: {why}")

    def hear_everything(self) -> None:
        """The network until the player hears nothing more: every message the server sent is heard and told (or, if
        the window tells fewer events than the server's match, until that has been waited out)."""
        quiet = 0
        for _ in range(ROUNDS):
            heard = self.player.link.bytes_in
            self.server.poll(0.001)
            self.online.advance(0.0)
            quiet = quiet + 1 if self.player.link.bytes_in == heard else 0
            if quiet >= QUIET_ROUNDS and len(self.heard["online"]) >= len(self.heard["server"]):
                return
        # still short of events after this long: what was heard is compared as it is

    def compare(self, where: str) -> None:
        self.hear_everything()
        if not self.hot_seat:
            return
        local, server, online = ([told(e) for e in self.heard[k]] for k in ("hot seat", "server", "online"))
        assert server == local, f"{where}: the server's match told another game than the hot seat's"
        first = next((n for n, (a, b) in enumerate(itertools.zip_longest(local, online)) if a != b), None)
        assert first is None, (f"{where}: event {first} differs: hot seat {local[first:first + 3]}, "
                               f"online {online[first:first + 3]}")
        differ = self._differ()
        if not (set(differ) <= {"hand", "holding"} and (face(self.online)["hand"], self.online.holding) in self._hands):
            assert not differ, f"{where}: the faces differ (hot seat, online): {differ}"
        # else the window hears of the hand's new phase with the next pose news
        at_rest = not self.local.busy and not self.online.busy
        differ = screen.compare(self.local, self.online, self.seen, at_rest)
        assert not differ, f"{where}: the screen reads otherwise (hot seat, online): {differ}"

    def _differ(self) -> dict:
        here, there = face(self.local), face(self.online)
        if not self.local.busy and not self.online.busy:      # at rest, the same pieces stand in both villas
            here["pieces"], there["pieces"] = _pieces(self.local.villa), _pieces(self.online.villa)
        return {key: (here[key], there[key]) for key in here if here[key] != there[key]}

    def finish(self) -> None:
        """The end of the script: the same rules' state and faces, the very same wood on the server as at the hot
        seat, the villa heard where the server has it, the same turns written down (online: the finished game's
        record in the window)."""
        if self.online is None:
            return
        self.frames(HAND_NEWS_EVERY)      # the server's last poses go out with its next pose news
        self.compare("the end")
        local, server = self.local, self.room.match
        assert _rounded(server.villa.poses()) == _rounded(local.villa.poses()), "the server's villa stands otherwise"
        assert [(t.turn, t.actions) for t in server.turns] == [(t.turn, t.actions) for t in local.turns]
        assert self.online.turn == local.turn
        heard = self.player.poses
        for piece, ((x, y, z), _quat) in protocol.poses_of(server.villa).items():
            (hx, hy, hz), _heard_quat = heard[piece]
            assert max(abs(x - hx), abs(y - hy), abs(z - hz)) < HEARD_CM, f"{piece} is heard elsewhere"
        assert set(self.online.villa.nodes) == set(local.villa.nodes), "the villa heard has other pieces"
        if local.over:
            self._network(lambda: self.player.finished is not None, "the finished game's record never came")
            record = self.player.finished
            assert record.state == local.state and [t.actions for t in record.turns] == [t.actions for t in local.turns]

    def close(self) -> None:
        if self.online is not None:
            self.player.close()
            self.server.close()
            self.online.close()
        if self.hot_seat:
            self.local.close()


def _pieces(villa) -> frozenset[str]:
    return frozenset(piece for piece in villa.nodes if piece in MOVABLE)


class _Expected(Exception):
    """Online alone: the refusal the script expects, for the window's own to be compared with."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _expected(refused: str | None) -> rq.Reply:
    return rq.Reply(None if refused is None else _Expected(refused))


def _rounded(poses: dict) -> dict:
    return {piece: (tuple(round(v, 6) for v in pos), tuple(round(v, 6) for v in quat))
            for piece, (pos, quat) in poses.items()}


def _named(step: Step) -> str:
    return type(step).__name__
