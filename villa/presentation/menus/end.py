"""The end of the game: the Master Builder (or none), the reason in words, who brought the villa down.

Built from the finished `GameState` (state.result set): the words come from the seal and
the result's fields, in the player's language, not from the engine's English reason.
"""

from __future__ import annotations

from typing import Callable

from villa.presentation.i18n import _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.rules.state import GameState


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


def reasons(state: GameState) -> list[str]:
    """Why the game ended as it did, sentence by sentence."""
    result = state.result
    if result is None:
        return []
    name = state.players
    holder, shows = state.seal.holder, state.seal.shows
    culprit = result.collapsed_by
    lines: list[str] = []
    if state.ruleset.family:
        if culprit is not None:
            lines.append(_("{name} brought the villa down.").format(name=name[culprit]))
        elif result.ending == "rounds played":
            lines.append(_("Nobody could move a column any more."))
        lines.append(_("After {rounds} rounds:").format(rounds=state.ruleset.rounds))
        scores = state.scores or ()
        lines.append("   ".join(_("{name}: {points}").format(name=name[p], points=s) for p, s in enumerate(scores)))
        if result.winner is None and result.tied:
            lines.append(_("Tied for first: {names}.").format(names=", ".join(name[p] for p in result.tied)))
        return lines
    if result.ending == "collapse" and culprit is not None:
        who = name[culprit]
        if holder is None:
            lines.append(_("{name} brought the villa down before anyone held the Master Builder Seal.")
                         .format(name=who))
        elif holder != culprit:
            lines.append(_("{name} brought the villa down.").format(name=who))
            lines.append(_("{holder} holds the Master Builder Seal and wins.").format(holder=name[holder]))
        elif shows is None:
            lines.append(_("{name} brought the villa down while holding the Master Builder Seal, "
                           "and the seal shows no earlier holder.").format(name=who))
        else:
            lines.append(_("{name} brought the villa down while holding the Master Builder Seal.").format(name=who))
            lines.append(_("The seal shows {previous}, the holder before: {previous} wins.")
                         .format(previous=name[shows]))
    else:
        if holder is None:
            lines.append(_("Nobody could build any further, and nobody held the Master Builder Seal."))
        else:
            lines.append(_("Nobody could build any further.") + " " +
                         _("{holder} holds the Master Builder Seal and wins.").format(holder=name[holder]))
    return lines


class EndScreen(Screen):
    backdrop = "dim"

    def __init__(self, parent=None, *, state: GameState, on_play_again: Callable[[], None],
                 on_main_menu: Callable[[], None], **options) -> None:
        self.state = state
        self.on_play_again, self.on_main_menu = on_play_again, on_main_menu
        super().__init__(parent, **options)

    def build(self) -> None:
        root, state = self.root, self.state
        style.panel(root, (-1.05, 1.05, -0.56, 0.66))
        winner = state.result.winner if state.result is not None else None
        self.widgets["headline"] = style.title(root, headline(state), pos=(0, 0.46), scale=0.1)
        if winner is not None and winner < len(state.colours):
            colours = state.colours[winner]
            for i, colour in enumerate(colours):
                style.swatch(root, colour, pos=((i - (len(colours) - 1) / 2) * 0.08, 0.36), size=0.055)
        self.widgets["reason"] = style.text(root, "\n".join(reasons(state)), pos=(0, 0.2), scale=0.044,
                                            wordwrap=40, kind="serif")
        culprit = state.result.collapsed_by if state.result is not None else None
        if culprit is not None:
            self.widgets["culprit"] = style.text(root, _("Brought the villa down: {name}").format(
                name=state.players[culprit]), pos=(0, -0.06), scale=0.042, fg=style.TERRACOTTA, kind="bold")
        self.widgets["play_again"] = style.button(root, _("Play again"), self.on_play_again, pos=(-0.36, -0.36),
                                                  width=0.62, kind="primary")
        self.widgets["main_menu"] = style.button(root, _("Main menu"), self.on_main_menu, pos=(0.36, -0.36),
                                                 width=0.62, kind="wood")
