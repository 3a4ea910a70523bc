"""Static friction: anchors that hold resting pieces where they lie, up to the friction limit.

Bullet 2.84's contact friction has no sticking state. Each contact point resists slip
along one direction a step (its relative velocity, or a fixed one at rest), and in a
stack the contact forces flicker from step to step (a column top carries no force at
all in one step of ten or more), so under a slow sustained drag resting pieces creep: a
column drawn out at 3 cm/s dragged its floor 7 to 21 mm where Coulomb says it holds, and
a villa left awake walked apart.

An anchor is a Bullet constraint that locks the sideways slip (and the twist) of a
resting piece. Bullet clamps its impulse each step at its breaking threshold, the
Coulomb limit μN·step, and disables it the step it reaches it: from then on the piece
slides on Bullet's own friction, as before. It grips again (`check`) once the piece rests
again.

- Each standing column's foot is anchored to the base plate, floor or column under it,
  at its foot's centre: slip and twist, limit μ × what the foot bears.
- Each floor is anchored at its centre of mass to the base plate: slip, limit μ × the load
  on its supports not in hand; twist, limit μ × Σ (each such support's load × its
  distance from the centre, and 2/3 of its radius for its own end face).
  A floor is anchored whole, not at each column top: the load a single top carries
  flickers, the sum over a floor's supports does not. It is anchored to the base plate,
  not to the floor under its columns: an anchor between two floors 8.6 cm apart turns the
  lower one's least rocking into a sideways shove on the upper one, and a tall villa
  rocked on it by a quarter of a degree. A floor rides on the floors below it: when one
  of them slips or tips, the floors above it let go too, and grip again once still.
- Each floor is held level by the moment its own load holds it with: W × m, m how far the
  load's centre lies inside its supports' feet (statics, the true round and hexagonal
  feet), five times over (`OVERTURN_MARGIN`). A rigid floor tips only once its load passes
  the edge of its supports; Bullet's solver cannot give the lopsided contact forces that a
  floor balanced within a millimetre of that edge needs, and such a floor sagged over
  and tipped while still 1 to 1.5 mm inside. A floor whose load lies outside its supports
  is not held at all, so the margin moves no verdict of statics: it only keeps the
  solver's kicks from tipping a floor that stands. It is held by two angular motors that
  stop its tilt with a torque clamped at that moment, each step, not by a constraint that
  breaks: one that broke and gripped again kicked a floor near its edge every 1/60 s,
  and it trembled for seconds without ever coming to rest.
- The columns cannot carry a floor away on their own: their feet are anchored, and
  tilting them lifts the floor.
- Lifting is never held: the anchors leave the third axis free, and a floor tilting
  away from where it rested, or sinking below it, is let go at once (`ANCHOR_TILT_DEG`,
  `ANCHOR_SINK`): held level as it fell, a floor slammed flat onto the one below.

Anchors are made from the poses and the statics of `loads` alone, in a fixed order, so a
villa restored from a snapshot is anchored exactly like the live one.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

from panda3d.bullet import BulletGenericConstraint
from panda3d.core import Point3, TransformState, Vec3

from villa.physics import geometry, loads
from villa.physics.bodies import FRICTION
from villa.physics.dimensions import COLUMN_HEIGHT, column_spec

MU = FRICTION * FRICTION    # Bullet's combined coefficient for wood on wood
ANCHOR_TILT_DEG = 0.5       # a floor tilted this far from where it rested is tipping: let go
ANCHOR_SINK = 0.05          # cm: a floor this far below where it was anchored is falling: let go
SPIKE_MARGIN = 2.0          # an anchor breaks at twice the limit in a single step: the force a
                            # contact carries flickers to twice its mean from step to step. A
                            # floor dragged by a column drawn out from under it is judged by
                            # Coulomb on the statics' loads instead (`reweigh`)
REANCHOR_SPEED = 0.5        # cm/s: a piece slipping slower than this grips again ...
REANCHOR_GAP = 0.05         # cm: ... if it still rests where it gripped (its anchor point this near)
TWIST_ARM = 2 / 3           # a disc's own friction torque: μN × 2/3 of its radius
OVERTURN_MARGIN = 5.0       # a floor is held level against five times the moment its load holds it
                            # with: the solver's contact forces kick a floor balanced near its edge.
                            # Twice let a thin column's floor tip 0.6 mm inside the true edge

SLIP, TWIST, FOOT, LEVEL = "slip", "twist", "foot", "level"
FLOOR_KINDS = (SLIP, TWIST, LEVEL)


@dataclass
class Anchor:
    lower: str              # what it holds to: the base plate, or what a column stands on
    upper: str              # the piece held
    kind: str               # FOOT (a column's slip and twist); SLIP, TWIST or LEVEL (a floor's)
    limit: float            # kg·cm/s² (·cm for twist): the friction it can hold
    rest_height: float = 0.0  # the anchor point's height over the lower piece when it gripped
    gives: bool = False     # a floor dragged harder than it can hold: it slides, not held
    constraint: BulletGenericConstraint | None = None   # None while it slips


class Anchors:
    def __init__(self, villa, step: float) -> None:
        self.villa = weakref.proxy(villa)   # the villa holds its anchors (see `CollapseWatch`)
        self.step = step        # Bullet's fixed step: a limit is an impulse per step
        self.anchors: list[Anchor] = []

    # --- making and letting go ---

    def anchor_all(self, at_rest: bool = True) -> None:
        """Anchor every resting piece not in hand, as the poses stand.

        With `at_rest` False (a piece just let go in an awake villa) an anchor grips only
        once its piece rests (`check`)."""
        self.clear()
        if self.villa.collapse is not None:
            return  # everything falls as it may
        statics = loads.resting(self.villa)
        for floor in sorted(statics.supports, key=lambda f: int(f[6:])):
            self._anchor_floor(floor, statics, at_rest)
        for column in sorted(statics.stands_on):
            if column not in self.villa.in_hand:
                self._add(Anchor(statics.stands_on[column], column, FOOT, MU * statics.foot_loads[column]), at_rest)

    def anchor_floor(self, floor: str) -> None:
        """Anchor a floor again (a steadied floor set down where it lay)."""
        if not any(a.upper == floor for a in self.anchors):
            self._anchor_floor(floor, loads.resting(self.villa), True)

    def _anchor_floor(self, floor: str, statics: loads.Resting, at_rest: bool) -> None:
        if statics.supports.get(floor):
            limits = self._floor_limits(floor, statics)
            for kind in FLOOR_KINDS:
                anchor = Anchor("base", floor, kind, 0.0)
                self._weigh(anchor, statics, limits)
                self._add(anchor, at_rest)

    def _weigh(self, anchor: Anchor, statics: loads.Resting, limits: tuple[float, float, float]) -> None:
        """Set a floor anchor's limit from the statics; a column in hand drags the floor with
        μ × its load: dragged harder than its other supports hold, the floor gives way and
        slides (Coulomb, on the statics' loads); its load outside its other supports, it is
        not held level."""
        limits = dict(zip(FLOOR_KINDS, limits))   # `_floor_limits` of its floor
        anchor.limit = limits[anchor.kind]
        drag = MU * sum(s.load for s in statics.supports.get(anchor.upper, ()) if s.column in self.villa.in_hand)
        anchor.gives = anchor.limit <= 0 if anchor.kind == LEVEL else drag > limits[SLIP]

    def _floor_limits(self, floor: str, statics: loads.Resting) -> tuple[float, float, float]:
        """Slip, twist and level limits of a floor, from its supports not in hand."""
        centre = self.villa.nodes[floor].getPos()
        held = [s for s in statics.supports.get(floor, ()) if s.column not in self.villa.in_hand]
        slip = MU * sum(s.load for s in held)
        twist = MU * sum(s.load * (math.hypot(s.x - centre.x, s.y - centre.y)
                                   + TWIST_ARM * column_spec(s.column).radius) for s in held)
        load, x, y = statics.loads[floor]
        feet = [p for s in held for p in geometry.transform(column_spec(s.column).footprint(), s.x, s.y,
                                                           self.villa.nodes[s.column].getH())]
        inside = geometry.support_margin(feet, x, y) if feet else -1.0
        return slip, twist, OVERTURN_MARGIN * load * max(0.0, inside)

    def let_go(self, piece: str) -> None:
        """Drop the anchors that hold `piece` (taken in hand, steadied); what stands on it
        stays anchored to it and rides along."""
        for anchor in [a for a in self.anchors if a.upper == piece]:
            self._drop(anchor)

    def forget(self, piece: str) -> None:
        """Drop every anchor that holds `piece` or holds to it (it leaves the villa)."""
        for anchor in [a for a in self.anchors if piece in (a.upper, a.lower)]:
            self._drop(anchor)

    def reweigh(self) -> None:
        """Set the floors' limits anew (a column taken in hand, or set free): see `_weigh`."""
        floors = [a for a in self.anchors if a.kind in FLOOR_KINDS]
        if not floors:
            return
        statics = loads.resting(self.villa)
        limits = {floor: self._floor_limits(floor, statics) for floor in {a.upper for a in floors}}
        for anchor in floors:
            self._weigh(anchor, statics, limits[anchor.upper])
            if anchor.gives:
                self._disconnect(anchor)
            elif anchor.constraint is not None:
                self._set_limit(anchor)

    def clear(self) -> None:
        for anchor in list(self.anchors):
            self._drop(anchor)

    # --- every 1/60 s ---

    def check(self, floor_tilts: dict[str, float]) -> None:
        """Let go of floors that tip, and of the floors riding on a floor that slips or tips;
        grip again where a piece that slipped rests again.

        `floor_tilts`: each floor's tilt (degrees) from where it last rested.
        """
        falling = {f for f, tilt in floor_tilts.items() if tilt > ANCHOR_TILT_DEG}
        falling |= {a.upper for a in self.anchors if a.kind == SLIP and self._height(a) < a.rest_height - ANCHOR_SINK}
        loose = min((int(f[6:]) for f in falling), default=99)
        for anchor in list(self.anchors):
            if anchor.kind in FLOOR_KINDS and anchor.upper in falling:
                self._drop(anchor)
            elif anchor.constraint is not None and not anchor.constraint.isEnabled():
                self._disconnect(anchor)   # it slipped: Bullet's friction carries on
            if anchor.kind == SLIP and anchor.constraint is None:
                loose = min(loose, int(anchor.upper[6:]))
        for anchor in list(self.anchors):
            if anchor.kind in FLOOR_KINDS and int(anchor.upper[6:]) > loose:
                self._disconnect(anchor)   # it rides on a floor that moves
            elif anchor.constraint is None and not anchor.gives and self._resting_again(anchor):
                self._connect(anchor)

    def _resting_again(self, anchor: Anchor) -> bool:
        if abs(self._height(anchor) - anchor.rest_height) > REANCHOR_GAP:
            return False
        lower, upper = self.villa.nodes[anchor.lower], self.villa.nodes[anchor.upper]
        point = self._point(anchor)
        return (_velocity_at(upper, point) - _velocity_at(lower, point)).length() < REANCHOR_SPEED

    # --- the constraints ---

    def _add(self, anchor: Anchor, at_rest: bool) -> None:
        self.anchors.append(anchor)
        anchor.rest_height = self._height(anchor)
        if not anchor.gives and (at_rest or self._resting_again(anchor)):
            self._connect(anchor)

    def _drop(self, anchor: Anchor) -> None:
        self._disconnect(anchor)
        self.anchors.remove(anchor)

    def _height(self, anchor: Anchor) -> float:
        """How high the anchor point is over the lower piece, in that piece's frame."""
        return self.villa.nodes[anchor.lower].getRelativePoint(self.villa.root, self._point(anchor)).z

    def _point(self, anchor: Anchor) -> Point3:
        np = self.villa.nodes[anchor.upper]
        if anchor.kind == FOOT:
            return np.getPos() - self.villa.axis(anchor.upper) * (COLUMN_HEIGHT / 2)
        return np.getPos()

    def _connect(self, anchor: Anchor) -> None:
        lower, upper = self.villa.nodes[anchor.lower], self.villa.nodes[anchor.upper]
        point = self._point(anchor)
        # both frames at the anchor point, with the lower piece's axes: its z is the normal
        frame_a = TransformState.makePos(lower.getRelativePoint(self.villa.root, point))
        frame_b = TransformState.makePosQuatScale(upper.getRelativePoint(self.villa.root, point),
                                                  lower.getQuat(upper), Vec3(1, 1, 1))
        constraint = BulletGenericConstraint(lower.node(), upper.node(), frame_a, frame_b, True)
        for axis in range(3):
            if not (anchor.kind in (FOOT, SLIP) and axis < 2):
                constraint.setLinearLimit(axis, 1, -1)   # low above high: free (the third always)
        if anchor.kind in (FOOT, TWIST):
            constraint.setAngularLimit(2, 0, 0)          # locked; the others turn freely
        if anchor.kind == LEVEL:   # motors that stop the tilt, with a torque up to the limit
            for axis in (0, 1):
                motor = constraint.getRotationalLimitMotor(axis)
                motor.setMotorEnabled(True)
                motor.setTargetVelocity(0.0)
        anchor.constraint = constraint
        self._set_limit(anchor)
        self.villa.world.attachConstraint(constraint)

    def _disconnect(self, anchor: Anchor) -> None:
        if anchor.constraint is not None:
            self.villa.world.removeConstraint(anchor.constraint)
            anchor.constraint = None

    def _set_limit(self, anchor: Anchor) -> None:
        """A floor is held level by motors whose torque is clamped at the limit, each step: they
        never let go with a kick, and a floor they cannot hold tips slowly past `ANCHOR_TILT_DEG`
        and is let go. The other anchors break the step their impulse reaches the limit."""
        if anchor.kind == LEVEL:
            for axis in (0, 1):
                anchor.constraint.getRotationalLimitMotor(axis).setMaxMotorForce(max(anchor.limit * self.step, 1e-9))
        else:
            anchor.constraint.setBreakingThreshold(self._threshold(anchor))

    def _threshold(self, anchor: Anchor) -> float:
        return max(SPIKE_MARGIN * anchor.limit * self.step, 1e-9)


def _velocity_at(np, point: Point3) -> Vec3:
    """The velocity (cm/s) of the body's material point at world `point`."""
    body = np.node()
    if body.getMass() == 0:
        return Vec3(0, 0, 0)
    return body.getLinearVelocity() + body.getAngularVelocity().cross(Vec3(point - np.getPos()))
