"""The villa on screen: the scene, its light and the camera, kept in step with the physics."""

from __future__ import annotations

from collections.abc import Mapping

from panda3d.core import PTA_LVecBase3f, CullBinEnums, CullBinManager, NodePath, Point3

from villa.physics import dimensions as dim
from villa.presentation import meshes, quality, shading
from villa.presentation.camera import OrbitCamera
from villa.presentation.multisample import Multisampling
from villa.presentation.occlusion import Occluders
from villa.presentation.contact import CONTACT_BIN
from villa.presentation.scene import MAIN_CAMERA_MASK, TABLE_CONTACT_SHADE, TABLE_LIGHT_REACH, VillaScene
from villa.presentation.shadows import Shadows
from villa.rules.pieces import floor_id, level_of_floor

BACKGROUND = (0.10, 0.085, 0.075, 1)
TABLE_BIN = "table"   # after the opaque pieces, before the see-through ghost and marks
VILLA_SHARE = 0.6     # how much of the view's height the villa fills at the start of a turn
PLAY_PITCH = 24.0     # degrees above the horizon the view looks down from at the start of a turn
HUD_CLEAR = 0.03      # kept between the piece in hand and the HUD (of the window's half height), as the view glides


def villa_points(root, pieces: Mapping[str, NodePath]) -> list[Point3]:
    """Points round the villa standing, in `root`'s frame, what the turn's view frames: the base plate's rim, each
    floor's outline, each column's ends (pieces fallen far from the base plate are not the villa)."""
    points = [Point3(x, y, z) for x, y in meshes.circle(dim.BASE.radius, 24) for z in (0.0, dim.BASE.top_z)]
    for piece, node in pieces.items():
        if piece in ("base", "table") or node.getPos(root).getXy().length() > dim.BASE.radius + 10:
            continue
        level = level_of_floor(piece)
        if level is not None:
            spec = dim.FLOORS[level]
            points += [root.getRelativePoint(node, Point3(x, y, z)) for x, y in spec.outline[::3]
                       for z in (-spec.thickness / 2, spec.thickness / 2)]
        else:
            spec = dim.column_spec(piece)
            points += [root.getRelativePoint(node, Point3(x, y, z)) for x, y in meshes.circle(spec.radius, 4)
                       for z in (-spec.height / 2, spec.height / 2)]
    return points


