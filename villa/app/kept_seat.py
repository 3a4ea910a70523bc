"""A seat online kept in the settings, so that a window closed or killed can take it back (Rejoin, Continue); and
giving it up for good before playing elsewhere (the room is told, its host may give it to a computer player)."""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from villa.app.addresses import Trouble, parse_address
from villa.app.dedicated import rooms_dir
from villa.app.known_servers import KnownServersFile
from villa.app.room_files import SUFFIX, RoomFiles
from villa.online.client import Player
from villa.online.client.trust import Trust
from villa.online.protocol import Online, OnlineError
from villa.online.server import REJOIN_S
from villa.presentation import words
from villa.presentation.menus.confirm import Confirm
from villa.presentation.preferences import KeptSeat

log = logging.getLogger(__name__)

KEEP_EVERY_S = 30.0       # the kept seat's time is brought up to date this often while connected
GOODBYE_S = 5.0           # a room told a seat is given up has this long to hear it (then it is forgotten anyway)


def kept_seat_waits(kept: KeptSeat | None, now: float) -> bool:
    """Whether a kept seat may still wait for its player: the server keeps it REJOIN_S after they dropped; a room
    hosted in this window waits on this computer's disk for as long as its file is kept."""
    if kept is not None and kept.hosts:
        return (rooms_dir() / f"{kept.code}{SUFFIX}").is_file()
    return kept is not None and 0 <= now - kept.at < REJOIN_S


class SeatKept:
    """The one seat a window keeps in its settings: kept while its game is played (on a server, or hosted in this
    window: opened again by Continue), forgotten when the game is over, the host took it, it waited too long, or
    the player gave it up for good."""

    def __init__(self, front) -> None:
        self.front = front
        self._kept_at = 0.0
        self.question = None      # asked before a seat kept in a game under way is left for good

    def waiting(self) -> KeptSeat | None:
        """The seat kept, while its game may still wait for it (an older one is forgotten)."""
        kept = self.front.settings.kept_seat
        if kept is not None and not kept_seat_waits(kept, time.time()):
            self.forget()
            kept = None
        return kept

    def under_way(self, code: str | None = None) -> KeptSeat | None:
        """The seat kept in a game under way, in another room than `code` (None: none): playing elsewhere would
        leave it."""
        kept = self.waiting()
        return kept if kept is not None and kept.started and kept.code != code else None

    def keep(self, player: Player, address: str, hosts: bool = False) -> None:
        """The player's first seat, kept with its token; brought up to date every `KEEP_EVERY_S` (and at once when
        its game begins)."""
        if not player.seats or (player.state is not None and player.state.over):
            return
        seat, token = next(iter(sorted(player.seats.items())))
        front = self.front
        kept = front.settings.kept_seat
        now, started = time.time(), bool(player.table.get("started"))
        same = kept is not None and (kept.code, kept.seat, kept.token, kept.started) == (player.code, seat, token,
                                                                                          started)
        if same and now - self._kept_at < KEEP_EVERY_S:
            return
        self._kept_at = now
        front.apply_settings(replace(front.settings, kept_seat=KeptSeat(address, player.code, seat, token, now,
                                                                        started, hosts)))

    def forget(self) -> None:
        if self.front.settings.kept_seat is not None:
            self.front.apply_settings(replace(self.front.settings, kept_seat=None))

    def taken_away(self, trouble) -> None:
        """The host took this player's seat (sent them away, or gave it to a computer): none is kept to rejoin."""
        if isinstance(trouble, OnlineError) and trouble.code in (Online.SENT_AWAY, Online.SEAT_GIVEN,
                                                                  Online.UNKNOWN_TOKEN):
            self.forget()

    def give_up(self, kept: KeptSeat, then) -> None:
        """The kept seat given up for good, then `then()`: the room is told (its host may give the seat to a computer
        player; a room this window hosted keeps that in its file, for whoever opens it again). A room that cannot be
        reached within `GOODBYE_S` is not told: its seat waits its ten minutes, then a computer plays it."""
        self.forget()
        if kept.hosts:
            files = RoomFiles(rooms_dir(), replays=False)
            room = files.take_up(kept.code)
            if room is not None:
                room.seating.give_up_seat(kept.seat)
                files(room)
                files.flush()
                room.close()
            then()
            return
        try:
            player = Player(*parse_address(kept.address), timeout=GOODBYE_S, insecure=self.front.insecure,
                            trust=Trust(KnownServersFile()))      # the server checked as when the seat was taken
        except Trouble:
            player = None
        until = time.monotonic() + GOODBYE_S

        def told(task):
            seated = player is not None and kept.seat in player.seats
            if not (seated or player is None or player.lost or player.refusals or time.monotonic() > until):
                if player.ready and not player.room_code:
                    player.rejoin(kept.token, kept.code)
                player.poll()
                return task.cont
            log.info("seat %s of room %s given up for good%s", kept.seat, kept.code, "" if seated else
                     ": the room was not reached")
            if player is not None:
                player.close(for_good=seated)
            then()
            return task.done
        self.front.stage.task_mgr.add(told, "villa-seat-given-up")

    def ask_first(self, code: str | None, then) -> bool:
        """Before playing in another room than `code`: a seat this window keeps in a game under way there is given up
        for good only if the player says so (then `then()` goes on). True: the question is asked, wait for it."""
        kept, screen = self.under_way(code), self.front.menu
        if kept is None or screen is None or screen.root is None:
            return False

        def leave() -> None:
            if hasattr(screen, "tell"):
                screen.tell(words.giving_up_seat(kept.code))
            self.give_up(kept, then)
        self.question = Confirm(screen.root, question=words.leave_seat_question(kept.code),
                                yes=words.leave_seat_words(), no=words.keep_seat_words(), on_yes=leave,
                                on_no=lambda: None)
        self.question.show()
        return True
