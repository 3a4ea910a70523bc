"""Joined a game online from the command line: the room's table while its seats fill, until the game starts."""

from __future__ import annotations

from typing import Callable

from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen


class WaitingScreen(Screen):
    """`seats`: (name, sitting) each, as the room's table says; `on_leave()`: back to the main menu."""

    def __init__(self, parent=None, *, room: str, seats: list[tuple[str, bool]], on_leave: Callable[[], None],
                 **options) -> None:
        self.room, self.seats, self.on_leave = room, seats, on_leave
        super().__init__(parent, **options)

    def build(self) -> None:
        root = self.root
        style.panel(root, (-0.8, 0.8, -0.55, 0.55))
        style.title(root, _("Room {code}").format(code=self.room), pos=(0, 0.4), scale=0.08)
        style.text(root, _("Waiting for everyone to sit down"), pos=(0, 0.3), scale=0.04, kind="serif")
        for i, (name, sitting) in enumerate(self.seats):
            said = name if sitting else _("{name} (a free seat)").format(name=name)
            self.widgets[f"seat_{i}"] = style.text(root, said, pos=(0, 0.16 - i * 0.09), scale=0.042)
        self.widgets["leave"] = style.button(root, _("Main menu"), self.on_leave, pos=(0, -0.42), width=0.62,
                                             kind="quiet")

    def show_seats(self, seats: list[tuple[str, bool]]) -> None:
        if seats != self.seats:
            self.seats = seats
            self.refresh()
