"""Colours for the players: the Master Builder Seal rolled as a long four-sided die, then the
others choose in turn.

The screen works on a match whose colours are still to be settled: for each roll the rules call
for, the die tumbles across the table and lands on what chance gave (`match.next_roll()`), and
the roll goes to the referee; each player whose choice is due picks from the colours the rules
offer. `RollingSeal` is the die itself, also tumbled for the family edition's turn colours.
"""

from __future__ import annotations

import math
from typing import Callable

from direct.gui.DirectGui import DirectFrame
from panda3d.core import AmbientLight, CullFaceAttrib, DirectionalLight, LRotationf, TextureStage

from villa import rules
from villa.match import requests as rq
from villa.presentation import models
from villa.presentation.i18n import N_, _
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.palette import PAINT
from villa.presentation.stage import stage
from villa.rules.pieces import Colour
from villa.rules.state import Step

COLOUR_NAMES = {Colour.BLUE: N_("blue"), Colour.RED: N_("red"), Colour.YELLOW: N_("yellow"),
                Colour.GREEN: N_("green")}
# The die's four long faces, and the pitch (rotation about its long axis) that turns each one up.
FACE_PITCH = {Colour.BLUE: 0.0, Colour.GREEN: 90.0, Colour.YELLOW: 180.0, Colour.RED: 270.0}
ROLL_SECONDS = 2.2
SEAL_SCALE = 0.1   # the seal's model (cm) on the panel
SEAL_LENGTH, SEAL_SIDE = models.SEAL.length * SEAL_SCALE, models.SEAL.side * SEAL_SCALE


def colour_name(colour: Colour) -> str:
    return _(COLOUR_NAMES[colour])


