"""The game screen: a thin controller over the match. The mouse goes to the match's hand; what the
match's events and its current step say goes to the screen.

The screen is always in one mode (`villa.presentation.modes.Mode`), a class each in
`villa/presentation/modes/`: what a press, Esc or a frame does is found in the mode's own file.
`change_mode` is the one way from one mode to the next; the match's step calls for the hands,
Idle, Settling and Computer (`mode_now`), its events open panels and the fall.

Each frame: the person's pointer aims the hand, the match advances (its villa steps and
its referee judges), the scene takes the poses, and the hints follow the pointer.
"""

from __future__ import annotations

import logging
from typing import Callable

from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import Accepted, Collapsed, Match, Refused, RoundStarted
from villa.physics import geometry
from villa.physics.dimensions import FLOORS, column_spec
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull
from villa.physics.world import give_back_free_memory
from villa.presentation import panels, words
from villa.presentation.builders_eye import BuildersEye
from villa.presentation.camera import mouse_ray
from villa.presentation.collapse_replay import CollapseRecorder
from villa.presentation.controls import Controls, Handlers
from villa.presentation.gauge import StrainGauge
from villa.presentation.ghost import Ghost
from villa.presentation.holding import Hands
from villa.presentation.hud import Hud
from villa.presentation.i18n import _
from villa.presentation.impacts import Impacts
from villa.presentation.modes import Mode, asking, ended, falling, hands, idle, paused, waiting
from villa.presentation.modes.base import ModeBase, Off
from villa.presentation.preferences import COMPUTER_SPEEDS
from villa.presentation.sight import FloorSight
from villa.presentation.view import VillaView
from villa.presentation.words import Button
from villa.rules.pieces import level_of_floor
from villa.rules.state import Step

log = logging.getLogger(__name__)

MAX_FRAME_DT = 0.1          # a stalled frame slows the villa down instead of jumping it
NO_GLOW = Vec3(0, 0, 0)
BLOCKED_SHADE = (0.55, 0.55, 0.55, 1.0)
MODES: dict[Mode, type[ModeBase]] = {cls.mode: cls for cls in (
    idle.Idle, hands.Pulling, hands.Carrying, hands.Laying, waiting.Settling, waiting.Computer,
    asking.Asking, asking.HandOver, asking.Rolling, falling.Falling, falling.Replay, paused.Paused,
    ended.Ended, Off)}


