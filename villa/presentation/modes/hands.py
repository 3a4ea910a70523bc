"""Pulling, Carrying, Laying: the hand holds a piece the pointer moves. Esc or a right click gives it up.

Carrying and Laying go through the builder's hands (`villa.presentation.holding`): a press lowers
the piece and holds it, a release lets go of what sits, a click lays it once it sits, the wheel
lowers and lifts it."""

from __future__ import annotations

from villa import rules
from villa.match import requests as rq
from villa.match.face import is_floor
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS
from villa.physics.geometry import on_plane
from villa.physics import laying
from villa.physics.pulling import Grip
from villa.presentation import words
from villa.presentation.camera import mouse_ray
from villa.presentation.i18n import _
from villa.presentation.modes import Mode
from villa.presentation.modes.base import SUPPORT_GLOW, Glow, ModeBase
from villa.rules.pieces import floor_id


class InHand(ModeBase):
    """What the three hands share: giving up what is held, the builder's hands, and letting go of a
    clicked piece once it sits. A piece taken up from the server's hands (online, a window back in the middle of
    a move) is moved from where it is by the pointer's moves, not pulled to wherever the pointer happens to be;
    one that sits in the hands is slid only while the button is down again (it came back with the button up)."""

    _offset = None      # for a piece taken up: where it stood from where the pointer pointed, on the aim's plane

    def aim_from_pointer(self, spot, piece) -> None:
        """The piece in hand toward the pointer's `spot` (None: the pointer misses the plane); `piece` its node."""
        hand = self.match.hand
        if spot is not None and hand is not None and hand.taken_up and piece is not None:
            sits = hand.state in (Grip.HELD, laying.Laying.HELD)
            if sits and not self.screen.controls.game_drag:
                self._offset = None        # (measured again from where it sits when the button goes down)
                return
            if self._offset is None:
                at = piece.getPos()
                self._offset = (at.x - spot.x, at.y - spot.y)
            spot = type(spot)(spot.x + self._offset[0], spot.y + self._offset[1], spot.z)
        aim_at(self.screen, spot)

    def frame(self, dt: float) -> None:
        self.screen.say(self.screen.hands.update())
        super().frame(dt)

    def press(self, mouse) -> bool:
        """Lower the piece and hold it (a floor at its middle, which is under the pointer)."""
        self.screen.say(self.screen.hands.press())
        self.screen.follow()
        return True

    def release(self, moved: bool) -> None:
        self.screen.say(self.screen.hands.release(moved))
        self.screen.follow()

    def wheel(self, notches: int) -> bool:
        used, refusal = self.screen.hands.wheel(notches)
        self.screen.say(refusal)
        return used

    def give_up(self) -> None:
        """The build under way is given up (the column goes back, blocked), or the floor being laid."""
        screen, match = self.screen, self.match
        hand = match.hand
        screen.hands.reset()
        if not screen.ask(rq.GiveUp).accepted:
            pass
        elif is_floor(hand):
            screen.hud.flash(_("The floor goes back in the box"), screen.now)
        elif rules.task(match.state) is not rules.Task.TAKE_OUT:
            screen.hud.flash(_("{column} goes back, and may not be chosen again").format(
                column=words.column_words(hand.column)), screen.now)
        screen.follow()


class Pulling(InHand):
    """A column in hand, still under its floor: dragging draws it out; Space steadies the floor above."""

    mode = Mode.PULLING

    def __init__(self, screen) -> None:
        super().__init__(screen)
        self._steadying = screen.controls.steadying    # as the column was taken (`Take.steady`)

    def exit(self) -> None:
        self.screen.gauge.hide()
        self.screen.sight.hide()
        self.screen.overlay.hide_eye()

    def aim(self, mouse) -> None:
        """The pointer drags the column out on the plane it was taken hold at; Space steadies the floor above."""
        hand, controls = self.match.hand, self.screen.controls
        if hand is None or is_floor(hand):
            return
        if controls.steadying != self._steadying and hand.state == Grip.PULLING:   # asked when it changes
            self._steadying = steady = controls.steadying
            self.screen.request(lambda seat: rq.Steady(seat, steady))
        if hand.state == Grip.PULLING and mouse is not None and controls.game_drag:
            aim_at(self.screen, on_plane(*mouse_ray(self.screen.stage, mouse), hand.grab_z))

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """The strain gauge, the builder's eye without the column; Space: the floor above shows held."""
        screen, hand = self.screen, self.match.hand
        screen.ghost.hide()
        screen.gauge.show(self.match.strain)    # online: as the server's hand felt it (`setHand`)
        column = hand is not None and not is_floor(hand)
        screen.overlay.show_eye(pulled=hand.column if column else None)
        if column and hand.steadied:
            screen.overlay.show_held_floor(hand.steadied)
            return {hand.steadied: SUPPORT_GLOW}, _("the floor above is held steady")
        screen.sight.hide()
        return {}, _("drag it out; hold Space to steady the floor above")

    def headline(self) -> str:
        if rules.task(self.match.state) is rules.Task.PLACE:
            return words.pulling_headline(self.match.state)
        return super().headline()