class VillaView:
    """`quality_setting`: the settings' graphics quality ("auto": the game chooses, Low on a
    software renderer; see set_graphics_quality); by default the stage's, so the view is drawn
    at the chosen quality from its first frame and its shadow buffers are made once."""

    def __init__(self, stage, quality_setting: str | None = None) -> None:
        self.stage = stage
        stage.base.setBackgroundColor(*BACKGROUND)
        stage.cam.node().setCameraMask(MAIN_CAMERA_MASK)
        # Software rendering pays per pixel: draw near pieces first, and the table (most
        # of the screen) after them, so hidden pixels are rejected by the depth test unshaded;
        # then the shade round the columns' feet (multiplied into what is drawn), but before
        # anything see-through, which writes no depth the table would respect.
        bins = CullBinManager.getGlobalPtr()
        bins.setBinType("opaque", CullBinEnums.BT_front_to_back)
        opaque = bins.getBinSort(bins.findBin("opaque"))
        if bins.findBin(TABLE_BIN) < 0:
            bins.addBin(TABLE_BIN, CullBinEnums.BT_unsorted, opaque + 1)
        if bins.findBin(CONTACT_BIN) < 0:
            bins.addBin(CONTACT_BIN, CullBinEnums.BT_unsorted, opaque + 2)
        self.scene = VillaScene(stage)
        self.scene.table.setBin(TABLE_BIN, 0)
        self.occluders = Occluders()
        self.occluders.bind(self.scene.root)
        self.camera = OrbitCamera(stage.camera, stage.cam.node().getLens(), self.scene.obstacles)
        self.camera.goal.pitch = self.camera.view.pitch = PLAY_PITCH
        # updated in place each frame: a new shader input every frame would mean a new render state
        self.camera_pos = PTA_LVecBase3f.emptyArray(1)
        self.scene.root.setShaderInput("camera_pos", self.camera_pos)
        self.top_level = 0
        self._kept_clear = False            # the view moved to keep the piece in hand in sight (`keep_clear`)
        self._rims: tuple = ((), [])        # the floors' rims kept in sight, and where the floors were
        self.renderer = quality.renderer_of(stage)
        self.quality: str | None = None     # the preset drawn: "low", "medium" or "high"
        self.occlusion = False
        self.shadows: Shadows | None = None
        self.multisampling: Multisampling | None = None
        self.moving = True                  # the pieces or the camera moved this frame: the picture changes
        self._moved = True
        self._stop_moving = stage.moves_while(lambda: self.moving)
        self.set_graphics_quality(quality_setting or stage.graphics_quality)

    # --- graphics quality ---

    @property
    def software_renderer(self) -> bool:
        return quality.is_software(self.renderer)

    @property
    def shadow_size(self) -> int | None:
        """The sun's shadow map, texels a side (None: no shadow map)."""
        return quality.PRESETS[self.quality].shadow_map

    def set_graphics_quality(self, setting: str) -> None:
        """The settings' graphics quality: "low", "medium", "high", or "auto" (Low on a software
        renderer, Medium otherwise)."""
        name = quality.resolve(setting, self.renderer)
        if name == self.quality:
            return
        preset = quality.PRESETS[name]
        if self.shadows is not None:
            self.shadows.close()
        root = self.scene.root
        root.setShader(shading.piece_shader(preset))
        base = self.scene.pieces["base"]
        if preset.per_pixel:
            base.clearShader()
        else:
            base.setShader(shading.receiver_shader())
        self.scene.show_contact_rings(preset.contact_rings)
        self.shadows = Shadows(self.stage, self.scene, preset, TABLE_CONTACT_SHADE, TABLE_LIGHT_REACH)
        base.setShaderInput("table_shade", self.shadows.table.shade_buffer.getTexture())
        root.setShaderInput("table_shade_extent", TABLE_LIGHT_REACH)
        if self.multisampling is not None:
            self.multisampling.close()
            self.multisampling = None
        if preset.multisamples:
            self.multisampling = Multisampling.start(self.stage, preset.multisamples)
        self.quality = name
        self.occlusion = preset.occlusion
        self.occluders.update(self.scene.pieces, self.stage.render)

    def close(self) -> None:
        self._stop_moving()
        if self.multisampling is not None:
            self.multisampling.close()
            self.multisampling = None
        self.shadows.close()
        self.scene.root.removeNode()

    # --- the pieces ---

    def show_poses(self, poses) -> bool:
        """Pose every piece; returns whether anything moved."""
        moved = self.scene.set_poses(poses)
        self._moved |= moved
        if moved:
            if self.occlusion:
                self.occluders.update(self.scene.pieces, self.stage.render)
            self.shadows.refresh()
        return moved

    # --- framing ---

    def villa_points(self) -> list[Point3]:
        """Points round the villa standing, as drawn (see `villa_points`)."""
        return villa_points(self.stage.render, {piece: node for piece, node in self.scene.pieces.items()
                                                if not node.isHidden()})

    def focus_top(self, snap: bool = False) -> None:
        """Glide to the start of a turn's view: the villa filling about 60 % of the view's height,
        seen from slightly above."""
        self.camera.goal.pitch = PLAY_PITCH
        self.camera.frame(self.villa_points(), VILLA_SHARE)
        if snap:
            self.camera.snap()

    def look_down(self, level: int) -> None:
        """T: swing to look straight down on the floor of `level` (the top one laid; 0: the base
        plate), and back."""
        middle = Point3(0, 0, dim.BASE.top_z) if level == 0 else self.scene.pieces[floor_id(level)].getPos()
        self.camera.look_down(middle)

    def keep_in_view(self, *points: Point3) -> None:
        """Call each frame with what must stay on screen besides the top floor (the column in hand,
        `node.getPos(render)`): the view draws back just enough to keep it and the top floor there."""
        self.camera.keep_in_view([*points, *self.top_floor_rim()])

    def keep_clear(self, carried: tuple[float, bool] | None, level: int, held: set[str], low: float, boxes) -> None:
        """Call each frame with how high the column in hand reaches and whether the view may jump there (None: none
        is carried), the level it is carried over and the pieces in hand: a column carried high anywhere over that
        floor stays in sight, above the HUD's bottom (`low`) and clear of what the HUD covers along the top
        (`boxes`, `Hud.top_boxes`), the view sliding the villa down into the free table and drawing back only as far
        as it must; once none is carried, the view glides back to the turn's. The floor's rim at that height is kept
        in, not the column where the pointer has it: a view that moved for the column itself would carry it, under a
        pointer held still, further off."""
        if carried is None:
            if self._kept_clear:
                self._kept_clear = False
                self.focus_top()
            return
        top, jump = carried
        floor = self.scene.pieces.get(floor_id(level)) if level else None
        if floor is not None and not floor.isHidden():
            rim = [self.stage.render.getRelativePoint(floor, Point3(x, y, 0))
                   for x, y in dim.FLOORS[level].outline[::6]]
        else:
            rim = [Point3(x, y, 0) for x, y in meshes.circle(dim.BASE.radius, 12)]
        standing = self._floors_rims(held)
        if self.camera.keep_between([*standing, *(Point3(p.x, p.y, top) for p in rim)], low + HUD_CLEAR,
                                    [(left - HUD_CLEAR, bottom - HUD_CLEAR, right + HUD_CLEAR, top_ + HUD_CLEAR)
                                     for left, bottom, right, top_ in boxes]):
            self._kept_clear = True
            if jump:
                self.camera.snap()

    def _floors_rims(self, held: set[str]) -> list[Point3]:
        """The base plate's rim and each laid floor's (not one in hand), worked out again only as they move: what of
        the villa must stay in sight while a piece is carried (the columns stand within them)."""
        floors = {piece: node for piece, node in self.scene.pieces.items()
                  if level_of_floor(piece) is not None and not node.isHidden() and piece not in held}
        key = tuple(sorted((piece, tuple(round(v, 1) for v in node.getPos())) for piece, node in floors.items()))
        if key != self._rims[0]:
            points = [Point3(x, y, z) for x, y in meshes.circle(dim.BASE.radius, 16) for z in (0.0, dim.BASE.top_z)]
            for piece, node in floors.items():
                points += [self.stage.render.getRelativePoint(node, Point3(x, y, 0))
                           for x, y in dim.FLOORS[level_of_floor(piece)].outline[::6]]
            self._rims = (key, points)
        return self._rims[1]

    def top_floor_rim(self) -> list[Point3]:
        """A few points round the top floor's rim (none before the blue floor is laid)."""
        levels = [lv for lv in range(1, 6) if not self.scene.pieces[floor_id(lv)].isHidden()]
        if not levels:
            return []
        top = max(levels)
        node = self.scene.pieces[floor_id(top)]
        return [self.stage.render.getRelativePoint(node, Point3(x, y, 0)) for x, y in dim.FLOORS[top].outline[::9]]

    def focus_all(self) -> None:
        """Glide to take in the pieces near the base plate (after a collapse they are all over the table;
        a column that rolled far away is let go)."""
        spheres = [(p, r) for p, r in self.scene.obstacles() if p.getXy().length() < 60.0]
        centre = Point3(0, 0, 0)
        for position, _ in spheres:
            centre += position
        centre /= max(1, len(spheres))
        reach = max(((p - centre).length() + r for p, r in spheres), default=30.0)
        self.camera.focus(Point3(centre.x, centre.y, max(centre.z, 3.0)), distance=reach * 2.6)

    def before_frame(self, dt: float) -> None:
        """Once a frame, after the poses: glide the camera, ready the shadows."""
        levels = [lv for lv in range(1, 6) if not self.scene.pieces[floor_id(lv)].isHidden()]
        top = max(levels, default=0)
        if top != self.top_level:
            self.top_level = top
            self.focus_top()
        self.camera.update(dt)
        self.camera_pos[0] = self.camera.position
        self.shadows.before_frame()
        self.moving, self._moved = self._moved or self.camera.gliding, False
