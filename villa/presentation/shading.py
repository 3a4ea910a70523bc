"""The shaders: the pieces' (wood or paint under a warm sun, a sky and a fill light), the contact
shade round the columns' feet, and the table's, which reads its light from pictures painted
only when something moved.

Written for OpenGL 3.2 GLSL so they also run on software renderers (Mesa llvmpipe), where
every instruction is paid per pixel. Two kinds of piece shader, by graphics quality:
- per vertex (Low): the light is worked out at the vertices; a pixel looks up its colour
  and nothing else. The grain's relief is left out; contact shade is baked.
- per pixel (Medium, High): the normal maps' relief, a lacquer sheen that follows it, the
  sun's shadow map filtered over several look-ups, ambient occlusion from the pieces nearby.
Per-node inputs of the pieces' shaders:
- `tint` (rgba): multiplies the texture (alpha for the ghost).
- `glow` (rgb): added light (highlighting a column the player may take).
"""

from __future__ import annotations

from panda3d.core import Shader, Vec3, Vec4

MAX_COLUMNS = 20
MAX_DISCS = 6          # the base plate and five floors

_LIGHT_UNIFORMS = """
uniform vec3 sun_dir;
uniform vec3 sun_colour;
uniform vec3 fill_dir;
uniform vec3 fill_colour;
uniform vec3 sky_colour;
uniform vec3 ground_colour;
"""

# Light from the sky (brighter above), the ground (the table's warm bounce) and a cool fill.
_AMBIENT = """
vec3 ambient_light(vec3 n) {
    return mix(ground_colour, sky_colour, 0.5 + 0.5 * n.z) + fill_colour * max(dot(n, fill_dir), 0.0);
}
"""

# --- per vertex (Low) ---

LOW_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
uniform vec3 camera_pos;
uniform float lacquer;
""" + _LIGHT_UNIFORMS + """
in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
out vec2 uv;
out vec3 ambient;       // sky, fill and rim: light no shadow reaches
out vec3 sunlight;      // the sun's diffuse light, and the sheen on top (not tinted by the wood)
out vec2 table_light_uv;
""" + _AMBIENT + """
uniform float table_shade_extent;

