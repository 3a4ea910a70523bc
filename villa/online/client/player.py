"""A player's side of the online game: one connection to a server, and what it heard there.

    player = Player("127.0.0.1", 47170)    # dials at once, without blocking; `poll()` each frame
    player.enter("K7QWE")                  # the server answers with the room, or a refusal
    player.sit("Ann", 0)                   # or `rejoin(token)`, or (the host) `set_plan`, `begin` ...
    player.request(Take(0, "red-thin-2", point))   # a seat's request, as the hot seat sends it to its match

The connection is TLS unless the player was made `insecure` (and the server started so): once the handshake is
done the player checks the server's certificate (`villa.online.client.trust`: the `pin` an invite carries, a CA's
certificate for the host's name, or the one this address showed before) and sends nothing, not even its hello,
to a server that fails the check; `trouble` says why (`Online.NOT_INVITED`, `CERT_CHANGED` ...). A fleet's
server that sends the player on, or names the fleet's others, gives each one's fingerprint with its address, and
the player holds that server to it.

Every message is read as the wire's catalogue has it, with caps on what it may inflate to: a malformed one
ends the connection with one sentence (`trouble`), and a server that goes quiet for `SILENT_S` is taken for
gone. Nothing here waits: the window polls each frame, a test or `--join` polls in a loop of its own.

A player in a game under way whose server goes (killed, frozen, stopped, the window that hosted it closed: its room
lives on in a fleet, or in the files of a server or a host's window started again) looks for the game by itself, server
after server of those it knows (the one it first went to, those it was sent on to, and a fleet's others), waiting
longer between tries the longer it has looked (`BACKOFF`, then every `RETRY_MAX_S`), for as long as it is let; it
takes its seats back with its tokens (a server whose certificate fails the check ends the looking: a host's window
shows the one kept in her data folder each time). `lost_why` says why it looks, `trouble` why a connection ended
for good. Each way a connection ends is its own code: the server's goodbye (`Online`), the other side hanging up or
the connection reset (`Online.HUNG_UP`, `Online.RESET`), no answer (`Online.SILENT`, `Online.UNREACHABLE`); a
`WireError` only for what broke the wire's form.

What the player heard is kept: the room's table, the rules' state (from the state sent on entering, then each
move the referee made, applied here by the same rules), the pieces' poses, the hand, the refusals, the
finished game's record, and in `news` what the game in play on this screen has still to tell
(`villa.online.client.play.OnlineMatch`).
"""

from __future__ import annotations

import json
import logging
import time
import zlib
from collections import deque
from collections.abc import Callable

from villa import rules
from villa.match import MatchSetup, Record, RecordError
from villa.match import requests as rq
from villa.online import protocol
from villa.online.client.in_flight import InFlight
from villa.online.client.smoothing import Smoothing
from villa.online.client.trust import Trust
from villa.online.protocol import Online, OnlineError
from villa.online.wire import messages as m
from villa.online.wire.certificates import fingerprint, pin_of, split_address
from villa.online.wire.codec import Catalogue, WireError
from villa.online.wire.frames import FrameBuffer
from villa.online.wire.link import HUNG_UP, Link, dial
from villa.online.wire.tls import NotTls, TlsError, client_session
from villa.rules.pieces import TOP_FLOOR_LEVEL, floor_id

log = logging.getLogger(__name__)

CATALOGUE = Catalogue(m.KINDS)
CONNECT_S = 10.0           # s a server has to answer a connection before the player gives up
PING_S = 15.0              # s between the player's pings while it has nothing else to say
SILENT_S = 15.0            # s without a word from the server (which pings each second): it is gone; a host's
                           # window that hosts the server may stall for seconds opening its game screen
REDIRECTS = 3              # a room played elsewhere is followed this many times at most
RETRY_S = 0.5              # s between the first tries to find the game again, server after server
# then, the longer it has looked (s), the longer between tries: a fleet takes a room up within its lease and a
# second or two, a server restarted or a host's window opened again may take minutes (or an hour)
BACKOFF = ((10.0, RETRY_S), (30.0, 2.0), (60.0, 5.0))
RETRY_MAX_S = 10.0         # after that, for as long as it looks
RETRY_FIRST_S = 0.1        # but the first time round the servers known, the one that went last
ANSWER_S = 3.0             # s a server tried while looking for the game has to answer

