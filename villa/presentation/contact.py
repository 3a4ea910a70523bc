"""The shade round every standing column's foot where it meets the floor or plate under it:
Low's baked contact shadow (Medium and High work it out as ambient occlusion)."""

from __future__ import annotations

import math

from panda3d.core import PTA_LMatrix4f, ColorBlendAttrib, LMatrix4f, NodePath, OmniBoundingVolume

from villa.physics import dimensions as dim
from villa.presentation import meshes, shading
from villa.presentation.shadows import casts_shadow

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]  # (x, y, z), (w, x, y, z)

# how far out from the foot it reaches, how dark it is at the foot
CONTACT_REACH = 0.9
CONTACT_STRENGTH = 0.55
CONTACT_LIFT = 0.012      # cm above the surface it darkens
CONTACT_BLEND = ColorBlendAttrib.make(ColorBlendAttrib.M_add, ColorBlendAttrib.O_zero,
                                      ColorBlendAttrib.O_incoming_color)   # what is drawn times the shade
CONTACT_BIN = "contact"
UPRIGHT = math.cos(math.radians(4.0))   # a column leaning less than this stands
RESTING = 0.15                          # cm: its foot this near a level's surface rests on it


class ContactShade:
    """All the columns' rings in one draw (a software renderer pays for each draw, however small),
    each placed at its column's foot by a matrix of its own, or folded away."""

    def __init__(self, root: NodePath, columns: list[str]) -> None:
        self.index = {column: i for i, column in enumerate(columns)}
        self.lift = [LMatrix4f.translateMat(0, 0, -dim.column_spec(c).height / 2 + CONTACT_LIFT) for c in columns]
        rings = []
        for column in columns:
            spec = dim.column_spec(column)
            rings.append((spec.radius * 0.97, spec.radius + CONTACT_REACH, 40 if spec.sides == 0 else 24))
        self.node = root.attachNewNode(meshes.contact_rings("contact shade", rings))
        self.node.node().setBounds(OmniBoundingVolume())   # placed by its shader: never culled
        self.node.node().setFinal(True)
        self.places = PTA_LMatrix4f.emptyArray(len(columns))
        for i in range(len(columns)):
            self.places[i] = LMatrix4f.zerosMat()
        self.node.setShader(shading.contact_shader(), 10)
        self.node.setShaderInput("ring_places", self.places)
        self.node.setShaderInput("contact_strength", CONTACT_STRENGTH)
        self.node.setAttrib(CONTACT_BLEND)
        self.node.setDepthWrite(False)
        self.node.setBin(CONTACT_BIN, 0)
        self.node.setTextureOff(10)
        casts_shadow(self.node, False)

    def place(self, piece: str, mat: LMatrix4f | None) -> None:
        """A column's ring at its foot (`mat`: the column's transform), or away (None)."""
        i = self.index[piece]
        self.places[i] = self.lift[i] * mat if mat is not None else LMatrix4f.zerosMat()


def stands(column: str, pose: Pose) -> bool:
    """Whether a column stands upright on a level's surface (its foot then meets that surface)."""
    (x, y, z), (qw, qx, qy, qz) = pose
    up = 1 - 2 * (qx * qx + qy * qy)    # the column's axis, z component
    if up < UPRIGHT:
        return False
    foot = z - dim.column_spec(column).height / 2 * up
    return any(abs(foot - dim.surface_z(level)) < RESTING for level in range(len(dim.FLOORS)))