class Carrying(InHand):
    """The column free, following the pointer over the top floor; a press sets it down and holds it
    upright (a click: let go once it stands)."""

    mode = Mode.CARRYING

    def press(self, mouse) -> bool:
        screen = self.screen
        refusal = screen.hands.press()
        if refusal is not None:
            said = words.refusal(refusal, self.match.state)
            screen.hud.flash(_("Not there: {refusal}").format(refusal=said), screen.now)
        screen.follow()
        return True

    def aim(self, mouse) -> None:
        """The player points at the spot on the top floor; the column hovers above it."""
        hand = self.match.hand
        if hand is None or is_floor(hand):
            return
        if hand.state in (Grip.CARRYING, Grip.HELD) and mouse is not None:   # held: it slides
            self.aim_from_pointer(on_plane(*mouse_ray(self.screen.stage, mouse), self._top_surface_z()),
                                  self.match.villa.nodes.get(hand.column))

    def _top_surface_z(self) -> float:
        villa, top = self.match.villa, self.match.state.top_level
        if floor_id(top) not in villa.nodes:
            return BASE.top_z
        return villa.nodes[floor_id(top)].getZ() + FLOORS[top].thickness / 2

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """The ghost where the carried column would stand; the words say whether it may."""
        screen, pull = self.screen, self.match.hand
        if pull is None or is_floor(pull):
            return super().hints(mouse)
        if pull.state != Grip.CARRYING:   # set down, in the hand
            screen.ghost.hide()
            return {}, words.held_column(pull.state == Grip.HELD)
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
    """A floor following the pointer over the top columns, see-through; Q/E turn it, a press lowers it
    into the builder's hands, a click lays it once it sits."""

    mode = Mode.LAYING

    def enter(self) -> None:
        self.screen.hands.reset()
        if self.match.hand is None:
            self.screen.ask(rq.LayFloor)
        self.screen.view.focus_top()

    def exit(self) -> None:
        self.screen.sight.hide()
        self.screen.overlay.hide_eye()

    def wheel(self, notches: int) -> bool:
        super().wheel(notches)
        return True   # while a floor is laid the wheel lowers and lifts it, and never zooms

    def turn_floor(self, degrees: float) -> bool:
        if not is_floor(self.match.hand):
            return False
        self.screen.ask(lambda seat: rq.TurnFloor(seat, degrees))
        return True

    def aim(self, mouse) -> None:
        """On the plane of the column tops, carried or held (a plane that sank with the hands would slide
        the floor as it is lowered): what is under the pointer comes under the floor."""
        hand = self.match.hand
        if is_floor(hand) and mouse is not None:
            self.aim_from_pointer(on_plane(*mouse_ray(self.screen.stage, mouse), hand.rest_z),
                                  self.match.villa.nodes.get(floor_id(hand.level)))

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """The floor see-through over the tops it would rest on (held: the tops it touches), which glow;
        the words count them against what it needs, or say whether it sits level or tips."""
        screen, hand = self.screen, self.match.hand
        screen.ghost.hide()
        if not is_floor(hand) or hand.state not in (laying.Laying.CARRYING, laying.Laying.HELD):
            screen.sight.hide()
            return {}, None
        screen.overlay.show_eye()
        if hand.state == laying.Laying.HELD:
            touching = hand.touching()
            screen.overlay.show_sight(hand, touching)
            return {c: SUPPORT_GLOW for c in touching}, words.held_floor(
                bool(touching), hand.tilt_deg(), lowering=screen.hands.lowering)
        under = hand.columns_under()
        screen.overlay.show_sight(hand, under)
        return {c: SUPPORT_GLOW for c in under}, words.carried_floor(
            len(under), self.match.state.ruleset.min_support(hand.level))


def aim_at(screen, spot) -> None:
    """The piece in hand moves toward the spot under the pointer (None: the pointer misses the plane)."""
    if spot is not None:
        screen.request(lambda seat: rq.Aim(seat, (spot.x, spot.y, spot.z)))
