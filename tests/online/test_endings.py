"""Every way a connection ends is told as what it is, and a game under way is found again by itself.

Between each player and the server stands a line of the test's own (`Line`): it passes the bytes on, and cuts them as
the world does: the other side hangs up (its process killed: the kernel closes its sockets), resets the connection,
falls silent (a laptop asleep), or sends what breaks the wire's form. The window hosting a game closes (its goodbye
names her); the server stops. A player in a game under way looks for it again, waiting longer between tries, for as
long as it is let; it comes back by itself when the room is there again; and only a message that really broke the
wire's form is said to be one.
"""

from __future__ import annotations

import selectors
import socket
import struct
import threading
import time

import pytest

from villa import rules
from villa.app.server_identity import own_identity
from villa.match import Strength
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client import OnlineMatch, Player
from villa.online.client import player as players
from villa.online.client.play import AIMS_EVERY
from villa.online.client.player import RETRY_MAX_S, retry_wait
from villa.online.client.seats_now import SeatsNow
from villa.online.protocol import Online, OnlineError
from villa.online.server import Room, Server
from villa.online.wire.codec import WireError
from villa.online.wire.frames import frame
from villa.presentation import words
from tests.online.conftest import LOOPBACK, Kept, players_until, run, two_seats


class Line:
    """A TCP line between players and a server: every connection made to it is passed on to `port`, both ways, in a
    thread of its own, until cut. `cut(how)`: "hang up" (closed, as a killed process's sockets are), "reset" (an RST),
    "mute" (nothing passes either way, the sockets stay open), "garble" (a frame no message reads goes to the
    player); `refuse` makes new connections fail at once (nobody listens), `mend` lets them through again."""

    def __init__(self, port: int) -> None:
        self.to = port
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind((LOOPBACK, 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.muted, self.refusing, self.stop = False, False, threading.Event()
        self.asked: list[str] = []          # cuts asked for, carried out by the line's own thread
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._carry, daemon=True)
        self.thread.start()

    def _carry(self) -> None:
        chosen = selectors.DefaultSelector()
        chosen.register(self.listener, selectors.EVENT_READ, None)
        while not self.stop.is_set():
            while self.asked:
                self._cut(chosen, self.asked.pop(0))
                self.done.set()
            for key, _events in chosen.select(0.01):
                if key.data is None:
                    near, _where = self.listener.accept()
                    if self.refusing:
                        near.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        near.close()
                        continue
                    try:
                        far = socket.create_connection((LOOPBACK, self.to), timeout=2)
                    except OSError:
                        near.close()
                        continue
                    self.pairs.append((near, far))
                    chosen.register(near, selectors.EVENT_READ, far)
                    chosen.register(far, selectors.EVENT_READ, near)
                elif not self.muted:
                    try:
                        data = key.fileobj.recv(65536)
                    except OSError:
                        data = b""
                    if data:
                        try:
                            key.data.sendall(data)
                            continue
                        except OSError:
                            pass
                    self._drop(chosen, key.fileobj, key.data)
        for near, far in self.pairs:
            self._drop(chosen, near, far)
        chosen.close()

    def _drop(self, chosen, *ends) -> None:
        for end in ends:
            try:
                chosen.unregister(end)
            except (KeyError, ValueError):
                pass
            end.close()
        self.pairs = [pair for pair in self.pairs if pair[0] not in ends and pair[1] not in ends]

    def _cut(self, chosen, how: str) -> None:
        if how == "mute":
            self.muted = True
            return
        for near, far in list(self.pairs):
            if how == "garble":
                near.sendall(frame(b"\xff\x00"))
                continue
            if how == "reset":
                near.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self._drop(chosen, near, far)

    def cut(self, how: str) -> None:
        self.done.clear()
        self.asked.append(how)
        assert self.done.wait(5)

    def refuse(self, refusing: bool = True) -> None:
        self.refusing = refusing

    def mend(self) -> None:
        self.muted, self.refusing = False, False

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.listener.close()


@pytest.fixture
def line(server):
    line = Line(server.port)
    yield line
    line.close()


def _in_a_game(server: Server, port: int, hosted_at: int | None = None,
               insecure: bool = False) -> tuple[Room, Player, Player]:
    """Anna and Ben at a game under way, through the line at `port`; its room kept in memory. Each player holds the
    server to the certificate it showed first (`insecure`: in the clear, to a server started so)."""
    kept = Kept()
    room = server.open(Room(protocol.new_room_code(), two_seats(), keep=kept, hosted_at=hosted_at))
    room.store = kept
    anna, ben = Player(LOOPBACK, port, insecure=insecure), Player(LOOPBACK, port, insecure=insecure)
    assert run(server, lambda: anna.ready and ben.ready, seconds=10)
    for seat, (player, name) in enumerate(((anna, "Anna"), (ben, "Ben"))):
        player.enter(room.code)
        assert run(server, lambda p=player: p.room is not None, seconds=10)
        player.sit(name, seat)
    assert run(server, lambda: anna.seats and ben.seats and room.match is not None and ben.poses
               and ben.table.get("started") and anna.table.get("started"), seconds=20)   # both know it is under way
    return room, anna, ben


def _looking(player: Player, code: Online, seconds: float = 10.0) -> None:
    assert players_until(lambda: player.rejoining is not None or player.lost, seconds), "it noticed nothing"
    assert not player.lost and isinstance(player.lost_why, OnlineError) and player.lost_why.code is code, \
        (player.lost, player.lost_why, player.trouble)


@pytest.mark.parametrize("how, code", [("hang up", Online.HUNG_UP), ("reset", Online.RESET)])
def test_a_server_that_hangs_up_or_resets_is_looked_for_again_and_said_so_truly(server, line, how, code):
    room, anna, ben = _in_a_game(server, line.port)
    line.cut(how)
    _looking(ben, code)
    cut = SeatsNow(ben).cut_off()
    said = words.cut_off(cut)
    assert said == {Online.HUNG_UP: "The game server closed the connection without a word. You will be back in the "
                                    "game as soon as it answers again.",
                    Online.RESET: "The connection to the game server was reset. You will be back in the game as "
                                  "soon as it answers again."}[code]
    assert "cannot read" not in said and "another" not in said
    assert run(server, lambda: ben.came_back == 1 and ben.ready and anna.came_back == 1, seconds=20), \
        "the server is still there: both are back by themselves"
    assert room.seating.connection(1) is not None and SeatsNow(ben).cut_off() is None


def test_a_server_gone_silent_is_looked_for_and_the_window_comes_back_when_it_answers(server, line, monkeypatch):
    monkeypatch.setattr(players, "SILENT_S", 1.0)
    room, anna, ben = _in_a_game(server, line.port)
    line.cut("mute")                  # a laptop asleep: nothing comes, nothing goes, nothing is closed
    end = time.monotonic() + 10
    while ben.rejoining is None and time.monotonic() < end:
        server.poll()
        ben.poll()
        anna.poll()
        time.sleep(0.01)
    _looking(ben, Online.SILENT)
    assert words.cut_off(SeatsNow(ben).cut_off()).startswith("The game server has stopped answering.")
    line.mend()                       # it wakes
    assert run(server, lambda: ben.came_back == 1 and ben.ready, seconds=30)


def test_a_message_that_breaks_the_wires_form_is_the_only_one_said_to_be_unreadable():
    server = Server(0, LOOPBACK, insecure=True)       # in the clear: a frame between the two is read as it comes
    line = Line(server.port)
    try:
        room, anna, ben = _in_a_game(server, line.port, insecure=True)
        line.cut("garble")
        assert players_until(lambda: ben.lost and anna.lost)
    finally:
        line.close()
        server.close()
    assert isinstance(ben.trouble, WireError) and ben.rejoining is None, "it is not looked for on that server again"
    assert words.connection_ended(ben.trouble) == ("The server sent something this game cannot read, and the "
                                                   "connection closed.")


def test_bytes_garbled_on_an_encrypted_line_are_caught_by_its_encryption_not_said_to_be_unreadable(server, line):
    room, anna, ben = _in_a_game(server, line.port)
    line.cut("garble")
    assert players_until(lambda: ben.lost and anna.lost)
    assert isinstance(ben.trouble, OnlineError) and ben.trouble.code is Online.TLS_FAILED and ben.rejoining is None
    assert "cannot read" not in words.connection_ended(ben.trouble)


def test_a_server_of_another_version_found_while_looking_ends_the_looking_and_says_so(server, line, monkeypatch):
    room, anna, ben = _in_a_game(server, line.port)
    monkeypatch.setattr(players.m, "GAME", "0.0.0-another")     # Ben's window: another version from now on
    line.cut("hang up")
    assert run(server, lambda: ben.lost, seconds=20)
    assert ben.trouble.code is Online.VERSION
    assert words.connection_ended(ben.trouble).startswith("The server plays another version of the game")


def test_a_host_gone_back_to_the_menus_is_said_so_not_that_her_window_closed(line, tmp_path):
    server = Server(0, LOOPBACK, identity=own_identity(tmp_path / "tls"))
    try:
        line.to = server.port
        _room, anna, ben = _in_a_game(server, line.port, hosted_at=0)
        anna.close()
        server.close(host_to_menu=True)     # the main menu's button, in her window: the window stays open
    except BaseException:
        server.close()
        raise
    _looking(ben, Online.HOST_LEFT)
    cut = SeatsNow(ben).cut_off()
    assert words.cut_off(cut) == ("Anna went back to the menus, and the game stopped with it. It is kept on Anna's "
                                  "computer from the last settled turn: you will be back in it when Anna picks "
                                  "Continue.")
    assert words.connection_ended(ben.lost_why) == "Anna went back to the menus, and the game stopped with it."
    assert "window" not in words.cut_off(cut)


def test_the_window_hosting_a_game_closes_its_guests_are_told_who_and_come_back_when_she_opens_it_again(line,
                                                                                                     monkeypatch,
                                                                                                     tmp_path):
    monkeypatch.setattr(players, "BACKOFF", ((1.0, 0.5),))     # the minutes of waiting longer, in seconds
    monkeypatch.setattr(players, "RETRY_MAX_S", 2.0)
    server = Server(0, LOOPBACK, identity=own_identity(tmp_path / "tls"))     # her data folder's certificate
    port = server.port
    try:
        line.to = port
        room, anna, ben = _in_a_game(server, line.port, hosted_at=0)
        assert ben.table["hosted_at"] == 0 and room.kept()[1]["hosted_at"] == 0
        shown = ben.fingerprint       # the certificate Ben's window checked, and holds her address to
        kept: Kept = room.store
        anna.close()                  # her window's own player goes with it
        server.close()                # her window closes: its server says goodbye
    except BaseException:
        server.close()
        raise
    _looking(ben, Online.HOST_LEFT)
    assert ben.lost_why.values["host"] == "Anna"
    cut = SeatsNow(ben).cut_off()
    assert cut.host == "Anna" and not cut.fleet
    assert words.cut_off(cut) == ("Anna's window, which hosted this game, has closed. The game is kept on Anna's "
                                  "computer from the last settled turn: you will be back in it when Anna opens the "
                                  "game and picks Continue.")
    assert words.cut_off_headline(cut).startswith("Cut off from Anna's window: ")
    assert words.connection_ended(ben.lost_why) == "Anna's window, which hosted this game, has closed."
    line.refuse()                     # nothing listens there: her window is closed
    assert players_until(lambda: ben.next_try_in is not None and ben.next_try_in > 0.9, 10), "it waits longer"

    # she opens the game and picks Continue: her room again, on its port, with the certificate kept in her folder
    again = Server(port, LOOPBACK, identity=own_identity(tmp_path / "tls"))
    try:
        assert again.fingerprint == server.fingerprint == shown
        line.mend()
        record, seats = kept.records[-1], kept.seats
        back = again.open(Room.taken_up(record, seats, keep=Kept()))
        assert back.hosted_at == 0 and back.code == room.code
        assert run(again, lambda: ben.came_back == 1 and ben.ready and 1 in ben.seats, seconds=30)
        assert ben.fingerprint == shown, "the check it made first passed again"
        assert not back.seating.sitters[0].client and back.seating.connection(1) is not None
        assert SeatsNow(ben).cut_off() is None
    finally:
        again.close()


def test_a_host_back_with_another_certificate_ends_the_looking_and_says_nothing_was_sent_to_it(line, monkeypatch):
    monkeypatch.setattr(players, "BACKOFF", ((1.0, 0.5),))
    server = Server(0, LOOPBACK)
    port = server.port
    try:
        line.to = port
        room, anna, ben = _in_a_game(server, line.port, hosted_at=0)
        kept: Kept = room.store
        anna.close()
        server.close()
    except BaseException:
        server.close()
        raise
    _looking(ben, Online.HOST_LEFT)
    again = Server(port, LOOPBACK)    # a new certificate: not the one Ben's window checked (someone in between?)
    try:
        again.open(Room.taken_up(kept.records[-1], kept.seats, keep=Kept()))
        assert run(again, lambda: ben.lost, seconds=20), "the looking ends"
        assert ben.trouble.code is Online.CERT_CHANGED and ben.rejoining is None and not ben.came_back
        assert "nothing was sent to it" in words.connection_ended(ben.trouble)
        assert not again.rooms[room.code].seating.connection(1), "not a byte of the game went to it"
    finally:
        again.close()


def test_a_server_that_stopped_keeps_its_players_looking_with_the_words_for_it(server, line):
    room, anna, ben = _in_a_game(server, line.port)
    for room_now in list(server.rooms.values()):
        server._close_room(room_now, Online.CLOSING)       # the server stops (its door's goodbye to everyone)
    _looking(ben, Online.CLOSING)
    assert words.cut_off(SeatsNow(ben).cut_off()) == ("The game server stopped. It keeps the game from the last "
                                                       "settled turn: you will be back in it when the server runs "
                                                       "again.")


def test_the_wait_between_tries_grows_the_longer_it_looks_and_the_looking_never_gives_up():
    assert [retry_wait(s) for s in (0, 9.9, 10, 29, 30, 59, 60, 3600)] == [0.5, 0.5, 2.0, 2.0, 5.0, 5.0, RETRY_MAX_S,
                                                                          RETRY_MAX_S], "a fleet's seconds first"

    now = [0.0]
    player = Player(LOOPBACK, 9, clock=lambda: now[0])     # a room under way whose server is gone
    player.room_code, player.table = "ABCDE", {"started": True}
    player.state = rules.new_game(two_seats().rules_setup())
    player.seats = {1: "token"}
    player._end(OnlineError(Online.HUNG_UP))
    for _ in range(200):            # an hour and more of tries, on the test's clock
        now[0] += 30.0
        player.poll()
        if player._dialling is not None:
            player._dialling.cancel()
            player._dialling = None
            player._end(OnlineError(Online.UNREACHABLE, why="refused"))
    assert not player.lost and player.rejoining is not None and player._tried >= 100
    assert player.lost_why.code is Online.HUNG_UP, "why it looks stays what happened first"
    player.close()
    assert player.lost and player.rejoining is None, "closed: it looks no more"


def test_a_seat_given_away_while_the_player_looked_ends_the_looking_with_that(server, line):
    room, anna, ben = _in_a_game(server, line.port)
    line.cut("hang up")
    _looking(ben, Online.HUNG_UP)
    line.refuse()
    assert run(server, lambda: room.seating.connection(1) is None, seconds=10)
    room.seating.give_up_seat(1)       # (its token is worth nothing now: as if given to a computer player)
    line.mend()
    assert run(server, lambda: ben.lost and anna.came_back == 1, seconds=30)
    assert ben.trouble.code is Online.UNKNOWN_TOKEN


def test_a_player_who_leaves_for_good_is_told_to_the_room_and_their_seat_waits_for_the_host(server):
    room, anna, ben = _in_a_game(server, server.port)
    ben.close(for_good=True)
    assert run(server, lambda: anna.table["seats"][1].get("left") is True, seconds=10)
    away = SeatsNow(anna).away(1)
    assert away.for_good and 590 < away.kept_s <= 600
    assert SeatsNow(anna).hosting and room.seating.sitters[1].for_good
    assert room.kept()[1]["seats"]["1"]["for_good"] is True, "kept so, for a room taken up again"
    assert words.waiting_for(anna.state, 1, away, hosting=True) == (
        "Ben has left the game for good: a computer player may take the seat, with the button below")
    anna.give_to_computer(1, Strength.MEDIUM)
    assert run(server, lambda: SeatsNow(anna).stand_in(1), seconds=10), "a computer plays Ben's seat, marked so"
    assert room.kept()[1]["stand_ins"] == [1]


def test_the_hosts_computer_for_a_seat_outlasts_her_window_closing_and_coming_back(line):
    """Anna's window hosts; she gives Ben's seat to a computer; her window closes before another turn is settled;
    the room opened again from what was kept still has the computer at Ben's seat, marked so."""
    server = Server(0, LOOPBACK)
    port = server.port
    try:
        line.to = port
        room, anna, ben = _in_a_game(server, line.port, hosted_at=0)
        turns = len(room.store.records)
        anna.give_to_computer(1, Strength.MEDIUM)
        assert run(server, lambda: ben.lost and SeatsNow(anna).stand_in(1), seconds=10)
        assert len(room.store.records) > turns, "kept at once, not at the next settled turn"
        kept = room.store
        anna_token = anna.seats[0]
        anna.close()
        server.close()
    except BaseException:
        server.close()
        raise
    again = Server(port, LOOPBACK)
    try:
        back = again.open(Room.taken_up(kept.records[-1], kept.seats, keep=Kept()))
        assert back.match.setup.seats[1].is_computer and back.seating.stand_ins == {1}
        anna = Player(LOOPBACK, port)
        anna.rejoin(anna_token, back.code)
        assert run(again, lambda: 0 in anna.seats and anna.poses, seconds=10)
        assert SeatsNow(anna).stand_in(1) and SeatsNow(anna).hosting
        assert anna.table["seats"][1]["computer"] == Strength.MEDIUM.value
    finally:
        again.close()


def test_a_window_back_in_its_game_after_asking_much_hears_its_own_hand_again(server, line):
    """The room counts a connection's requests from its entering: a window that came back (after a pull and many
    aims) holds what it lowers, and lets it go, as the server's hands have it."""
    room, anna, ben = _in_a_game(server, line.port)
    ahead = [0.0]        # the window's clock, put forward by the time a window takes between two aims it sends
    match = OnlineMatch(ben, clock=lambda: time.monotonic() + ahead[0])

    def aim(point) -> None:
        """The pointer moved: the window sends its aim (one each AIMS_EVERY: a quick machine reaches the next
        aim sooner, and the window would only draw it), and the server runs two frames."""
        ahead[0] += AIMS_EVERY
        match.request(rq.Aim(1, point))
        run(server, lambda: match.advance(1 / 60) and False, frames=2)
    seat = rules.acting_player(match.state)
    assert seat == 1, "Ben moves first"
    column = sorted(rules.grabbable_columns(match.state))[0]
    (x, y, z), _quat = ben.poses[column]
    match.request(rq.Take(1, column, (x, y, z)))
    for step in range(30):                              # many aims: the window asked much of the first connection
        aim((x * (1 + step / 60), y * (1 + step / 60), z))
    asked = ben.asked
    line.cut("hang up")
    assert run(server, lambda: match.advance(1 / 60) and ben.rejoining is not None, seconds=10)
    assert match.hand is None, "cut off: nothing in this window's hand"
    assert run(server, lambda: match.advance(1 / 60) and ben.came_back == 1 and ben.ready and ben.poses, seconds=20)
    assert run(server, lambda: match.advance(1 / 60) and match.hand is not None, seconds=20), \
        "the column the server's hands kept is taken up again at this window"
    assert ben.asked < asked, "counted again from the new connection"
    top = max(pose[0][2] for piece, pose in ben.poses.items() if piece.startswith("floor"))
    for step in range(1, 21):                           # out, then over the top floor
        f = step / 20
        aim((x * (1 + 1.5 * f), y * (1 + 1.5 * f), z))
    for step in range(1, 21):                           # up, clear of the villa, as a hand carries it
        f = step / 20
        aim((x * 2.5, y * 2.5, z + (top + 15 - z) * f))
    for step in range(1, 21):                           # then in, over the top floor
        f = step / 20
        aim((x * 2.5 * (1 - f), y * 2.5 * (1 - f), top + 15))
    assert rules.acting_player(match.state) == 1 and room.match.villa.collapse is None, \
        "carried round the villa, not through it: it stands, and it is still Ben's move"
    assert match.request(rq.SetDown(1, hold=True)).refusal is None
    assert run(server, lambda: match.advance(1 / 60) and match.holding, seconds=20), \
        "the server's hands hold it, and this window hears so"
    assert match.request(rq.LetGo(1)).refusal is None
    assert run(server, lambda: match.advance(1 / 60) and rules.acting_player(room.match.state) == 0, seconds=30), \
        "set on the top floor: Anna's turn"
