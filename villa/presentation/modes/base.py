"""What every mode of the game screen does unless it says otherwise.

A mode is handed the screen (`self.screen`: the match, the view, the HUD, the panel) and the
player's input while it is the screen's mode. By default a press is taken and does nothing (a
panel, a fallen villa: nothing is built on), Esc and giving up do nothing, and a frame runs the
match and shows it as it is.
"""

from __future__ import annotations

from panda3d.core import Vec3

from villa.presentation.modes import Mode

TAKEABLE_GLOW = Vec3(0.07, 0.06, 0.02)
HOVER_GLOW = Vec3(0.22, 0.18, 0.07)
SUPPORT_GLOW = Vec3(0.05, 0.12, 0.22)   # the columns a floor would rest on, or the floor held steady

Glow = dict[str, Vec3]


class ModeBase:
    mode: Mode
    ends_itself = False   # only its own end leaves it (a panel's button, the replay's end ...), not the match's step
    pausable = False      # Esc opens the pause menu over it
    moving = False        # the picture changes by itself while in it

    def __init__(self, screen) -> None:
        self.screen = screen

    @property
    def match(self):
        return self.screen.match

    def enter(self, *args) -> None:
        pass

    def exit(self) -> None:
        pass

    # --- the player's requests (see `villa.presentation.controls.Handlers`) ---

    def press(self, mouse) -> bool:
        """A left press; True: taken (False: the drag turns the view)."""
        return True

    def release(self, moved: bool) -> None:
        """The left button comes up after a press this mode took."""

    def wheel(self, notches: int) -> bool:
        """The wheel (+1 up, -1 down); True: used (False: it zooms)."""
        return False

    def escape(self) -> None:
        self.give_up()

    def give_up(self) -> None:
        pass

    def turn_floor(self, degrees: float) -> bool:
        return False

    def propose_floor(self) -> None:
        pass

    def answer(self, objects: bool) -> None:
        pass

    def pass_turn(self) -> None:
        pass

    def roll(self) -> None:
        pass

    # --- every frame ---

    @property
    def speed(self) -> float:
        """How fast the match runs in this mode (computer players may be sped up)."""
        return 1.0

    def frame(self, dt: float) -> None:
        """Aim the hand, run the match, show it; the mode the match then calls for shows its hints."""
        screen = self.screen
        mouse = screen.take_input(dt)
        self.aim(mouse)
        screen.match.advance(dt * self.speed)
        screen.show_villa(dt)
        screen.follow()
        screen.current.show(mouse)
        screen.finish_frame(dt)

    def aim(self, mouse) -> None:
        """The pointer moves the piece in hand."""

    def show(self, mouse) -> None:
        """The hints under the pointer and the status line."""
        self.screen.hover = None
        glow, tooltip = self.hints(mouse)
        self.screen.show_hints(glow, tooltip, mouse)
        self.screen.hud.show_status(self.headline())

    def hints(self, mouse) -> tuple[Glow, str | None]:
        """What glows and what the tooltip says."""
        self.screen.ghost.hide()
        return {}, None

    def headline(self) -> str:
        return self.screen.telling.headline()


class Off(ModeBase):
    """The screen is closed: nothing more is done."""

    mode = Mode.OFF
    ends_itself = True

    def frame(self, dt: float) -> None:
        pass
