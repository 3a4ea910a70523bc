"""The shaders: one for every piece (textured wood, sun with shadow, sky light, a fill light),
and the table's, which reads its light from textures painted only when something moved.

Written for OpenGL 3.2 GLSL so they also run on software renderers (Mesa llvmpipe),
where every instruction is paid per pixel: lighting is worked out per vertex.
Per-node inputs of the pieces' shader:
- `tint` (rgba): multiplies the texture (a floor's stain; alpha for the ghost).
- `glow` (rgb): added light (highlighting a column the player may take).
"""

from __future__ import annotations

from panda3d.core import Shader, Vec3, Vec4

VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
uniform mat4 shadow_matrix;
uniform float shadow_normal_offset;
uniform vec3 camera_pos;
uniform vec3 sun_dir;
uniform vec3 sun_colour;
uniform vec3 fill_dir;
uniform vec3 fill_colour;
uniform vec3 sky_colour;
uniform vec3 ground_colour;
in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec2 p3d_MultiTexCoord0;
out vec3 world_pos;
out vec2 uv;
out vec3 shadow_coord;  // the sun's lens is orthographic: no division per pixel
out vec3 ambient;       // sky, fill and rim: light that no shadow reaches
out float sunlight;     // how much of the sun's colour it adds where not shadowed (diffuse and sheen)