class RollingSeal:
    """The seal as a long die rolled along a strip of table under `parent`: it comes in from the
    left, bounces, turns over and lands on the colour rolled (None: on an end face, standing up),
    then calls `on_landed`. `land()` lets it land at once."""

    def __init__(self, parent, *, pos=(0.0, 0.0), scale: float = 1.0, seconds: float = ROLL_SECONDS) -> None:
        self.seconds = seconds
        self.colour: Colour | None = None
        self.end_up = False   # rolled onto an end face
        self.elapsed = seconds
        self.rolling = False
        self._on_landed: Callable[[], None] | None = None
        self._task = None
        self.table = DirectFrame(parent=parent, frameSize=(-0.95, 0.95, -0.26, 0.26), frameColor=(1, 1, 1, 1),
                                 pos=(pos[0], 0, pos[1]), scale=scale)
        style._apply_texture(self.table, style.rounded(1.9, 0.52, 0.03, (0.50, 0.31, 0.16, 1),
                                                       (0.40, 0.24, 0.12, 1), (0.30, 0.17, 0.08, 1), 0.005))
        self.shadow = DirectFrame(parent=self.table, frameSize=(-0.32, 0.32, -0.04, 0.04), frameColor=(1, 1, 1, 1))
        style._apply_texture(self.shadow, style.rounded(0.64, 0.08, 0.04, (0, 0, 0, 0.22), (0, 0, 0, 0.22),
                                                        (0, 0, 0, 0.0), 0.002))
        holder = self.table.attachNewNode("seal holder")
        holder.setPos(0, 0, -0.03)
        # the seal's model from models/: blue on top (+z), green at the back (+y), yellow below, red in front
        self.die = models.load(stage.loader, "seal.bam")
        self.die.reparentTo(holder)
        self.die.setScale(SEAL_SCALE)
        self.die.setAttrib(CullFaceAttrib.make(CullFaceAttrib.M_cull_clockwise), 1)
        for texture_stage in self.die.findAllTextureStages():   # lit without shaders here: no relief
            if texture_stage.getMode() == TextureStage.M_normal:
                self.die.setTextureOff(texture_stage, 1)
        sun = DirectionalLight("seal light")
        sun.setColor((0.85, 0.82, 0.76, 1))
        sun_np = holder.attachNewNode(sun)
        sun_np.setHpr(-30, -50, 0)
        fill = AmbientLight("seal fill")
        fill.setColor((0.42, 0.40, 0.38, 1))
        fill_np = holder.attachNewNode(fill)
        self.die.setLight(sun_np)
        self.die.setLight(fill_np)
        holder.setHpr(0, 52, 0)   # the table seen from above at a slant: the top face toward the viewer
        self.place(1.0)

    def roll(self, colour: Colour | None, on_landed: Callable[[], None] | None = None, elapsed: float = 0.0) -> None:
        self.colour, self.elapsed, self._on_landed = colour, elapsed, on_landed
        self.end_up = colour is None
        self.rolling = True
        self.place(elapsed / self.seconds)
        self._start_task()

    def land(self) -> None:
        if self.rolling:
            self.elapsed = self.seconds
            self.place(1.0)
            self._landed()

    def destroy(self) -> None:
        self._stop_task()
        self.table.destroy()

    def place(self, t: float) -> None:
        """The die at fraction t of its roll."""
        t = min(1.0, max(0.0, t))
        final = FACE_PITCH.get(self.colour, 0.0)
        ease = 1 - (1 - t) ** 3
        pitch = final + 360.0 * 3 * (1 - ease)
        stand = 90.0 * ease ** 4 if self.end_up else 0.0
        x = -0.75 * (1 - ease)
        bounce = abs(math.sin(t * math.pi * 3.0)) * 0.16 * (1 - t) ** 2
        rise = (SEAL_LENGTH - SEAL_SIDE) / 2 * math.sin(math.radians(stand))   # on its end it stands taller
        self.die.setPos(x, 0, bounce + rise)
        self.die.setQuat(_orientation(-12 + 40 * (1 - ease), pitch, stand))
        self.shadow.setPos(x, 0, -0.135)
        self.shadow.setScale((1 - bounce * 1.5) * max(0.25, math.cos(math.radians(stand))), 1, 1)

    def _landed(self) -> None:
        self.rolling = False
        self._stop_task()
        if self._on_landed is not None:
            on_landed, self._on_landed = self._on_landed, None
            on_landed()

    def _start_task(self) -> None:
        if stage.task_mgr is None:
            return
        self._stop_task()

        def tick(task):
            self.elapsed += stage.clock.getDt() if stage.clock is not None else 1 / 60
            if self.table.isEmpty():
                return task.done
            self.place(self.elapsed / self.seconds)
            if self.elapsed >= self.seconds:
                self._landed()
                return task.done
            return task.cont
        self._task = stage.task_mgr.add(tick, f"villa-seal-roll-{id(self)}")

    def _stop_task(self) -> None:
        if self._task is not None:
            self._task.remove()
            self._task = None


def _orientation(heading: float, pitch: float, stand: float = 0.0):
    # first turn the die about its own long axis (x), then stand it up on an end (about y),
    # then swing it about the table's normal
    return LRotationf((1, 0, 0), pitch) * LRotationf((0, 1, 0), -stand) * LRotationf((0, 0, 1), heading)


