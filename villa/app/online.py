"""Play online from the window: the online menu, hosting (a server inside the game's own process, or a room
opened on a dedicated server), joining, the lobby, and rejoining a seat kept in the settings.

Everything waits in the window's own loop (a task looks each frame), never by blocking it: the screen says
"Connecting to …" at once, with Cancel, and a connection that does not come within `CONNECT_S`, a room that
is not there, a refusal, each ends as one sentence on the screen the player was on, with what they typed
kept. A server that closes the connection (saying why in its goodbye), sends what cannot be read, or goes
silent leaves the player on the online menu with that one sentence. Once the room's table says the game
started, the game screen takes the player over (`Front.play_online`).

Every connection is TLS, the server checked before a byte is sent (`villa.online.client.trust`: an invite's pin,
a CA's certificate for the host's name, or the certificate the address showed before, kept in
`known_servers.json`), unless the window was started with `--insecure`. A game hosted here shows the certificate
kept in the data folder (`tls/`, as a dedicated server does), and its fingerprint is `fingerprint(play)`.

Leaving the lobby closes the connection; a host who leaves before the game started also stops the server
inside the game (the room goes with it, and the guests are told the connection was lost). Once a game is
under way the server runs on until its host goes back to the main menu or quits; its room is kept in her data
folder, her seat in her settings as everyone's is, and the main menu's Continue opens the room again (the same code,
on the same port where it is free, showing the same certificate) and seats her; her guests, who looked for it all
the while, come back by themselves.

Joining a room where this window keeps a seat takes that seat back; opening or joining another room while the
window keeps a seat in a game under way asks first, and a seat given up is told to its room.

A game hosted here asks the home's router to forward its port (`villa.online.router`, in a thread of its own),
and the lobby shows the invite to send friends (`sharing`): the router's public address once it answered,
else this computer's address on its network, with what the router said. An invite pasted into Join, or
given to `--join`, names the server, the room and the certificate's fingerprint (`pin`).
"""

from __future__ import annotations

import logging
import os
import socket
import time

from villa.app.addresses import Trouble, host_port, parse_address, parse_port
from villa.app.dedicated import rooms_dir, tls_dir
from villa.app.kept_seat import SeatKept
from villa.app.known_servers import KnownServersFile
from villa.app.room_files import RoomFiles
from villa.app.server_identity import own_identity
from villa.match import MatchSetup
from villa.match.setup import clean_name
from villa.online import protocol
from villa.online.client import Player
from villa.online.client.player import CONNECT_S
from villa.online.client.trust import Trust
from villa.online.invite import Invite, InviteError, Reach, Sharing, code_in, looks_like_invite, parse_invite
from villa.online.protocol import Online, OnlineError
from villa.online.router import PortOpening, Step
from villa.online.server import Room, Server
from villa.presentation import menus
from villa.presentation.menus.lobby import LobbyScreen
from villa.presentation.menus.online import HostScreen, JoinScreen, OnlineMenu, host_words, plan_words, trouble_words
from villa.presentation import words
from villa.presentation.words import connection_ended, refusal

log = logging.getLogger(__name__)

WAIT_S = 5.0              # for a server's answer (connected, the room seen, seated, a room opened)
FREE_PORTS = 20           # ports tried from protocol.PORT on, when the player chose none


def parse_invite_or_address(text: str) -> tuple[str, int, str | None, str | None]:
    """What the join form's first line holds: (host, port, the invite's room code or None, its fingerprint or
    None). Trouble("bad invite") or Trouble("bad address") for anything else."""
    if not looks_like_invite(text):
        return (*parse_address(text), None, None)
    try:
        invite = parse_invite(text)
    except InviteError as error:
        raise Trouble("bad invite", why=error.code.value, **error.values) from None
    return invite.host, invite.port, invite.code, invite.fingerprint


def last_name(settings) -> str:
    """The first person's name of the last game set up on this computer ("": none yet)."""
    people = [name for name, strength in settings.last_seats if strength is None]
    return people[0] if people else ""


def login_name() -> str:
    """The name this computer knows its player by ("" where it has none), as a name at a table is written."""
    for variable in ("USER", "USERNAME", "LOGNAME"):
        name = clean_name(os.environ.get(variable, ""))
        if name and name != "root":
            return name[0].upper() + name[1:]
    return ""


