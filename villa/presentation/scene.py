"""The villa's pieces on the table: base plate, five floors, twenty columns, each a node named by piece id.

The pieces are loaded from models/ (see models.py); the table is made here.
"""

from __future__ import annotations

import math

from panda3d.core import BitMask32, NodePath, Point3, Quat, SamplerState, Vec3

from villa.physics import dimensions as dim
from villa.presentation import meshes, models, shading
from villa.presentation.contact import ContactShade, stands
from villa.presentation.shadows import TABLE_CASTER_MASK, casts_shadow
from villa.rules.pieces import ALL_COLUMNS, FLOOR_COLOURS, floor_id, level_of_floor

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]  # (x, y, z), (w, x, y, z)

PIECE_TAG = "piece"                  # every piece's node carries its id under this tag
PICK_MASK = BitMask32.bit(4)         # what the mouse ray can hit
MAIN_CAMERA_MASK = BitMask32.bit(0)

TABLE_RADIUS = 125.0
TABLE_THICKNESS = 3.0
TABLE_CHAMFER = 0.6
TABLE_WOOD_REPEAT = meshes.TABLE_WOOD_REPEAT
TABLE_LIGHT_REACH = 50.0  # cm each way from the centre: the square where the villa's shadows fall

NO_GLOW = Vec3(0, 0, 0)
TABLE_CONTACT_SHADE = Vec3(0.45, dim.BASE.radius - 1.0, dim.BASE.radius + 9.0)  # (strength, from, to radius)


def _texture(loader, name: str):
    texture = loader.loadTexture(name)
    # one mipmap level per look-up: software renderers pay twice for blending two levels
    texture.setMinfilter(SamplerState.FT_linear_mipmap_nearest)
    texture.setMagfilter(SamplerState.FT_linear)
    return texture


