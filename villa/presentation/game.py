"""The game screen: a thin controller over a game in play (`villa.match.face.GameInPlay`: the hot seat's
`Match`, or a window's `OnlineMatch`). The mouse goes to the match's hand; what the rules ask now goes to
the screen.

The screen is always in one mode (`villa.presentation.modes.Mode`), a class each in
`villa/presentation/modes/`: what a press, Esc or a frame does is found in the mode's own file.
`change_mode` is the one way from one mode to the next; `mode_now` is the mode the state asks for (what the
rules ask, the hand's phase, whose seat is at this screen), which the screen follows each frame; only what
ends by itself (a panel opened over it, the fall) lies over it a while. Beside it: `Acting` (who acts, as this
screen sees it), `Telling` (the match's events and state in words, panels and the HUD), `Overlay` (what the
hands' modes draw over the villa), `Hearing` (its sounds).

Each frame: the person's pointer aims the hand, the match advances (its villa steps and
its referee judges), the scene takes the poses, and the hints follow the pointer.
"""

from __future__ import annotations

from typing import Callable

from panda3d.core import Point3, Vec3

from villa import rules
from villa.match import requests as rq
from villa.match.face import GameInPlay, is_floor
from villa.physics.dimensions import column_spec
from villa.physics.laying import Laying
from villa.physics.pulling import Grip
from villa.physics.world import give_back_free_memory
from villa.presentation import panels, words
from villa.presentation.acting import Acting
from villa.presentation.camera import mouse_ray
from villa.presentation.clip import Shot
from villa.presentation.collapse_replay import CollapseRecorder
from villa.presentation.controls import Controls, Handlers
from villa.presentation.holding import Hands
from villa.presentation.hud import Hud
from villa.presentation.i18n import _
from villa.presentation.impacts import Hearing
from villa.presentation.modes import Mode, asking, ended, falling, hands, idle, paused, waiting
from villa.presentation.modes.base import ModeBase, Off
from villa.presentation.overlay import Overlay
from villa.presentation.preferences import COMPUTER_SPEEDS
from villa.presentation.telling import Telling
from villa.presentation.view import VillaView
from villa.presentation.words import Button
from villa.rules.pieces import level_of_floor

MAX_FRAME_DT = 0.1          # a stalled frame slows the villa down instead of jumping it
MODES: dict[Mode, type[ModeBase]] = {cls.mode: cls for cls in (
    idle.Idle, hands.Pulling, hands.Carrying, hands.Laying, waiting.Settling, waiting.Computer, waiting.CutOff,
    asking.Asking, asking.HandOver, asking.Rolling, falling.Falling, falling.Replay, paused.Paused,
    ended.Ended, Off)}