class GameScreen:
    """`on_end(result)` once the game is over (after the collapse's replay); `play_again()` from the end
    panel (None: no button); `on_pause()` for Esc with nothing in hand; `end_panel` False: the caller
    shows its own end; `sound`: a `villa.presentation.sound.Sound`, or None for silence; `here`: the seats
    played at this screen (a game online, over a `villa.online.remote.RemoteMatch`: the others are waited
    for), None: every person's seat (the hot seat)."""

    def __init__(self, stage, match: Match, on_end: Callable[[rules.Result], None] | None = None,
                 play_again: Callable[[], None] | None = None, sound=None,
                 on_pause: Callable[[], None] | None = None, end_panel: bool = True,
                 on_speed: Callable[[float], None] | None = None, here: frozenset[int] | None = None) -> None:
        self.stage, self.match, self.here = stage, match, here
        self.on_end, self.play_again, self.sound = on_end, play_again, sound
        self.on_pause, self.end_panel, self.on_speed = on_pause, end_panel, on_speed
        self.view = VillaView(stage)
        self.hud = Hud(stage)
        self.ghost = Ghost(self.view.scene.root)
        self.sight = FloorSight(stage.render)
        self.eye = BuildersEye(stage.render) if match.setup.builders_eye else None
        self.hands = Hands(match, lambda: self.now)
        self.gauge = StrainGauge(stage.base.a2dBottomLeft)
        self.controls = Controls(stage, self.view.camera, Handlers(
            press=self.press, release=self.release, wheel=self.wheel, give_up=self.give_up, escape=self.escape,
            turn_floor=self.turn_floor, propose_floor=self.propose_floor, answer=self.answer,
            focus_top=self.view.focus_top, look_down=self.look_down, toggle_help=self.hud.toggle_controls,
            roll=self.roll, faster=self.faster))
        self.panel: panels.Panel | None = None
        self.recorder = CollapseRecorder()
        self.impacts = Impacts()
        self.hover: str | None = None
        self.hint: str | None = None              # what the hand's tooltip says
        self.computer_speed = 1.0                  # how fast computer players' hands move
        self.fell_at = 0.0                         # the villa's time when it fell
        self._glow: dict[str, Vec3] = {}
        self._last_human: int | None = None       # who had the mouse last (hot seat: hand it over)
        self._last_waited: tuple[int | None, bool] = (None, False)   # online: the person last waited for, and away
        self._stops = [match.events.subscribe(Accepted, self._on_accepted),
                       match.events.subscribe(Refused, self._on_refused),
                       match.events.subscribe(Collapsed, self._on_collapsed),
                       match.events.subscribe(RoundStarted, self._on_round)]
        self.view.show_poses(match.villa.poses())
        self.view.focus_top(snap=True)
        self._show_state()
        self.current: ModeBase = Off(self)
        self._changes: list[tuple[Mode, tuple]] = []   # asked for while a mode was being left or entered
        self.change_mode(self.mode_now())
        self._tell_waiting()
        stage.task_mgr.add(self._frame_task, "villa frame", sort=-10)
        self._shown: tuple = ()                    # the mode and the match's state last drawn
        self._stop_moving = stage.moves_while(self._moving)

    def close(self) -> None:
        """Take the game off the screen (the window stays open for the next)."""
        self.stage.task_mgr.remove("villa frame")
        self._stop_moving()
        self.change_mode(Mode.OFF)   # leave the mode first: its exit (a collapse's replay ends) still draws on the view
        for stop in self._stops:
            stop()
        self.close_panel()
        if self.sound is not None:
            self.sound.stop_creak()
        self.controls.close()
        self.hud.close()
        self.ghost.hide()
        self.sight.close()
        self.gauge.close()
        if self.eye is not None:
            self.eye.close()
        self.view.close()
        give_back_free_memory()

    # --- the mode ------------------------------------------------------------------------------

    @property
    def mode(self) -> Mode:
        return self.current.mode

    def change_mode(self, mode: Mode, *args) -> None:
        """Leave the mode the screen is in and enter `mode` (with what it is entered with). A change
        asked for while leaving or entering one follows once that is done."""
        self._changes.append((mode, args))
        if len(self._changes) > 1:
            return
        while self._changes:
            mode, args = self._changes[0]
            self.current.exit()
            self.current = MODES[mode](self)
            self.current.enter(*args)
            self._changes.pop(0)

    def mode_now(self) -> Mode:
        """The mode the match's present step calls for (panels and the fall are entered by their own events)."""
        match = self.match
        if match.over and not match.collapsed:
            return Mode.ENDED
        if match.collapsed:
            return Mode.FALLING
        hand = match.hand
        if hand is not None and self.human_acts():
            if isinstance(hand, FloorLay):
                return Mode.LAYING if hand.state in (Laying.CARRYING, Laying.HELD) else Mode.SETTLING
            # a person's column is set down in the hands: still theirs while it is lowered and held
            return {Grip.PULLING: Mode.PULLING, Grip.CARRYING: Mode.CARRYING, Grip.LOWERING: Mode.CARRYING,
                    Grip.HELD: Mode.CARRYING}.get(hand.state, Mode.SETTLING)
        if not self.human_acts():
            return Mode.COMPUTER
        if match.state.turn.step is Step.LAY_FLOOR and match.can_lay_floor():
            return Mode.LAYING
        return Mode.IDLE

    def follow(self) -> None:
        """Into the mode the match calls for, unless the mode the screen is in ends on its own."""
        if self.current.ends_itself:
            return
        wanted = self.mode_now()
        if wanted != self.mode:
            self.change_mode(wanted)

    def pause(self) -> None:
        if self.current.pausable:
            self.change_mode(Mode.PAUSED, self.mode)

    def resume(self) -> None:
        if isinstance(self.current, paused.Paused):
            self.change_mode(self.current.resume_to)

    # --- who is to act --------------------------------------------------------------------

    @property
    def villa(self):
        return self.match.villa

    def human_acts(self) -> bool:
        """Does a person at this screen act now?"""
        player = self.acting_player()
        if self.here is not None:
            return player in self.here
        seat = self.match.seat(player)
        return seat is not None and not seat.is_computer

    def waited_for(self) -> int | None:
        """The person at another screen the rules ask now (online), or None."""
        player = self.acting_player()
        seat = self.match.seat(player)
        if self.here is None or player in self.here or seat is None or seat.is_computer:
            return None
        return player

    def acting_player(self) -> int | None:
        state = self.match.state
        if state.over:
            return None
        return state.turn.actor if rules.is_chance_node(state) else rules.whose_move(state)

    def humans(self) -> int:
        """The people at this screen (more than one: the mouse is handed over)."""
        if self.here is not None:
            return len(self.here)
        return sum(not seat.is_computer for seat in self.match.setup.seats)

    # --- the match's events -------------------------------------------------------------------

    def _on_accepted(self, event: Accepted) -> None:
        self._show_state()
        sentence = words.narrate(event.before, event.action, event.after)
        if event.after.over:
            return
        player = self.acting_player()
        guide = words.guidance(event.after)
        if guide.asks and self.human_acts():
            question = f"{sentence}\n\n{guide.question}" if sentence else guide.question
            self.open_panel(Mode.ASKING, question)
        elif (sentence and words.concerns_others(event.before) and self.human_acts() and self.humans() > 1
              and self._last_human is not None and player != self._last_human):
            self.open_panel(Mode.HAND_OVER, sentence)   # an answer, a proof or a penalty decided something
        elif sentence:
            self.hud.flash(sentence, self.now, seconds=8.0 if event.before.turn.step is Step.ASK else 4.0)
        else:
            self._tell_waiting()
        if self.human_acts():
            self._last_human = player

    def _tell_waiting(self) -> None:
        """Online, where the hot seat hands the mouse over: who the game waits for, said once."""
        waited = self.waited_for()
        away = waited is not None and self.match.away(waited)
        if waited is not None and (waited, away) != self._last_waited:
            self.hud.flash(words.waiting_for(self.match.state, waited, away), self.now)
            log.info("waiting for %s%s", self.match.state.players[waited], " to come back" if away else "")
        self._last_waited = (waited, away)

    def _on_refused(self, event: Refused) -> None:
        self.hud.flash(words.refusal(event.error, self.match.state), self.now)

    def _on_collapsed(self, event: Collapsed) -> None:
        self.close_panel()
        self.hud.flash(_("The villa collapses!"), self.now, seconds=8.0)
        self.fell_at = self.match.villa.time
        self.recorder.fell(self.match.villa.time)
        if self.sound is not None:
            self.sound.crash()
        self.change_mode(Mode.FALLING)

    def _on_round(self, event: RoundStarted) -> None:
        self.recorder.stop()   # the fallen villa lay still: it is built anew for the next round
        for piece in self.view.scene.pieces.values():
            piece.clearColorScale()
        if self.mode == Mode.FALLING and self.recorder.fell_at is None:
            # the fall was shown again (or skipped) before the fallen pieces lay still
            self.change_mode(self.mode_now())
            self.view.focus_top()

    # --- the player's requests: each to the mode the screen is in ------------------------------

    def press(self, mouse) -> bool:
        """A left press: True if the mode took it (False: the drag turns the view)."""
        return self.current.press(mouse)

    def release(self, moved: bool) -> None:
        """The left button comes up after a press the mode took (moved: a drag, not a click)."""
        self.current.release(moved)

    def wheel(self, notches: int) -> bool:
        """The wheel: True if the mode used it (else it zooms)."""
        return self.current.wheel(notches)

    def look_down(self) -> None:
        """T: straight down on the top floor, and back."""
        self.view.look_down(self.match.state.top_level)

    def escape(self) -> None:
        """Esc: give up what is in hand (or skip the replay); with nothing in hand, the pause menu."""
        self.current.escape()

    def give_up(self) -> None:
        """Esc or a right click: give up what is in hand."""
        self.current.give_up()

    def turn_floor(self, degrees: float) -> bool:
        return self.current.turn_floor(degrees)

    def propose_floor(self) -> None:
        self.current.propose_floor()

    def answer(self, objects: bool) -> None:
        """Y / N, or a panel's buttons: object (or challenge), or not; N also forgoes a penalty pull."""
        self.current.answer(objects)

    def roll(self) -> None:
        self.current.roll()

    def faster(self) -> None:
        """C: computer players' hands go faster, x1 -> x2 -> x4 -> x1."""
        speeds = COMPUTER_SPEEDS
        self.computer_speed = speeds[(speeds.index(self.computer_speed) + 1) % len(speeds)] \
            if self.computer_speed in speeds else speeds[0]
        self.hud.flash(_("Computer players at ×{speed} speed").format(speed=f"{self.computer_speed:g}"), self.now)
        if self.on_speed is not None:
            self.on_speed(self.computer_speed)

    def command(self, name: Button) -> None:
        """A button of the command bar or of a panel."""
        mode = self.current
        if name is Button.BUILD:
            self.hud.flash(_("Press on a glowing column and drag it out"), self.now)
            self.view.focus_top()
        elif name is Button.PROPOSE:
            mode.propose_floor()
        elif name in (Button.ABORT, Button.GIVE_UP):
            mode.give_up()
        elif name in (Button.OBJECT, Button.CHALLENGE):
            mode.answer(True)
        elif name in (Button.DECLINE, Button.FORGO):
            mode.answer(False)
        elif name is Button.PASS:
            mode.pass_turn()
        elif name is Button.ROLL:
            mode.roll()

    def say(self, refusal: Exception | None) -> None:
        if refusal is not None:
            self.hud.flash(words.refusal(refusal, self.match.state), self.now)

    # --- the mouse ---

    def mouse_ray(self, mouse: tuple[float, float]) -> tuple[Point3, Vec3]:
        return mouse_ray(self.stage, mouse)

    def pick(self, mouse: tuple[float, float]) -> tuple[str, Point3] | None:
        return self.match.villa.pick(*self.mouse_ray(mouse))

    # --- every frame: the mode runs it (`ModeBase.frame`) with these ---------------------------------

    @property
    def now(self) -> float:
        return self.stage.clock.getFrameTime()

    def _frame_task(self, task):
        self.frame(min(self.stage.clock.getDt(), MAX_FRAME_DT))
        return task.cont

    def frame(self, dt: float) -> None:
        self.current.frame(dt)

    def take_input(self, dt: float):
        """The controls' keys and drags for this frame; where the pointer is (None: off the window)."""
        self.controls.update(dt)
        return self.controls.mouse()

    def show_villa(self, dt: float) -> None:
        """The villa as it stands this frame, recorded in case it falls, and heard."""
        villa = self.match.villa
        poses = villa.poses()
        self.recorder.add(villa.time, poses, at_rest=villa.settled)
        self._listen(poses, dt)
        self.view.show_poses(poses)

    def finish_frame(self, dt: float) -> None:
        if self.here is not None:
            self._tell_waiting()     # a person waited for may leave or come back while nothing else changes
        self.hud.update(self.now)
        self.view.before_frame(dt)

    def _moving(self) -> bool:
        """Whether this frame's picture is new by itself: the seal, the fall or its replay, a new mode or
        turn (the view tells of the pieces and the camera)."""
        shown, self._shown = self._shown, (self.mode, self.match.state)
        return self.current.moving or shown != self._shown

    def _listen(self, poses, dt: float) -> None:
        """Sounds: a creak while a loaded column is pulled, clacks where pieces hit."""
        if self.sound is None:
            return
        pull = self.match.hand
        loaded = isinstance(pull, Pull) and pull.state == Grip.PULLING and not pull.is_free()
        self.sound.creak(0.6 if loaded else 0.0)
        for speed in self.impacts.hits(poses, dt, moving=not self.match.villa.settled):
            self.sound.clack(speed)
        self.sound.update()

    # --- panels ---------------------------------------------------------------------------------------

    def open_panel(self, mode: Mode, about) -> None:
        self.close_panel()
        self.ghost.hide()
        self.change_mode(mode, about)

    def close_panel(self) -> None:
        if self.panel is not None:
            self.panel.destroy()
            self.panel = None

    # --- what the player sees ---------------------------------------------------------------------------

    def _show_state(self) -> None:
        """The HUD for the state now: standings, seal, floors left, the buttons, blocked columns."""
        state = self.match.state
        guide = words.guidance(state)
        self.hud.show_game(guide, neutral=state.neutral, family=state.ruleset.family)
        human = self.human_acts()
        shown = [(c.name, c.label, lambda name=c.name: self.command(name))
                 for c in guide.commands if c.name is not Button.CHOOSE]
        if self.here is not None:   # online the colours are chosen in the game (the hot seat: before it)
            shown += [(f"{Button.CHOOSE.value} {a.colour.value}", _(a.colour.value).capitalize(),
                       lambda a=a: self.say(self.match.act(a)))
                      for c in guide.commands if c.name is Button.CHOOSE for a in c.actions]
        self.hud.show_commands([] if state.over or guide.asks or not human else shown)
        for column in state.blocked:
            if column in self.view.scene.pieces:
                self.view.scene.pieces[column].setColorScale(BLOCKED_SHADE)

    def headline(self) -> str:
        """The status line: the turn's task (a mode may say more: drawing a column out, a computer's doing)."""
        state = self.match.state
        return _("The game is over") if state.over else words.guidance(state).headline

    def show_hints(self, glow: dict[str, Vec3], tooltip: str | None, mouse) -> None:
        self.hint = tooltip
        self._set_glow(glow)
        self.hud.show_tooltip(tooltip, mouse)

    def show_eye(self, pulled: str | None = None) -> None:
        """The builder's eye, in a game played with it: the floor being laid over the columns it would
        rest on, or the villa's floors over their supports (`pulled`: as they would stand without it)."""
        if self.eye is None:
            return
        hand = self.match.hand
        if isinstance(hand, FloorLay):
            self.eye.show_laying(hand)
        else:
            self.eye.show_villa(self.villa, pulled)

    def hide_eye(self) -> None:
        if self.eye is not None:
            self.eye.hide()

    def show_sight(self, lay: FloorLay, columns) -> None:
        """The floor in hand see-through, its outline at the tops' height, and the tops of `columns`."""
        outline = geometry.transform(FLOORS[lay.level].outline, lay.x, lay.y, lay.yaw)
        tops = [(self.villa.nodes[c].getX(), self.villa.nodes[c].getY(), column_spec(c).radius) for c in columns]
        self.sight.show(self.view.scene.pieces[lay.piece], outline, lay.rest_z, tops)

    def show_held_floor(self, floor: str) -> None:
        """Space: the floor held steady above the column is outlined, so it shows held."""
        node, level = self.villa.nodes[floor], level_of_floor(floor)
        outline = geometry.transform(FLOORS[level].outline, node.getX(), node.getY(), node.getH())
        self.sight.show_held(outline, node.getZ() + FLOORS[level].thickness / 2)

    def _set_glow(self, glow: dict[str, Vec3]) -> None:
        pieces = self.view.scene.pieces
        for piece in set(self._glow) | set(glow):
            wanted = glow.get(piece, NO_GLOW)
            if self._glow.get(piece, NO_GLOW) != wanted:
                pieces[piece].setShaderInput("glow", wanted)
        self._glow = glow
