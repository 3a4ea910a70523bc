"""The game screen: a thin controller over the match. The mouse goes to the match's hand; what the
match's events and its current step say goes to the screen.

Its mode (`villa.presentation.modes.Mode`) is a finite-state machine (Panda3D's `FSM`):

    Idle      the person to act may take a column, propose a floor, pass ...
    Pulling   a column in hand, still under its floor         Carrying  free, following the pointer
    Laying    a floor following the pointer                   Settling  let go: the villa settles, the referee judges
    Asking    a hand-over panel puts a question               HandOver  "pass the mouse to ..."
    Rolling   the seal tumbles for the turn's colour          Computer  a computer player acts
    Falling   the villa collapses                             Replay    the fall once more, slowly
    Paused    the pause menu is over the game                 Ended     the game is over

Each frame: the person's pointer aims the hand, the match advances (its villa steps and
its referee judges), the scene takes the poses, and the hints follow the pointer.
"""

from __future__ import annotations

from typing import Callable

from direct.fsm.FSM import FSM
from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import Accepted, Collapsed, Match, Refused, RoundStarted
from villa.physics import geometry
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, column_spec
from villa.physics.geometry import on_plane
from villa.physics.laying import FloorLay, Laying
from villa.physics.pulling import Grip, Pull
from villa.presentation import panels, palette, words
from villa.presentation.builders_eye import BuildersEye
from villa.presentation.camera import mouse_ray
from villa.presentation.collapse_replay import CollapseRecorder, Playback
from villa.presentation.controls import Controls, Handlers
from villa.presentation.fonts import font
from villa.presentation.gauge import StrainGauge
from villa.presentation.ghost import Ghost
from villa.presentation.holding import Hands
from villa.presentation.hud import Hud
from villa.presentation.i18n import _
from villa.presentation.impacts import Impacts
from villa.presentation.modes import HANDS, MOVING, PANELS, Mode
from villa.presentation.preferences import COMPUTER_SPEEDS
from villa.presentation.sight import FloorSight
from villa.presentation.stage import give_back_free_memory
from villa.presentation.view import VillaView
from villa.presentation.words import Button
from villa.rules.state import Step
from villa.rules.pieces import floor_id, level_of_floor

MAX_FRAME_DT = 0.1          # a stalled frame slows the villa down instead of jumping it
TAKEABLE_GLOW = Vec3(0.07, 0.06, 0.02)
HOVER_GLOW = Vec3(0.22, 0.18, 0.07)
SUPPORT_GLOW = Vec3(0.05, 0.12, 0.22)   # the columns a floor being laid would rest on
NO_GLOW = Vec3(0, 0, 0)
BLOCKED_SHADE = (0.55, 0.55, 0.55, 1.0)
REPLAY_DISTANCE = 120.0     # cm: the slow-motion replay's camera, far enough for the whole villa
FOLLOW_FALL_AFTER = 1.0     # s after a collapse the camera takes in the pieces as they come to rest