# how a connection of a game under way ended, when the game lives on somewhere to be found again
COMES_BACK = frozenset({Online.SILENT, Online.MOVED, Online.HUNG_UP, Online.RESET, Online.UNREACHABLE,
                        Online.CLOSING, Online.HOST_LEFT})
# why the player refused a server whose certificate it checked
CHECKS = (Online.NOT_INVITED, Online.CERT_CHANGED, Online.CERT_UNVOUCHED)
# what ends the looking for good: the seat is gone, or the server is not one this game can (or may) talk to
FINAL = frozenset({Online.UNKNOWN_TOKEN, Online.SEAT_GIVEN, Online.SENT_AWAY, Online.VERSION, Online.MALFORMED,
                   Online.TOO_FAST, Online.HELLO_FIRST, Online.NOT_TLS, Online.TLS_NEEDED, *CHECKS})

# requests after which this player's piece is drawn where the server has it, not ahead at the pointer
LETTING_GO = (rq.SetDown, rq.Lower, rq.GiveUp, rq.LetGo)


class Player:
    def __init__(self, address: str, port: int, lag: float = 0.0, clock: Callable[[], float] = time.monotonic,
                 timeout: float = CONNECT_S, pin: str | None = None, insecure: bool = False,
                 trust: Trust | None = None, source: str | None = None) -> None:
        """`lag`: seconds each message is held before it goes (a slow network, simulated for measuring); `pin`:
        the fingerprint the server's certificate must have (an invite's); `insecure`: no TLS (a server started
        with --insecure); `trust`: how servers are checked, and what is remembered of them; `source`: this
        machine's address to connect from (tests and benchmarks play from many)."""
        self.lag, self._clock, self._timeout, self._source = lag, clock, timeout, source
        self.insecure = insecure
        self.trust = trust if trust is not None else Trust()
        self.first = (address, port)             # where the player first went: the way back if a server is gone
        self.addresses: list[tuple[str, int]] = [self.first]    # every server known to hold the game
        self.pins: dict[tuple[str, int], str] = {}              # the fingerprints known for them (invite, fleet)
        if pin_of(pin):
            self.pins[self.first] = pin_of(pin)
        self.fingerprint: str | None = None      # the certificate of the server reached, once checked
        self.trouble: Exception | None = None    # why the connection failed or ended (a refusal's code, or the wire's)
        self.lost = False                        # the connection ended for good (or never came: `failed`)
        self.failed = False
        self.rejoining: float | None = None      # since when the player looks for its game again (its server gone)
        self.lost_why: Exception | None = None   # why it looks (how the connection to the game's server ended)
        self.came_back = 0                       # how often it found its game again by itself
        self._let_go = False                     # `close` was called: nothing is looked for any more
        self._held: deque[tuple[float, object]] = deque()
        self._waiting: list = []                 # messages asked for before the server welcomed us
        self._spoke_at = clock()
        self._redirects = 0
        self._room_asked: list = []              # what asked for the room (an Enter, or Rejoins): asked again if sent on
        self._to_reseat: set[int] = set()        # seats still to be taken back while looking for the game
        self._next_try, self._tried, self._first_round = 0.0, 0, 0
        self._connect(address, port, timeout)
        # what was heard
        self.room: str | None = None             # the code of the room entered (None: none)
        self.room_code = ""                      # the room asked for (entered, opened, or to be entered)
        self.table: dict = {}
        self.table_at = clock()                  # when the table was heard (its seconds are counted from then)
        self.state: rules.GameState | None = None
        self.poses: dict[str, protocol.Pose] = {}    # the newest heard of each piece
        self.smoothing = Smoothing()                  # what to draw of them, frame by frame
        self.seats: dict[int, str] = {}          # seat -> token (kept in the settings to rejoin)
        self.refusals: list[Exception] = []
        self.finished: Record | None = None      # the game, once over, as the server's replay holds it
        self._record_parts: dict[int, bytes] = {}
        self.hand = protocol.HandNews()          # the hand in play, as last heard
        self.hand_holder, self.hand_done = -1, 0  # whose hand, and how many of their requests it answers
        self.hand_updates = 0
        self.pose_updates = 0
        self.villas = 0                          # whole villas heard: on entering, at the start, each round built anew
        self.asked = 0                           # requests sent (the server echoes how many it carried out)
        self.in_flight = InFlight()              # its requests counted: what became of those in flight if its server goes
        self.paused_at: float | None = None      # since when the room's server has lost touch with its fleet
        self.fences: dict[str, int] = {}         # room -> the highest fencing number a server held it by, as heard
        self.news: deque = deque()               # ("moves", before, move, after), ("event", e), ("refused", e) ...
        self._held_piece: str | None = None

    # --- the connection ---------------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Connected and welcomed: the server speaks the same game."""
        return self.welcomed and not self.lost and self.rejoining is None

    @property
    def address(self) -> str:
        return self._where[0]

    @property
    def port(self) -> int:
        return self._where[1]

    def _connect(self, host: str, port: int, timeout: float) -> None:
        self._where = (host, port)
        self.paused_at = None
        self.link, self.welcomed, self.fingerprint = None, False, None
        pin = self.pins.get((host, port))

        def check(chain: list[bytes]) -> None:     # before the hello goes: refused, nothing is sent
            self.trust.check(host, port, pin, chain)
            self.fingerprint = fingerprint(chain[0])
        tls = None if self.insecure else (lambda: client_session(host, check))
        self._dialling = dial(host, port, CATALOGUE, timeout, tls=tls, source=self._source)
        self._deadline = self._clock() + timeout   # to be welcomed by then: a server that never answers is given up

    @property
    def connecting(self) -> bool:
        return not self.welcomed and not self.lost

    @property
    def code(self) -> str:
        return self.room_code

    @property
    def paused_for(self) -> float | None:
        """Seconds since the room's server lost touch with its fleet, while the game waits for it (None: it plays)."""
        return None if self.paused_at is None else self._clock() - self.paused_at

    def poll(self) -> None:
        """What the network has: the connection's progress, the messages heard, the messages to go. Whatever the
        server sends, nothing escapes from here: the connection ends, and `trouble` says why."""
        if self.lost:
            return
        try:
            if self.rejoining is not None and self.link is None and self._dialling is None:
                self._try_again()
            if self.link is None and self._dialling is not None:
                self._dial()
            if self.link is not None:
                self._send_held()
                for message in self.link.receive():
                    _HEARD.get(type(message), _not_from_a_server)(self, message)
                    if self.lost or self.link is None:
                        return
                self._keep_alive()
                if self.link is not None:
                    self.link.flush()
                    if self.link.closed:
                        self._end(ended(self.link.why))
        except TlsError as trouble:
            log.warning("no TLS with %s:%s: %s", self.address, self.port, trouble)
            where = f"{self.address}:{self.port}"
            if isinstance(trouble, NotTls):
                self._end(_full(trouble.heard) or OnlineError(Online.NOT_TLS, address=where))
            else:
                self._end(OnlineError(Online.TLS_FAILED, address=where, why=trouble.why))
        except OnlineError as refused:
            if refused.code not in CHECKS:
                log.exception("a message from %s:%s could not be read", self.address, self.port)
                self._end(WireError("a message that does not read"))
                return
            log.warning("the server at %s:%s was refused: %s %s", self.address, self.port, refused.code.value,
                        refused.values)
            self._end(refused)          # its certificate did not pass: nothing was sent to it
        except WireError as trouble:
            log.warning("the connection to %s:%s broke: %s", self.address, self.port, trouble)
            self._end(trouble)
        except OSError as trouble:
            log.warning("the connection to %s:%s broke: %s", self.address, self.port, trouble)
            self._end(OnlineError(Online.RESET, why=trouble.strerror or str(trouble)))
        except Exception:  # noqa: BLE001 - a server's message that broke what reads it: that server is not trusted
            log.exception("a message from %s:%s could not be read", self.address, self.port)
            self._end(WireError("a message that does not read"))

    def _dial(self) -> None:
        result = self._dialling.poll()
        if isinstance(result, Link):
            self.link, self._dialling = result, None
            self.link.send(m.Hello(m.PROTOCOL, m.GAME))
            self._spoke_at = self._clock()
        elif isinstance(result, str):
            self._dialling = None
            self.failed = self.rejoining is None
            self._end(OnlineError(Online.UNREACHABLE, why=result))

    def _keep_alive(self) -> None:
        now = self._clock()
        if not self.welcomed:
            if now > self._deadline:         # connected, but no game server answers there
                self.failed = self.rejoining is None
                self._end(OnlineError(Online.UNREACHABLE, why="timed out"))
            return
        if now - self._spoke_at > PING_S:
            self._send(m.Ping())
        if now - self.link.heard_at > SILENT_S:
            self._end(OnlineError(Online.SILENT))

    def _end(self, trouble: Exception) -> None:
        """The connection ended: for good, or (a player in a game under way whose server went) to look for the
        game again on the servers known to hold it."""
        if self.link is not None:
            self.link.close()
            self.link = None
        if self._dialling is not None:
            self._dialling.cancel()
            self._dialling = None
        self.welcomed = False
        self.smoothing.let_go(self._clock())
        if self.rejoining is None and self._may_come_back(trouble):
            log.info("the game's server was lost (%s): looking for the game again", trouble)
            where = (self.address, self.port)
            self._tried = self.addresses.index(where) + 1 if where in self.addresses else 0    # the others first
            self.rejoining, self._next_try, self._first_round = self._clock(), 0.0, len(self.addresses)
            self.room, self.lost_why = None, trouble
            return
        if self.rejoining is not None and not self._let_go and not _final(trouble):
            self.lost_why = _sharper(self.lost_why, trouble)
            looked = self._clock() - self.rejoining
            wait = RETRY_FIRST_S if self._first_round > 0 else retry_wait(looked)   # not there: the next, in a while
            self._next_try = max(self._next_try, self._clock() + wait)
            return
        if self.trouble is None:
            self.trouble = trouble
        self.lost = True
        self.rejoining = None

    def _may_come_back(self, trouble: Exception) -> bool:
        """A game under way whose server went (gone quiet, its connection broken, stopped, its host's window closed,
        or the room moved on): the room lives on, in a fleet, a server started again or the host's files."""
        if self._let_go or not self.room_code or self.state is None or self.state.over \
                or not self.table.get("started"):
            return False
        return isinstance(trouble, OnlineError) and trouble.code in COMES_BACK

    @property
    def next_try_in(self) -> float | None:
        """While looking for the game: seconds until the next try (0: trying now); None otherwise."""
        if self.rejoining is None:
            return None
        if self.link is not None or self._dialling is not None:
            return 0.0
        return max(0.0, self._next_try - self._clock())

    def _try_again(self) -> None:
        """The next server known, asked for the game with this player's tokens (one who watched: to watch)."""
        if self._clock() < self._next_try:
            return
        host, port = self.addresses[self._tried % len(self.addresses)]
        self._tried += 1
        self._first_round -= 1
        self._redirects = 0
        self._room_asked = [m.Rejoin(self.room_code, token) for _seat, token in sorted(self.seats.items())] \
            or [m.Enter(self.room_code)]
        self._to_reseat = set(self.seats)
        self._waiting = list(self._room_asked)
        self._connect(host, port, ANSWER_S)

    def _came_back(self) -> None:
        log.info("the game was found again on %s:%s", self.address, self.port)
        self.rejoining = None
        self.came_back += 1
        refusal = self.in_flight.back(self.table, self.seats)
        if refusal is not None:        # a move in flight when the server went: told once
            self.refusals.append(refusal)
            self.news.append(("refused", refusal))

    def close(self, for_good: bool = False) -> None:
        """Let the connection go (the server hears the player leave: their seat waits for the token; `for_good`:
        the player gives it up, the room is told, and the host may give it to a computer player)."""
        if self.link is not None and not self.lost and self.welcomed:
            self.link.send(m.GiveUpSeat() if for_good else m.Leave())
            self.link.flush()
        self._let_go = True
        self.trouble = self.trouble or OnlineError(Online.CLOSING)
        self._end(self.trouble)

    leave = close

    # --- sending ----------------------------------------------------------------------------------------

    def _send(self, message) -> None:
        if self.lost:
            return
        if not self.welcomed:
            self._waiting.append(message)       # said once the server welcomes us
            return
        self._spoke_at = self._clock()
        if self.lag > 0:
            self._held.append((self._clock() + self.lag, message))
        else:
            self.link.send(message)
            self.link.flush()

    def _send_held(self) -> None:
        now = self._clock()
        while self._held and self._held[0][0] <= now:
            self.link.send(self._held.popleft()[1])

    def enter(self, code: str) -> bool:
        """Ask to enter the room with this code (False: it cannot be a room code, and nothing was sent)."""
        code = protocol.room_code(code)
        if code is None:
            return False
        self.room_code = code
        self._room_asked = [m.Enter(code)]
        self._send(self._room_asked[0])
        return True

    def open_room(self, setup: MatchSetup) -> None:
        """Ask for a room for this game: the server answers with its code, and the player enters it (the host,
        once sat, sets its plan and begins)."""
        self._send(m.OpenRoom(protocol.pack_plan(setup)))

    def sit(self, name: str, seat: int) -> None:
        self._send(m.Sit(name, seat))

    def rejoin(self, token: str, code: str | None = None) -> None:
        """Take a seat back with its token (in the room `code`, or the one asked for already)."""
        self.room_code = protocol.room_code(code or self.room_code) or self.room_code
        self._room_asked = [m.Rejoin(self.room_code, token)]
        self._send(self._room_asked[0])

    def set_plan(self, setup: MatchSetup) -> None:
        """The host: the game this room is to play (refused once it has begun, or from anyone else)."""
        self._send(m.SetPlan(protocol.pack_plan(setup)))

    def begin(self) -> None:
        self._send(m.Begin())

    def give_to_computer(self, seat: int, strength) -> None:
        self._send(m.GiveToComputer(seat, strength))

    def send_away(self, seat: int) -> None:
        self._send(m.SendAway(seat))

    def set_clock(self, seconds: int) -> None:
        self._send(m.SetClock(seconds))

    def request(self, request: rq.Request) -> None:
        """A seat's request to the room's match; this player's own piece is drawn at the pointer meanwhile."""
        self._send(request)
        self.asked += 1
        self.in_flight.sent_one(request.seat)
        now, kind = self._clock(), type(request)
        if kind is rq.Take:
            self._held_piece = request.column
            self.smoothing.hold(request.column, request.point, self.asked, now)
        elif kind is rq.LayFloor:
            laid = [level for level in range(1, TOP_FLOOR_LEVEL + 1) if floor_id(level) in self.poses]
            self._held_piece = floor_id(max(laid, default=0) + 1)
            self.smoothing.hold(self._held_piece, None, self.asked, now)
        elif kind is rq.Aim:
            self.smoothing.aim(request.point, self.asked)
        elif kind is rq.Lift and self._held_piece is not None and protocol.level_of_floor(self._held_piece) is None:
            self.smoothing.hold(self._held_piece, None, self.asked, now)   # a column is carried again
        elif kind in (rq.SetDown, rq.Lower) and request.hold:
            self.smoothing.rests_in_hand(now)
        elif kind in LETTING_GO:
            self.smoothing.let_go(now)

    @property
    def plan(self) -> MatchSetup | None:
        """The room's game as its host set it (the table's `plan`)."""
        plan = self.table.get("plan")
        return None if plan is None else protocol.unpack_plan(protocol.pack_table(plan))

    @property
    def host_seat(self) -> int | None:
        return self.table.get("host")