void main() {
    vec4 wp = p3d_ModelMatrix * p3d_Vertex;
    vec3 n = normalize(mat3(p3d_ModelMatrix) * p3d_Normal);
    uv = p3d_MultiTexCoord0;
    vec3 view = normalize(camera_pos - wp.xyz);
    float baked = p3d_Color.r;
    float ndl = max(dot(n, sun_dir), 0.0);
    float rim = pow(1.0 - max(dot(n, view), 0.0), 3.0) * 0.08;
    ambient = (ambient_light(n) + sky_colour * rim) * baked;
    float sheen = pow(max(dot(n, normalize(sun_dir + view)), 0.0), 40.0) * lacquer * step(0.0, dot(n, sun_dir));
    sunlight = vec3(ndl * mix(1.0, baked, 0.5), sheen, 0.0);
    // where the sun's ray through it meets the table (the base plate's top: nothing lies between)
    table_light_uv = (wp.xy - sun_dir.xy * (wp.z / sun_dir.z)) / (2.0 * table_shade_extent) + 0.5;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

LOW_FRAGMENT = """
#version 150
uniform sampler2D p3d_Texture0;
uniform vec4 p3d_ColorScale;
uniform vec4 tint;
uniform vec3 glow;
uniform vec3 sun_colour;
in vec2 uv;
in vec3 ambient;
in vec3 sunlight;
out vec4 frag_colour;

void main() {
    vec3 albedo = texture(p3d_Texture0, uv).rgb * tint.rgb;
    vec3 colour = albedo * (ambient + sun_colour * sunlight.x) + sun_colour * sunlight.y + glow;
    frag_colour = vec4(colour, tint.a) * p3d_ColorScale;
}
"""

# The base plate at Low: the villa's shadow on it is read from the table's light map, where the
# sun's ray through the plate meets the table, so the shadow runs on from the table unbroken.
LOW_RECEIVER_FRAGMENT = """
#version 150
uniform sampler2D p3d_Texture0;
uniform sampler2D table_shade;
uniform vec4 p3d_ColorScale;
uniform vec4 tint;
uniform vec3 glow;
uniform vec3 sun_colour;
in vec2 uv;
in vec3 ambient;
in vec3 sunlight;
in vec2 table_light_uv;
out vec4 frag_colour;

void main() {
    vec3 albedo = texture(p3d_Texture0, uv).rgb * tint.rgb;
    float lit = texture(table_shade, table_light_uv).r;
    vec3 colour = albedo * (ambient + sun_colour * (sunlight.x * lit)) + sun_colour * (sunlight.y * lit) + glow;
    frag_colour = vec4(colour, tint.a) * p3d_ColorScale;
}
"""

# --- per pixel (Medium, High) ---

FULL_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
uniform mat4 shadow_matrix;
uniform float shadow_normal_offset;
in vec4 p3d_Vertex;
in vec3 p3d_Normal;
in vec3 p3d_Tangent;
in vec3 p3d_Binormal;
in vec4 p3d_Color;
in vec2 p3d_MultiTexCoord0;
out vec3 world_pos;
out vec2 uv;
out vec3 shadow_coord;  // the sun's lens is orthographic: no division per pixel
out vec3 w_normal;
out vec3 w_tangent;
out vec3 w_binormal;
out float baked;

void main() {
    vec4 wp = p3d_ModelMatrix * p3d_Vertex;
    mat3 to_world = mat3(p3d_ModelMatrix);
    w_normal = normalize(to_world * p3d_Normal);
    w_tangent = to_world * p3d_Tangent;
    w_binormal = to_world * p3d_Binormal;
    world_pos = wp.xyz;
    uv = p3d_MultiTexCoord0;
    baked = p3d_Color.r;
    // offset along the normal: no shadow acne on surfaces lit at a grazing angle
    shadow_coord = (shadow_matrix * vec4(wp.xyz + w_normal * shadow_normal_offset, 1.0)).xyz;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

FULL_FRAGMENT = """
#version 150
uniform sampler2D p3d_Texture0;
uniform sampler2D p3d_Texture1;   // the normal map
uniform sampler2DShadow shadow_map;
uniform float shadow_texel;
uniform vec4 p3d_ColorScale;
uniform vec4 tint;
uniform vec3 glow;
uniform vec3 camera_pos;
uniform float lacquer;
uniform vec4 column_a[MAX_COLUMNS];   // each column's axis: from a to b; a.w its radius
uniform vec4 column_b[MAX_COLUMNS];
uniform vec4 discs[MAX_DISCS];        // the plate and the floors: centre, radius of the same area
uniform vec4 occluder_count;          // columns, discs
""" + _LIGHT_UNIFORMS + """
in vec3 world_pos;
in vec2 uv;
in vec3 shadow_coord;
in vec3 w_normal;
in vec3 w_tangent;
in vec3 w_binormal;
in float baked;
out vec4 frag_colour;
""" + _AMBIENT + """
const vec2 TAPS[8] = vec2[](
    vec2(-0.613, 0.617), vec2(0.170, -0.040), vec2(-0.299, -0.792), vec2(0.645, 0.493),
    vec2(-0.651, -0.218), vec2(0.421, -0.528), vec2(-0.081, 0.937), vec2(0.891, -0.116));

float sunlit() {
    float lit = 0.0;
    for (int i = 0; i < SHADOW_TAPS; i++) {
        lit += texture(shadow_map, vec3(shadow_coord.xy + TAPS[i] * shadow_texel * SHADOW_SPREAD, shadow_coord.z));
    }
    return lit / float(SHADOW_TAPS);
}

// How much of the sky the pieces nearby hide (0: none): each column as a sphere on its axis
// half-way up what the point faces, each floor as a disc over or under it.
float occlusion(vec3 p, vec3 n) {
    float hidden = 0.0;
    int columns = int(occluder_count.x);
    for (int i = 0; i < columns; i++) {
        vec3 a = column_a[i].xyz;
        vec3 axis = column_b[i].xyz - a;
        float r = column_a[i].w;
        float along = clamp(dot(p - a, axis) / dot(axis, axis), 0.0, 1.0);
        vec3 to_axis = a + axis * along - p;
        float d = length(to_axis);
        // the part of the column the point looks at: up its normal, about as far as the axis is
        vec3 q = p + n * d;
        along = clamp(dot(q - a, axis) / dot(axis, axis), 0.0, 1.0);
        vec3 v = a + axis * along - p;
        float l2 = max(dot(v, v), r * r);
        hidden += max(dot(n, v) * inversesqrt(l2), 0.0) * r * r / l2;
    }
    int count = int(occluder_count.y);
    for (int i = 0; i < count; i++) {
        vec3 v = discs[i].xyz - p;
        float radius = discs[i].w;
        float h = abs(v.z);
        float facing = v.z > 0.0 ? 0.5 + 0.5 * n.z : 0.5 - 0.5 * n.z;   // the half of the sky it hides
        float spread = length(v.xy);
        float over = 1.0 - smoothstep(radius * 0.7, radius * 1.3 + h, spread);
        hidden += facing * over * radius * radius / (radius * radius + 4.0 * h * h) * step(0.35, h);
    }
    return clamp(hidden * 0.8, 0.0, 0.8);
}

void main() {
    vec3 albedo = texture(p3d_Texture0, uv).rgb * tint.rgb;
    vec3 relief = texture(p3d_Texture1, uv).xyz * 2.0 - 1.0;
    vec3 n = normalize(normalize(w_tangent) * relief.x + normalize(w_binormal) * relief.y
                       + normalize(w_normal) * relief.z);
    vec3 view = normalize(camera_pos - world_pos);
    float lit = sunlit();
    float open = 1.0 - occlusion(world_pos, n);
    float ndl = max(dot(n, sun_dir), 0.0);
    float facing = max(dot(n, view), 0.0);
    float fresnel = 0.04 + 0.96 * pow(1.0 - facing, 5.0);
    float sheen = pow(max(dot(n, normalize(sun_dir + view)), 0.0), 48.0) * lacquer * (0.6 + 2.0 * fresnel)
                  * step(0.0, dot(w_normal, sun_dir));
    vec3 ambient = ambient_light(n) * open * baked + sky_colour * (fresnel * lacquer * open);
    vec3 colour = albedo * (ambient + sun_colour * (ndl * lit * mix(1.0, baked, 0.5))) + sun_colour * (sheen * lit)
                  + glow;
    frag_colour = vec4(colour, tint.a) * p3d_ColorScale;
}
"""

# --- the contact shade round a column's foot (Low) ---

# every column's ring in one draw: each placed at its column's foot by its own matrix
CONTACT_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 ring_places[MAX_COLUMNS];
in vec4 p3d_Vertex;
in vec2 p3d_MultiTexCoord0;
out float out_from_foot;

void main() {
    out_from_foot = p3d_MultiTexCoord0.x;
    gl_Position = p3d_ModelViewProjectionMatrix * (ring_places[int(p3d_MultiTexCoord0.y + 0.5)] * p3d_Vertex);
}
"""

# multiplied into what is already drawn (see scene.CONTACT_BLEND)
CONTACT_FRAGMENT = """
#version 150
uniform float contact_strength;
in float out_from_foot;
out vec4 frag_colour;

void main() {
    float t = 1.0 - out_from_foot;
    float shade = 1.0 - contact_strength * t * t * t;
    frag_colour = vec4(shade, shade, shade, 1.0);
}
"""

# --- the table ---

TABLE_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
uniform float table_picture_extent;
in vec4 p3d_Vertex;
out vec2 picture_uv;

void main() {
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
in vec4 p3d_Vertex;
out vec3 world_pos;

void main() {
    world_pos = (p3d_ModelMatrix * p3d_Vertex).xyz;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

# The light on the table from its light map (the sun's share, in red), the darkening round the
# base plate, and the lamp's pool of light fading towards the room.
_TABLE_LIGHT = """
uniform sampler2D table_shade;
uniform float table_shade_extent;
uniform vec3 table_open_light;
uniform vec3 contact_shade;
uniform vec3 table_falloff;
uniform vec3 sun_colour;
uniform vec3 sun_dir;

vec3 table_light(vec2 p) {
    float sunlit = texture(table_shade, p / (2.0 * table_shade_extent) + 0.5).r;
    vec3 light = table_open_light - sun_colour * (sun_dir.z * (1.0 - sunlit));
    float r = length(p);
    light *= 1.0 - contact_shade.x * (1.0 - smoothstep(contact_shade.y, contact_shade.z, r));
    return light * mix(1.0, table_falloff.z, smoothstep(table_falloff.x, table_falloff.y, r));
}
"""

TABLE_MOVING_FRAGMENT = """
#version 150
uniform sampler2D lit_wood;
uniform float wood_repeat;
in vec3 world_pos;
out vec4 frag_colour;
""" + _TABLE_LIGHT + """
void main() {
    frag_colour = vec4(texture(lit_wood, world_pos.xy / wood_repeat).rgb * table_light(world_pos.xy), 1.0);
}
"""

# Drawing on a card seen from straight above: the table's top at world (x, y).
FLAT_VERTEX = """
#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelMatrix;
in vec4 p3d_Vertex;
in vec2 p3d_MultiTexCoord0;
out vec3 world_pos;
out vec2 uv;

void main() {
    world_pos = (p3d_ModelMatrix * p3d_Vertex).xyz;
    uv = p3d_MultiTexCoord0;
    gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""

# The table's wood with its relief lit by the sun and sky, relative to a flat top's light:
# painted once, as the sun never moves.
LIT_WOOD_FRAGMENT = """
#version 150
uniform sampler2D wood;
uniform sampler2D wood_normals;
""" + _LIGHT_UNIFORMS + """
in vec2 uv;
out vec4 frag_colour;
""" + _AMBIENT + """
void main() {
    vec3 n = normalize(texture(wood_normals, uv).xyz * 2.0 - 1.0);   // the table's top: tangent space is world space
    vec3 flat_light = ambient_light(vec3(0.0, 0.0, 1.0)) + sun_colour * sun_dir.z;
    vec3 light = ambient_light(n) + sun_colour * max(dot(n, sun_dir), 0.0);
    frag_colour = vec4(texture(wood, uv).rgb * light / flat_light, 1.0);
}
"""

# The table's light map (Medium, High): the sun's share on the table in red, through the sun's
# shadow map, softly filtered.
TABLE_SHADE_MAP_FRAGMENT = """
#version 150
uniform sampler2DShadow shadow_map;
uniform mat4 shadow_matrix;
uniform float shadow_texel;
in vec3 world_pos;
out vec4 frag_colour;

const vec2 DISC[12] = vec2[](
    vec2(-0.326, -0.406), vec2(-0.840, -0.074), vec2(-0.696, 0.457), vec2(-0.203, 0.621),
    vec2(0.962, -0.195), vec2(0.473, -0.480), vec2(0.519, 0.767), vec2(0.185, -0.893),
    vec2(0.507, 0.064), vec2(0.896, 0.412), vec2(-0.322, -0.933), vec2(-0.792, -0.598));

void main() {
    vec3 shadow_coord = (shadow_matrix * vec4(world_pos.xy, 0.0, 1.0)).xyz;
    float lit = 0.0;
    for (int i = 0; i < 12; i++) {
        lit += texture(shadow_map, vec3(shadow_coord.xy + DISC[i] * shadow_texel * 5.0, shadow_coord.z - 0.0005));
    }
    frag_colour = vec4(lit / 12.0, 1.0, 1.0, 1.0);
}
"""

# The table's light map at Low, without a shadow map: each piece is flattened along the sun's
# rays onto the table top and drawn there as shadow.
CAST_VERTEX = """
#version 150
uniform mat4 p3d_ModelMatrix;
uniform mat4 p3d_ViewMatrix;
uniform mat4 p3d_ProjectionMatrix;
uniform vec3 cast_sun;
uniform float cast_level;
in vec4 p3d_Vertex;

void main() {
    vec3 wp = (p3d_ModelMatrix * p3d_Vertex).xyz;
    vec3 onto = wp - cast_sun * (max(wp.z - cast_level, 0.0) / cast_sun.z);
    gl_Position = p3d_ProjectionMatrix * (p3d_ViewMatrix * vec4(onto.xy, cast_level, 1.0));
}
"""

CAST_FRAGMENT = """
#version 150
out vec4 frag_colour;

void main() {
    frag_colour = vec4(0.0);
}
"""

# Low: the shadows drawn hard into a finer map, softened into the light map (four bilinear
# look-ups a texel and a half apart: about a centimetre of penumbra).
SOFTEN_FRAGMENT = """
#version 150
uniform sampler2D hard_shade;
uniform float hard_texel;
in vec2 uv;
out vec4 frag_colour;

void main() {
    vec2 d = vec2(hard_texel * 1.5);
    frag_colour = 0.25 * (texture(hard_shade, uv + d) + texture(hard_shade, uv - d)
                          + texture(hard_shade, uv + vec2(d.x, -d.y)) + texture(hard_shade, uv + vec2(-d.x, d.y)));
}
"""

# The table's wood times its light: beyond the light map's edge the edge's light
# (the open, unshaded light) carries on, by clamping.
TABLE_PICTURE_FRAGMENT = """
#version 150
uniform sampler2D lit_wood;
uniform float wood_repeat;
in vec3 world_pos;
out vec4 frag_colour;
""" + _TABLE_LIGHT + """
void main() {
    frag_colour = vec4(texture(lit_wood, world_pos.xy / wood_repeat).rgb * table_light(world_pos.xy), 1.0);
}
"""

# The light rig (directions point towards the light): a warm key from high on one side,
# a cool fill opposite, a soft sky.
SUN_DIRECTION = Vec3(-0.45, -0.55, 0.72).normalized()
SUN_COLOUR = Vec3(1.00, 0.88, 0.72)
FILL_DIRECTION = Vec3(0.6, 0.5, 0.35).normalized()
FILL_COLOUR = Vec3(0.13, 0.16, 0.23)
SKY_COLOUR = Vec3(0.44, 0.47, 0.54)
GROUND_COLOUR = Vec3(0.26, 0.20, 0.15)
LACQUER = 0.22           # how much of the sun the paint's clear coat gives back
TABLE_FALLOFF = Vec3(40.0, 122.0, 0.17)   # the light on the table: full within, fading to this share at, cm


def _make(vertex: str, fragment: str, **defines) -> Shader:
    values = {"MAX_COLUMNS": MAX_COLUMNS, "MAX_DISCS": MAX_DISCS, **defines}
    for name, value in values.items():
        vertex, fragment = vertex.replace(name, str(value)), fragment.replace(name, str(value))
    return Shader.make(Shader.SL_GLSL, vertex, fragment)


def piece_shader(preset) -> Shader:
    """The pieces' shader at a graphics quality (see quality.Preset)."""
    if not preset.per_pixel:
        return _make(LOW_VERTEX, LOW_FRAGMENT)
    return _make(FULL_VERTEX, FULL_FRAGMENT, SHADOW_TAPS=max(1, preset.shadow_taps),
                 SHADOW_SPREAD=f"{1.6 if preset.shadow_taps <= 4 else 2.2:.1f}")


def receiver_shader() -> Shader:
    """Low: the base plate, which finds the villa's shadow in the table's light map."""
    return _make(LOW_VERTEX, LOW_RECEIVER_FRAGMENT)


def contact_shader() -> Shader:
    return _make(CONTACT_VERTEX, CONTACT_FRAGMENT)


def table_shader() -> Shader:
    return _make(TABLE_VERTEX, TABLE_FRAGMENT)


def table_moving_shader() -> Shader:
    return _make(TABLE_MOVING_VERTEX, TABLE_MOVING_FRAGMENT)


def table_picture_shader() -> Shader:
    return _make(FLAT_VERTEX, TABLE_PICTURE_FRAGMENT)


def lit_wood_shader() -> Shader:
    return _make(FLAT_VERTEX, LIT_WOOD_FRAGMENT)


def table_shade_shader() -> Shader:
    return _make(FLAT_VERTEX, TABLE_SHADE_MAP_FRAGMENT)


def soften_shader() -> Shader:
    return _make(FLAT_VERTEX, SOFTEN_FRAGMENT)


def cast_shader() -> Shader:
    return _make(CAST_VERTEX, CAST_FRAGMENT)


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
    """Every input's default on the scene root; nodes override what they need."""
    set_light_rig(root)
    root.setShaderInput("tint", Vec4(1, 1, 1, 1))
    root.setShaderInput("glow", Vec3(0, 0, 0))
    root.setShaderInput("camera_pos", Vec3(0, 0, 100))
    root.setShaderInput("lacquer", LACQUER)
    root.setShaderInput("table_shade_extent", 50.0)
