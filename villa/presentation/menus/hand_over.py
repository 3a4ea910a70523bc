"""Hot-seat hand-over: "Pass the mouse to X", shown over the villa before someone else acts.

The caller words the situation (`message`, already translated) and gives the answers
as (label, callback) pairs, e.g. for an objection:

    HandOverScreen(parent, player="Ben", colour=Colour.RED,
                   message=_("Anna proposes to lay the next floor. Do you object?"),
                   actions=[(_("Object"), on_object), (_("No objection"), on_decline)])

With no actions there is one button, "I have the mouse", calling `on_ready`.
"""

from __future__ import annotations

from typing import Callable, Sequence

from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.rules.pieces import Colour


class HandOverScreen(Screen):
    backdrop = "dim"

    def __init__(self, parent=None, *, player: str, colours: Sequence[Colour] = (), message: str = "",
                 actions: Sequence[tuple[str, Callable[[], None]]] = (), on_ready: Callable[[], None] | None = None,
                 **options) -> None:
        self.player, self.colours, self.message = player, tuple(colours), message
        self.actions = list(actions) or [(None, on_ready or (lambda: None))]
        super().__init__(parent, **options)

    def build(self) -> None:
        root = self.root
        style.panel(root, (-0.8, 0.8, -0.42, 0.46))
        style.text(root, _("Pass the mouse to"), pos=(0, 0.32), scale=0.045, fg=style.INK_SOFT, kind="serif")
        style.title(root, self.player, pos=(0, 0.16), scale=0.11)
        for i, colour in enumerate(self.colours):
            x = (i - (len(self.colours) - 1) / 2) * 0.09
            style.swatch(root, colour, pos=(x, 0.07), size=0.06)
        if self.message:
            style.text(root, self.message, pos=(0, -0.04), scale=0.04, wordwrap=34)
        count = len(self.actions)
        width = min(0.7, 1.4 / count - 0.04)
        for i, (words, command) in enumerate(self.actions):
            x = (i - (count - 1) / 2) * (width + 0.05)
            key = f"action_{i}"
            self.widgets[key] = style.button(root, words or _("I have the mouse"), command, pos=(x, -0.3),
                                             width=width, height=0.115, kind="primary" if i == 0 else "wood")
        self.widgets["ready"] = self.widgets["action_0"]


def ask_objection(parent=None, *, player: str, colours: Sequence[Colour] = (), proposer: str,
                  on_object: Callable[[], None], on_decline: Callable[[], None], **options) -> HandOverScreen:
    """Hot-seat: ask the next player in turn whether they object to `proposer`'s proposal of a floor."""
    return HandOverScreen(parent, player=player, colours=colours,
                          message=_("{proposer} proposes to lay the next floor. Do you object? "
                                    "If you do, you must set one of {proposer}'s columns on top.")
                          .format(proposer=proposer),
                          actions=[(_("Object"), on_object), (_("No objection"), on_decline)], **options)


def ask_challenge(parent=None, *, player: str, colours: Sequence[Colour] = (), challenged: str,
                  on_challenge: Callable[[], None], on_decline: Callable[[], None], **options) -> HandOverScreen:
    """Hot-seat, three players: may `player` prove that `challenged` could have moved another neutral column?"""
    return HandOverScreen(parent, player=player, colours=colours,
                          message=_("{name} gave up on a neutral column. Could another neutral column have gone up? "
                                    "If you challenge, you must prove it.").format(name=challenged),
                          actions=[(_("Challenge"), on_challenge), (_("No challenge"), on_decline)], **options)
