"""Colours for the players: the Master Builder Seal rolled as a long four-sided die, then the
others choose in turn.

The screen works on a match whose colours are still to be settled: for each roll the rules call
for, the die tumbles across the table and lands on what chance gave (`match.next_roll()`), and
the roll goes to the referee; each player whose choice is due picks from the colours the rules
offer. `RollingSeal` is the die itself, also tumbled for the family edition's turn colours.

Online (`here`: the seats of this window) the same screen shows the same rolls: a roll of a seat
played here tumbles and then goes to the server; a roll heard from the server (another window's, a
computer player's) tumbles too, the table showing the colours as they were until it lands; only
this window's people choose here, the others' choices come as news.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Callable

from direct.gui.DirectGui import DirectFrame
from panda3d.core import AmbientLight, CullFaceAttrib, DirectionalLight, LRotationf, TextureStage

from villa import rules
from villa.match import Accepted
from villa.match import requests as rq
from villa.presentation import models
from villa.presentation.i18n import N_, _
from villa.presentation.fonts import drawable
from villa.presentation.menus import style
from villa.presentation.menus.base import Screen
from villa.presentation.palette import PAINT
from villa.presentation.stage import stage
from villa.rules.pieces import Colour
from villa.rules import Task

COLOUR_TASKS = (Task.COLOUR_ROLL, Task.COLOUR_CHOICE)   # the colours still to settle: this screen's
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


def rolls_in(state: rules.GameState) -> list[tuple[rules.GameState, rules.SealRoll]]:
    """Each roll of the seal in the game's log with the state it was rolled in, the log replayed by the rules
    from the game's start (nothing if it does not replay)."""
    rolls, now = [], rules.new_game(state.setup)
    try:
        for action in state.log:
            if isinstance(action, rules.SealRoll):
                rolls.append((now, action))
            now = rules.apply(now, action)
    except rules.RuleError:
        return []
    return rolls


def _orientation(heading: float, pitch: float, stand: float = 0.0):
    # first turn the die about its own long axis (x), then stand it up on an end (about y),
    # then swing it about the table's normal
    return LRotationf((1, 0, 0), pitch) * LRotationf((0, 1, 0), -stand) * LRotationf((0, 0, 1), heading)


