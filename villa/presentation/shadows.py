"""The sun's shadow map and the table's light, drawn again only when something in the villa moved.

At rest the buffers keep their last pictures: a shadow nothing moved does not need
drawing again. The view asks for fresh ones with `refresh()` whenever a pose changes;
the buffers are then active for that frame only (see `Shadows`).
"""

from __future__ import annotations

from panda3d.core import (BitMask32, Camera, CardMaker, ColorWriteAttrib, CullFaceAttrib, DepthTestAttrib,
                          DepthWriteAttrib, FrameBufferProperties, GraphicsOutput, GraphicsPipe, LMatrix4f, NodePath,
                          OrthographicLens, Point3, RenderState, SamplerState, ShaderAttrib, Texture, TextureAttrib,
                          Vec3, WindowProperties)

from villa.presentation import shading

# Nodes hidden from these masks cast no shadow (the ghost, the table, markers): into the sun's
# map, and into Low's light map on the table (not the base plate: it lies on the table).
SHADOW_CASTER_MASK = BitMask32.bit(3)
TABLE_CASTER_MASK = BitMask32.bit(5)
SUN_CENTRE = Point3(0, 0, 18)   # the middle of what the sun's map covers: the villa up to five floors
SUN_EXTENT = 76.0               # cm across the sun's map
WOOD_PICTURE = 1024             # texels a side of the lit wood, one repeat of its texture
NEAR_PICTURE = 2048             # the lit table round the villa
WHOLE_PICTURE = 2048            # the whole lit table


class SunShadow:
    def __init__(self, stage, sun_direction: Vec3, centre: Point3, extent: float = SUN_EXTENT, depth: float = 200.0,
                 size: int = 1024) -> None:
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
        self.buffer = _offscreen(stage, "sun shadow", size, -10, fb, self.texture, GraphicsOutput.RTP_depth)
        if self.buffer is None:
            raise RuntimeError("the graphics driver cannot make an offscreen depth buffer for shadows")
        self.texture = self.buffer.getTexture()
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

    def bind(self, root: NodePath) -> None:
        root.setShaderInput("shadow_map", self.texture)
        root.setShaderInput("shadow_matrix", self.matrix)
        root.setShaderInput("shadow_texel", self.texel)
        root.setShaderInput("shadow_normal_offset", self.normal_offset)

    def close(self) -> None:
        _leave(self.buffer)
        self.camera.removeNode()


def casts_shadow(node: NodePath, casts: bool = True) -> None:
    if casts:
        node.show(SHADOW_CASTER_MASK | TABLE_CASTER_MASK)
    else:
        node.hide(SHADOW_CASTER_MASK | TABLE_CASTER_MASK)


def _cast_camera(stage, name: str, extent: float) -> NodePath:
    """A camera looking straight down on the table's light map, drawing every piece flattened along
    the sun's rays onto the table top, as shadow (into the red channel)."""
    lens = OrthographicLens()
    lens.setFilmSize(2 * extent, 2 * extent)
    lens.setNearFar(1, 400)
    camera = Camera(name, lens)
    camera.setCameraMask(TABLE_CASTER_MASK)
    shader = ShaderAttrib.make(shading.cast_shader(), 100)
    shader = shader.setShaderInput("cast_sun", shading.SUN_DIRECTION).setShaderInput("cast_level", 0.0)
    state = RenderState.make(shader, ColorWriteAttrib.make(ColorWriteAttrib.C_red),
                             DepthTestAttrib.make(DepthTestAttrib.M_none),
                             DepthWriteAttrib.make(DepthWriteAttrib.M_off), 100)
    camera.setInitialState(state.compose(RenderState.make(CullFaceAttrib.make(CullFaceAttrib.M_cull_none),
                                                          TextureAttrib.makeAllOff(), 100)))
    node = stage.render.attachNewNode(camera)
    node.setPos(0, 0, 200)
    node.lookAt(0, 0, 0)
    return node


