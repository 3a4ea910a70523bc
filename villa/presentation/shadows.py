"""The sun's shadow map and the table's light, drawn again only when something in the villa moved.

At rest the depth buffer keeps its last picture: a shadow nothing moved does not need
drawing again. The scene asks for a fresh one with `refresh()` whenever a pose
changes; the buffers are then active for that frame only (see `Shadows`).
"""

from __future__ import annotations

from panda3d.core import (BitMask32, Camera, ColorWriteAttrib, FrameBufferProperties, GraphicsOutput,
                          GraphicsPipe, LMatrix4f, NodePath, OrthographicLens, Point3, RenderState, SamplerState,
                          ShaderAttrib, Texture, TextureAttrib, Vec3, WindowProperties)

# Nodes hidden from this mask cast no shadow (the ghost, the table, markers).
SHADOW_CASTER_MASK = BitMask32.bit(3)


class SunShadow:
    def __init__(self, stage, sun_direction: Vec3, centre: Point3, extent: float = 64.0, depth: float = 200.0,
                 size: int = 512) -> None:
        self.size = size
        self.texture = Texture("sun shadow")
        self.texture.setMinfilter(SamplerState.FT_shadow)
        self.texture.setMagfilter(SamplerState.FT_shadow)
        self.texture.setWrapU(SamplerState.WM_border_color)
        self.texture.setWrapV(SamplerState.WM_border_color)
        self.texture.setBorderColor((1, 1, 1, 1))

        fb = FrameBufferProperties()
        fb.setDepthBits(24)
        fb.setRgbColor(False)
        self.buffer = stage.base.graphicsEngine.makeOutput(
            stage.win.getPipe(), "sun shadow", -10, fb, WindowProperties.size(size, size),
            GraphicsPipe.BF_refuse_window, stage.win.getGsg(), stage.win)
        if self.buffer is None:
            raise RuntimeError("the graphics driver cannot make an offscreen depth buffer for shadows")
        self.buffer.addRenderTexture(self.texture, GraphicsOutput.RTM_bind_or_copy, GraphicsOutput.RTP_depth)
        self.buffer.setClearDepthActive(True)
        self.buffer.setClearColorActive(False)

        lens = OrthographicLens()
        lens.setFilmSize(extent, extent)
        lens.setNearFar(1.0, depth)
        camera = Camera("sun", lens)
        camera.setCameraMask(SHADOW_CASTER_MASK)
        camera.setInitialState(RenderState.make(
            ColorWriteAttrib.make(ColorWriteAttrib.C_off),
            ShaderAttrib.makeOff(),
            TextureAttrib.makeAllOff(), 100))
        self.camera = stage.render.attachNewNode(camera)
        self.camera.setPos(centre + sun_direction * (depth / 2))
        self.camera.lookAt(centre)
        region = self.buffer.makeDisplayRegion()
        region.setCamera(self.camera)

        # world -> shadow-map texture coordinates and depth, all in 0..1
        to_film = LMatrix4f(self.camera.getMat(stage.render))
        to_film.invertInPlace()
        to_film *= lens.getProjectionMat()
        to_film *= LMatrix4f.scaleMat(0.5, 0.5, 0.5) * LMatrix4f.translateMat(0.5, 0.5, 0.5)
        self.matrix = to_film
        self.texel = 1.0 / size
        self.normal_offset = extent / size * 1.5
        self._frames_left = 2  # draw the first frames
        self.drawn_this_frame = False

    def bind(self, root: NodePath) -> None:
        root.setShaderInput("shadow_map", self.texture)
        root.setShaderInput("shadow_matrix", self.matrix)
        root.setShaderInput("shadow_texel", self.texel * 0.75)
        root.setShaderInput("shadow_normal_offset", self.normal_offset)

    def refresh(self) -> None:
        """Something moved: draw the shadow map with the next frame."""
        self._frames_left = max(self._frames_left, 1)

    def before_frame(self) -> None:
        """Call once per frame, after poses were updated and before the frame is drawn."""
        self.drawn_this_frame = self._frames_left > 0
        self.buffer.setActive(self.drawn_this_frame)
        self._frames_left = max(0, self._frames_left - 1)


def casts_shadow(node: NodePath, casts: bool = True) -> None:
    if casts:
        node.show(SHADOW_CASTER_MASK)
    else:
        node.hide(SHADOW_CASTER_MASK)


def _colour_buffer(stage, name: str, size: int, sort: int) -> tuple[GraphicsOutput, Texture]:
    texture = Texture(name)
    texture.setMinfilter(SamplerState.FT_linear)
    texture.setMagfilter(SamplerState.FT_linear)
    texture.setWrapU(SamplerState.WM_clamp)
    texture.setWrapV(SamplerState.WM_clamp)
    fb = FrameBufferProperties()
    fb.setRgbColor(True)
    fb.setRgbaBits(8, 8, 8, 0)
    fb.setDepthBits(0)
    buffer = stage.base.graphicsEngine.makeOutput(
        stage.win.getPipe(), name, sort, fb, WindowProperties.size(size, size),
        GraphicsPipe.BF_refuse_window, stage.win.getGsg(), stage.win)
    if buffer is None:
        raise RuntimeError(f"the graphics driver cannot make an offscreen buffer ({name})")
    buffer.addRenderTexture(texture, GraphicsOutput.RTM_bind_or_copy, GraphicsOutput.RTP_color)
    buffer.setClearColorActive(False)
    return buffer, texture