class SealRollScreen(Screen):
    """The match's colours, before its first turn: the seal tumbles for each roll the rules call for and
    lands on what chance gave; each player whose choice is due picks from the colours the rules offer
    (a computer player picks for itself). `on_done()` when the players press "Start building"."""

    def __init__(self, parent=None, *, match, on_done: Callable[[], None], here: frozenset[int] | None = None,
                 **options) -> None:
        """`here`: online, the seats played at this window (None: the hot seat, every seat here)."""
        self.match, self.on_done, self.here = match, on_done, here
        self.seal: RollingSeal | None = None
        self.in_the_air: rules.SealRoll | None = None   # the roll tumbling now (applied when it lands)
        self._rolled_for = 0.0            # seconds of the roll seen so far (kept when the screen is rebuilt)
        self._last: Colour | None = None  # the colour the seal last showed
        self._task = None
        self._drawn: list = []            # the players' list, drawn anew as the colours go out
        self._to_send: rq.Request | None = None   # a roll landed here, until the match takes it
        self._sent_at = -1                # the log's length when this window last sent a roll or a choice
        self._heard: deque = deque()      # online: rolls heard from the server, (state before, roll), to tumble
        self._shown: rules.GameState | None = None   # online: the state shown while a roll heard tumbles
        self._drawn_for: rules.GameState | None = None
        if here is not None:       # a window that comes in after a roll sees it tumble all the same
            self._heard.extend(rolls_in(match.state))
            self._shown = self._heard[0][0] if self._heard else None
        super().__init__(parent, **options)
        self._stop_hearing = match.events.subscribe(Accepted, self._hear) if here is not None else (lambda: None)
        self._task = stage.task_mgr.add(self._tick, f"villa-colours-{id(self)}") if stage.task_mgr else None
        self._stop_moving = stage.moves_while(lambda: self.moving)

    # --- the flow ---
    @property
    def state(self) -> rules.GameState:
        """The state shown: the match's, or online the one before a roll heard while it still tumbles."""
        return self._shown if self._shown is not None else self.match.state

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

    def _played_here(self, seat: int | None) -> bool:
        """Whether this window acts for `seat` (the hot seat: every seat)."""
        return seat is not None and (self.here is None or seat in self.here)

    def _chooses_elsewhere(self, seat: int) -> bool:
        """A computer player chooses for itself; online, another window's person chooses there."""
        return self.match.seat(seat).is_computer or not self._played_here(seat)

    @property
    def chooser(self) -> int | None:
        """The seat whose choice is awaited, or None (rolling, or all done)."""
        state = self.state
        if self.rolling or rules.task(state) is not Task.COLOUR_CHOICE:
            return None
        return state.turn.actor

    @property
    def colours_left(self) -> list[Colour]:
        return [a.colour for a in rules.legal_actions(self.state) if isinstance(a, rules.ChooseColour)]

    @property
    def done(self) -> bool:
        return (rules.task(self.state) not in COLOUR_TASKS and not self.rolling
                and not self._heard)

    def choose(self, colour: Colour) -> None:
        chooser, at = self.chooser, len(self.state.log)
        if chooser is None or not self._played_here(chooser) or self._sent_at == at \
                or not self.match.request(rq.ChooseColour(chooser, colour)).accepted:
            raise ValueError(f"{colour} cannot be chosen now")
        self._sent_at = at          # online: sent, its answer still to come (the hot seat's came at once)
        self._update()

    @property
    def die(self):
        return self.seal.die

    def finish_roll(self) -> None:
        """Let the die land at once."""
        if self.rolling:
            self.seal.land()

    def _tick(self, task):
        if self.root is None:
            return task.done
        dt = stage.clock.getDt() if stage.clock is not None else 1 / 60
        if self.here is not None:
            self.match.advance(dt)      # the server's news: the others' rolls and choices, this window's answers
        state = self.state
        if self._to_send is not None:
            self._send_roll()
        elif self.rolling:
            pass
        elif self._heard:
            self._shown, roll = self._heard.popleft()
            self._tumble(roll)
        elif (rules.is_chance_node(state) and rules.task(state) is Task.COLOUR_ROLL
              and self._played_here(rules.acting_player(state)) and self._sent_at != len(state.log)):
            self._tumble(self.match.next_roll())
        elif self.here is None and self.chooser is not None and self.match.seat(self.chooser).is_computer:
            self.match.advance(dt)   # it chooses itself
            self._update()
        if self.here is not None and self._drawn_for is not self.state:
            self._update()          # news came
            stage.changed()
        return task.cont

    def _tumble(self, roll: rules.SealRoll) -> None:
        self.in_the_air = roll
        self._rolled_for = 0.0
        self.seal.roll(roll.colour, self._landed)
        self._update()

    def _hear(self, event: Accepted) -> None:
        """Online: a roll the server applied that this window did not send tumbles here too."""
        if isinstance(event.action, rules.SealRoll) and len(event.before.log) != self._sent_at:
            self._heard.append((event.before, event.action))

    def _landed(self) -> None:
        roll, self.in_the_air = self.in_the_air, None
        if roll is not None:
            self._last = roll.colour
            if self._shown is not None:
                self._shown = None            # a roll heard: shown, and the table as it is now
            else:
                self._to_send = rq.Roll(self.state.turn.actor)
                self._send_roll()
        self._update()

    def _send_roll(self) -> None:
        """The roll that landed goes to the match (again next frame, while the villa still settles)."""
        at = len(self.match.state.log)
        if self.match.request(self._to_send).accepted:
            self._to_send, self._sent_at = None, at

    # --- widgets ---
    def build(self) -> None:
        root = self.root
        style.panel(root, (-1.45, 1.45, -0.9, 0.9))
        style.title(root, _("Colours"), pos=(0, 0.72), scale=0.095)
        if self.state.ruleset.everyone_rolls:
            words = _("Every player rolls the Master Builder Seal for a colour; a colour already taken is "
                      "rolled again.")
        elif rules.task(self.state) is Task.COLOUR_ROLL or self._rolls():
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
        self._stop_hearing()
        super().destroy()

    def _finish(self) -> None:
        if self.done:
            self.on_done()

    def _update(self) -> None:
        if self.root is None:
            return
        w, state = self.widgets, self.state
        self._drawn_for = state
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
        elif chooser is not None and (self._chooses_elsewhere(chooser) or self._sent_at == len(state.log)):
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
        elif rules.task(state) is Task.COLOUR_ROLL and not self._played_here(state.turn.actor):
            w["prompt"]["text"] = _("Waiting for {name} to roll the seal …").format(
                name=self.players[state.turn.actor])
        else:
            w["prompt"]["text"] = ""
        w["prompt"]["text"] = drawable(w["prompt"]["text"], "bold")       # names in any script
        if self.done:
            w["summary"]["text"] = drawable("\n".join(self._summary()), "serif")
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