// Lighting is worked out per vertex (the pieces are flat faces and finely divided
// curves); a pixel only looks up its texture and its shadow: software renderers
// pay for every instruction per pixel.
void main() {
    vec4 wp = p3d_ModelMatrix * p3d_Vertex;
    vec3 n = normalize(mat3(p3d_ModelMatrix) * p3d_Normal);
    world_pos = wp.xyz;
    uv = p3d_MultiTexCoord0;
    // offset along the normal: no shadow acne on surfaces lit at a grazing angle
    shadow_coord = (shadow_matrix * vec4(wp.xyz + n * shadow_normal_offset, 1.0)).xyz;

    vec3 view = normalize(camera_pos - wp.xyz);
    float ndl = max(dot(n, sun_dir), 0.0);
    // a varnished sheen, tinted by the wood it lies on
    float sheen = pow(max(dot(n, normalize(sun_dir + view)), 0.0), 24.0) * 0.8 * step(0.0, dot(n, sun_dir));
    float rim = pow(1.0 - max(dot(n, view), 0.0), 3.0) * 0.10;
    ambient = mix(ground_colour, sky_colour, 0.5 + 0.5 * n.z) + fill_colour * max(dot(n, fill_dir), 0.0)
              + sky_colour * rim;
    sunlight = ndl + sheen;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

FRAGMENT = """
#version 150
uniform sampler2D p3d_Texture0;
uniform sampler2DShadow shadow_map;
uniform vec4 p3d_ColorScale;
uniform vec4 tint;
uniform vec3 glow;
uniform vec3 sun_colour;
in vec2 uv;
in vec3 shadow_coord;
in vec3 ambient;
in float sunlight;
out vec4 frag_colour;

void main() {
    vec3 albedo = texture(p3d_Texture0, uv).rgb * tint.rgb;
    float lit = texture(shadow_map, shadow_coord);  // one bilinear comparison: 2x2 filtered
    vec3 colour = albedo * (ambient + sun_colour * (sunlight * lit)) + glow;
    frag_colour = vec4(colour, tint.a) * p3d_ColorScale;
}
"""

TABLE_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
uniform float table_picture_extent;
in vec4 p3d_Vertex;
in vec2 p3d_MultiTexCoord0;
out vec2 uv;
out vec2 picture_uv;

void main() {
    uv = p3d_MultiTexCoord0;
    picture_uv = (p3d_ModelMatrix * p3d_Vertex).xy / (2.0 * table_picture_extent) + 0.5;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

# The table is most of the screen, and a software renderer pays for every texture
# look-up there. At rest the table is read from one picture of the lit wood, painted
# once the villa stops moving (see shadows.TablePicture); while something moves, the
# wood and its light are looked up apiece.
TABLE_FRAGMENT = """
#version 150
uniform sampler2D table_picture;
in vec2 picture_uv;
out vec4 frag_colour;

void main() {
    frag_colour = vec4(texture(table_picture, picture_uv).rgb, 1.0);
}
"""

TABLE_MOVING_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
uniform float table_shade_extent;
in vec4 p3d_Vertex;
in vec2 p3d_MultiTexCoord0;
out vec2 uv;
out vec2 shade_uv;

void main() {
    uv = p3d_MultiTexCoord0;
    shade_uv = (p3d_ModelMatrix * p3d_Vertex).xy / (2.0 * table_shade_extent) + 0.5;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

TABLE_MOVING_FRAGMENT = """
#version 150
uniform sampler2D table_wood;
uniform sampler2D table_shade;
in vec2 uv;
in vec2 shade_uv;
out vec4 frag_colour;

void main() {
    frag_colour = vec4(texture(table_wood, uv).rgb * texture(table_shade, shade_uv).rgb * 2.0, 1.0);
}
"""

# The light falling on the table round the villa: sun through the shadow map (softly
# filtered), sky, fill, and the darkening round the base plate. Stored halved.
TABLE_SHADE_FRAGMENT = """
#version 150
uniform sampler2DShadow shadow_map;
uniform vec3 table_open_light;
uniform vec3 sun_colour;
uniform vec3 sun_dir;
uniform float shadow_texel;
uniform vec3 contact_shade;
in vec3 world_pos;
in vec3 shadow_coord;
out vec4 frag_colour;

const vec2 DISC[12] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893),
    vec2(0.507, 0.064), vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

void main() {
    float shade = 0.0;
    for (int i = 0; i < 8; i++) {
        shade += 1.0 - texture(shadow_map, vec3(shadow_coord.xy + DISC[i] * shadow_texel * 4.0, shadow_coord.z));
    }
    vec3 light = table_open_light - sun_colour * sun_dir.z * shade / 8.0;
    float r = length(world_pos.xy);
    light *= 1.0 - contact_shade.x * (1.0 - smoothstep(contact_shade.y, contact_shade.z, r));
    frag_colour = vec4(0.5 * light, 1.0);
}
"""

# The table's wood times its light: beyond the light map's edge the edge's light
# (the open, unshaded light) carries on, by clamping.
TABLE_PICTURE_FRAGMENT = """
#version 150
uniform sampler2D wood;
uniform float wood_repeat;
uniform sampler2D table_shade;
uniform float table_shade_extent;
in vec3 world_pos;
out vec4 frag_colour;

void main() {
    vec3 light = 2.0 * texture(table_shade, world_pos.xy / (2.0 * table_shade_extent) + 0.5).rgb;
    frag_colour = vec4(texture(wood, world_pos.xy / wood_repeat).rgb * light, 1.0);
}
"""

# The light rig (directions point towards the light).
SUN_DIRECTION = Vec3(-0.45, -0.55, 0.70).normalized()
SUN_COLOUR = Vec3(0.95, 0.88, 0.76)
FILL_DIRECTION = Vec3(0.6, 0.5, 0.35).normalized()
FILL_COLOUR = Vec3(0.16, 0.19, 0.26)
SKY_COLOUR = Vec3(0.50, 0.52, 0.58)
GROUND_COLOUR = Vec3(0.24, 0.19, 0.15)


def piece_shader() -> Shader:
    return Shader.make(Shader.SL_GLSL, VERTEX, FRAGMENT)


def table_shader() -> Shader:
    return Shader.make(Shader.SL_GLSL, TABLE_VERTEX, TABLE_FRAGMENT)


def table_moving_shader() -> Shader:
    return Shader.make(Shader.SL_GLSL, TABLE_MOVING_VERTEX, TABLE_MOVING_FRAGMENT)


def table_picture_shader() -> Shader:
    return Shader.make(Shader.SL_GLSL, VERTEX, TABLE_PICTURE_FRAGMENT)


def table_shade_shader() -> Shader:
    return Shader.make(Shader.SL_GLSL, VERTEX, TABLE_SHADE_FRAGMENT)


def table_open_light() -> Vec3:
    """Light on the table where nothing shades it (it faces straight up)."""
    return SKY_COLOUR + SUN_COLOUR * SUN_DIRECTION.z + FILL_COLOUR * FILL_DIRECTION.z


def set_light_rig(root) -> None:
    root.setShaderInput("sun_dir", SUN_DIRECTION)
    root.setShaderInput("sun_colour", SUN_COLOUR)
    root.setShaderInput("fill_dir", FILL_DIRECTION)
    root.setShaderInput("fill_colour", FILL_COLOUR)
    root.setShaderInput("sky_colour", SKY_COLOUR)
    root.setShaderInput("ground_colour", GROUND_COLOUR)


def apply_defaults(root) -> None:
    """Set the shader and every input's default on the scene root; nodes override what they need."""
    root.setShader(piece_shader())
    set_light_rig(root)
    root.setShaderInput("tint", Vec4(1, 1, 1, 1))
    root.setShaderInput("glow", Vec3(0, 0, 0))
    root.setShaderInput("camera_pos", Vec3(0, 0, 100))
