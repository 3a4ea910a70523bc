"""Turns played headless by computer players: the hand in the physics, the facts to the referee.

`TurnRunner.play_turn()` plays one player's turn to its end (a column pulled and set on
top, or a floor proposed, answered and laid, or a pass), lets the villa settle, records
the turn and autosaves. Nothing is drawn; the physics runs on its fixed step as fast as
the machine allows.
"""

from __future__ import annotations

import logging
import math
import sys
from typing import Callable, TextIO

from panda3d.core import Point3

from villa import rules
from villa.app import saves
from villa.app.computer import ComputerPlayer, pull_plan
from villa.app.match import MatchOptions, build_layout

log = logging.getLogger(__name__)

FRAME = 1 / 60               # the hand is moved once per 1/60 s, as a window would
PULL_SPEED = 3.0             # cm/s outward
PULL_FRAMES = 900            # 15 s of pulling before the column is given up
SETTLE_S = 10.0
MAX_ACTIONS_PER_TURN = 40


def new_game(options: MatchOptions) -> saves.Game:
    """A new game of computer players: the villa built and settled, colours dealt from the seed."""
    from villa.physics import layouts
    from villa.physics.world import Villa
    layout = build_layout(options)
    villa = Villa.from_layout(layout, setup=options.floors == 1)
    villa.run_until_settled(4.0)
    supports = frozenset(spot.column for spot in layouts.supports(layout, 1))
    state = rules.new_game(rules.GameSetup(rules.PUBLISHER, tuple(options.players), supports))
    if state.turn.step is rules.Step.COLOUR_ROLL:
        state = rules.apply(state, rules.AssignColoursAtRandom(options.seed))
    if options.floors > 1:  # a villa already built higher: columns not in the layout are out
        state = rules.apply(state, rules.SetUpHigher.of(
            {spot.column: spot.level for spot in layout.columns},
            {f.level: [s.column for s in layouts.supports(layout, f.level)] for f in layout.floors}))
    info = saves.MatchInfo(saves.MatchInfo.new_id(), tuple(options.players), options.seed, options.floors, layout)
    return saves.start_game(info, state, villa)