def _unmipped() -> SamplerState:
    """The wood as the table's moving shader reads it: from its finest level only, as the picture
    is read at rest. A software renderer pays per pixel for choosing a mipmap level, and near
    the villa, where that shader runs, the wood is seldom smaller on screen than in its texture."""
    sampler = SamplerState()
    sampler.setMinfilter(SamplerState.FT_linear)
    sampler.setMagfilter(SamplerState.FT_linear)
    return sampler


def _flat_view(name: str, extent: float, shader, region) -> NodePath:
    """A card of the table's top, 2·extent square, seen from straight above by its own camera."""
    from panda3d.core import CardMaker
    scene = NodePath(name)
    cards = CardMaker(name)
    cards.setFrame(-extent, extent, -extent, extent)
    card = scene.attachNewNode(cards.generate())
    card.setP(-90)  # lie flat, facing up
    card.setShader(shader)
    lens = OrthographicLens()
    lens.setFilmSize(2 * extent, 2 * extent)
    lens.setNearFar(1, 20)
    camera = scene.attachNewNode(Camera(f"{name} camera", lens))
    camera.setPos(0, 0, 10)
    camera.lookAt(0, 0, 0)
    region.setCamera(camera)
    return card


class TablePicture:
    """The table's light, and the lit table as one texture seen from above.

    - The shade: the light round the villa (`shade_extent`), a small texture of soft
      shadows, drawn with the shadow map.
    - The picture: the wood times that light, painted in the first frame after things
      stopped moving (first whole, later only its middle, where shadows can fall).
      At rest the table's shader needs just this one look-up per pixel; while
      something moves, the table's middle (`middle`, the part of its top reaching
      past the shade's corners) looks up the wood and the shade apiece instead of
      painting the picture every frame. Beyond it the light never changes: the
      picture stays right there.
    """

    def __init__(self, stage, shadow: SunShadow, table: NodePath, middle: NodePath, wood_repeat: float,
                 contact_shade: Vec3, extent: float, shade_extent: float, size: int = 1024,
                 shade_size: int = 256) -> None:
        from villa.presentation import shading
        self.shadow = shadow
        self.shade_buffer, shade = _colour_buffer(stage, "table shade", shade_size, -6)
        card = _flat_view("table shade", shade_extent, shading.table_shade_shader(),
                          self.shade_buffer.makeDisplayRegion())
        shading.set_light_rig(card)
        card.setShaderInput("table_open_light", shading.table_open_light())
        card.setShaderInput("contact_shade", contact_shade)
        shadow.bind(card)

        self.buffer, self.texture = _colour_buffer(stage, "table picture", size, -5)
        inner = shade_extent / extent
        self.whole = self.buffer.makeDisplayRegion()
        self.middle = self.buffer.makeDisplayRegion(0.5 - inner / 2, 0.5 + inner / 2, 0.5 - inner / 2, 0.5 + inner / 2)
        for region, reach in ((self.whole, extent), (self.middle, shade_extent)):
            card = _flat_view("table picture", reach, shading.table_picture_shader(), region)
            card.setShaderInput("wood", table.getTexture())
            card.setShaderInput("wood_repeat", wood_repeat)
            card.setShaderInput("table_shade", shade)
            card.setShaderInput("table_shade_extent", shade_extent)
        self.painted_whole = False
        self.picture_current = False

        self.table, self.table_middle = table, middle
        self.at_rest_shader = shading.table_shader()
        self.moving_shader = shading.table_moving_shader()
        table.setShaderInput("table_picture", self.texture)
        table.setShaderInput("table_picture_extent", extent)
        table.setShaderInput("table_shade", shade)
        table.setShaderInput("table_shade_extent", shade_extent)
        table.setShaderInput("table_wood", table.getTexture(), _unmipped())
        table.setShader(self.moving_shader)   # all of it, until the picture is first painted

    def before_frame(self) -> None:
        """After `SunShadow.before_frame`: the shade with the shadow map, the picture once all is still."""
        moving = self.shadow.drawn_this_frame
        self.shade_buffer.setActive(moving)
        paint = not moving and not self.picture_current
        self.buffer.setActive(paint)
        if moving:
            if self.picture_current:
                self.table_middle.setShader(self.moving_shader)
            self.picture_current = False
        elif paint:
            self.whole.setActive(not self.painted_whole)
            self.middle.setActive(self.painted_whole)
            self.painted_whole = True
            self.picture_current = True
            self.table.setShader(self.at_rest_shader)
            self.table_middle.clearShader()


class Shadows:
    """The sun's shadow map and the table's light map, drawn only in frames after something moved."""

    def __init__(self, stage, scene_root: NodePath, table: NodePath, table_middle: NodePath, table_radius: float,
                 light_reach: float, wood_repeat: float, contact_shade: Vec3, sun_direction: Vec3,
                 size: int = 512) -> None:
        self.sun = SunShadow(stage, sun_direction, Point3(0, 0, 14), size=size)
        self.sun.bind(scene_root)
        self.table = TablePicture(stage, self.sun, table, table_middle, wood_repeat, contact_shade,
                                  extent=table_radius, shade_extent=light_reach)

    def refresh(self) -> None:
        self.sun.refresh()

    def close(self) -> None:
        engine = self.sun.buffer.getEngine()
        for buffer in (self.table.buffer, self.table.shade_buffer, self.sun.buffer):
            engine.removeWindow(buffer)
        self.sun.camera.removeNode()

    def before_frame(self) -> None:
        self.sun.before_frame()
        self.table.before_frame()

    @property
    def drawn_this_frame(self) -> bool:
        return self.sun.drawn_this_frame