def _learn(player: Player, host: str, port: int, pin: str | None) -> None:
    """A server known to hold the game (a fleet's), with its certificate's fingerprint when the server that named
    it gave one: that server is then held to it."""
    if (host, port) not in player.addresses:
        player.addresses.append((host, port))
    if pin is not None and not player.insecure:
        player.pins[(host, port)] = pin


def _full(heard: bytes) -> OnlineError | None:
    """The goodbye a server that speaks TLS says in the clear before any handshake when it or this address is full
    (None: what was heard is something else: a server without TLS)."""
    try:
        for payload in FrameBuffer().feed(heard):
            message = CATALOGUE.decode(payload)
            if isinstance(message, m.Goodbye) and message.code == Online.FULL.value:
                refusal = protocol.refusal_from("online", message.code, message.values)
                return refusal if isinstance(refusal, OnlineError) else None
            return None
    except WireError:
        pass
    return None


# --- what the server says: each message heard, by its kind ---------------------------------------------

def retry_wait(looked_s: float) -> float:
    """Seconds before the next try, after looking for the game this long: half a second at first (a fleet's room is
    taken up within seconds), then longer and longer (`BACKOFF`), and every `RETRY_MAX_S` from a minute on."""
    return next((wait for until, wait in BACKOFF if looked_s < until), RETRY_MAX_S)