def _colour_buffer(stage, name: str, size: int, sort: int, mipmaps: bool = False,
                   repeat: bool = False) -> tuple[GraphicsOutput, Texture]:
    """An offscreen colour buffer drawing into a texture; `mipmaps`: made anew after each drawing
    (one level per look-up: a software renderer pays twice for blending two; and reading a
    picture much finer than the screen without them costs more than choosing the level)."""
    texture = Texture(name)
    texture.setMinfilter(SamplerState.FT_linear_mipmap_nearest if mipmaps else SamplerState.FT_linear)
    texture.setMagfilter(SamplerState.FT_linear)
    wrap = SamplerState.WM_repeat if repeat else SamplerState.WM_clamp
    texture.setWrapU(wrap)
    texture.setWrapV(wrap)
    fb = FrameBufferProperties()
    fb.setRgbColor(True)
    fb.setRgbaBits(8, 8, 8, 0)
    fb.setDepthBits(0)
    buffer = _offscreen(stage, name, size, sort, fb, texture, GraphicsOutput.RTP_color)
    if buffer is None:
        raise RuntimeError(f"the graphics driver cannot make an offscreen buffer ({name})")
    buffer.setClearColorActive(False)
    return buffer, buffer.getTexture()


# The offscreen buffers a closed view of the villa left for the next one on the same window, by name and
# size: the table's pictures (two of them 2048 texels a side, 21 MB each with their mipmaps) are not made
# anew for every game, and a software renderer, which holds on to a deleted texture's memory for a while,
# does not hold a few games' worth of them at once (scripts/bench_memory.py).
_spare: dict[tuple[str, int], GraphicsOutput] = {}


def _offscreen(stage, name: str, size: int, sort: int, fb: FrameBufferProperties, texture: Texture,
               plane) -> GraphicsOutput | None:
    """A square offscreen buffer drawing into `texture` (or, left by the last view, into the texture it
    was made with), active, with no display region yet."""
    buffer = _spare.pop((name, size), None)
    if buffer is not None and buffer.isValid() and buffer.getGsg() == stage.win.getGsg():
        buffer.setActive(True)
        return buffer
    buffer = stage.base.graphicsEngine.makeOutput(
        stage.win.getPipe(), name, sort, fb, WindowProperties.size(size, size),
        GraphicsPipe.BF_refuse_window, stage.win.getGsg(), stage.win)
    if buffer is not None:
        buffer.addRenderTexture(texture, GraphicsOutput.RTM_bind_or_copy, plane)
    return buffer


def _leave(buffer: GraphicsOutput) -> None:
    """Keep the buffer, idle and with no display region, for the next view on this window."""
    buffer.setActive(False)
    buffer.removeAllDisplayRegions()
    key = (buffer.getName(), buffer.getXSize())
    if key in _spare:   # (one of each is enough)
        buffer.getEngine().removeWindow(buffer)
        return
    _spare[key] = buffer


def _let_go_of_spares() -> None:
    """The buffers no view took up (the graphics quality changed): given back to the driver."""
    while _spare:
        _key, buffer = _spare.popitem()
        if buffer.isValid():
            buffer.getEngine().removeWindow(buffer)


def _unmipped() -> SamplerState:
    """The wood as the table's moving shader reads it: from its finest level only, as the picture
    is read at rest. A software renderer pays per pixel for choosing a mipmap level, and near
    the villa, where that shader runs, the wood is seldom smaller on screen than in its texture."""
    sampler = SamplerState()
    sampler.setMinfilter(SamplerState.FT_linear)
    sampler.setMagfilter(SamplerState.FT_linear)
    return sampler


def _flat_view(name: str, x: float, y: float, half: float, shader, region) -> NodePath:
    """A card of the table's top, the square `half` each way round (x, y), seen from straight above
    by its own camera into `region`."""
    scene = NodePath(name)
    cards = CardMaker(name)
    cards.setFrame(x - half, x + half, y - half, y + half)
    cards.setUvRange((0, 0), (1, 1))
    card = scene.attachNewNode(cards.generate())
    card.setP(-90)  # lie flat, facing up: the card's (x, z) becomes the table's (x, y)
    card.setShader(shader)
    lens = OrthographicLens()
    lens.setFilmSize(2 * half, 2 * half)
    lens.setNearFar(1, 20)
    camera = scene.attachNewNode(Camera(f"{name} camera", lens))
    camera.setPos(x, y, 10)
    camera.lookAt(x, y, 0)
    region.setCamera(camera)
    return card