def local_address() -> str:
    """This machine's address on its network, as friends type it (no packet is sent to find it)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class OnlinePlay:
    """The online menus of one window, for its `Front`; at most one connection (and one hosted server)."""

    def __init__(self, front) -> None:
        self.front = front
        self.player: Player | None = None
        self.server: Server | None = None
        self.address = ""          # the server as shown and kept: host:port
        self.name = ""             # who sits down (typed on the join screen, or the host's seat's name)
        self.opening: PortOpening | None = None   # the home's router asked to forward a server hosted here
        self.plan: MatchSetup | None = None   # the host's game, as last sent
        self.lobby: LobbyScreen | None = None
        self.playing = False       # the game screen has the player
        self._waits: list = []
        self._heard = 0            # refusals already said
        self.kept = SeatKept(front)   # the seat kept in the settings to rejoin
        self.moved: tuple[int, int] | None = None    # a room hosted again here, on another port than before
        self.trust = Trust(KnownServersFile())   # the servers reached before, and their certificates
        self.insecure = front.insecure            # --insecure: no TLS, to reach a server started so
        self._task = None

    # --- the menus ---

    def menu(self, notice: str = "") -> None:
        front = self.front
        kept = self.kept.waiting()
        front._open(OnlineMenu(on_host=self.choose_game, on_join=self.join_form, on_rejoin=self.rejoin,
                               on_back=front.main_menu, rejoin_code=kept.code if kept else None, notice=notice,
                               insecure=self.insecure))

    def take_up_seat(self) -> None:
        """The main menu's Continue, for a seat kept online: the online menu, already on its way back to it."""
        self.menu()
        self.rejoin()

    def choose_game(self, plan: MatchSetup | None = None) -> None:
        """The new-game screen (showing `plan`'s players and rules, coming back), its way on leading to where
        to host."""
        choices = menus.GameChoices(plan.seats, plan.ruleset) if plan is not None else None
        self.front.new_game(choices, start_words=host_words(), on_back=self.menu, then=self.where_to_host)

    def where_to_host(self, plan: MatchSetup) -> None:
        self.plan = plan
        def back() -> None:       # a server being reached is let go
            self.close()
            self.choose_game(plan)
        self.front._open(HostScreen(port=protocol.PORT, address=self.address, on_here=self.host_here,
                                    on_server=self.host_on_server, on_back=back))

    def join_form(self, invite: str = "", name: str = "") -> None:
        def back() -> None:       # a server being reached is let go
            self.close()
            self.menu()
        name = name or self.name or last_name(self.front.settings)
        self.front._open(JoinScreen(address=invite or self.address, code=code_in(invite), name=name,
                                    on_join=self.join, on_back=back))

    def adopt(self, player: Player, address: str, name: str = "") -> None:
        """A player the command line seated (`--join`): watched as a player seated through the menus is, their seat
        kept in the settings (offered by Rejoin, taken back by the next `--join`) until the game is over."""
        self.leave()
        self.player, self.address, self.name = player, address, name
        self._heard = len(player.refusals)
        self._task = self.front.stage.task_mgr.add(self._watch, "villa-online")

    # --- the ways in ---

    def host_here(self, port_text: str) -> None:
        if self.kept.ask_first(None, lambda: self.host_here(port_text)):
            return
        screen = self.front.menu
        self.close()
        try:
            port = parse_port(port_text)
            self.server = self._serve(port)
        except Trouble as trouble:
            screen.tell_trouble(trouble.code, **trouble.values)
            return
        seat = next(n for n, s in enumerate(self.plan.seats) if not s.is_computer)     # where the host sits
        room = Room(protocol.new_room_code(), self.plan, keep=self.server.store, aside=True, waits_for_host=True,
                    hosted_at=seat)
        self.server.open(room)
        self.address = host_port(local_address(), self.server.port)
        self.opening = PortOpening(self.server.port).start()      # friends beyond the home's router
        self._connect("127.0.0.1", self.server.port, screen, lambda: self._enter(room.code, screen, self._sit_host),
                      pin=self.server.fingerprint)

    def _serve(self, port: int | None, or_another: bool = False) -> Server:
        """A server in this window on `port` (`or_another`: else the first free from the game's own; None: any),
        showing the certificate kept in the data folder (the same each time: a guest's pin still holds)."""
        others = list(range(protocol.PORT, protocol.PORT + FREE_PORTS))
        ports = others if port is None else [port, *others] if or_another else [port]
        identity = None if self.insecure else own_identity(tls_dir())
        for number in ports:
            try:
                server = Server(number, "", store=RoomFiles(rooms_dir(), replays=False), aside=True,
                                identity=identity, insecure=self.insecure)
            except OSError as error:
                log.info("no server on port %s: %s", number, error)
                continue
            server.start(self.front.stage.task_mgr)
            return server
        raise Trouble("port busy", port=port if port is not None else protocol.PORT)

    def host_on_server(self, address_text: str) -> None:
        screen = self.front.menu
        try:
            host, port = parse_address(address_text)
        except Trouble as trouble:
            screen.tell_trouble(trouble.code, **trouble.values)
            return
        if self.kept.ask_first(None, lambda: self.host_on_server(address_text)):
            return
        self.address = host_port(host, port)

        def opened() -> None:     # the server's answer enters the room it opened
            self.player.open_room(self.plan)
            self._wait(lambda: self.player.room is not None, self._sit_host, not_opened,
                       failed=lambda: bool(self.player.refusals))

        def not_opened() -> None:   # the server's refusal (a full server, a plan it cannot play), or silence
            refusals = self.player.refusals
            if refusals and not self.player.lost:
                self.close()
                screen.tell_trouble(refusals[-1])
            else:
                self._late(screen, "not opened", address=self.address)
        self.close()
        self._connect(host, port, screen, opened)

    def join(self, address_text: str, code: str, name: str) -> None:
        """Into the room with this code, or an invite's (the first line; its fingerprint the one the server's
        certificate must have): the seat this window keeps there taken back, or the lobby (a game under way whose
        seats are taken is watched)."""
        screen = self.front.menu
        try:
            host, port, invited, pin = parse_invite_or_address(address_text)
            code = invited or code
            if not protocol.typed_code(code):
                raise Trouble("no code")
            if protocol.room_code(code) is None:
                raise Trouble("bad code", code=protocol.typed_code(code), unused=protocol.UNUSED_LETTERS)
        except Trouble as trouble:
            screen.tell_trouble(trouble.code, **trouble.values)
            return
        if not name:
            screen.tell(refusal(OnlineError(Online.NO_NAME)))
            return
        code = protocol.room_code(code)
        if self.kept.ask_first(code, lambda: self.join(address_text, code, name)):
            return
        self.address, self.name = host_port(host, port), name
        kept = self.kept.waiting()
        if kept is not None and kept.code == code:
            self.rejoin(self.address, pin)       # the seat kept there, with its token
            return
        self._connect(host, port, screen, lambda: self._enter(code, screen, self.open_lobby), pin=pin)

    def seated(self, player: Player, address: str, name: str) -> None:
        """A player the command line seated (`--join`): the lobby and the game as from the menus, the seat kept in
        the settings so that a window closed or killed can take it back with the menu's Rejoin."""
        self.adopt(player, address, name)
        self.open_lobby()

    def invited(self, invite: Invite) -> None:
        """An invite the desktop opened the game with (a link clicked in a chat): into its room as Join goes
        (the lobby, to choose a seat, or the seat this window keeps there), under the name last played with here,
        or else the computer's login name; with neither, the join form, filled in, asks for one."""
        name = last_name(self.front.settings) or login_name()
        self.join_form(str(invite), name)
        if name:
            self.join(str(invite), invite.code, name)
        else:
            self.front.menu.tell(refusal(OnlineError(Online.NO_NAME)))

    def rejoin(self, address: str | None = None, pin: str | None = None) -> None:
        """The seat kept in the settings taken back (at `address`, as typed: the room there with its code; `pin`:
        an invite's fingerprint); one this window hosted, in a room opened again here from this computer's files,
        on its port where it is free, with the certificate kept in its data folder."""
        screen, kept = self.front.menu, self.kept.waiting()
        if kept is None:
            return      # it waited too long, since the menu offered it
        try:
            host, port = parse_address(address or kept.address)
            if kept.hosts and address is None:
                self.close()
                self.server = self._serve(port, or_another=True)
                self.moved = (port, self.server.port) if self.server.port != port else None
                host, port, pin = "127.0.0.1", self.server.port, self.server.fingerprint
                address = host_port(local_address(), port)
                self.opening = PortOpening(port).start()      # friends beyond the home's router, again
        except Trouble as trouble:
            if trouble.code == "port busy":
                screen.tell_trouble(trouble.code, **trouble.values)
                return
            self.kept.forget()
            self.menu(trouble_words("no seat", code=kept.code))
            return
        self.address = address or kept.address

        def entered() -> None:
            self.player.rejoin(kept.token)
            self._wait(lambda: kept.seat in self.player.seats or len(self.player.refusals) > self._heard,
                       self._rejoined, lambda: self._late(screen, "no seat", code=kept.code))
        self._connect(host, port, screen, lambda: self._enter(kept.code, screen, entered), pin=pin)

    def _rejoined(self) -> None:
        if len(self.player.refusals) > self._heard:    # the token is not known there (any more)
            code = self.player.code
            self.kept.forget()
            self.leave()
            self.menu(trouble_words("no seat", code=code))
            return
        self.open_lobby()

    # --- the steps, each waiting in the window's loop ---

    def _connect(self, host: str, port: int, screen, then, pin: str | None = None) -> None:
        """Reach the server (the screen says so at once, with Cancel), its certificate checked (against `pin`,
        when given), then `then()`; no answer within `CONNECT_S` gives up."""
        self.leave()
        address = host_port(host, port)
        self.player = Player(host, port, timeout=CONNECT_S, pin=pin, insecure=self.insecure, trust=self.trust)
        self._heard = 0
        self._task = self.front.stage.task_mgr.add(self._watch, "villa-online")
        if hasattr(screen, "connecting"):
            screen.connecting(address, on_cancel=self.close)
        self._wait(lambda: self.player.ready, then, lambda: self._not_connected(screen, address),
                   failed=lambda: self.player.lost, seconds=CONNECT_S)

    def _not_connected(self, screen, address: str) -> None:
        """No connection came: the server is not there, refused the game (another version, full), sent what
        cannot be read, or did not answer in time."""
        player = self.player
        if player is not None and player.lost and not player.failed:
            self._ended(screen)          # it answered, then closed: its goodbye says why
        elif player is not None and player.failed and getattr(player.trouble, "values", {}).get("why") != "timed out":
            self._fail(screen, "no server", address=address)
        else:
            self._fail(screen, "no answer", address=address, seconds=round(CONNECT_S))

    def _enter(self, code: str, screen, then) -> None:
        heard = len(self.player.refusals)
        self.player.enter(code)

        def not_entered() -> None:
            refusals = self.player.refusals[heard:] if self.player is not None else []
            if self.player.lost:
                self._ended(screen)
            elif refusals and not (isinstance(refusals[-1], OnlineError) and refusals[-1].code is Online.WRONG_ROOM):
                self.close()
                screen.tell_trouble(refusals[-1])     # too many tries, say
            else:
                self._fail(screen, "no room", code=code.strip().upper())
        self._wait(lambda: self.player.room is not None, then, not_entered,
                   failed=lambda: len(self.player.refusals) > heard or self.player.lost)

    def _sit_host(self) -> None:
        """The host sits at the plan's first person's seat, under that name."""
        seat = next(n for n, s in enumerate(self.plan.seats) if not s.is_computer)
        self.name = self.plan.seats[seat].name
        self.player.sit(self.name, seat)
        self.open_lobby()

    def _fail(self, screen, trouble: str, **values) -> None:
        self.close()
        if screen is self.front.menu and screen is not None:
            screen.tell_trouble(trouble, **values)

    def _late(self, screen, trouble: str, **values) -> None:
        """A step the server did not carry out: the connection ended meanwhile (its reason), or `trouble`."""
        if self.player is not None and self.player.lost:
            self._ended(screen)
        else:
            self._fail(screen, trouble, **values)

    def _ended(self, screen) -> None:
        """The server closed the connection while a step waited: its reason, in one sentence."""
        said = connection_ended(self.player.trouble)
        self.kept.taken_away(self.player.trouble)
        self.close()
        if screen is self.front.menu and screen is not None:
            screen.tell(said)

    def _wait(self, done, then, late, failed=lambda: False, seconds: float = WAIT_S) -> None:
        self._waits.append((done, then, late, failed, time.monotonic() + seconds))

    def _watch(self, task):
        """Each frame: the waits, what the server said (refusals, seats, the start, the end), a lost connection."""
        player = self.player
        if player is None:
            return task.done
        player.poll()
        for wait in list(self._waits):
            done, then, late, failed, until = wait
            if done():
                self._waits.remove(wait)
                then()
            elif failed() or player.lost or time.monotonic() > until:
                self._waits.remove(wait)
                late()
            if self.player is not player:
                return task.done
        self.kept.keep(player, self.address, hosts=self.server is not None)   # hosted here: in this computer's files
        if player.lost and not self._waits:
            self._lost()
            return task.done
        if len(player.refusals) > self._heard and not self._waits:
            self._heard = len(player.refusals)
            if self.lobby is not None:
                self.lobby.tell(words.lobby_refusal(player.refusals[-1]))
        if self.lobby is not None and game_began(player) and not self.playing:
            self.playing = True
            self.lobby = None
            self.front.play_online(player)
            if self.moved and self.front.screen is not None:      # hosted again, on another port: said
                self.front.screen.hud.announce(words.hosted_elsewhere(*self.moved, self.address),
                                               self.front.screen.now, seconds=30.0)
        if player.state is not None and player.state.over and self.front.settings.kept_seat is not None:
            self.kept.forget()
        return task.cont

    def _lost(self) -> None:
        """The connection ended by itself (the server's goodbye, something unreadable, silence): from the lobby,
        back to the online menu saying why in one sentence (the game screen says it on the main menu)."""
        in_lobby = self.lobby is not None and self.front.menu is self.lobby
        said = connection_ended(self.player.trouble)
        self.kept.taken_away(self.player.trouble)
        self.close()
        if in_lobby:
            self.menu(said)

    # --- the lobby ---

    def open_lobby(self) -> None:
        player = self.player
        self.lobby = LobbyScreen(player=player, sharing=lambda: sharing(self),
                                 on_sit=lambda seat: player.sit(self.name, seat),
                                 on_computer=player.give_to_computer, on_start=player.begin,
                                 on_rules=self.change_game, on_leave=self.leave_lobby, on_clock=player.set_clock,
                                 on_send_away=player.send_away)
        self.front._open(self.lobby)

    def change_game(self) -> None:
        """The host changes the rules, the seats or the layout on the new-game screen, then sends the plan."""
        self.lobby = None

        def send(plan: MatchSetup) -> None:
            self.plan = plan
            self.player.set_plan(plan)
            self.open_lobby()
        plan = self.player.plan or self.plan
        self.front.new_game(choices=menus.GameChoices(plan.seats, plan.ruleset),
                            start_words=plan_words(), on_back=self.open_lobby, then=send)

    def leave_lobby(self) -> None:
        self.close()
        self.menu()

    # --- the end ---

    def leave(self) -> None:
        """The connection closed cleanly: the server hears the player go (their seat then waits for the token)."""
        player, self.player = self.player, None
        self._waits = []
        self.lobby = None
        if player is not None:
            player.close()
        if self._task is not None:
            self._task.remove()
            self._task = None

    def close(self, to_menu: bool = False) -> None:
        """Leave, and stop a server hosted here: before its game started, or when the window is done with it
        (`to_menu`: its host went back to the menus, and the guests are told so, not that the window closed)."""
        self.leave()
        self.playing = False
        if self.server is not None:
            self.server.close(host_to_menu=to_menu)     # its rooms kept, its guests told where the host went
            if self.server.store is not None:
                self.server.store.flush(2.0)
            self.server = None
        if self.opening is not None:      # the router's mapping removed, in the opening's own thread
            self.opening.close()
            self.opening = None


