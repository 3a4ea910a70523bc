"""The game screen: the villa on the table, the player's hand, and the referee, frame by frame.

Each frame: read the mouse, aim the hand (the physics' `Pull` or `FloorLay`), step the
physics on its fixed step, pose the scene, and tell the referee what the villa did
once it has settled. The turn flow (`villa.presentation.flow`) says what the status line,
the buttons and the hot-seat hand-over show. After a collapse the villa comes to rest,
the fall is shown again in slow motion from the other side, and the end panel follows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from panda3d.core import Point3, Vec3

from villa import rules
from villa.physics import survey
from villa.physics.dimensions import BASE, COLUMN_HEIGHT, FLOORS, Layout
from villa.physics.pulling import PlacementError
from villa.presentation import flow, panels
from villa.presentation.collapse_replay import CollapseRecorder, Playback
from villa.presentation.camera import mouse_ray
from villa.presentation.controls import Controls, Handlers
from villa.presentation.ghost import Ghost
from villa.presentation.hud import SWATCH, Hud, _font
from villa.presentation.i18n import N_, _
from villa.presentation.impacts import Impacts
from villa.presentation.referee import Referee, column_label
from villa.presentation.view import VillaView

MAX_FRAME_DT = 0.1          # a stalled frame slows the villa down instead of jumping it
SETTLE_TIMEOUT = 6.0        # seconds of simulated time to wait for the villa to come to rest
TAKEABLE_GLOW = Vec3(0.07, 0.06, 0.02)
HOVER_GLOW = Vec3(0.22, 0.18, 0.07)
SUPPORT_GLOW = Vec3(0.05, 0.12, 0.22)   # the columns a floor being laid would rest on
NO_GLOW = Vec3(0, 0, 0)
BLOCKED_SHADE = (0.55, 0.55, 0.55, 1.0)
REPLAY_DISTANCE = 120.0     # cm: the slow-motion replay's camera, far enough for the whole villa

# The physics' refusals a player can meet; raised in English, shown through the catalog.
PLACEMENT_WORDS = (N_("only a column that is free of the villa can be set down"),
                   N_("there is no floor under the column"), N_("there is no column under the floor"),
                   N_("the villa has collapsed"))


@dataclass
class Match:
    """A game about to be played: the villa as built, and the players."""

    layout: Layout
    villa: object          # villa.physics.world.Villa
    referee: Referee


class GameScreen:
    """`on_end(result)` is called once the game is over (after the collapse's replay);
    `play_again()` when the end panel's button is pressed (None: no button);
    `sound`: a `villa.presentation.sound.Sound`, or None for silence."""

    def __init__(self, stage, match: Match, on_end: Callable[[rules.Result], None] | None = None,
                 play_again: Callable[[], None] | None = None, sound=None, seed: int = 0,
                 on_pause: Callable[[], None] | None = None, end_panel: bool = True) -> None:
        self.stage = stage
        self.match = match
        self.villa = match.villa
        self.referee = match.referee
        self.on_end, self.play_again, self.sound = on_end, play_again, sound
        self.on_pause, self.end_panel = on_pause, end_panel   # end_panel False: the caller shows its own end
        self.paused = False
        self.dice = random.Random(seed)   # the seal rolled in the family edition's random mode
        self.view = VillaView(stage)
        self.hud = Hud(stage)
        self.ghost = Ghost(self.view.scene.root)
        self.controls = Controls(stage, self.view.camera, Handlers(
            press=self.press, give_up=self.give_up, escape=self.escape, turn_floor=self.turn_floor,
            propose_floor=self.propose_floor, answer=self.answer, focus_top=self.view.focus_top,
            toggle_help=self.hud.toggle_controls))
        self.panel: panels.Panel | None = None     # the hand-over or end panel, over everything
        self.recorder = CollapseRecorder()
        self.playback: Playback | None = None
        self.ended = False
        self.impacts = Impacts()
        self._round = self.referee.state.round
        self.pull = None            # villa.physics.Pull: the column in hand
        self.lay = None             # villa.physics.FloorLay: the floor being laid
        self.waiting_since: float | None = None   # simulated time a placement began to settle
        self.collapse_reported = False
        self.collapse_seen_at = 0.0
        self.hover: str | None = None
        self.hint: str | None = None              # what the hand's tooltip says
        self._glow: dict[str, Vec3] = {}
        self._shown_state = None
        self._status_pulling = False         # the status line asks to draw the column out
        self.view.show_poses(self.villa.poses())
        self.view.focus_top(snap=True)
        self._show_turn()
        stage.task_mgr.add(self._frame_task, "villa frame", sort=-10)

    def close(self) -> None:
        """Take the game off the screen (the window stays open for the next)."""
        self.stage.task_mgr.remove("villa frame")
        self._close_panel()
        if self.sound is not None:
            self.sound.stop_creak()
        self.controls.close()
        self.hud.close()
        self.ghost.hide()
        self.view.close()

    # --- the mouse ---

    def mouse_ray(self, mouse: tuple[float, float]) -> tuple[Point3, Vec3]:
        return mouse_ray(self.stage, mouse)

    def pick(self, mouse: tuple[float, float]) -> tuple[str, Point3] | None:
        return self.villa.pick(*self.mouse_ray(mouse))

    @property
    def busy(self) -> bool:
        """The villa is settling after a placement: hands off until the referee has its fact."""
        return self.waiting_since is not None

    # --- the player's requests ---

    def press(self, mouse) -> bool:
        """A left press: take a column, set the carried one down, or lay the floor (True);
        or nothing (False: the drag turns the view)."""
        if self.panel is not None or self.playback is not None or self.collapse_reported:
            return True   # the panel takes the click; a fallen villa is not built on
        if self.referee.over or self.busy:
            return False
        if self.lay is not None:
            if self.lay.state == "carrying":
                self._try(self.lay.lower)
            return True
        if self.pull is not None:
            if self.pull.state == "carrying":
                refusal = self._landing_refusal()
                if refusal:
                    self.hud.flash(_("Not there: {refusal}").format(refusal=refusal), self.now)
                else:
                    self._try(self.pull.place)
            return True
        hit = self.pick(mouse)
        if hit is None or hit[0] not in self.villa.columns:
            return False
        column, point = hit
        refusal = self.referee.why_not_take(column)
        if refusal is None and self.referee.step is not rules.Step.TAKE_OUT:
            refusal = self.referee.submit(rules.TakeColumn(column))
        if refusal:
            self.hud.flash(refusal, self.now)
            return True
        self.pull = self.villa.grab(column, point, steady=self.controls.steadying)
        return True

    def escape(self) -> None:
        """Esc: give up what is in hand (or skip the replay); with nothing in hand, the pause menu."""
        idle = self.pull is None and self.lay is None and self.panel is None and self.playback is None
        if idle and not self.busy and self.on_pause is not None:
            self.on_pause()
        else:
            self.give_up()

    def give_up(self) -> None:
        """Esc or a right click: give up the build under way (the column goes back, blocked),
        or the floor being laid."""
        if self.playback is not None:
            self._end_replay()   # Esc skips the slow motion
            return
        if self.busy or self.panel is not None:
            return
        if self.lay is not None and self.lay.state == "carrying":
            refusal = self.referee.submit(rules.GiveUpFloor())
            if refusal:
                self.hud.flash(refusal, self.now)
                return
            self.lay.cancel()
            self.lay = None
            self.hud.flash(_("The floor goes back in the box"), self.now)
            return
        if self.pull is None or self.pull.state not in ("pulling", "carrying"):
            return
        if self.referee.step is not rules.Step.TAKE_OUT:
            refusal = self.referee.submit(rules.Abort())
            if refusal:
                self.hud.flash(refusal, self.now)
                return
            self.hud.flash(_("{column} goes back, and may not be chosen again").format(
                column=flow.column_words(self.pull.column)), self.now)
        self._try(self.pull.abort)
        self.pull = None

    def turn_floor(self, degrees: float) -> bool:
        if self.lay is None or self.lay.state != "carrying":
            return False
        self.lay.turn(degrees)
        return True

    def propose_floor(self) -> None:
        if self.pull is None and self.lay is None and self.playback is None:
            refusal = self.referee.submit(rules.ProposeFloor())
            self.hud.flash(refusal or _("A new floor is proposed"), self.now)

    def answer(self, objects: bool) -> None:
        """Y / N, or the hand-over panel's buttons: object (or challenge), or not."""
        guide = self.referee.guidance()
        command = (guide.command("decline") or guide.command("forgo") if not objects
                   else guide.command("object") or guide.command("challenge"))
        if command is not None:
            self._send(command.actions[0])

    def _send(self, action) -> None:
        refusal = self.referee.submit(action)
        if refusal:
            self.hud.flash(refusal, self.now)

    def _on_command(self, name: str) -> None:
        """A button of the command bar."""
        if name == "build":
            self.hud.flash(_("Press on a glowing column and drag it out"), self.now)
            self.view.focus_top()
        elif name == "propose":
            self.propose_floor()
        elif name in ("abort", "give-up"):
            self.give_up()
        elif name in ("object", "challenge"):
            self.answer(True)
        elif name == "decline":
            self.answer(False)
        elif name in ("pass", "forgo"):
            command = self.referee.guidance().command(name)
            if command is not None:
                self._send(command.actions[0])
        elif name == "roll" and self.panel is None:
            command = self.referee.guidance().command(name)
            if command is not None:
                self._toss_the_seal(self.dice.choice(command.actions))

    def _toss_the_seal(self, roll: rules.SealRoll) -> None:
        """The seal tumbles onto the colour rolled; the turn goes on once it has been seen."""
        guide = self.referee.guidance()
        if roll.colour is None:
            words, ink = _("An end face: any colour"), panels.INK
        else:
            words, ink = _(roll.colour.value).capitalize(), SWATCH[roll.colour.value]

        def done() -> None:
            self._close_panel()
            self._send(roll)
        self.panel = panels.SealToss(self.stage, _font(self.stage.loader), player=guide.standings[guide.player].name,
                                     rolled=roll.colour, colour_words=words, ink=ink, on_done=done)

    def _try(self, action) -> None:
        try:
            action()
        except PlacementError as refusal:
            self.hud.flash(_(str(refusal)), self.now)   # the physics' words, translated when the catalog knows them

    # --- every frame ---

    @property
    def now(self) -> float:
        return self.stage.clock.getFrameTime()

    def _frame_task(self, task):
        self.frame(min(self.stage.clock.getDt(), MAX_FRAME_DT))
        return task.cont

    def frame(self, dt: float) -> None:
        if self.paused:
            return
        self.controls.update(dt)
        if self.playback is not None:
            self._replay_frame(dt)
            return
        mouse = self.controls.mouse()
        self._aim_hand(mouse)
        self.villa.step(dt)
        self._report_to_referee()
        poses = self.villa.poses()
        self.recorder.add(self.villa.time, poses, at_rest=self.villa.settled)
        self._listen(poses, dt)
        self.view.show_poses(poses)
        self._show_hints(mouse)
        if self.referee.state is not self._shown_state:
            self._show_turn()
        self._show_pulling()
        self._after_collapse()
        self.hud.update(self.now)
        self.view.before_frame(dt)

    # --- the turn flow on screen ---

    def _show_turn(self) -> None:
        """The status line, the buttons, and the hot-seat panel for the state now."""
        state = self._shown_state = self.referee.state
        guide = self.referee.guidance()
        if state.round != self._round and not self.collapse_reported:
            self._new_round()   # a family round ended with nobody able to move: the villa is built anew
        self._take_out_of_the_villa(state.out)
        self.hud.show_game(guide, neutral=state.neutral, family=state.ruleset.family)
        self._status_pulling = False
        self._show_blocked()
        shown = [(c.name, c.label, lambda name=c.name: self._on_command(name))
                 for c in guide.commands if c.name != "choose"]
        self.hud.show_commands([] if state.over or guide.asks else shown)
        change, self.referee.last_change = self.referee.last_change, None
        words = flow.consequence(*change) if change else None
        before_actor = rules.whose_move(change[0]) if change else guide.actor
        if self.panel is not None and not self.ended:
            self._close_panel()
        if guide.asks:
            question = f"{words}\n\n{guide.question}" if words else guide.question
            self._hand_over(guide, question, [(c.label, lambda name=c.name: self._on_command(name))
                                              for c in guide.commands])
        elif words and guide.actor is not None and guide.actor != before_actor:
            self._hand_over(guide, words, [(_("I have the mouse"), self._close_panel)])
        elif words:
            self.hud.flash(words, self.now, seconds=8.0)

    def _show_pulling(self) -> None:
        """While the column taken is still under its floor, the status line says to draw it out
        (the rules already wait for it on top); once it is free, the turn's own words again."""
        state = self.referee.state
        pulling = (self.pull is not None and self.pull.state == "pulling" and state.turn.step is not rules.Step.TAKE_OUT
                   and state.turn.column == self.pull.column)
        if pulling != self._status_pulling:
            self._status_pulling = pulling
            self.hud.show_status(flow.pulling_headline(state) if pulling else self.referee.guidance().headline)

    def _take_out_of_the_villa(self, out) -> None:
        """A column the rules put out of the game (a successful objection's proof) leaves the table."""
        for column in out:
            if column in self.villa.nodes and column not in self.villa.in_hand:
                self.villa.remove(column)

    def _hand_over(self, guide: flow.Guidance, words: str, answers) -> None:
        colours = guide.standings[guide.actor].colours
        ink = SWATCH[colours[0].value] if colours else panels.INK
        self.panel = panels.hand_over(self.stage, _font(self.stage.loader), player=guide.standings[guide.actor].name,
                                      ink=ink, words=words, answers=answers)

    def _close_panel(self) -> None:
        if self.panel is not None:
            self.panel.destroy()
            self.panel = None

    def _new_round(self) -> None:
        """Family edition: a new round starts on a fresh villa, built as at the start."""
        from villa.physics.world import Villa
        self._round = self.referee.state.round
        self.pull = self.lay = None
        self.waiting_since = None
        self.villa = Villa.from_layout(self.match.layout, setup=True)
        self.recorder = CollapseRecorder()
        self.collapse_reported = False
        for piece in self.view.scene.pieces.values():
            piece.clearColorScale()
        self.view.show_poses(self.villa.poses())
        self.view.focus_top()

    # --- the collapse and the end ---

    def _after_collapse(self) -> None:
        """Once the fallen villa lies still, its fall again in slow motion; at the end the end panel."""
        if self.ended or self.playback is not None:
            return
        if self.collapse_reported:
            if self.recorder.done:
                self._start_replay()
        elif self.referee.over:
            self._end()   # nobody could build any further: there is no fall to show

    def _start_replay(self) -> None:
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
        self.playback = None
        self.view.show_poses(self.villa.poses())
        self.hud.flash("", self.now, seconds=0.01)
        if self.referee.over:
            self._end()
        else:   # family edition: the next round
            self._new_round()
            self._show_turn()

    def _end(self) -> None:
        self.ended = True
        self._close_panel()
        self.hud.show_commands([])
        if self.end_panel:
            title, reason, down = flow.result_words(self.referee.state)
            self.panel = panels.end_panel(self.stage, _font(self.stage.loader), title=title, reason=reason,
                                          down=down, play_again=self.play_again, close=self._close_panel)
        if self.on_end is not None:
            self.on_end(self.referee.state.result)

    def _listen(self, poses, dt: float) -> None:
        """Sounds: a creak while a loaded column is pulled, clacks where pieces hit."""
        if self.sound is None:
            return
        pull = self.pull
        self.sound.creak(0.0 if pull is None or pull.state != "pulling" or pull.is_free() else 0.6)
        for speed in self.impacts.hits(poses, dt, moving=not self.villa.settled):
            self.sound.clack(speed)
        self.sound.update()

    def _aim_hand(self, mouse) -> None:
        ray = self.mouse_ray(mouse) if mouse is not None else None
        if self.lay is None and self.pull is None and self.referee.step is rules.Step.LAY_FLOOR \
                and not self.busy and not self.referee.over and not self.collapse_reported:
            self._try(self._start_laying)
        if self.lay is not None and self.lay.state == "carrying" and ray:
            self.lay.aim_ray(*ray)
        pull = self.pull
        if pull is None:
            return
        pull.steady = self.controls.steadying
        if pull.state == "pulling" and ray and self.controls.game_drag:
            pull.aim_ray(*ray)
        elif pull.state == "carrying":
            if self.referee.step is rules.Step.TAKE_OUT:
                self._try(pull.take_out)   # out of the villa: out of the game
            elif ray:
                # the player points at the spot on the top floor; the column hovers above it
                spot = self._on_plane(ray, self._top_surface_z())
                if spot is not None:
                    pull.aim(spot)

    @staticmethod
    def _on_plane(ray, z: float) -> Point3 | None:
        origin, direction = ray
        if abs(direction.z) < 1e-6:
            return None
        t = (z - origin.z) / direction.z
        return origin + direction * t if t > 0 else None

    def _top_surface_z(self) -> float:
        level = self.villa.top_level
        if level == 0:
            return BASE.top_z
        return self.villa.nodes[f"floor-{level}"].getZ() + FLOORS[level].thickness / 2

    def _start_laying(self) -> None:
        self.lay = self.villa.lay_floor()
        self.view.focus_top()

    def _report_to_referee(self) -> None:
        collapse = self.villa.collapse
        if collapse is not None:
            if not self.collapse_reported:
                self.collapse_reported = True
                if not self.referee.over:
                    self.referee.submit(collapse)
                self.pull = self.lay = None
                self.waiting_since = None
                self.hud.flash(_("The villa collapses!"), self.now, seconds=8.0)
                self.collapse_seen_at = self.villa.time
                self.recorder.fell(self.villa.time)
                self._close_panel()
                if self.sound is not None:
                    self.sound.crash()
            if self.villa.time - self.collapse_seen_at > 1.0:
                self.view.focus_all()  # follow the pieces as they come to rest
            return
        hand = self.pull or self.lay
        done = hand is not None and hand.state in ("placed", "taken out", "laid")
        if not done:
            return
        if self.waiting_since is None:
            self.waiting_since = self.villa.time
        fact = hand.result()
        if fact is None and self.villa.time - self.waiting_since > SETTLE_TIMEOUT:
            fact = self._fact_now(hand)   # still trembling: judge it as it stands
        if fact is None:
            return
        self.waiting_since = None
        self.pull = self.lay = None
        refusal = self.referee.submit(fact)
        if refusal is None:
            if isinstance(fact, rules.ColumnPlaced):
                self.hud.flash(_("{column} is up").format(column=column_label(fact.column)), self.now, seconds=2.5)
            return
        self.hud.flash(refusal, self.now)
        if isinstance(fact, rules.ColumnPlaced) and self.referee.step is rules.Step.IN_HAND:
            # still in hand for the rules: take it up again and find a better spot
            self.pull = self.villa.grab(fact.column)

    def _fact_now(self, hand):
        if hand.state == "placed":
            return survey.column_placed(self.villa, hand.column)
        if hand.state == "taken out":
            return rules.ColumnTakenOut(hand.column)
        return survey.floor_laid(self.villa, hand.level)

    # --- what the player sees of it ---

    def _landing_refusal(self) -> str | None:
        """Why the carried column may not be set down straight below it now (None: it may)."""
        preview = self.pull.preview()
        top = self.referee.state.top_level
        if preview is None or preview.level != top:
            return _("a column goes onto the top floor")
        if not preview.footprint_inside:
            return _("it would overhang the floor's edge (regulation 3)")
        if preview.on_column is not None and top != rules.pieces.TOP_FLOOR_LEVEL:
            return _("columns may stand on columns only on the red floor (regulation 8)")
        return None

    def _show_hints(self, mouse) -> None:
        glow: dict[str, Vec3] = {}
        tooltip = None
        self.hover = None
        pull, lay = self.pull, self.lay
        if self.referee.over or self.busy or self.panel is not None:
            self.ghost.hide()
        elif pull is not None:
            if pull.state == "pulling":
                self.ghost.hide()
                if pull.steadied:
                    glow[pull.steadied] = SUPPORT_GLOW
                    tooltip = _("the floor above is held steady")
                else:
                    tooltip = _("drag it out; hold Space to steady the floor above")
            elif pull.state == "carrying":
                tooltip = self._show_landing(pull)
        elif lay is not None and lay.state == "carrying":
            self.ghost.hide()
            under = lay.columns_under()
            glow = {c: SUPPORT_GLOW for c in under}
            need = self.referee.state.ruleset.min_support(lay.level)
            tooltip = _("rests on {count} columns (needs {need}): click to lay it, wheel or Q/E to turn, Esc gives up").format(
                count=len(under), need=need)
        else:
            self.ghost.hide()
            takeable = set(self.referee.takeable()) & set(self.villa.columns)
            glow = {c: TAKEABLE_GLOW for c in takeable}
            hit = self.pick(mouse) if mouse else None
            if hit and hit[0] in self.villa.columns:
                self.hover = hit[0]
                if self.hover in takeable:
                    glow[self.hover] = HOVER_GLOW
                    tooltip = column_label(self.hover) + "\n" + _("drag to pull it out")
                else:
                    tooltip = column_label(self.hover) + "\n" + self.referee.why_not_take(self.hover)
        self.hint = tooltip
        self._set_glow(glow)
        self.hud.show_tooltip(tooltip, mouse)

    def _show_landing(self, pull) -> str:
        """The ghost where the carried column would stand; the words say whether it may."""
        below = pull.surface_below()
        if below is None:
            self.ghost.hide()
            return _("carry it over the top floor")
        refusal = self._landing_refusal()
        node = self.view.scene.pieces[pull.column]
        pos = node.getPos()
        self.ghost.show(pull.column, node, pos.x, pos.y, below[2] + COLUMN_HEIGHT / 2, node.getH(), refusal is None)
        return _("Not here: {refusal}").format(refusal=refusal) if refusal else _("click to set it down here; Esc gives up")

    def _show_blocked(self) -> None:
        """Columns given up in an aborted build stay dimmed: they may not be chosen again."""
        for column in self.referee.state.blocked:
            self.view.scene.pieces[column].setColorScale(BLOCKED_SHADE)

    def _set_glow(self, glow: dict[str, Vec3]) -> None:
        pieces = self.view.scene.pieces
        for piece in set(self._glow) | set(glow):
            wanted = glow.get(piece, NO_GLOW)
            if self._glow.get(piece, NO_GLOW) != wanted:
                pieces[piece].setShaderInput("glow", wanted)
        self._glow = glow