class TablePicture:
    """The table's light, and the lit table as pictures seen from above.

    - The lit wood: one repeat of the table's wood with its relief lit, painted once.
    - The shade: the sun's share round the villa (`shade_extent`), a small texture of soft
      shadows, drawn when something moved: through the sun's shadow map, or (Low, no map) by
      drawing the pieces flattened along the sun's rays onto the table.
    - The pictures: the lit wood times that light, painted once things stopped moving: the
      whole table once, coarsely; round the villa finely, a quarter per frame. At rest the
      table's shader needs just one look-up per pixel; while something moves, the table's
      middle (the part of its top reaching past the shade's corners) looks up the wood and
      the shade apiece instead. Beyond it the light never changes.
    """

    def __init__(self, stage, scene, sun: SunShadow | None, shade_size: int, shade_extent: float,
                 contact_shade: Vec3) -> None:
        self.table, self.table_middle = scene.table, scene.table_middle
        extent, near_extent, repeat = scene.table_radius, scene.table_middle_reach, scene.table_wood_repeat

        # the lit wood, once
        self.wood_buffer, self.lit_wood = _colour_buffer(stage, "lit wood", WOOD_PICTURE, -8, mipmaps=True,
                                                           repeat=True)
        card = _flat_view("lit wood", 0.5, 0.5, 0.5, shading.lit_wood_shader(), self.wood_buffer.makeDisplayRegion())
        self.wood_card = card
        shading.set_light_rig(card)
        card.setShaderInput("wood", scene.table_wood)
        card.setShaderInput("wood_normals", scene.table_wood_normals)
        self.wood_painted = False

        # the sun's share on the table round the villa, in red
        self.shade_buffer, shade = _colour_buffer(stage, "table shade", shade_size, -6)
        self.cameras: list[NodePath] = []
        if sun is not None:
            card = _flat_view("table shade", 0, 0, shade_extent, shading.table_shade_shader(),
                              self.shade_buffer.makeDisplayRegion())
            sun.bind(card)
            card.setShaderInput("shadow_texel", 1.0 / sun.size)
            self.buffers = [self.shade_buffer]
        else:   # drawn hard, twice as fine, then softened
            hard_buffer, hard = _colour_buffer(stage, "hard table shade", 2 * shade_size, -7)
            hard_buffer.setClearColorActive(True)
            hard_buffer.setClearColor((1, 1, 1, 1))
            camera = _cast_camera(stage, "table shade", shade_extent)
            hard_buffer.makeDisplayRegion().setCamera(camera)
            self.cameras.append(camera)
            card = _flat_view("table shade", 0, 0, shade_extent, shading.soften_shader(),
                              self.shade_buffer.makeDisplayRegion())
            card.setShaderInput("hard_shade", hard)
            card.setShaderInput("hard_texel", 1.0 / (2 * shade_size))
            self.buffers = [hard_buffer, self.shade_buffer]

        # the pictures of the lit table
        self.whole_buffer, self.whole = _colour_buffer(stage, "whole table", WHOLE_PICTURE, -5, mipmaps=True)
        self._picture_cards(self.whole_buffer.makeDisplayRegion(), 0, 0, extent, shade, shade_extent, repeat,
                            contact_shade)
        self.near_buffer, self.near = _colour_buffer(stage, "table round the villa", NEAR_PICTURE, -4,
                                                       mipmaps=True)
        self.quarters = []
        for i, (qx, qy) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
            left, bottom = (qx + 1) / 4, (qy + 1) / 4
            region = self.near_buffer.makeDisplayRegion(left, left + 0.5, bottom, bottom + 0.5)
            self._picture_cards(region, qx * near_extent / 2, qy * near_extent / 2, near_extent / 2, shade,
                                shade_extent, repeat, contact_shade)
            region.setActive(False)
            self.quarters.append(region)
        self.whole_painted = False
        self.quarters_left: list = []
        self.picture_current = False

        self.at_rest_shader = shading.table_shader()
        self.moving_shader = shading.table_moving_shader()
        self.table.setShaderInput("lit_wood", self.lit_wood, _unmipped())
        self.table.setShaderInput("wood_repeat", repeat)
        _light_inputs(self.table, shade, shade_extent, contact_shade)
        self.table.setShaderInput("table_picture", self.whole)
        self.table.setShaderInput("table_picture_extent", extent)
        self.table_middle.setShaderInput("table_picture", self.near)
        self.table_middle.setShaderInput("table_picture_extent", near_extent)
        self.table.setShader(self.moving_shader)   # all of it, until the pictures are first painted
        self.table_middle.clearShader()
        self.shade_buffers = list(self.buffers)
        self.buffers += [self.wood_buffer, self.whole_buffer, self.near_buffer]

    def paint_wood(self, wood: Texture, normals: Texture) -> None:
        """Paint the table with this wood instead (a clip's table, out of focus), from the next frame on."""
        self.wood_card.setShaderInput("wood", wood)
        self.wood_card.setShaderInput("wood_normals", normals)
        self.wood_painted = self.whole_painted = self.picture_current = False

    def _picture_cards(self, region, x, y, half, shade, shade_extent, repeat, contact_shade) -> None:
        card = _flat_view("table picture", x, y, half, shading.table_picture_shader(), region)
        card.setShaderInput("lit_wood", self.lit_wood)
        card.setShaderInput("wood_repeat", repeat)
        _light_inputs(card, shade, shade_extent, contact_shade)

    def before_frame(self, moving: bool) -> None:
        """`moving`: something moved, the light is drawn again this frame."""
        self.wood_buffer.setActive(not self.wood_painted)
        first = not self.wood_painted
        self.wood_painted = True
        for buffer in self.shade_buffers:
            buffer.setActive(moving or first)
        self.whole_buffer.setActive(False)
        self.near_buffer.setActive(False)
        if moving or first:
            if self.picture_current:
                self.table_middle.setShader(self.moving_shader)
            self.picture_current = False
            self.quarters_left = list(self.quarters)
            return
        if self.picture_current:
            return
        if not self.whole_painted:
            self.whole_buffer.setActive(True)
            self.whole_painted = True
            return
        # a quarter of the picture round the villa per frame: no long frame when the villa comes to rest
        for region in self.quarters:
            region.setActive(False)
        region = self.quarters_left.pop(0)
        region.setActive(True)
        self.near_buffer.setActive(True)
        if not self.quarters_left:
            self.picture_current = True

    def after_painting(self) -> None:
        """Once the last quarter is painted (the frame after): the table reads its pictures."""
        self.table.setShader(self.at_rest_shader)
        self.table_middle.clearShader()

    def close(self) -> None:
        for buffer in self.buffers:
            _leave(buffer)
        for camera in self.cameras:
            camera.removeNode()


