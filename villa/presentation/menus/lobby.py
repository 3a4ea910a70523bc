"""The lobby of an online room: its code big enough to read out, the invite to send friends (with Copy, and
whose address it names: the home's public one, this computer's on its network, or the server's; and what the
home's router said), the seats as the server's table has them, "Sit here" on a free seat, the turn clock, and
for the host the computer players for empty seats, a player sent away, the clock's choice, the rules and Start.

The screen reads a `villa.online.Player` (its `table`, `seats` and `code`) every frame and redraws the seats
when the table changed; what a press asks for goes to the callbacks (the app sends it to the server).
`seat_rows` and `may_start` are the lobby's reading of the table, without a window.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from direct.gui.DirectGui import DirectFrame

from villa.match.setup import Strength
from villa.online.invite import Sharing
from villa.online.server.turn_clock import CHOICES as CLOCK_CHOICES
from villa.presentation import clipboard
from villa.presentation.fonts import drawable, fitted_scale, font
from villa.presentation.i18n import _
from villa.presentation.invite_words import copied_words, reach_words, router_words
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.menus.new_game import SEAT_NAMES, STRENGTH_NAMES
from villa.presentation.stage import stage
from villa.presentation.words import watching


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    kind: str                      # "free", "here" (a person at the table), "away" (dropped), "computer"
    strength: Strength | None = None
    mine: bool = False


def host_seat(table: dict) -> int | None:
    """The host's seat: as the table says, or else the lowest seat of a person at the table (the server's rule)."""
    if isinstance(table.get("host"), int):
        return table["host"]
    here = [n for n, seat in enumerate(table.get("seats", ())) if seat.get("here") and not seat.get("computer")]
    return here[0] if here else None


def seat_rows(table: dict, mine) -> list[SeatRow]:
    rows = []
    for number, seat in enumerate(table.get("seats", ())):
        if seat.get("computer"):
            rows.append(SeatRow(number, seat["name"], "computer", Strength(seat["computer"])))
        elif seat.get("taken"):
            rows.append(SeatRow(number, seat["name"], "here" if seat.get("here") else "away", mine=number in mine))
        else:
            rows.append(SeatRow(number, seat["name"], "free"))
    return rows


def is_host(table: dict, mine) -> bool:
    return host_seat(table) in mine


def clock_seconds(table: dict) -> int:
    """The turn clock the table says: seconds a move (0: none)."""
    seconds = table.get("clock", 0)
    return seconds if isinstance(seconds, int) and not isinstance(seconds, bool) and seconds > 0 else 0


def clock_choice_words(seconds: int) -> str:
    """A choice of the clock, on its button."""
    return _("{minutes} min").format(minutes=seconds // 60) if seconds else _("No clock")


def clock_words(seconds: int) -> str:
    """The turn clock as everyone at the table reads it."""
    if not seconds:
        return _("No turn clock: each takes as long as they like.")
    return _("Turn clock: {minutes} min a move, then the turn passes on.").format(minutes=seconds // 60)


def may_start(table: dict, mine) -> bool:
    """The host may start once every seat is sat at or given to a computer player."""
    rows = seat_rows(table, mine)
    return (is_host(table, mine) and not table.get("started") and bool(rows)
            and all(row.kind in ("here", "computer") for row in rows))


SEAT_TOP, SEAT_STEP = 0.18, 0.145     # where the first seat's row is, and the rows' spacing
INVITE_BOX = (-1.2, 0.86, 0.47, 0.555)  # the invite's line, on cream paper as a text field is
INVITE_SCALE = 0.032


class LobbyScreen(Screen):
    """`sharing()`: the invite to show now (None: none yet), asked each frame."""

    def __init__(self, parent=None, *, player, sharing: Callable[[], Sharing | None], on_sit: Callable[[int], None],
                 on_computer: Callable[[int, Strength], None], on_start: Callable[[], None],
                 on_rules: Callable[[], None], on_leave: Callable[[], None],
                 on_clock: Callable[[int], None] | None = None, on_send_away: Callable[[int], None] | None = None,
                 **options) -> None:
        self.player, self.sharing = player, sharing
        self.on_sit, self.on_computer, self.on_start, self.on_rules = on_sit, on_computer, on_start, on_rules
        self.on_leave, self.on_clock, self.on_send_away = on_leave, on_clock, on_send_away
        self.notice = ""
        self._seen: tuple | None = None      # the table and seats the seats were drawn for
        self._shared: Sharing | None = None  # the invite as drawn
        super().__init__(parent, **options)
        self._task = stage.task_mgr.add(self._watch, f"villa-lobby-{id(self)}") if stage.task_mgr else None

    def tell(self, words: str) -> None:
        self.notice = words
        self.widgets["notice"]["text"] = drawable(words, "serif")

    def build(self) -> None:
        root, w = self.root, self.widgets
        style.panel(root, (-1.3, 1.3, -0.93, 0.93))
        style.text(root, _("Room code"), pos=(0, 0.8), scale=0.042, fg=style.INK_SOFT, kind="bold")
        w["code"] = style.title(root, self.player.code, pos=(0, 0.655), scale=0.15)
        w["invite_box"] = style.panel(root, INVITE_BOX, fill=style.CREAM, radius=0.015, shadow=False)
        w["invite"] = style.text(root, "", pos=(INVITE_BOX[0] + 0.03, 0.5), scale=INVITE_SCALE, align="left",
                                 kind="body")
        w["copy"] = style.button(root, _("Copy"), self._copy, pos=(1.06, 0.513), width=0.34, height=0.085,
                                 text_scale=0.04)
        w["reach"] = style.text(root, "", pos=(-1.17, 0.41), scale=0.03, align="left", fg=style.INK_SOFT,
                                kind="serif", wordwrap=80)
        w["router"] = style.text(root, "", pos=(-1.17, 0.365), scale=0.03, align="left", kind="serif",
                                 wordwrap=80)
        w["seats"] = DirectFrame(parent=root, relief=None)
        w["clock"] = DirectFrame(parent=root, relief=None)
        w["status"] = style.text(root, "", pos=(0, -0.5), scale=0.04, fg=style.INK_SOFT, kind="serif", wordwrap=50)
        w["notice"] = style.text(root, self.notice, pos=(0, -0.6), scale=0.036, fg=style.TERRACOTTA_PRESS,
                                 kind="serif", wordwrap=56)
        w["leave"] = style.button(root, _("Leave"), self.on_leave, pos=(-0.85, -0.79), width=0.5, kind="quiet")
        w["rules"] = style.button(root, _("Change the game"), self.on_rules, pos=(-0.12, -0.79), width=0.7,
                                  text_scale=0.04)
        w["start"] = style.button(root, _("Start"), self.on_start, pos=(0.75, -0.79), width=0.6, kind="primary")
        self._seen = None
        self._draw_seats()
        self._draw_invite()

    def _watch(self, task):
        if self.root is None:
            return task.done
        if self._seen != self._now():
            self._draw_seats()
            stage.changed()
        if self._shared != self.sharing():
            self._draw_invite()
            stage.changed()
        return task.cont

    def _draw_invite(self) -> None:
        """The invite, whose address it names, and what the home's router said (for a game hosted here)."""
        w, shared = self.widgets, self.sharing()
        self._shared = shared
        line = str(shared.invite) if shared is not None else ""
        w["invite"]["text"] = line
        room = (INVITE_BOX[1] - INVITE_BOX[0] - 0.06) / INVITE_SCALE      # a long host's name: smaller, inside
        w["invite"]["text_scale"] = fitted_scale(line, font("body"), room, 1.0) if line else 1.0
        for key in ("copy", "invite_box"):
            w[key].show() if shared is not None else w[key].hide()
        w["reach"]["text"] = reach_words(shared) if shared is not None else ""
        w["router"]["text"] = router_words(shared) if shared is not None else ""

    def _copy(self) -> None:
        shared = self.sharing()
        if shared is not None:
            self.tell(copied_words(clipboard.copy(str(shared.invite))))

    def _now(self) -> tuple:
        return repr(self.player.table), tuple(sorted(self.player.seats))

    def _draw_seats(self) -> None:
        w, table, mine = self.widgets, self.player.table, set(self.player.seats)
        self._seen = self._now()
        for group in ("seats", "clock"):
            w[group].destroy()      # the rows' widgets with it
            w[group] = DirectFrame(parent=self.root, relief=None)
        for key in [k for k in w if k.startswith(("sit_", "computer_", "away_", "clock_"))]:
            del w[key]
        host = is_host(table, mine)
        started = bool(table.get("started"))
        for row in seat_rows(table, mine):
            self._draw_row(row, host and not started, seated=bool(mine))
        self._draw_clock(clock_seconds(table), host and not started and self.on_clock is not None)
        for key in ("rules", "start"):
            w[key].show() if host and not started else w[key].hide()
        style.set_enabled(w["start"], may_start(table, mine))
        if started and not mine:
            status = watching()          # a game under way whose seats are taken: watched
        elif started:
            status = _("The game begins …")
        elif not mine:
            status = _("Choose a free seat.")
        elif host:
            status = (_("Every seat is filled: start when you are ready.") if may_start(table, mine)
                      else _("Wait for your friends, or give the empty seats to computer players."))
        else:
            status = _("Waiting for the host to start the game.")
        w["status"]["text"] = drawable(status, "serif")

    def _draw_clock(self, seconds: int, host: bool) -> None:
        """The turn clock: for the host a choice (no clock, 1, 2 or 5 minutes a move), for everyone its words."""
        w, parent = self.widgets, self.widgets["clock"]
        if not host:
            w["clock_words"] = style.text(parent, clock_words(seconds), pos=(0, -0.4), scale=0.038, kind="serif")
            return
        style.text(parent, _("Turn clock"), pos=(-1.1, -0.4), scale=0.04, align="left", kind="bold")
        for i, choice in enumerate(CLOCK_CHOICES):
            w[f"clock_{choice}"] = style.button(parent, clock_choice_words(choice),
                                                lambda c=choice: self.on_clock(c), pos=(-0.35 + i * 0.3, -0.385),
                                                width=0.27, height=0.085, text_scale=0.036,
                                                kind="selected" if choice == seconds else "quiet")

    def _draw_row(self, row: SeatRow, host: bool, seated: bool) -> None:
        w, parent = self.widgets, self.widgets["seats"]
        y = SEAT_TOP - row.seat * SEAT_STEP
        style.text(parent, f"{row.seat + 1}.", pos=(-1.1, y - 0.014), scale=0.045, align="right", kind="bold",
                   fg=style.INK_SOFT)
        if row.kind == "free":
            name = "—"
        else:
            name = row.name + "  " + _("(you)") if row.mine else row.name
        style.text(parent, name, pos=(-1.02, y - 0.014), scale=0.045, align="left", kind="bold")
        free = _("free: a computer player?") if host and seated else _("free")
        what = {"free": free, "here": _("at the table"), "away": _("away: the seat waits"),
                "computer": _(SEAT_NAMES[row.strength]) if row.strength else ""}[row.kind]
        style.text(parent, what, pos=(-0.12, y - 0.014), scale=0.038, align="left", fg=style.INK_SOFT, kind="serif")
        if row.kind in ("here", "away") and host and not row.mine and self.on_send_away is not None:
            w[f"away_{row.seat}"] = style.button(parent, _("Send away"), lambda n=row.seat: self.on_send_away(n),
                                                 pos=(0.85, y), width=0.56, height=0.1, kind="quiet",
                                                 text_scale=0.04)
        if row.kind != "free":
            return
        if not seated:
            w[f"sit_{row.seat}"] = style.button(parent, _("Sit here"), lambda n=row.seat: self.on_sit(n),
                                                pos=(0.85, y), width=0.56, height=0.1, kind="primary",
                                                text_scale=0.04)
        elif host:
            for i, strength in enumerate(Strength):
                w[f"computer_{row.seat}_{strength.value}"] = style.button(
                    parent, _(STRENGTH_NAMES[strength]).capitalize(),
                    lambda n=row.seat, s=strength: self.on_computer(n, s),
                    pos=(0.55 + i * 0.25, y), width=0.23, height=0.1, text_scale=0.034)

    def _teardown(self) -> None:
        self._seen = None

    def destroy(self) -> None:
        if self._task is not None:
            self._task.remove()
            self._task = None
        super().destroy()
