"""Who plays which seat, changed in the middle of a game (from the pause menu): a person takes over a
computer player's seat, or hands theirs to a computer player of some strength. The names stay."""

from __future__ import annotations

from typing import Callable, Sequence

from villa.match.setup import Seat
from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.menus.new_game import SEAT_KINDS, SEAT_NAMES


class SeatsScreen(Screen):
    """`on_done(seats)` with every seat as it should be now; `on_back()` changes nothing."""

    backdrop = "dim"

    def __init__(self, parent=None, *, seats: Sequence[Seat], on_done: Callable[[tuple[Seat, ...]], None],
                 on_back: Callable[[], None], **options) -> None:
        self.seats = list(seats)
        self.on_done, self.on_back = on_done, on_back
        super().__init__(parent, **options)

    def build(self) -> None:
        root = self.root
        height = 0.34 + 0.13 * len(self.seats)
        style.panel(root, (-0.8, 0.8, -height / 2 - 0.12, height / 2 + 0.12))
        top = height / 2
        style.title(root, _("Players"), pos=(0, top - 0.05), scale=0.08)
        for i, seat in enumerate(self.seats):
            y = top - 0.22 - i * 0.13
            style.text(root, seat.name, pos=(-0.66, y - 0.014), scale=0.042, align="left", kind="bold")
            self.widgets[f"seat_{i}"] = style.button(root, _(SEAT_NAMES[seat.computer]), lambda i=i: self._next(i),
                                                     pos=(0.36, y), width=0.6, height=0.09, text_scale=0.032,
                                                     kind="wood" if seat.computer else "quiet")
        bottom = top - 0.26 - len(self.seats) * 0.13
        self.widgets["done"] = style.button(root, _("Done"), lambda: self.on_done(tuple(self.seats)),
                                            pos=(0.25, bottom - 0.04), width=0.46, kind="primary")
        self.widgets["back"] = style.button(root, _("Back"), self.on_back, pos=(-0.25, bottom - 0.04), width=0.46,
                                            kind="quiet")

    def _next(self, i: int) -> None:
        seat = self.seats[i]
        kind = SEAT_KINDS[(SEAT_KINDS.index(seat.computer) + 1) % len(SEAT_KINDS)]
        self.seats[i] = Seat(seat.name, kind)
        self.refresh()