def ended(why: str) -> OnlineError:
    """How a link closed with no goodbye: the server hung up, or the connection was reset (or broke otherwise)."""
    if why == HUNG_UP:
        return OnlineError(Online.HUNG_UP)
    return OnlineError(Online.RESET, why=why)


def _final(trouble: Exception) -> bool:
    """Whether looking for the game must stop: the seat is gone, or the server speaks no wire this game reads."""
    return isinstance(trouble, WireError) or (isinstance(trouble, OnlineError) and trouble.code in FINAL)


def _sharper(first: Exception | None, then: Exception) -> Exception | None:
    """Why the game is looked for, as a try tells more: a server that went quiet and now refuses connections was
    closed (a host's computer asleep, then woken with the game's window gone)."""
    if isinstance(first, OnlineError) and first.code is Online.SILENT and isinstance(then, OnlineError) \
            and then.code is Online.UNREACHABLE and then.values.get("why") == "refused":
        return then
    return first


def _not_from_a_server(_player: Player, message) -> None:
    raise WireError(f"a message a server does not send: {type(message).__name__}")


def _welcome(player: Player, message: m.Welcome) -> None:
    player.welcomed = True
    waiting, player._waiting = player._waiting, []
    for asked in waiting:
        player._send(asked)


def _goodbye(player: Player, message: m.Goodbye) -> None:
    try:
        trouble = protocol.refusal_from("online", message.code, message.values)
    except WireError:
        trouble = OnlineError(Online.CLOSING)
    player._end(trouble)