class TurnRunner:
    """Plays turns of `game` with computer players at every seat."""

    def __init__(self, game: saves.Game, player: ComputerPlayer,
                 on_turn: Callable[[saves.Game], None] | None = None) -> None:
        self.game = game
        self.player = player
        self.on_turn = on_turn

    @property
    def state(self) -> rules.GameState:
        return self.game.state

    @property
    def villa(self):
        return self.game.villa

    def submit(self, action) -> None:
        self.game.state = rules.apply(self.game.state, action)

    # --- a turn ---

    def play_turn(self) -> None:
        """One player's turn, to its end; then the settled villa is recorded (and autosaved)."""
        if self.state.over:
            return
        player, actions = self.state.turn.player, 0
        while not self.state.over and self.state.turn.player == player:
            actions += 1
            if actions > MAX_ACTIONS_PER_TURN:
                raise RuntimeError(f"the turn of player {player} does not end")
            self._act()
        self._settle()
        self.game.record_turn()
        if self.on_turn:
            self.on_turn(self.game)

    def _act(self) -> None:
        state = self.state
        step = state.turn.step
        if step is rules.Step.LAY_FLOOR:
            self._lay_floor()
        elif step is rules.Step.TAKE_OUT:
            self._take_out(self.player.column_to_take_out(state, self.villa))
        else:
            action = self.player.choose(state, self.villa)
            if action is None:
                raise RuntimeError(f"the computer player has nothing to do at {step.value}")
            self.submit(action)
            if isinstance(action, rules.TakeColumn):
                self._pull_and_place(action.column)
        self._report_collapse()

    # --- the hand ---

    def _frames(self, count: int, until: Callable[[], bool] | None = None) -> bool:
        for _ in range(count):
            self.villa.step(FRAME)
            if self.villa.collapse is not None:
                return False
            if until is not None and until():
                return True
        return until is None

    def _settle(self) -> None:
        self.villa.run_until_settled(SETTLE_S)
        self._report_collapse()

    def _report_collapse(self) -> None:
        if self.villa.collapse is not None and not self.state.over:
            self.submit(self.villa.collapse)

    def _pull_free(self, column: str):
        """Grab the column and draw it out from under its floor; the Pull once it is free, else None."""
        plan = pull_plan(self.villa, column)
        loaded = plan is None or plan.direction is not None
        pull = self.villa.grab(column, steady=loaded)
        if pull.state == "pulling":
            start = self.villa.nodes[column].getPos()
            dx, dy = plan.direction if plan is not None else _outward(start)
            for i in range(PULL_FRAMES):
                pull.aim(start + Point3(dx, dy, 0) * (1.0 + i * PULL_SPEED * FRAME))
                self.villa.step(FRAME)
                if pull.state != "pulling" or self.villa.collapse is not None:
                    break
        if pull.state == "carrying":
            return pull
        if self.villa.collapse is None and pull.state == "pulling":
            pull.abort()
        return None

    def _pull_and_place(self, column: str) -> None:
        pull = self._pull_free(column)
        if pull is None:
            if self.villa.collapse is None:
                log.info("%s would not come free: the build is given up", column)
                self.submit(rules.Abort())
            return
        for attempt in range(4):
            if self._set_down(pull, column):
                return
            if self.villa.collapse is not None:
                return
            pull = self.villa.grab(column)
            if not self._frames(240, lambda: pull.state == "carrying"):
                break
        raise RuntimeError(f"the computer player could not set {column} down on the top floor")

    def _set_down(self, pull, column: str) -> bool:
        """Carry the free column over a spot on the top floor, set it down, and report it; True if accepted."""
        spot = self.player.landing(self.villa, column, self.state.top_level, self.state)
        if spot is None:
            raise RuntimeError(f"there is no room for {column} on the top floor")
        x, y = spot
        pull.aim(Point3(x, y, 0))
        node = self.villa.nodes[column]
        self._frames(360, lambda: math.hypot(node.getX() - x, node.getY() - y) < 0.05)
        if self.villa.collapse is not None:
            return False
        pull.place()
        self._frames(900, lambda: pull.state == "placed")
        self._settle()
        if self.state.over:
            return True
        fact = pull.result()
        if fact is None:
            from villa.physics import survey
            fact = survey.column_placed(self.villa, column)
        try:
            self.submit(fact)
        except rules.RuleError as refusal:
            log.info("%s set down but refused: %s", column, refusal)
            return False
        return True

    def _take_out(self, column: str) -> None:
        pull = self._pull_free(column)
        if pull is None:
            if self.villa.collapse is None:
                raise RuntimeError(f"{column} cannot be pulled out of the villa")
            return
        pull.take_out()
        self._settle()
        if not self.state.over:
            self.submit(rules.ColumnTakenOut(column))

    def _lay_floor(self) -> None:
        spot = self.player.floor_spot(self.villa, self.state)
        if spot is None:
            self.submit(rules.GiveUpFloor())
            return
        from villa.physics import PlacementError
        lay = self.villa.lay_floor()
        lay.aim(Point3(spot.x, spot.y, 0))
        lay.turn(spot.yaw)
        self._frames(240, lambda: (abs(lay.x - spot.x) < 1e-6 and abs(lay.y - spot.y) < 1e-6
                                   and abs(lay.yaw - lay.aim_yaw) < 1e-6))
        try:
            lay.lower()
        except PlacementError:
            lay.cancel()
            self.submit(rules.GiveUpFloor())
            return
        self._frames(1200, lambda: lay.state == "laid")
        self._settle()
        if self.state.over:
            return
        fact = lay.result()
        if fact is None:
            from villa.physics import survey
            fact = survey.floor_laid(self.villa, lay.level)
        try:
            self.submit(fact)
        except rules.RuleError as refusal:
            log.info("the floor was refused (%s): it is taken off again", refusal)
            self.villa.remove(lay.piece)
            self.villa.wake()
            self._settle()
            if not self.state.over:
                self.submit(rules.GiveUpFloor())


def _outward(pos) -> tuple[float, float]:
    length = math.hypot(pos.x, pos.y) or 1.0
    return pos.x / length, pos.y / length


# --- the headless game -----------------------------------------------------------

def run(game: saves.Game, turns: int, out: TextIO = sys.stdout, autosaver: saves.Autosaver | None = None) -> int:
    """Play up to `turns` turns headless, autosaving and printing a line after each settled turn."""
    autosaver = autosaver or saves.Autosaver()
    player = ComputerPlayer(game.info.seed)

    def saved(g: saves.Game) -> None:
        print(f"turn {g.turn} saved {autosaver.save(g)}", file=out, flush=True)

    runner = TurnRunner(game, player, on_turn=saved)
    for _ in range(turns):
        if game.state.over:
            break
        runner.play_turn()
    if game.state.over:
        print(f"game over after turn {game.turn}: {game.state.result.reason}", file=out, flush=True)
        print(f"replay saved to {saves.save_replay(game)}", file=out, flush=True)
    return 0