def _light_inputs(node: NodePath, shade: Texture, shade_extent: float, contact_shade: Vec3) -> None:
    """What a shader needs to light the table from its light map (see shading._TABLE_LIGHT)."""
    shading.set_light_rig(node)
    node.setShaderInput("table_shade", shade)
    node.setShaderInput("table_shade_extent", shade_extent)
    node.setShaderInput("table_open_light", shading.table_open_light())
    node.setShaderInput("contact_shade", contact_shade)
    node.setShaderInput("table_falloff", shading.TABLE_FALLOFF)


class Shadows:
    """The sun's shadow map (if the graphics quality has one) and the table's light, drawn only in
    frames after something moved."""

    def __init__(self, stage, scene, preset, contact_shade: Vec3, shade_extent: float) -> None:
        self.sun = None
        if preset.shadow_map:
            self.sun = SunShadow(stage, shading.SUN_DIRECTION, SUN_CENTRE, size=preset.shadow_map)
            self.sun.bind(scene.root)
        self.table = TablePicture(stage, scene, self.sun, preset.table_light, shade_extent, contact_shade)
        _let_go_of_spares()
        self._frames_left = 2  # draw the first frames
        self.drawn_this_frame = False
        self._switch_pending = False

    def refresh(self) -> None:
        """Something moved: draw the shadows with the next frame."""
        self._frames_left = max(self._frames_left, 1)

    def before_frame(self) -> None:
        """Call once per frame, after poses were updated and before the frame is drawn."""
        if self._switch_pending:
            self.table.after_painting()
            self._switch_pending = False
        self.drawn_this_frame = self._frames_left > 0
        self._frames_left = max(0, self._frames_left - 1)
        if self.sun is not None:
            self.sun.buffer.setActive(self.drawn_this_frame)
        was_current = self.table.picture_current
        self.table.before_frame(self.drawn_this_frame)
        self._switch_pending = self.table.picture_current and not was_current

    def close(self) -> None:
        self.table.close()
        if self.sun is not None:
            self.sun.close()