class SealRollScreen(Screen):
    """The match's colours, before its first turn: the seal tumbles for each roll the rules call for and
    lands on what chance gave; each player whose choice is due picks from the colours the rules offer
    (a computer player picks for itself). `on_done()` when the players press "Start building"."""

    def __init__(self, parent=None, *, match, on_done: Callable[[], None], **options) -> None:
        self.match, self.on_done = match, on_done
        self.seal: RollingSeal | None = None
        self.in_the_air: rules.SealRoll | None = None   # the roll tumbling now (applied when it lands)
        self._rolled_for = 0.0            # seconds of the roll seen so far (kept when the screen is rebuilt)
        self._last: Colour | None = None  # the colour the seal last showed
        self._task = None
        self._drawn: list = []            # the players' list, drawn anew as the colours go out
        super().__init__(parent, **options)
        self._task = stage.task_mgr.add(self._tick, f"villa-colours-{id(self)}") if stage.task_mgr else None
        self._stop_moving = stage.moves_while(lambda: self.moving)

    # --- the flow ---
    @property
    def state(self) -> rules.GameState:
        return self.match.state

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def rolling(self) -> bool:
        return self.in_the_air is not None

    @property
    def moving(self) -> bool:
        """The seal tumbles, or a computer player is about to choose: the picture changes by itself."""
        chooser = self.chooser
        return self.rolling or (chooser is not None and self.match.seat(chooser).is_computer)

    @property
    def chooser(self) -> int | None:
        """The seat whose choice is awaited, or None (rolling, or all done)."""
        state = self.state
        if self.rolling or state.turn.step is not Step.COLOUR_CHOICE:
            return None
        return state.turn.actor

    @property
    def colours_left(self) -> list[Colour]:
        return [a.colour for a in rules.legal_actions(self.state) if isinstance(a, rules.ChooseColour)]

    @property
    def done(self) -> bool:
        return self.state.turn.step not in (Step.COLOUR_ROLL, Step.COLOUR_CHOICE) and not self.rolling

    def choose(self, colour: Colour) -> None:
        chooser = self.chooser
        if chooser is None or not self.match.request(rq.ChooseColour(chooser, colour)).accepted:
            raise ValueError(f"{colour} cannot be chosen now")
        self._update()

    @property
    def die(self):
        return self.seal.die

    def finish_roll(self) -> None:
        """Let the die land at once."""
        if self.rolling:
            self.seal.land()

    def _tick(self, task):
        state = self.state
        if self.root is None:
            return task.done
        if not self.rolling and rules.is_chance_node(state) and state.turn.step is Step.COLOUR_ROLL:
            self.in_the_air = self.match.next_roll()
            self._rolled_for = 0.0
            self.seal.roll(self.in_the_air.colour, self._landed)
            self._update()
        elif self.chooser is not None and self.match.seat(self.chooser).is_computer:
            self.match.advance(stage.clock.getDt() if stage.clock is not None else 1 / 60)   # it chooses itself
            self._update()
        return task.cont

    def _landed(self) -> None:
        roll, self.in_the_air = self.in_the_air, None
        if roll is not None:
            self._last = roll.colour
            self.match.request(rq.Roll(self.state.turn.actor))
        self._update()

    # --- widgets ---
    def build(self) -> None:
        root = self.root
        style.panel(root, (-1.45, 1.45, -0.9, 0.9))
        style.title(root, _("Colours"), pos=(0, 0.72), scale=0.095)
        if self.state.ruleset.everyone_rolls:
            words = _("Every player rolls the Master Builder Seal for a colour; a colour already taken is "
                      "rolled again.")
        elif self.state.turn.step is Step.COLOUR_ROLL or self._rolls():
            words = _("{name} rolls the Master Builder Seal for a colour.").format(name=self.players[0])
        else:
            words = _("Each player chooses a colour in turn.")
        style.text(root, words, pos=(0, 0.6), scale=0.042, fg=style.INK_SOFT, kind="serif")
        # the table the die lands on
        self.seal = RollingSeal(root, pos=(-0.28, 0.22))
        self.widgets["table"], self.widgets["shadow"] = self.seal.table, self.seal.shadow
        # who has which colour
        self.widgets["list"] = DirectFrame(parent=root, relief=None, pos=(1.0, 0, 0.42))
        style.text(root, _("Players"), pos=(1.0, 0.47), scale=0.045, kind="title")
        self.widgets["prompt"] = style.text(root, "", pos=(-0.28, -0.14), scale=0.05, kind="bold")
        self.widgets["choices"] = DirectFrame(parent=root, relief=None, pos=(-0.28, 0, -0.3))
        self.widgets["summary"] = style.text(root, "", pos=(-0.28, -0.3), scale=0.042, fg=style.INK_SOFT, kind="serif",
                                             wordwrap=44)
        self.widgets["start"] = style.button(root, _("Start building"), self._finish, pos=(-0.28, -0.62), width=0.7,
                                             kind="primary")
        if self.rolling:
            self.seal.roll(self.in_the_air.colour, self._landed, elapsed=self._rolled_for)
        elif self._last is not None:
            self.seal.colour = self._last
            self.seal.place(1.0)
        self._update()

    def _rolls(self) -> list[rules.SealRoll]:
        return [a for a in self.state.log if isinstance(a, rules.SealRoll)]

    def _teardown(self) -> None:
        self._drawn = []   # destroyed with the root
        if self.seal is not None:
            self._rolled_for = self.seal.elapsed if self.rolling else self._rolled_for
            self.seal.destroy()
            self.seal = None

    def destroy(self) -> None:
        if self._task is not None:
            self._task.remove()
            self._task = None
        self._stop_moving()
        super().destroy()

    def _finish(self) -> None:
        if self.done:
            self.on_done()

    def _update(self) -> None:
        if self.root is None:
            return
        w, state = self.widgets, self.state
        # the players' list
        listing = w["list"]
        for widget in self._drawn:
            widget.destroy()
        self._drawn = []
        for seat, name in enumerate(self.players):
            y = -0.1 - seat * 0.13
            self._drawn.append(style.text(listing, name, pos=(-0.2, y - 0.014), scale=0.04, align="left",
                                          kind="bold" if seat == self.chooser else "body"))
            mine = state.colours[seat]
            for i, colour in enumerate(mine):
                self._drawn.append(style.swatch(listing, colour, pos=(-0.27 - i * 0.065, y), size=0.05))
            if mine:  # in words too, for eyes that do not tell the colours apart
                self._drawn.append(style.text(listing, " + ".join(colour_name(c) for c in mine),
                                              pos=(-0.2, y - 0.062), scale=0.03, align="left", fg=style.INK_SOFT))
        # the prompt and the colours to choose from
        choices = w["choices"]
        for key in [k for k in w if k.startswith("colour_")]:
            w.pop(key).destroy()
        chooser = self.chooser
        if self.rolling:
            w["prompt"]["text"] = _("{name} rolls the seal …").format(name=self.players[state.turn.actor])
        elif chooser is not None and self.match.seat(chooser).is_computer:
            w["prompt"]["text"] = _("{name} chooses a colour …").format(name=self.players[chooser])
        elif chooser is not None:
            w["prompt"]["text"] = _("{name}, choose your colour.").format(name=self.players[chooser])
            left = self.colours_left
            for i, colour in enumerate(left):
                x = (i - (len(left) - 1) / 2) * 0.36
                w[f"colour_{colour.value}"] = style.button(choices, colour_name(colour).capitalize(),
                                                          lambda c=colour: self.choose(c), pos=(x, 0),
                                                          width=0.32, height=0.1, fill=PAINT[colour])
        elif self.done:
            w["prompt"]["text"] = _("Everyone has a colour.")
        else:
            w["prompt"]["text"] = ""
        if self.done:
            w["summary"]["text"] = "\n".join(self._summary())
            w["start"].show()
        else:
            w["summary"]["text"] = ""
            w["start"].hide()

    def _summary(self) -> list[str]:
        state, lines = self.state, []
        if state.ruleset.everyone_rolls:   # each rolled until the seal showed a colour still free
            for seat, name in enumerate(self.players):
                lines.append(_("{name} plays {colour}.").format(
                    name=name, colour=" + ".join(colour_name(c) for c in state.colours[seat])))
        else:
            for roll in self._rolls():
                roller = next(p for p, cs in enumerate(state.colours) if roll.colour in cs)
                lines.append(_("The seal shows {colour}: {name} plays {colour}.").format(
                    colour=colour_name(roll.colour), name=self.players[roller]))
        if state.neutral is not None:
            lines.append(_("Nobody plays {colour}: those columns are neutral.").format(colour=colour_name(state.neutral)))
        lines.append(_("{name} begins.").format(name=self.players[state.turn.player]))
        return lines