class VillaScene:
    """Builds the table and every piece once; poses come from the physics (or a layout)."""

    def __init__(self, stage) -> None:
        self.root = stage.render.attachNewNode("villa scene")
        shading.apply_defaults(self.root)
        loader = stage.loader
        self.pieces: dict[str, NodePath] = {}
        self._poses: dict[str, Pose] = {}
        self.glow: dict[str, Vec3] = {}       # the pieces that glow now, and how

        table_wood = meshes.PlanarUV(TABLE_WOOD_REPEAT)
        self.table = self.root.attachNewNode(meshes.extrusion(
            "table", meshes.circle(TABLE_RADIUS, 96), -TABLE_THICKNESS, 0.0, chamfer=TABLE_CHAMFER,
            uv=table_wood, bottom=False, top=False))
        # its top in two parts: the middle, round the shadows' square, and the rim
        middle, rim = meshes.disc_and_ring("table top", TABLE_RADIUS - TABLE_CHAMFER, 96, 0.0, table_wood,
                                        middle=TABLE_LIGHT_REACH * math.sqrt(2) * 1.01)
        self.table.attachNewNode(rim)
        self.table_middle = self.table.attachNewNode(middle)
        self.table_wood = _texture(loader, "wood_table.jpg")
        self.table_wood_normals = _texture(loader, "wood_table_normal.jpg")
        self.table.setTexture(self.table_wood)
        self.table_radius = TABLE_RADIUS
        self.table_middle_reach = _reach(self.table_middle)
        self.table_wood_repeat = TABLE_WOOD_REPEAT
        casts_shadow(self.table, False)

        self._add("base", models.load(loader, models.piece_model("base")))
        for level in dim.FLOORS:
            self._add(floor_id(level), models.load(loader, models.floor_model(level)))

        for column in ALL_COLUMNS:
            node = self._add(column.id, models.load(loader, models.column_model(column.kind.value)))
            models.paint(loader, node, column.colour.value)
            node.hide()
        self.contact = ContactShade(self.root, [column.id for column in ALL_COLUMNS])

        for level in range(1, len(FLOOR_COLOURS) + 1):
            self.pieces[floor_id(level)].hide()
        self.set_pose("base", BASE_POSE)

    def show_contact_rings(self, shown: bool) -> None:
        """Baked contact shadows round the columns' feet (off where ambient occlusion does it)."""
        self.contact.node.show() if shown else self.contact.node.hide()

    def _add(self, piece: str, model: NodePath) -> NodePath:
        node = model
        node.reparentTo(self.root)
        node.setName(piece)
        node.setTag(PIECE_TAG, piece)
        node.setCollideMask(PICK_MASK)
        casts_shadow(node, True)
        # the model is for the eye; a plain shape of the piece casts its shadow
        for look in node.getChildren():
            casts_shadow(look, False)
        caster = node.attachNewNode(_caster(piece))
        caster.hide(MAIN_CAMERA_MASK)
        if piece == "base":   # it lies on the table: nothing of it shades the table's light map
            caster.hide(TABLE_CASTER_MASK)
        self.pieces[piece] = node
        return node

    def set_pose(self, piece: str, pose: Pose | None) -> bool:
        """Move a piece to `pose` ((x, y, z), (w, x, y, z)), or hide it (None: not in the villa).

        Returns whether it moved visibly (then its shadow must be drawn again).
        """
        node = self.pieces[piece]
        if pose is None:
            moved = not node.isHidden()
            node.hide()
            self._poses.pop(piece, None)
            if piece in self.contact.index:
                self.contact.place(piece, None)
            return moved
        previous = self._poses.get(piece)
        if node.isHidden():
            node.show()
            previous = None
        if previous is not None and _close(previous, pose):
            return False
        (x, y, z), (qw, qx, qy, qz) = pose
        node.setPosQuat(Point3(x, y, z), Quat(qw, qx, qy, qz))
        self._poses[piece] = pose
        if piece in self.contact.index:
            self.contact.place(piece, node.getMat(self.root) if stands(piece, pose) else None)
        return True

    def set_poses(self, poses: dict[str, Pose]) -> bool:
        """Every piece at once: those missing from `poses` are not in the villa. Returns whether any moved."""
        moved = False
        for piece in self.pieces:
            moved |= self.set_pose(piece, poses.get(piece))
        return moved

    def obstacles(self) -> list[tuple[Point3, float]]:
        """A bounding sphere per piece shown (what the camera must keep out of)."""
        spheres = []
        for piece, ((x, y, z), _) in self._poses.items():
            if piece == "base":
                radius = dim.BASE.radius
            elif level_of_floor(piece) is not None:
                radius = dim.FLOORS[level_of_floor(piece)].radius
            else:
                spec = dim.column_spec(piece)
                radius = math.hypot(spec.radius, spec.height / 2)
            spheres.append((Point3(x, y, z), radius))
        return spheres

    def show_glow(self, glow: dict[str, Vec3]) -> None:
        """These pieces glow (a colour added to their light), and no others; a piece's shader is told only when its
        glow changes."""
        for piece in set(self.glow) | set(glow):
            wanted = glow.get(piece, NO_GLOW)
            if self.glow.get(piece, NO_GLOW) != wanted:
                self.pieces[piece].setShaderInput("glow", wanted)
        self.glow = dict(glow)


def _caster(piece: str):
    """The shape casting a piece's shadow: its outline, with fewer corners where round."""
    if piece == "base":
        outline, half = meshes.circle(dim.BASE.radius, 48), dim.BASE.thickness / 2
    elif level_of_floor(piece) is not None:
        spec = dim.FLOORS[level_of_floor(piece)]
        outline, half = spec.outline[::2], spec.thickness / 2
    else:
        spec = dim.column_spec(piece)
        outline, half = spec.corners() or meshes.circle(spec.radius, 12), spec.height / 2
    return meshes.prism(f"{piece} shadow", outline, -half, half)


def _reach(node: NodePath) -> float:
    """How far from the table's centre a part of its top reaches."""
    low, high = node.getTightBounds()
    return max(abs(low.x), abs(low.y), abs(high.x), abs(high.y))


def _close(a: Pose, b: Pose, tolerance: float = 2e-3) -> bool:
    return all(abs(p - q) < tolerance for p, q in zip(a[0] + a[1], b[0] + b[1]))


BASE_POSE: Pose = ((0.0, 0.0, dim.BASE.thickness / 2), (1.0, 0.0, 0.0, 0.0))
