"""The villa's pieces on the table: base plate, five floors, twenty columns, each a node named by piece id."""

from __future__ import annotations

import math

from panda3d.core import BitMask32, NodePath, Point3, Quat, SamplerState, Vec3, Vec4

from villa.physics import dimensions as dim
from villa.presentation import meshes, shading
from villa.presentation.shadows import casts_shadow
from villa.rules.pieces import ALL_COLUMNS, FLOOR_COLOURS

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]  # (x, y, z), (w, x, y, z)

PIECE_TAG = "piece"                  # every piece's node carries its id under this tag
PICK_MASK = BitMask32.bit(4)         # what the mouse ray can hit
MAIN_CAMERA_MASK = BitMask32.bit(0)

TABLE_RADIUS = 100.0
TABLE_THICKNESS = 3.0
TABLE_CHAMFER = 0.6
TABLE_WOOD_REPEAT = 70.0  # cm of table per repeat of its wood texture
TABLE_LIGHT_REACH = 50.0  # cm each way from the centre: the square where the villa's shadows fall

# Stains for the floors, multiplied with light plywood.
FLOOR_TINTS = {
    "blue": Vec4(0.36, 0.56, 1.00, 1),
    "green": Vec4(0.46, 0.82, 0.42, 1),
    "yellow": Vec4(1.00, 0.88, 0.40, 1),
    "orange": Vec4(1.00, 0.60, 0.26, 1),
    "red": Vec4(0.98, 0.32, 0.26, 1),
}
TABLE_CONTACT_SHADE = Vec3(0.45, dim.BASE.radius - 1.0, dim.BASE.radius + 9.0)  # (strength, from, to radius)
BORDER_TINT = Vec4(0.62, 0.50, 0.42, 1)  # the base plate's no-build ring, stained darker


def floor_id(level: int) -> str:
    return f"floor-{level}"


def level_of_floor(piece: str) -> int | None:
    return int(piece.split("-")[1]) if piece.startswith("floor-") else None


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

        table_wood = meshes.PlanarUV(TABLE_WOOD_REPEAT)
        self.table = self.root.attachNewNode(meshes.extrusion(
            "table", meshes.circle(TABLE_RADIUS, 128), -TABLE_THICKNESS, 0.0, chamfer=TABLE_CHAMFER,
            uv=table_wood, bottom=False, top=False))
        # its top in two parts: the middle, round the shadows' square, and the rim
        middle, rim = meshes.disc_parts("table top", TABLE_RADIUS - TABLE_CHAMFER, 128, 0.0, table_wood,
                                        middle=TABLE_LIGHT_REACH * math.sqrt(2))
        self.table.attachNewNode(rim)
        self.table_middle = self.table.attachNewNode(middle)
        self.table.setTexture(_texture(loader, "wood_table.jpg"))
        casts_shadow(self.table, False)

        base = self._add("base", meshes.extrusion(
            "base", meshes.circle(dim.BASE.radius, 96), -dim.BASE.thickness / 2, dim.BASE.thickness / 2,
            chamfer=0.25, uv=meshes.PlanarUV(30.0)), _texture(loader, "wood_base.jpg"))
        border = base.attachNewNode(meshes.annulus(
            "border", dim.BASE.site_radius, dim.BASE.radius - 0.25, dim.BASE.thickness / 2 + 0.01, repeat=30.0))
        border.setShaderInput("tint", BORDER_TINT)
        line = base.attachNewNode(meshes.annulus(
            "site line", dim.BASE.site_radius - 0.12, dim.BASE.site_radius, dim.BASE.thickness / 2 + 0.015))
        line.setShaderInput("tint", Vec4(0.35, 0.22, 0.14, 1))

        floor_wood = _texture(loader, "wood_floor.jpg")
        for level, spec in dim.FLOORS.items():
            node = self._add(floor_id(level), meshes.extrusion(
                floor_id(level), spec.outline, -spec.thickness / 2, spec.thickness / 2, chamfer=0.12,
                uv=meshes.PlanarUV(22.0)), floor_wood)
            node.setShaderInput("tint", FLOOR_TINTS[spec.colour])

        column_meshes = {}
        for kind, spec in dim.COLUMNS.items():
            outline = list(spec.corners()) if spec.sides else meshes.circle(spec.radius, 20 if kind == "thin" else 36)
            column_meshes[kind] = meshes.extrusion(
                kind, outline, -spec.height / 2, spec.height / 2, chamfer=0.09,
                smooth=not spec.sides, uv=meshes.ColumnUV())
        column_textures = {colour: _texture(loader, f"column_{colour}.jpg")
                           for colour in ("blue", "red", "yellow", "green")}
        for column in ALL_COLUMNS:
            node = self._add(column.id, column_meshes[column.kind.value].makeCopy(), column_textures[column.colour.value])
            node.hide()

        for level in range(1, len(FLOOR_COLOURS) + 1):
            self.pieces[floor_id(level)].hide()
        self.set_pose("base", BASE_POSE)

    def _add(self, piece: str, geom_node, texture) -> NodePath:
        node = self.root.attachNewNode(geom_node)
        node.setName(piece)
        node.setTexture(texture)
        node.setTag(PIECE_TAG, piece)
        node.setCollideMask(PICK_MASK)
        casts_shadow(node, True)
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
        return True

    def set_poses(self, poses: dict[str, Pose]) -> bool:
        """Every piece at once: those missing from `poses` are not in the villa. Returns whether any moved."""
        moved = False
        for piece in self.pieces:
            moved |= self.set_pose(piece, poses.get(piece))
        return moved

    def show_layout(self, layout: dim.Layout) -> None:
        """Stand the pieces exactly where a layout puts them (no physics: for previews)."""
        shown = set()
        for spot in layout.columns:
            spec = dim.column_spec(spot.column)
            self.set_pose(spot.column, _pose(spot.x, spot.y, dim.surface_z(spot.level) + spec.height / 2, spot.yaw))
            shown.add(spot.column)
        for spot in layout.floors:
            spec = dim.FLOORS[spot.level]
            self.set_pose(floor_id(spot.level),
                          _pose(spot.x, spot.y, dim.surface_z(spot.level) - spec.thickness / 2, spot.yaw))
            shown.add(floor_id(spot.level))
        for piece in self.pieces:
            if piece not in shown:
                self.set_pose(piece, BASE_POSE if piece == "base" else None)

    def obstacles(self) -> list[tuple[Point3, float]]:
        """A bounding sphere per piece shown (what the camera must keep out of)."""
        spheres = []
        for piece, ((x, y, z), _) in self._poses.items():
            if piece == "base":
                radius = dim.BASE.radius
            elif piece.startswith("floor-"):
                radius = dim.FLOORS[level_of_floor(piece)].radius
            else:
                spec = dim.column_spec(piece)
                radius = math.hypot(spec.radius, spec.height / 2)
            spheres.append((Point3(x, y, z), radius))
        return spheres


def _close(a: Pose, b: Pose, tolerance: float = 2e-3) -> bool:
    return all(abs(p - q) < tolerance for p, q in zip(a[0] + a[1], b[0] + b[1]))


def _pose(x: float, y: float, z: float, yaw_degrees: float) -> Pose:
    half = math.radians(yaw_degrees) / 2
    return (x, y, z), (math.cos(half), 0.0, 0.0, math.sin(half))


BASE_POSE: Pose = ((0.0, 0.0, dim.BASE.thickness / 2), (1.0, 0.0, 0.0, 0.0))