class GameScreen(FSM):
    """`on_end(result)` once the game is over (after the collapse's replay); `play_again()` from the end
    panel (None: no button); `on_pause()` for Esc with nothing in hand; `end_panel` False: the caller
    shows its own end; `sound`: a `villa.presentation.sound.Sound`, or None for silence."""

    def __init__(self, stage, match: Match, on_end: Callable[[rules.Result], None] | None = None,
                 play_again: Callable[[], None] | None = None, sound=None,
                 on_pause: Callable[[], None] | None = None, end_panel: bool = True,
                 on_speed: Callable[[float], None] | None = None) -> None:
        FSM.__init__(self, "GameScreen")
        self.stage, self.match = stage, match
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
        self.playback: Playback | None = None
        self.impacts = Impacts()
        self.hover: str | None = None
        self.hint: str | None = None              # what the hand's tooltip says
        self.computer_speed = 1.0                  # how fast computer players' hands move
        self._glow: dict[str, Vec3] = {}
        self._last_human: int | None = None       # who had the mouse last (hot seat: hand it over)
        self._fell_at = 0.0
        self._paused_in: str | None = None
        self._stops = [match.events.subscribe(Accepted, self._on_accepted),
                       match.events.subscribe(Refused, self._on_refused),
                       match.events.subscribe(Collapsed, self._on_collapsed),
                       match.events.subscribe(RoundStarted, self._on_round)]
        self.view.show_poses(match.villa.poses())
        self.view.focus_top(snap=True)
        self._show_state()
        self.request(self._mode_now())
        stage.task_mgr.add(self._frame_task, "villa frame", sort=-10)
        self._shown: tuple = ()                    # the mode and the match's state last drawn
        self._stop_moving = stage.moves_while(self._moving)

    def close(self) -> None:
        """Take the game off the screen (the window stays open for the next)."""
        self.stage.task_mgr.remove("villa frame")
        self._stop_moving()
        self.cleanup()   # leave the mode first: its exit (a collapse's replay ends) still draws on the view
        for stop in self._stops:
            stop()
        self._close_panel()
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

    # --- who is to act --------------------------------------------------------------------

    @property
    def villa(self):
        return self.match.villa

    @property
    def mode(self) -> Mode | str:
        """The screen's mode (the FSM's state; "Off" once closed)."""
        return self.getCurrentOrNextState()

    def _human_acts(self) -> bool:
        seat = self.match.seat(self._acting_player())
        return seat is not None and not seat.is_computer

    def _acting_player(self) -> int | None:
        state = self.match.state
        if state.over:
            return None
        return state.turn.actor if rules.is_chance_node(state) else rules.whose_move(state)

    def _mode_now(self) -> Mode:
        """The mode the match's present step calls for (panels and hands are entered by their own events)."""
        match = self.match
        if match.over and not match.collapsed:
            return Mode.ENDED
        if match.collapsed:
            return Mode.FALLING
        hand = match.hand
        if hand is not None and self._human_acts():
            if isinstance(hand, FloorLay):
                return Mode.LAYING if hand.state in (Laying.CARRYING, Laying.HELD) else Mode.SETTLING
            # a person's column is set down in the hands: still theirs while it is lowered and held
            return {Grip.PULLING: Mode.PULLING, Grip.CARRYING: Mode.CARRYING, Grip.LOWERING: Mode.CARRYING,
                    Grip.HELD: Mode.CARRYING}.get(hand.state, Mode.SETTLING)
        if not self._human_acts():
            return Mode.COMPUTER
        if match.state.turn.step is Step.LAY_FLOOR and match.can_lay_floor():
            return Mode.LAYING
        return Mode.IDLE

    def _follow(self) -> None:
        """Into the mode the match calls for, unless a panel, the replay or the pause holds the screen."""
        if self.mode in (*PANELS, Mode.REPLAY, Mode.PAUSED, Mode.ENDED, Mode.FALLING):
            return   # each of these ends on its own (a panel's button, the replay's end, the resume ...)
        wanted = self._mode_now()
        if wanted != self.mode:
            self.request(wanted)

    # --- the match's events -------------------------------------------------------------------

    def _on_accepted(self, event: Accepted) -> None:
        self._show_state()
        sentence = words.narrate(event.before, event.action, event.after)
        if event.after.over:
            return
        player = self._acting_player()
        guide = words.guidance(event.after)
        if guide.asks and self._human_acts():
            question = f"{sentence}\n\n{guide.question}" if sentence else guide.question
            self._open_panel(Mode.ASKING, question)
        elif (sentence and words.concerns_others(event.before) and self._human_acts() and self._humans() > 1
              and self._last_human is not None and player != self._last_human):
            self._open_panel(Mode.HAND_OVER, sentence)   # an answer, a proof or a penalty decided something
        elif sentence:
            self.hud.flash(sentence, self.now, seconds=8.0 if event.before.turn.step is Step.ASK else 4.0)
        if self._human_acts():
            self._last_human = player

    def _on_refused(self, event: Refused) -> None:
        self.hud.flash(words.refusal(event.error, self.match.state), self.now)

    def _on_collapsed(self, event: Collapsed) -> None:
        self._close_panel()
        self.hud.flash(_("The villa collapses!"), self.now, seconds=8.0)
        self._fell_at = self.match.villa.time
        self.recorder.fell(self.match.villa.time)
        if self.sound is not None:
            self.sound.crash()
        self.request(Mode.FALLING)

    def _on_round(self, event: RoundStarted) -> None:
        self.recorder.stop()   # the fallen villa lay still: it is built anew for the next round
        for piece in self.view.scene.pieces.values():
            piece.clearColorScale()
        if self.mode == Mode.FALLING and self.recorder.fell_at is None:
            # the fall was shown again (or skipped) before the fallen pieces lay still
            self.request(self._mode_now())
            self.view.focus_top()

    def _humans(self) -> int:
        return sum(not seat.is_computer for seat in self.match.setup.seats)

    # --- the player's requests ------------------------------------------------------------------

    def press(self, mouse) -> bool:
        """A left press: take a column, set the carried one down, or lay the floor (True);
        or nothing (False: the drag turns the view)."""
        mode = self.mode
        if mode in (*PANELS, Mode.REPLAY, Mode.FALLING, Mode.ENDED, Mode.PAUSED):
            return True   # the panel takes the click; a fallen villa is not built on
        if mode == Mode.LAYING:
            self._say(self.hands.press())   # held at its middle, which is under the pointer
            self._follow()
            return True
        if mode == Mode.CARRYING:
            refusal = self.hands.press()
            if refusal is not None:
                said = words.refusal(refusal, self.match.state)
                self.hud.flash(_("Not there: {refusal}").format(refusal=said), self.now)
            self._follow()
            return True
        if mode == Mode.PULLING:
            return True
        if mode != Mode.IDLE:
            return False
        hit = self.pick(mouse)
        if hit is None or hit[0] not in self.match.villa.columns:
            return False
        column, point = hit
        if column not in rules.grabbable_columns(self.match.state):
            self.hud.flash(words.why_not(self.match.state, column) or "", self.now)
            return True
        self._say(self.match.take(column, point, steady=self.controls.steadying))
        self._follow()
        return True

    def release(self, moved: bool) -> None:
        """The left button comes up after a press the game took: let go of what sits in the hands."""
        if self.mode in (Mode.LAYING, Mode.CARRYING):
            self._say(self.hands.release(moved))
            self._follow()

    def wheel(self, notches: int) -> bool:
        """The wheel while a floor is laid (always taken: it no longer zooms) or a column carried: down
        lowers and holds, up lifts clear."""
        if self.mode not in (Mode.LAYING, Mode.CARRYING):
            return False
        used, refusal = self.hands.wheel(notches)
        self._say(refusal)
        return used or self.mode == Mode.LAYING

    def escape(self) -> None:
        """Esc: give up what is in hand (or skip the replay); with nothing in hand, the pause menu."""
        if self.mode in (Mode.IDLE, Mode.COMPUTER) and self.on_pause is not None:
            self.on_pause()
        else:
            self.give_up()

    def give_up(self) -> None:
        """Esc or a right click: give up the build under way (the column goes back, blocked), or the
        floor being laid."""
        mode = self.mode
        if mode == Mode.REPLAY:
            self._end_replay()   # Esc skips the slow motion
            return
        if mode not in HANDS:
            return
        hand = self.match.hand
        self.hands.reset()
        refusal = self.match.give_up()
        if refusal is not None:
            self._say(refusal)
        elif isinstance(hand, FloorLay):
            self.hud.flash(_("The floor goes back in the box"), self.now)
        elif self.match.state.turn.step is not Step.TAKE_OUT:
            self.hud.flash(_("{column} goes back, and may not be chosen again").format(
                column=words.column_words(hand.column)), self.now)
        self._follow()

    def turn_floor(self, degrees: float) -> bool:
        """Q/E turn the floor, carried or held."""
        if self.mode != Mode.LAYING or not isinstance(self.match.hand, FloorLay):
            return False
        self.match.hand.turn(degrees)
        return True

    def look_down(self) -> None:
        """T: straight down on the top floor, and back."""
        self.view.look_down(self.match.state.top_level)

    def propose_floor(self) -> None:
        if self.mode == Mode.IDLE:
            self._say(self.match.act(rules.ProposeFloor()))

    def answer(self, objects: bool) -> None:
        """Y / N, or the hand-over panel's buttons: object (or challenge), or not; N also forgoes a failed
        objection's penalty pull."""
        guide = words.guidance(self.match.state)
        forgo = guide.command(Button.FORGO)
        if self.mode == Mode.IDLE and forgo is not None and not objects:
            self._say(self.match.act(forgo.actions[0]))
            return
        if self.mode != Mode.ASKING:
            return
        command = guide.command(Button.OBJECT) or guide.command(Button.CHALLENGE) if objects \
            else guide.command(Button.DECLINE)
        if command is not None:
            self._close_panel()
            self.request(self._mode_now())
            self._say(self.match.act(command.actions[0]))

    def roll(self) -> None:
        """R or the button: the seal tumbles for this turn's colour (family edition, random colour)."""
        roll = self.match.next_roll() if self.mode == Mode.IDLE else None
        if roll is not None:
            self._open_panel(Mode.ROLLING, roll)

    def faster(self) -> None:
        """C: computer players' hands go faster, x1 -> x2 -> x4 -> x1."""
        speeds = COMPUTER_SPEEDS
        self.computer_speed = speeds[(speeds.index(self.computer_speed) + 1) % len(speeds)] \
            if self.computer_speed in speeds else speeds[0]
        self.hud.flash(_("Computer players at ×{speed} speed").format(speed=f"{self.computer_speed:g}"), self.now)
        if self.on_speed is not None:
            self.on_speed(self.computer_speed)

    def _on_command(self, name: Button) -> None:
        """A button of the command bar."""
        if name is Button.BUILD:
            self.hud.flash(_("Press on a glowing column and drag it out"), self.now)
            self.view.focus_top()
        elif name is Button.PROPOSE:
            self.propose_floor()
        elif name in (Button.ABORT, Button.GIVE_UP):
            if self.mode == Mode.IDLE and self.match.state.turn.step is Step.LAY_FLOOR:
                self._say(self.match.give_up())   # a floor that cannot be laid is given up
            else:
                self.give_up()
        elif name in (Button.OBJECT, Button.CHALLENGE):
            self.answer(True)
        elif name is Button.DECLINE:
            self.answer(False)
        elif name is Button.PASS and self.mode == Mode.IDLE:
            self._say(self.match.act(rules.Pass()))
        elif name is Button.FORGO:
            self.answer(False)
        elif name is Button.ROLL:
            self.roll()

    def _say(self, refusal: Exception | None) -> None:
        if refusal is not None:
            self.hud.flash(words.refusal(refusal, self.match.state), self.now)

    # --- the mouse ---

    def mouse_ray(self, mouse: tuple[float, float]) -> tuple[Point3, Vec3]:
        return mouse_ray(self.stage, mouse)

    def pick(self, mouse: tuple[float, float]) -> tuple[str, Point3] | None:
        return self.match.villa.pick(*self.mouse_ray(mouse))

    # --- every frame ------------------------------------------------------------------------------

    @property
    def now(self) -> float:
        return self.stage.clock.getFrameTime()

    def _frame_task(self, task):
        self.frame(min(self.stage.clock.getDt(), MAX_FRAME_DT))
        return task.cont

    def frame(self, dt: float) -> None:
        if self.mode == Mode.PAUSED:
            return
        self.controls.update(dt)
        mouse = self.controls.mouse()
        self._aim_hand(mouse)
        if self.mode in HANDS:
            self._say(self.hands.update())   # a clicked floor or column is let go once it sits
        # the match goes on under panels and the replay: a fallen villa comes to rest, turns are written down
        self.match.advance(dt * (self.computer_speed if self.mode == Mode.COMPUTER else 1.0))
        if self.mode == Mode.REPLAY:
            self._replay_frame(dt)
            return
        villa = self.match.villa
        poses = villa.poses()
        self.recorder.add(villa.time, poses, at_rest=villa.settled)
        self._listen(poses, dt)
        self.view.show_poses(poses)
        self._follow()
        self._show_hints(mouse)
        self._show_status()
        if self.mode == Mode.FALLING:
            self._falling()
        self.hud.update(self.now)
        self.view.before_frame(dt)

    def _moving(self) -> bool:
        """Whether this frame's picture is new by itself: the seal, the fall or its replay, a new mode or
        turn (the view tells of the pieces and the camera)."""
        shown, self._shown = self._shown, (self.mode, self.match.state)
        return self.mode in MOVING or shown != self._shown

    def _aim_hand(self, mouse) -> None:
        hand = self.match.hand
        if self.mode not in HANDS or hand is None:
            return
        ray = self.mouse_ray(mouse) if mouse is not None else None
        if isinstance(hand, FloorLay):
            if ray:
                # on the plane of the column tops, carried or held (a plane that sank with the hands
                # would slide the floor as it is lowered): what is under the pointer comes under the floor
                spot = on_plane(*ray, hand.rest_z)
                if spot is not None:
                    hand.aim(spot)
            return
        hand.steady = self.controls.steadying
        if hand.state == Grip.PULLING and ray and self.controls.game_drag:
            hand.aim_ray(*ray)
        elif hand.state in (Grip.CARRYING, Grip.HELD) and ray:
            # the player points at the spot on the top floor; the column hovers above it
            spot = on_plane(*ray, self._top_surface_z())
            if spot is not None:
                hand.aim(spot)

    def _top_surface_z(self) -> float:
        villa = self.match.villa
        top = self.match.state.top_level
        if floor_id(top) not in villa.nodes:
            return BASE.top_z
        return villa.nodes[floor_id(top)].getZ() + FLOORS[top].thickness / 2

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

    # --- modes --------------------------------------------------------------------------------------

    def enterLaying(self) -> None:
        self.hands.reset()
        if self.match.hand is None:
            self._say(self.match.start_laying())
        self.view.focus_top()

    def enterFalling(self) -> None:
        self.ghost.hide()
        self.hud.show_commands([])

    def _falling(self) -> None:
        if self.match.villa.time - self._fell_at > FOLLOW_FALL_AFTER:
            self.view.focus_all()   # follow the pieces as they come to rest
        if self.recorder.done:
            self.request(Mode.REPLAY)

    def enterReplay(self) -> None:
        self.playback = Playback(self.recorder.frames)
        camera = self.view.camera
        camera.goal.heading += 180.0   # from the other side, standing back to take in the whole villa
        camera.goal.pitch = 24.0
        camera.focus(Point3(0, 0, 10.0), distance=REPLAY_DISTANCE)
        self.hud.flash(_("Once more, slowly (Esc skips)"), self.now, seconds=self.playback.length + 1.0)

    def _replay_frame(self, dt: float) -> None:
        poses = self.playback.advance(dt)
        if poses is None:
            self._end_replay()
            return
        self.view.show_poses(poses)
        self.hud.update(self.now)
        self.view.before_frame(dt)

    def _end_replay(self) -> None:
        self.hud.flash("", self.now, seconds=0.01)
        if self.match.over:
            self.request(Mode.ENDED)
        else:   # the family edition's next round, on a villa built anew
            self.recorder = CollapseRecorder()
            self.request(self._mode_now())
            self.view.focus_top()

    def exitReplay(self) -> None:
        self.playback = None
        self.view.show_poses(self.match.villa.poses())

    def enterEnded(self) -> None:
        self._close_panel()
        self.ghost.hide()
        self.hud.show_commands([])
        if self.end_panel:
            title, reasons = words.result_words(self.match.state)
            if self.match.setup.builders_eye:
                reasons += "\n" + _(words.PLAYED_WITH_BUILDERS_EYE)
            self.panel = panels.end_panel(self.stage, font(), title=title, reason=reasons,
                                          play_again=self.play_again, close=self._close_panel)
        if self.on_end is not None:
            self.on_end(self.match.state.result)

    def pause(self) -> None:
        if self.mode in (Mode.IDLE, Mode.COMPUTER):
            self._paused_in = self.mode
            self.hud.show_tooltip(None)
            self.request(Mode.PAUSED)

    def resume(self) -> None:
        if self.mode == Mode.PAUSED:
            self.request(self._paused_in or self._mode_now())
            self._paused_in = None

    # --- panels ---------------------------------------------------------------------------------------

    def _open_panel(self, mode: Mode, about) -> None:
        self._close_panel()
        self.ghost.hide()
        self.request(mode, about)

    def enterAsking(self, question: str) -> None:
        guide = words.guidance(self.match.state)
        answers = [(c.label, lambda name=c.name: self._on_command(name)) for c in guide.commands]
        self.panel = self._hand_over_panel(guide, question, answers)

    def exitAsking(self) -> None:
        self._close_panel()

    def enterHandOver(self, sentence: str) -> None:
        guide = words.guidance(self.match.state)
        self.panel = self._hand_over_panel(guide, sentence, [(_("I have the mouse"), self._handed_over)])

    def _handed_over(self) -> None:
        self._close_panel()
        self.request(self._mode_now())

    def exitHandOver(self) -> None:
        self._close_panel()

    def enterRolling(self, roll: rules.SealRoll) -> None:
        guide = words.guidance(self.match.state)
        if roll.colour is None:
            said, ink = _("An end face: any colour"), panels.INK
        else:
            said, ink = _(roll.colour.value).capitalize(), palette.ink(roll.colour)

        def landed() -> None:
            self._close_panel()
            self.request(Mode.IDLE)
            self.match.roll()
        self.panel = panels.SealToss(self.stage, font(), player=guide.standings[guide.player].name,
                                     rolled=roll.colour, colour_words=said, ink=ink, on_done=landed)

    def exitRolling(self) -> None:
        self._close_panel()

    def _hand_over_panel(self, guide: words.Guidance, text: str, answers) -> panels.Panel:
        colours = guide.standings[guide.actor].colours
        ink = palette.ink(colours[0]) if colours else panels.INK
        return panels.hand_over(self.stage, font(), player=guide.standings[guide.actor].name, ink=ink, words=text,
                                answers=answers)

    def _close_panel(self) -> None:
        if self.panel is not None:
            self.panel.destroy()
            self.panel = None

    # --- what the player sees ---------------------------------------------------------------------------

    def _show_state(self) -> None:
        """The HUD for the state now: standings, seal, floors left, the buttons, blocked columns."""
        state = self.match.state
        guide = words.guidance(state)
        self.hud.show_game(guide, neutral=state.neutral, family=state.ruleset.family)
        human = self._human_acts()
        shown = [(c.name, c.label, lambda name=c.name: self._on_command(name))
                 for c in guide.commands if c.name is not Button.CHOOSE]
        self.hud.show_commands([] if state.over or guide.asks or not human else shown)
        for column in state.blocked:
            if column in self.view.scene.pieces:
                self.view.scene.pieces[column].setColorScale(BLOCKED_SHADE)

    def _show_status(self) -> None:
        """The status line: the turn's task; while a column is drawn out, to draw it out; a computer's doing."""
        state = self.match.state
        if state.over:
            text = _("The game is over")
        elif self.mode == Mode.PULLING and state.turn.step is Step.IN_HAND:
            text = words.pulling_headline(state)
        elif self.mode == Mode.COMPUTER:
            text = words.computer_headline(state, self._acting_player(), self.match.hand)
        else:
            text = words.guidance(state).headline
        self.hud.show_status(text)

    def _show_hints(self, mouse) -> None:
        glow: dict[str, Vec3] = {}
        tooltip = None
        self.hover = None
        mode, hand = self.mode, self.match.hand
        if mode == Mode.PULLING and isinstance(hand, Pull):
            self.ghost.hide()
            if hand.steadied:
                glow[hand.steadied] = SUPPORT_GLOW
                self._show_held_floor(hand.steadied)
                tooltip = _("the floor above is held steady")
            else:
                tooltip = _("drag it out; hold Space to steady the floor above")
        elif mode == Mode.CARRYING and isinstance(hand, Pull) and hand.state == Grip.CARRYING:
            tooltip = self._show_landing(hand)
        elif mode == Mode.CARRYING and isinstance(hand, Pull):
            self.ghost.hide()
            tooltip = words.held_column(hand.state == Grip.HELD)
        elif mode == Mode.LAYING and isinstance(hand, FloorLay) and hand.state == Laying.HELD:
            self.ghost.hide()
            touching = hand.touching()
            glow = {c: SUPPORT_GLOW for c in touching}
            self._show_sight(hand, touching)
            tooltip = words.held_floor(bool(touching), hand.tilt_deg(), lowering=self.hands.lowering)
        elif mode == Mode.LAYING and isinstance(hand, FloorLay) and hand.state == Laying.CARRYING:
            self.ghost.hide()
            under = hand.columns_under()
            glow = {c: SUPPORT_GLOW for c in under}
            self._show_sight(hand, under)
            tooltip = words.carried_floor(len(under), self.match.state.ruleset.min_support(hand.level))
        elif mode == Mode.IDLE:
            self.ghost.hide()
            takeable = set(rules.grabbable_columns(self.match.state)) & set(self.match.villa.columns)
            glow = {c: TAKEABLE_GLOW for c in takeable}
            hit = self.pick(mouse) if mouse else None
            if hit and hit[0] in self.match.villa.columns:
                self.hover = hit[0]
                if self.hover in takeable:
                    glow[self.hover] = HOVER_GLOW
                    tooltip = words.column_label(self.hover) + "\n" + _("drag to pull it out")
                else:
                    tooltip = words.column_label(self.hover) + "\n" + (words.why_not(self.match.state, self.hover)
                                                                       or "")
        else:
            self.ghost.hide()
        if mode != Mode.LAYING and not (mode == Mode.PULLING and isinstance(hand, Pull) and hand.steadied):
            self.sight.hide()
        if mode == Mode.PULLING:
            self.gauge.show(self.match.strain)
        else:
            self.gauge.hide()
        self._show_eye(mode, hand)
        self.hint = tooltip
        self._set_glow(glow)
        self.hud.show_tooltip(tooltip, mouse)

    def _show_eye(self, mode: Mode, hand) -> None:
        """The builder's eye, in a game played with it: the loads and their supports while a floor is
        laid or a column chosen or pulled."""
        if self.eye is None:
            return
        if mode == Mode.LAYING and isinstance(hand, FloorLay):
            self.eye.show_laying(hand)
        elif mode == Mode.PULLING and isinstance(hand, Pull):
            self.eye.show_villa(self.villa, pulled=hand.column)
        elif mode == Mode.IDLE:
            self.eye.show_villa(self.villa)
        else:
            self.eye.hide()

    def _show_held_floor(self, floor: str) -> None:
        """Space: the floor held steady above the column is outlined, so it shows held."""
        node = self.villa.nodes[floor]
        level = level_of_floor(floor)
        outline = geometry.transform(FLOORS[level].outline, node.getX(), node.getY(), node.getH())
        self.sight.show_held(outline, node.getZ() + FLOORS[level].thickness / 2)

    def _show_sight(self, lay: FloorLay, under) -> None:
        """The carried floor see-through, its outline at the tops' height, the tops it would rest on."""
        outline = geometry.transform(FLOORS[lay.level].outline, lay.x, lay.y, lay.yaw)
        tops = []
        for column in under:
            p = self.villa.nodes[column].getPos()
            tops.append((p.x, p.y, column_spec(column).radius))
        self.sight.show(self.view.scene.pieces[lay.piece], outline, lay.rest_z, tops)

    def _show_landing(self, pull: Pull) -> str:
        """The ghost where the carried column would stand; the words say whether it may."""
        below = pull.surface_below()
        if below is None:
            self.ghost.hide()
            return _("carry it over the top floor")
        refusal = self.match.landing_refusal()
        node = self.view.scene.pieces[pull.column]
        pos = node.getPos()
        self.ghost.show(pull.column, node, pos.x, pos.y, below[2] + COLUMN_HEIGHT / 2, node.getH(), refusal is None)
        if refusal is not None:
            return _("Not here: {refusal}").format(refusal=words.refusal(refusal, self.match.state))
        return _("click to set it down here; Esc gives up")

    def _set_glow(self, glow: dict[str, Vec3]) -> None:
        pieces = self.view.scene.pieces
        for piece in set(self._glow) | set(glow):
            wanted = glow.get(piece, NO_GLOW)
            if self._glow.get(piece, NO_GLOW) != wanted:
                pieces[piece].setShaderInput("glow", wanted)
        self._glow = glow
