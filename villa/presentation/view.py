"""The villa on screen: the scene, its shadows and the camera, kept in step with the physics."""

from __future__ import annotations

from panda3d.core import PTA_LVecBase3f, BitMask32, CullBinEnums, CullBinManager, Point3

from villa.physics import dimensions as dim
from villa.presentation import shading
from villa.presentation.camera import OrbitCamera
from villa.presentation.scene import (MAIN_CAMERA_MASK, TABLE_CONTACT_SHADE, TABLE_LIGHT_REACH, TABLE_RADIUS,
                                      TABLE_WOOD_REPEAT, VillaScene, floor_id)
from villa.presentation.shadows import Shadows

BACKGROUND = (0.10, 0.085, 0.075, 1)
TABLE_BIN = "table"   # after the opaque pieces, before the see-through ghost and marks
SHADOW_SIZES = {"low": None, "medium": 512, "high": 1024}   # graphics quality -> the sun's shadow map


class VillaView:
    def __init__(self, stage) -> None:
        self.stage = stage
        stage.base.setBackgroundColor(*BACKGROUND)
        stage.cam.node().setCameraMask(MAIN_CAMERA_MASK)
        # Software rendering pays per pixel: draw near pieces first, and the table (most
        # of the screen) after them, so hidden pixels are rejected by the depth test unshaded;
        # but before anything see-through, which writes no depth the table would respect.
        bins = CullBinManager.getGlobalPtr()
        bins.setBinType("opaque", CullBinEnums.BT_front_to_back)
        if bins.findBin(TABLE_BIN) < 0:
            bins.addBin(TABLE_BIN, CullBinEnums.BT_unsorted, bins.getBinSort(bins.findBin("opaque")) + 1)
        self.scene = VillaScene(stage)
        self.scene.table.setBin(TABLE_BIN, 0)
        self.shadows = self._make_shadows(SHADOW_SIZES["medium"])
        self.camera = OrbitCamera(stage.camera, stage.cam.node().getLens(), self.scene.obstacles)
        # updated in place each frame: a new shader input every frame would mean a new render state
        self.camera_pos = PTA_LVecBase3f.emptyArray(1)
        self.scene.root.setShaderInput("camera_pos", self.camera_pos)
        self.top_level = 0
        self.shadow_size: int | None = SHADOW_SIZES["medium"]

    def _make_shadows(self, size: int | None) -> Shadows:
        shadows = Shadows(self.stage, self.scene.root, self.scene.table, self.scene.table_middle, TABLE_RADIUS,
                          TABLE_LIGHT_REACH, TABLE_WOOD_REPEAT, TABLE_CONTACT_SHADE, shading.SUN_DIRECTION,
                          size=size or SHADOW_SIZES["medium"])
        if size is None:   # no shadows: the sun's camera sees no piece, so its map says "lit" everywhere
            shadows.sun.camera.node().setCameraMask(BitMask32.allOff())
        return shadows

    def set_graphics_quality(self, quality: str) -> None:
        """The settings' graphics quality: the size of the sun's shadow map (low: no shadows)."""
        size = SHADOW_SIZES.get(quality, SHADOW_SIZES["medium"])
        if size != self.shadow_size:
            self.shadows.close()
            self.shadows = self._make_shadows(size)
            self.shadow_size = size

    def close(self) -> None:
        self.shadows.close()
        self.scene.root.removeNode()

    def show_poses(self, poses) -> bool:
        """Pose every piece; returns whether anything moved."""
        moved = self.scene.set_poses(poses)
        if moved:
            self.shadows.refresh()
        return moved

    def top_floor_centre(self) -> Point3:
        levels = [lv for lv in range(1, 6) if not self.scene.pieces[floor_id(lv)].isHidden()]
        if not levels:
            return Point3(0, 0, dim.BASE.top_z)
        return self.scene.pieces[floor_id(max(levels))].getPos(self.stage.render)

    def focus_top(self, snap: bool = False) -> None:
        centre = self.top_floor_centre()
        self.camera.focus(Point3(centre.x, centre.y, centre.z * 0.55), distance=78.0 + centre.z * 1.2)
        if snap:
            self.camera.snap()

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