def fingerprint(play: OnlinePlay) -> str | None:
    """The certificate's fingerprint of the server a window plays on (the one hosted there, or the one reached and
    checked); None without TLS."""
    if play.server is not None:
        return play.server.fingerprint
    return play.player.fingerprint if play.player is not None else None


def sharing(play: OnlinePlay) -> Sharing | None:
    """The invite a window's lobby shows now: for a game hosted here the router's public address once it forwards
    the port, else this computer's on its network; for a room on a server, that server's address."""
    player = play.player
    if player is None or not player.code:
        return None
    host, _colon, port = play.address.rpartition(":")
    if play.server is None or play.opening is None:
        if not port.isdigit():
            return None
        return Sharing(Invite(host.strip("[]"), int(port), player.code, fingerprint(play)), Reach.SERVER)
    forwarding = play.opening.forwarding
    if forwarding.step is Step.OPEN and forwarding.public_address:
        invite = Invite(forwarding.public_address, forwarding.public_port, player.code, fingerprint(play))
        return Sharing(invite, Reach.PUBLIC, forwarding)
    return Sharing(Invite(host, play.server.port, player.code, fingerprint(play)), Reach.LAN, forwarding)


def game_began(player: Player) -> bool:
    """The game began, and its rules' state and villa have come: the game screen can draw it."""
    return bool(player.table.get("started")) and player.state is not None and bool(player.poses)