def _refused(player: Player, message: m.Refused) -> None:
    refusal = protocol.refusal_from(message.kind, message.code, message.values)
    if player.rejoining is not None:
        player._end(refusal)       # not here (yet): the next server known, in a moment
        return
    player.in_flight.refused(message.kind, message.code)
    player.refusals.append(refusal)
    player.smoothing.let_go(player._clock())    # a hand refused (or not as we thought): the server's word
    player.news.append(("refused", refusal))


def _opened(player: Player, message: m.Opened) -> None:
    player.enter(message.code)


def _entered(player: Player, message: m.Entered) -> None:
    player.room = player.room_code = message.code
    player.smoothing = Smoothing()      # each server counts its frames from its own start
    player.asked = 0                    # and a room this connection's requests from its entering (their echo)
    if player.rejoining is not None and not player.seats:
        player._came_back()


def _redirect(player: Player, message: m.Redirect) -> None:
    """The room is played on another server: the player goes there (a few times at most) and asks there as it
    asked here."""
    where = split_address(message.address)
    if player._redirects >= REDIRECTS or where is None or message.code != player.room_code:
        raise WireError("sent on too often, or to no address")
    host, port, pin = where
    player._redirects += 1
    _learn(player, host, port, pin)
    player.link.close()
    player._waiting = list(player._room_asked)
    player._connect(host, port, ANSWER_S if player.rejoining is not None else player._timeout)