class GameScreen:
    """`on_end(result)` once the game is over (after the collapse's replay); `play_again()` from the end
    panel (None: no button); `on_pause()` for Esc with nothing in hand; `end_panel` False: the caller
    shows its own end; `sound`: a `villa.presentation.sound.Sound`, or None for silence; `here`: the seats
    played at this screen (a game online, over a `villa.online.client.OnlineMatch`: the others are waited
    for), None: every person's seat (the hot seat); online, `seats` reads the table (a
    `villa.online.client.seats_now.SeatsNow`: who is away, whose seat a computer plays, whether the window is cut
    off from its game), `on_leave()` leaves a game the window is cut off from, and `on_stand_in(seat)` lets the
    host give the seat of a person who left to a computer player."""

    def __init__(self, stage, match: GameInPlay, on_end: Callable[[rules.Result], None] | None = None,
                 play_again: Callable[[], None] | None = None, sound=None,
                 on_pause: Callable[[], None] | None = None, end_panel: bool = True,
                 on_speed: Callable[[float], None] | None = None, here: frozenset[int] | None = None,
                 seats=None, on_leave: Callable[[], None] | None = None,
                 on_stand_in: Callable[[int], None] | None = None) -> None:
        self.stage, self.match, self.here = stage, match, here
        self.seats, self.on_leave, self.on_stand_in = seats, on_leave, on_stand_in
        self.last_cut_off = None                   # online: how the window was last cut off from its game
        self.on_end, self.play_again, self.sound = on_end, play_again, sound
        self.on_pause, self.end_panel, self.on_speed = on_pause, end_panel, on_speed
        self.view = VillaView(stage)
        self.hud = Hud(stage)
        self.overlay = Overlay(stage, self.view, self.hud, match)
        self.ghost, self.sight, self.gauge, self.eye = (self.overlay.ghost, self.overlay.sight, self.overlay.gauge,
                                                        self.overlay.eye)
        self.hands = Hands(match, lambda: self.now, self.request)
        self.controls = Controls(stage, self.view.camera, Handlers(
            press=self.press, release=lambda moved: self.current.release(moved),
            wheel=lambda notches: self.current.wheel(notches), give_up=lambda: self.current.give_up(),
            escape=self.escape, turn_floor=lambda degrees: self.current.turn_floor(degrees),
            propose_floor=lambda: self.current.propose_floor(), answer=lambda objects: self.current.answer(objects),
            focus_top=self.view.focus_top, look_down=lambda: self.view.look_down(self.match.state.top_level),
            toggle_help=self.hud.toggle_controls, roll=lambda: self.current.roll(), faster=self.faster))
        self.panel: panels.Panel | None = None
        self.recorder = CollapseRecorder()
        self.hearing = Hearing(sound)
        self.hover: str | None = None
        self.hint: str | None = None              # what the hand's tooltip says
        self.computer_speed = 1.0                  # how fast computer players' hands move
        self.fell_at = 0.0                         # the villa's time when it fell
        self.watched_from: Shot | None = None       # the camera the player watched the last move from (a clip's)
        self.acting = Acting(match, here)
        self.telling = Telling(self)
        self.view.show_poses(match.villa.poses())
        self.view.focus_top(snap=True)
        self.telling.show_state()
        self.current: ModeBase = Off(self)
        self._changes: list[tuple[Mode, tuple]] = []   # asked for while a mode was being left or entered
        self.change_mode(self.mode_now())
        self.telling.waiting()
        stage.task_mgr.add(self._frame_task, "villa frame", sort=-10)
        self._shown: tuple = ()                    # the mode and the match's state last drawn
        self._stop_moving = stage.moves_while(self._moving)

    def close(self) -> None:
        """Take the game off the screen (the window stays open for the next)."""
        self.stage.task_mgr.remove("villa frame")
        self._stop_moving()
        self.change_mode(Mode.OFF)   # leave the mode first: its exit (a collapse's replay ends) still draws on the view
        self.telling.stop()
        self.close_panel()
        if self.sound is not None:
            self.sound.stop_creak()
        self.controls.close()
        self.hud.close()
        self.overlay.close()
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
        """The mode the game calls for now: one function of what the rules ask, the hand's phase and whether a
        person at this screen acts. A screen built on any state (taken up again, or a window back online) is
        in the mode a screen that saw it happen would be in; only what a player opens (the pause menu, the
        seal's roll, the fall once more) and the hot seat's "pass the mouse" lie over it for a while."""
        match, state = self.match, self.match.state
        if match.over and not match.collapsed:
            return Mode.ENDED
        if self.cut_off_now() is not None:
            return Mode.CUT_OFF
        if match.collapsed:
            return Mode.FALLING
        if not self.acting.person():
            return Mode.COMPUTER
        hand = match.hand
        if hand is not None:
            if is_floor(hand):
                return Mode.LAYING if hand.state in (Laying.CARRYING, Laying.HELD) else Mode.SETTLING
            # a person's column is set down in the hands: still theirs while it is lowered and held
            return {Grip.PULLING: Mode.PULLING, Grip.CARRYING: Mode.CARRYING, Grip.LOWERING: Mode.CARRYING,
                    Grip.HELD: Mode.CARRYING}.get(hand.state, Mode.SETTLING)
        if rules.is_question(rules.task(state)):
            return Mode.ASKING
        if match.can_lay_floor():
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

    def cut_off_now(self):
        """Online: how this window is cut off from its game now (None: it is in it, or plays here)."""
        cut = self.seats.cut_off() if self.seats is not None else None
        if cut is not None:
            self.last_cut_off = cut
        return cut

    def away(self, player: int | None):
        """Online, a person waited for who left: how long the room keeps their seat, or that they gave it up
        (falsy: here, or the hot seat)."""
        if player is None:
            return None
        return self.seats.away(player) if self.seats is not None else self.match.away(player)

    def waiting_words(self, player: int) -> str:
        """Who the game waits for at another screen, and (gone) how long their seat is kept and who may give it."""
        hosting = self.seats is not None and self.seats.hosting
        return words.waiting_for(self.match.state, player, self.away(player), hosting)

    # --- who is to act --------------------------------------------------------------------

    @property
    def villa(self):
        return self.match.villa

    # --- the player's requests: each to the mode the screen is in ------------------------------

    def press(self, mouse) -> bool:
        """A left press: True if the mode took it (False: the drag turns the view)."""
        return self.current.press(mouse)

    def escape(self) -> None:
        """Esc: give up what is in hand (or skip the replay); with nothing in hand, the pause menu."""
        self.current.escape()

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

    def request(self, make: Callable[[int], rq.Request]) -> rq.Reply:
        """A request for the seat the rules ask now (`make(seat)` builds it), sent to the match."""
        return rq.ask(self.match, make)

    def ask(self, make: Callable[[int], rq.Request]) -> rq.Reply:
        """A request, as `request`; a refusal is said."""
        reply = rq.ask(self.match, make)
        self.say(reply.refusal)
        return reply

    def pick(self, mouse: tuple[float, float]) -> tuple[str, Point3] | None:
        """The piece under the pointer, and where."""
        return self.match.villa.pick(*mouse_ray(self.stage, mouse))

    # --- every frame: the mode runs it (`ModeBase.frame`) with these ---------------------------------

    @property
    def now(self) -> float:
        return self.stage.clock.getFrameTime()

    def _frame_task(self, task):
        self.current.frame(min(self.stage.clock.getDt(), MAX_FRAME_DT))
        return task.cont

    def take_input(self, dt: float):
        """The controls' keys and drags for this frame; where the pointer is (None: off the window)."""
        self.controls.update(dt)
        return self.controls.mouse()

    def show_villa(self, dt: float) -> None:
        """The villa as it stands this frame, recorded in case it falls, and heard."""
        villa = self.match.villa
        poses = villa.poses()
        if not self.match.collapsed and not self.match.over:
            seen = self.view.camera.view
            self.watched_from = Shot(seen.heading, seen.pitch)
        self.recorder.add(villa.time, poses, at_rest=villa.settled)
        self.hearing.frame(self.match, poses, dt)
        self.view.show_poses(poses)

    def finish_frame(self, dt: float) -> None:
        if self.here is not None:
            self.telling.waiting()    # a person waited for may leave or come back while nothing else changes
        self.hud.update(self.now)
        self.view.keep_clear(in_hand_top(self.match, self.view.scene.pieces, self.stage.render),
                             self.match.state.top_level, self.match.villa.in_hand, self.hud.bottom_free(),
                             self.hud.top_boxes())
        self.view.before_frame(dt)

    def _moving(self) -> bool:
        """Whether this frame's picture is new by itself: the seal, the fall or its replay, a new mode or
        turn (the view tells of the pieces and the camera)."""
        shown, self._shown = self._shown, (self.mode, self.match.state)
        return self.current.moving or shown != self._shown

    # --- panels ---------------------------------------------------------------------------------------

    def open_panel(self, mode: Mode, *about) -> None:
        self.close_panel()
        self.ghost.hide()
        self.change_mode(mode, *about)

    def close_panel(self) -> None:
        if self.panel is not None:
            self.panel.destroy()
            self.panel = None

    # --- what the player sees ---------------------------------------------------------------------------

    def show_hints(self, glow: dict[str, Vec3], tooltip: str | None, mouse) -> None:
        self.hint = tooltip
        self.overlay.show_hints(glow, tooltip, mouse)


def in_hand_top(match, pieces, root) -> tuple[float, bool] | None:
    """How high the column in anyone's hands reaches (`pieces`: the scene's nodes, in `root`'s frame), and whether the
    view may jump to keep it in sight; None: no column is carried. A column carried over the villa is lifted clear of
    its top, near the top of the picture. The match's own hand is known to be carried at its carrying height from
    the moment it comes free: the view jumps there at once, so that the spot under a pointer held still stays put
    for as long as it is carried (not while it is pulled: the pull follows the pointer). Another person's column,
    online, is where it is drawn, and the view glides (a floor in hand hovers just over the top columns, in the
    turn's view)."""
    hand = match.hand
    if hand is not None and not is_floor(hand):
        if hand.state in (Grip.CARRYING, Grip.LOWERING, Grip.HELD):
            return hand.carry_z() + column_spec(hand.column).height / 2, True
        return None
    tops = [pieces[piece].getZ(root) + column_spec(piece).height / 2 for piece in match.villa.in_hand
            if level_of_floor(piece) is None and piece in pieces and not pieces[piece].isHidden()]
    return (max(tops), False) if tops else None
