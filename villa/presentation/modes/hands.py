"""Pulling, Carrying, Laying: the hand holds a piece the pointer moves. Esc or a right click gives it up."""

from __future__ import annotations

from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS
from villa.physics.geometry import on_plane
from villa.physics import laying
from villa.physics.laying import FloorLay
from villa.physics.pulling import Grip, Pull
from villa.presentation import words
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import SUPPORT_GLOW, Glow, ModeBase
from villa.rules.pieces import floor_id
from villa.rules.state import Step


class InHand(ModeBase):
    """What the three hands share: giving up what is held."""

    def give_up(self) -> None:
        """The build under way is given up (the column goes back, blocked), or the floor being laid."""
        screen, match = self.screen, self.match
        hand = match.hand
        refusal = match.give_up()
        if refusal is not None:
            screen.say(refusal)
        elif isinstance(hand, FloorLay):
            screen.hud.flash(_("The floor goes back in the box"), screen.now)
        elif match.state.turn.step is not Step.TAKE_OUT:
            screen.hud.flash(_("{column} goes back, and may not be chosen again").format(
                column=words.column_words(hand.column)), screen.now)
        screen.follow()


class Pulling(InHand):
    """A column in hand, still under its floor: dragging draws it out; Space steadies the floor above."""

    mode = Mode.PULLING

    def aim(self, mouse) -> None:
        hand, controls = self.match.hand, self.screen.controls
        if not isinstance(hand, Pull):
            return
        hand.steady = controls.steadying
        if hand.state == Grip.PULLING and mouse is not None and controls.game_drag:
            hand.aim_ray(*self.screen.mouse_ray(mouse))

    def hints(self, mouse) -> tuple[Glow, str | None]:
        self.screen.ghost.hide()
        hand = self.match.hand
        if isinstance(hand, Pull) and hand.steadied:
            return {hand.steadied: SUPPORT_GLOW}, _("the floor above is held steady")
        return {}, _("drag it out; hold Space to steady the floor above")

    def headline(self) -> str:
        if self.match.state.turn.step is Step.IN_HAND:
            return words.pulling_headline(self.match.state)
        return super().headline()


class Carrying(InHand):
    """The column free, following the pointer over the top floor; a press sets it down."""

    mode = Mode.CARRYING

    def press(self, mouse) -> bool:
        screen = self.screen
        refusal = self.match.set_down()
        if refusal is not None:
            said = words.refusal(refusal, self.match.state)
            screen.hud.flash(_("Not there: {refusal}").format(refusal=said), screen.now)
        screen.follow()
        return True

    def aim(self, mouse) -> None:
        """The player points at the spot on the top floor; the column hovers above it."""
        hand = self.match.hand
        if not isinstance(hand, Pull):
            return
        hand.steady = self.screen.controls.steadying
        if hand.state == Grip.CARRYING and mouse is not None:
            spot = on_plane(*self.screen.mouse_ray(mouse), self._top_surface_z())
            if spot is not None:
                hand.aim(spot)

    def _top_surface_z(self) -> float:
        villa, top = self.match.villa, self.match.state.top_level
        if floor_id(top) not in villa.nodes:
            return BASE.top_z
        return villa.nodes[floor_id(top)].getZ() + FLOORS[top].thickness / 2

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """The ghost where the carried column would stand; the words say whether it may."""
        screen, pull = self.screen, self.match.hand
        if not isinstance(pull, Pull):
            return super().hints(mouse)
        below = pull.surface_below()
        if below is None:
            screen.ghost.hide()
            return {}, _("carry it over the top floor")
        refusal = self.match.landing_refusal()
        node = screen.view.scene.pieces[pull.column]
        pos = node.getPos()
        screen.ghost.show(pull.column, node, pos.x, pos.y, below[2] + COLUMN_HEIGHT / 2, node.getH(), refusal is None)
        if refusal is not None:
            return {}, _("Not here: {refusal}").format(refusal=words.refusal(refusal, self.match.state))
        return {}, _("click to set it down here; Esc gives up")


class Laying(InHand):
    """A floor following the pointer over the top columns; the wheel or Q/E turn it, a press lays it."""

    mode = Mode.LAYING

    def enter(self) -> None:
        if self.match.hand is None:
            self.screen.say(self.match.start_laying())
        self.screen.view.focus_top()

    def press(self, mouse) -> bool:
        self.screen.say(self.match.lower_floor())
        self.screen.follow()
        return True

    def turn_floor(self, degrees: float) -> bool:
        if not isinstance(self.match.hand, FloorLay):
            return False
        self.match.hand.turn(degrees)
        return True

    def aim(self, mouse) -> None:
        hand = self.match.hand
        if isinstance(hand, FloorLay) and mouse is not None:
            hand.aim_ray(*self.screen.mouse_ray(mouse))

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """The columns the floor would rest on glow; the words count them against what it needs."""
        self.screen.ghost.hide()
        hand = self.match.hand
        if not isinstance(hand, FloorLay) or hand.state != laying.Laying.CARRYING:
            return {}, None
        under = hand.columns_under()
        need = self.match.state.ruleset.min_support(hand.level)
        return {c: SUPPORT_GLOW for c in under}, _(
            "rests on {count} columns (needs {need}): click to lay it, wheel or Q/E to turn, "
            "Esc gives up").format(count=len(under), need=need)