def _servers(player: Player, message: m.Servers) -> None:
    """The servers of the fleet that holds the room: where to look for it if its server goes."""
    try:
        listed = json.loads(message.addresses)
    except ValueError:
        raise WireError("a list of servers that is none") from None
    for address in listed[:16] if isinstance(listed, list) else ():
        where = split_address(str(address))
        if where is not None:
            _learn(player, *where)


def _seated(player: Player, message: m.Seated) -> None:
    player.seats[message.seat] = message.token
    player._to_reseat.discard(message.seat)
    if player.rejoining is not None:
        if not player._to_reseat:
            player._came_back()
    else:
        player.in_flight.seated(player.table, player.seats)


def _paused(player: Player, message: m.Paused) -> None:
    player.paused_at = player._clock() - message.seconds if message.paused else None


def _table(player: Player, message: m.Table) -> None:
    table = protocol.unpack_table(message.table)
    fence = table.get("fence")
    if isinstance(fence, int) and not isinstance(fence, bool):
        if fence < player.fences.get(player.room_code, 0):     # a server that lost the room and does not know it yet
            player._end(OnlineError(Online.MOVED))
            return
        player.fences[player.room_code] = fence
    player.table, player.table_at = table, player._clock()


def _state(player: Player, message: m.State) -> None:
    before, player.state = player.state, protocol.unpack_state(message.state)
    player.news.append(("state", before, player.state))
    _turn_passed(player)


def _moves(player: Player, message: m.Moves) -> None:
    """The referee's moves, applied here by the same rules to the state heard so far."""
    if player.state is None or message.at != len(player.state.log):
        raise WireError("moves that do not follow the state heard")
    for move in protocol.unpack_moves(message.moves):
        before = player.state
        try:
            player.state = rules.apply(before, move)
        except rules.RuleError as error:
            raise WireError(f"a move the rules here refuse: {error}") from None
        player.news.append(("moves", before, move, player.state))
    _turn_passed(player)


def _turn_passed(player: Player) -> None:
    if player.state.over or rules.acting_player(player.state) not in player.seats:
        player.smoothing.let_go(player._clock())      # the turn has passed on: no hand of ours


def _event(player: Player, message: m.Event) -> None:
    player.news.append(("event", protocol.unpack_event(message.event)))


def _villa(player: Player, message: m.Villa) -> None:
    player.villas += 1
    poses = protocol.unpack_poses(message.poses)
    player.poses = dict(poses)        # the villa whole: a piece it does not hold is no longer there
    player.smoothing.anew()           # drawn where it stands at once, not glided there from where it lay
    player.smoothing.heard(message.tick, poses, player._clock())
    player.pose_updates += 1          # shown afresh: the villa drawn at rest is drawn again
    player.news.append(("villa", poses))


def _poses(player: Player, message: m.Poses) -> None:
    poses = protocol.unpack_poses(message.poses)
    player.poses.update(poses)
    done = message.done if message.holder in player.seats else None     # the echo of this player's own requests
    player.smoothing.heard(message.tick, poses, player._clock(), done)
    player.pose_updates += 1


def _hand(player: Player, message: m.Hand) -> None:
    steadied = floor_id(message.steadied) if 1 <= message.steadied <= TOP_FLOOR_LEVEL else None
    grip = message.grip if message.grip in protocol.GRIPS else ""
    player.hand_holder, player.hand_done = message.holder, message.done
    player.hand = protocol.HandNews(grip, message.strain, steadied, protocol.unpack_touching(message.touching),
                                    message.tilt)
    player.hand_updates += 1


def _record(player: Player, message: m.Record) -> None:
    if message.part == 0:
        player._record_parts = {}
    player._record_parts[message.part] = message.data
    if len(player._record_parts) < message.parts or set(player._record_parts) != set(range(message.parts)):
        return
    whole, player._record_parts = b"".join(player._record_parts[n] for n in range(message.parts)), {}
    try:
        player.finished = protocol.unpack_record(whole)
    except (RecordError, ValueError, WireError, zlib.error) as error:
        log.warning("the server's record of the finished game does not read: %s", error)


def _ping(player: Player, _message: m.Ping) -> None:
    pass


_HEARD: dict[type, Callable] = {
    m.Welcome: _welcome, m.Goodbye: _goodbye, m.Ping: _ping, m.Refused: _refused, m.Opened: _opened,
    m.Entered: _entered, m.Redirect: _redirect, m.Seated: _seated, m.Table: _table, m.State: _state,
    m.Moves: _moves, m.Event: _event, m.Villa: _villa, m.Poses: _poses, m.Hand: _hand, m.Record: _record,
    m.Servers: _servers, m.Paused: _paused,
}
