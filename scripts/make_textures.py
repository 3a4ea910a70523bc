#!/usr/bin/env python3
"""Generate the game's textures into textures/: wood with its grain, painted plywood, stained columns.

Procedural and seeded: running it again gives the same files, byte for byte. Every
colour texture has a normal map beside it (`*_normal.jpg`, tangent space: u to the
right, v up) with the grain's relief and the paint's edges.

- `wood_table.jpg`: the table, planks of walnut with seams, flat-sawn boards (the arched
  figure) beside quarter-sawn ones (straight grain); it tiles both ways.
- `wood_base.jpg`: the base plate, a turned disc of beech: its top fills the picture's
  square (the building site, the darker border ring, the line between them); the
  bottom rows are its rim.
- `floor_<colour>.jpg`: a floor, birch plywood painted in its colour with the grain
  showing through; the top 15/16 is the face (26 cm square about the floor's centre),
  the bottom rows the rim, where the plies show between the painted faces.
- `wood_floor.jpg`: bare birch plywood laid out the same way (the seal's wood).
- `column_wood.jpg`: a column of bare maple (what the column models refer to).
- `column_<colour>.jpg`: 512 × 1024. The lower three quarters wrap round the column's
  side (u around, v up); the top-left 256 × 256 square is the end face, with its
  rings. Each player colour carries its own mark, so the colours can be told apart
  without colour vision: blue rings, red dots, yellow flutes (grooves), green diagonal
  stripes; the end faces show a ring, three dots, a bar and a cross.

The layouts are read by villa/presentation/meshes.py (FaceUV, ColumnUV); sizes
come from villa/physics/dimensions.py.

    python scripts/make_textures.py [--out textures] [--only wood_table column_red ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from villa.physics import dimensions as dim  # noqa: E402
from villa.presentation import meshes  # noqa: E402

JPEG_QUALITY = 90
TABLE_SIZE = 1024
FACE_SIZE = 1024          # floors and base plate
COLUMN_SIZE = (512, 1024)  # width, height
COLUMN_CAP = 256

# Paint and stain colours (display RGB, 0..1).
FLOOR_PAINT = {
    "blue": (0.17, 0.36, 0.72),
    "green": (0.25, 0.58, 0.24),
    "yellow": (0.95, 0.76, 0.16),
    "orange": (0.93, 0.45, 0.12),
    "red": (0.78, 0.15, 0.12),
}
COLUMN_STAIN = {
    # stain, mark (a light paint, or a dark groove for the yellow flutes)
    "blue": ((0.12, 0.27, 0.66), (0.93, 0.89, 0.78)),
    "red": ((0.72, 0.11, 0.09), (0.95, 0.90, 0.78)),
    "yellow": ((0.93, 0.72, 0.14), (0.36, 0.22, 0.08)),
    "green": ((0.13, 0.46, 0.20), (0.93, 0.89, 0.78)),
}
WALNUT = ((0.45, 0.31, 0.21), (0.28, 0.18, 0.11))    # earlywood, latewood
BEECH = ((0.88, 0.70, 0.50), (0.72, 0.50, 0.32))
BIRCH = ((0.93, 0.84, 0.68), (0.82, 0.68, 0.49))
MAPLE = ((0.92, 0.80, 0.62), (0.80, 0.63, 0.42))     # the columns' wood under the stain
BORDER_STAIN = (0.74, 0.60, 0.50)                    # the base plate's no-build ring


# --- noise ---

def noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int], octaves: int = 1,
          gain: float = 0.5) -> np.ndarray:
    """Fractal value noise in about [-1, 1] that wraps in both directions; `cells` (rows, columns)
    lattice cells in the first octave, doubled each octave."""
    height, width = shape
    total = np.zeros(shape)
    norm = 0.0
    for octave in range(octaves):
        cy, cx = cells[0] * 2 ** octave, cells[1] * 2 ** octave
        lattice = rng.random((cy, cx)) * 2 - 1
        y = np.arange(height) * cy / height
        x = np.arange(width) * cx / width
        y0, x0 = y.astype(int), x.astype(int)
        fy, fx = y - y0, x - x0
        fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)
        y1, x1 = (y0 + 1) % cy, (x0 + 1) % cx
        top = lattice[y0][:, x0] * (1 - fx) + lattice[y0][:, x1] * fx
        bottom = lattice[y1][:, x0] * (1 - fx) + lattice[y1][:, x1] * fx
        weight = gain ** octave
        total += weight * (top * (1 - fy[:, None]) + bottom * fy[:, None])
        norm += weight
    return total / norm


def smoothstep(a: float, b: float, x):
    t = np.clip((x - a) / (b - a), 0.0, 1.0)
    return t * t * (3 - 2 * t)


def blur(image: np.ndarray, passes: int = 1, wrap: bool = True) -> np.ndarray:
    """A small box blur (3×3 per pass)."""
    for _ in range(passes):
        padded = np.pad(image, ((1, 1), (1, 1)) + ((0, 0),) * (image.ndim - 2), mode="wrap" if wrap else "edge")
        h, w = image.shape[:2]
        image = sum(padded[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9.0
    return image


# --- wood ---

def ring_profile(t: np.ndarray, late_from: float = 0.45) -> np.ndarray:
    """Latewood density across one growth ring (t: 0 at the ring's start .. 1 at its end):
    light earlywood, darkening into the latewood, a sharp edge into the next ring."""
    t = t % 1.0
    return smoothstep(late_from, 0.93, t) * (1 - smoothstep(0.965, 1.0, t)) ** 0.5


class Grain:
    """Arrays of one piece of wood's surface, all of the picture's shape: `late` (latewood
    density, 0..1), `pores`, `flecks` (ray flecks), `streaks` (fibre), `height` (relief)."""

    def __init__(self, late, pores, flecks, streaks, height) -> None:
        self.late, self.pores, self.flecks, self.streaks, self.height = late, pores, flecks, streaks, height

    def colour(self, early, latewood, pore_dark: float = 0.35, fleck_light: float = 0.10,
               contrast: float = 1.0) -> np.ndarray:
        early, latewood = np.asarray(early), np.asarray(latewood)
        late = self.late[..., None] * contrast
        image = early * (1 - late) + latewood * late
        image = image * (1 + 0.07 * self.streaks[..., None])
        image = image * (1 - pore_dark * self.pores[..., None])
        return image * (1 + fleck_light * self.flecks[..., None])


def dashes(rng: np.random.Generator, shape: tuple[int, int], density: float, length: int) -> np.ndarray:
    """Short streaks one pixel wide along the rows' direction (pores, cut open along the grain)."""
    seeds = (rng.random(shape) < density).astype(float) * rng.uniform(0.5, 1.0, shape)
    streak = np.zeros(shape)
    for k in range(length):
        streak += np.roll(seeds, k, axis=0) * (1 - abs(k - length / 2) / (length / 2 + 1))
    return np.clip(streak, 0, 1)


def board(rng: np.random.Generator, shape: tuple[int, int], size_cm: tuple[float, float], ring_cm: float,
          sawn: str, pores: float = 1.0, flecks: float = 0.0, wraps: bool = False) -> Grain:
    """Face grain of a board running down the picture's rows, `shape` (rows, columns) covering
    `size_cm` (length, width).

    sawn "flat": the board is cut tangent to the rings, its face slanting slowly towards the
    pith along its length, so each ring the face cuts shows as an arch (the cathedral
    figure), and straight grain towards the edges; "quarter": cut along a radius, the rings
    meet the face as straight lines with ray flecks across; "rotary": peeled veneer, a
    broad wandering figure. `wraps`: the figure repeats along the board (no end joint hides it).
    """
    rows, cols = shape
    length, width = size_cm
    y = (np.arange(rows)[:, None] + 0.5) / rows * length      # cm along
    x = (np.arange(cols)[None, :] + 0.5) / cols * width       # cm across
    along = y / length
    wander = noise(rng, shape, (2, 1), octaves=3) * 0.5 * ring_cm * 3
    wobble = noise(rng, shape, (6, max(2, cols // 24)), octaves=3) * 0.12
    if sawn == "quarter":
        # rings of uneven width: a wandering map from the face's width to ring count
        u = x / width
        spacing = np.exp(0.6 * noise(rng, (1, cols), (1, 6), octaves=3))
        count = np.cumsum(spacing, axis=1) / cols * width / ring_cm
        position = count + (wander / ring_cm) * 0.8 + wobble + 0 * u
    else:
        pith_x = width * rng.uniform(0.25, 0.75) + noise(rng, shape, (2, 1), octaves=2) * width * 0.15
        if sawn == "rotary":   # the knife follows the rings: it crosses one only where they bulge
            depth = ring_cm * (14 + 2.2 * noise(rng, shape, (1, 5), octaves=3, gain=0.55)
                               + 0.8 * noise(rng, shape, (3, 9), octaves=2))
            pith_x = pith_x + noise(rng, shape, (1, 3), octaves=2) * width * 0.8
        elif wraps:
            depth = ring_cm * (30 + 2.0 * np.cos(2 * np.pi * along + rng.uniform(0, 6.3)))
        else:   # the face nears the pith by a few rings along the board
            arches = rng.uniform(3.0, 6.0)
            depth = ring_cm * (22 + arches * (1 - along) + 1.5 * np.sin(np.pi * along) ** 2)
        depth = depth + noise(rng, shape, (3, 1), octaves=2) * ring_cm * 0.8
        radius = np.sqrt((x - pith_x) ** 2 + depth ** 2) if sawn != "rotary" else depth + 0 * x
        position = radius / ring_cm + wobble
    # rings are not all equally wide, nor equally dark
    position = position + noise(rng, shape, (1, 3), octaves=2) * 0.6
    strength = 0.65 + 0.35 * noise(rng, shape, (3, 2), octaves=2)
    if sawn == "quarter":   # seen edge on, the rings are narrow lines: fainter
        strength = strength * (0.45 + 0.4 * (0.5 + 0.5 * noise(rng, shape, (1, max(2, cols // 16)), octaves=2)))
    late = ring_profile(position, {"rotary": 0.72, "flat": 0.55}.get(sawn, 0.45)) * strength
    # fibres: fine streaks along the grain
    streaks = noise(rng, shape, (max(2, rows // 128), max(8, cols // 2)), octaves=2, gain=0.7)
    # pores: short dark dashes along the grain, most in the earlywood
    pore = dashes(rng, shape, 0.005, 7) * (0.4 + 0.6 * (1 - late)) * pores
    fleck = np.zeros(shape)
    if flecks:
        rays = dashes(rng, (cols, rows), 0.004, 9).T   # short streaks across the grain
        fleck = blur(rays, 1) * 3 * flecks
    height = 0.5 * late - 0.5 * pore + 0.12 * streaks + 0.3 * fleck
    return Grain(late, pore, fleck, streaks, height)


def tinted(image: np.ndarray, rng: np.random.Generator, spread: float) -> np.ndarray:
    """One board's colour differs from the next: a little lighter or darker, warmer or cooler."""
    lightness = 1 + rng.uniform(-spread, spread)
    warmth = rng.uniform(-spread, spread) * 0.5
    return image * lightness * np.array([1 + warmth, 1.0, 1 - warmth])


# --- normals and saving ---

def normal_map(height: np.ndarray, strength: float, wrap: bool = True) -> np.ndarray:
    """Tangent-space normals of a height field given in picture rows (row 0 at the top, v up)."""
    mode = "wrap" if wrap else "edge"
    padded = np.pad(height, 1, mode=mode)
    dx = (padded[1:-1, 2:] - padded[1:-1, :-2]) / 2
    dv = (padded[:-2, 1:-1] - padded[2:, 1:-1]) / 2   # rows go down, v goes up
    n = np.dstack([-dx * strength, -dv * strength, np.ones_like(height)])
    n /= np.linalg.norm(n, axis=2, keepdims=True)
    return n * 0.5 + 0.5


def save(image: np.ndarray, path: Path) -> None:
    from panda3d.core import Filename, Texture
    height, width, _ = image.shape
    data = (np.clip(image, 0, 1) * 255 + 0.5).astype(np.uint8)
    texture = Texture(path.stem)
    texture.setup2dTexture(width, height, Texture.T_unsigned_byte, Texture.F_rgb8)
    texture.setRamImage(np.ascontiguousarray(data[::-1, :, ::-1]).tobytes())  # Panda: BGR, bottom row first
    if not texture.write(Filename.fromOsSpecific(str(path))):
        raise OSError(f"could not write {path}")


# --- the table ---

def table(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Walnut planks along v, seams between them, a butt joint somewhere along each."""
    rng = np.random.default_rng(seed)
    size = TABLE_SIZE
    repeat = meshes.TABLE_WOOD_REPEAT
    planks = 7
    edges = np.round(np.linspace(0, size, planks + 1)).astype(int)
    image = np.zeros((size, size, 3))
    height = np.zeros((size, size))
    for i in range(planks):
        x0, x1 = edges[i], edges[i + 1]
        width_cm = (x1 - x0) / size * repeat
        joint = int(rng.integers(0, size))
        sawn = ("flat", "quarter", "flat", "flat", "quarter", "flat", "quarter")[i]
        grain = board(rng, (size, x1 - x0), (repeat, width_cm), ring_cm=rng.uniform(0.28, 0.42), sawn=sawn,
                      pores=1.0, flecks=0.5 if sawn == "quarter" else 0.0)
        early, late = WALNUT
        plank = tinted(grain.colour(early, late, contrast=0.8), rng, 0.09)
        # the board starts at its butt joint: roll it there along the plank
        image[:, x0:x1] = np.roll(plank, joint, axis=0)
        height[:, x0:x1] = np.roll(grain.height, joint, axis=0)
        # the butt joint: a fine dark line across the plank
        rows = (np.arange(size) - joint) % size
        line = np.exp(-np.minimum(rows, size - rows) ** 2 / 1.2)[:, None]
        image[:, x0:x1] *= 1 - 0.55 * line[..., None]
        height[:, x0:x1] -= 2.0 * line
    # seams: a dark groove with a slight bevel either side
    cols = np.arange(size)
    seam = np.min(np.abs(cols[None, :] - edges[:, None]), axis=0)[None, :].repeat(size, axis=0)
    seam = np.minimum(seam, size - seam)
    groove = np.exp(-(seam / 1.1) ** 2)
    bevel = np.exp(-(seam / 3.0) ** 2)
    image *= (1 - 0.6 * groove - 0.1 * bevel)[..., None]
    height -= 3.0 * bevel + 2.0 * groove
    return image, normal_map(height, 1.6)


# --- painted plywood ---

def plywood_rim(rng: np.random.Generator, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """The rim, bottom face to top face across `rows` (picture row 0 at the top face): five plies,
    grain along the rim and across it by turns, fine dark glue lines between them."""
    z = 1 - (np.arange(rows)[:, None] + 0.5) / rows          # 0 at the bottom face .. 1 at the top
    ply = np.minimum((z * 5).astype(int), 4)
    across = (ply % 2 == 1)                                    # the cross plies show their end grain
    shape = (rows, cols)
    # along the rim: long, calm streaks; across: the cut ends of fibres, short flecks both ways
    long_grain = noise(rng, shape, (max(2, rows // 3), 12), octaves=3, gain=0.6)
    end_grain = noise(rng, shape, (max(2, rows // 3), max(8, cols // 4)), octaves=2, gain=0.5)
    early, late = (np.asarray(c) for c in BIRCH)
    shade = np.where(across, 0.55 + 0.18 * end_grain, 0.22 + 0.14 * long_grain)
    image = early * (1 - shade[..., None]) + late * shade[..., None]
    image *= (1 + 0.04 * rng.uniform(-1, 1, 5))[ply][..., None]   # each veneer a shade of its own
    glue = np.exp(-(((z * 5 + 0.5) % 1 - 0.5) * rows / 5 / 0.7) ** 2) * (z > 0.1) * (z < 0.9)
    image *= (1 - 0.5 * glue)[..., None]
    height = np.where(across, 0.15 * end_grain - 0.1, 0.05 * long_grain) - 0.3 * glue
    return image, height


def painted(wood: np.ndarray, grain: Grain, paint, rng: np.random.Generator) -> np.ndarray:
    """Matte paint over wood: the paint's colour, the grain still showing through a little."""
    shape = grain.late.shape
    lum = wood.mean(axis=2)
    lum = (lum - lum.mean()) / max(lum.std(), 1e-6)
    mottle = noise(rng, shape, (3, 3), octaves=4, gain=0.6)
    tone = 1 + 0.03 * lum + 0.025 * mottle - 0.045 * grain.late - 0.12 * grain.pores
    return np.asarray(paint) * tone[..., None]


def floor_texture(seed: int, paint=None) -> tuple[np.ndarray, np.ndarray]:
    """A floor's picture (see meshes.FaceUV): the face above, the rim's strip below."""
    rng = np.random.default_rng(seed)
    size = FACE_SIZE
    strip = int(round(size * meshes.FaceUV.strip))
    face_rows = size - strip
    side = meshes.FLOOR_FACE_CM
    grain = board(rng, (face_rows, size), (side, side), ring_cm=0.5, sawn="rotary", pores=0.5)
    wood = tinted(grain.colour(*BIRCH, pore_dark=0.25), rng, 0.04)
    rim, rim_height = plywood_rim(rng, strip, size)
    face_height = grain.height * 0.6
    if paint is not None:
        face = painted(wood, grain, paint, rng)
        # the paint reaches round the arrises onto the rim, worn through here and there
        z = 1 - (np.arange(strip)[:, None] + 0.5) / strip
        reach = 0.17 + 0.03 * noise(rng, (strip, size), (1, 24), octaves=2)
        wear = noise(rng, (strip, size), (2, 64), octaves=2)
        covered = np.maximum(smoothstep(1 - reach, 1 - reach + 0.04, z), 1 - smoothstep(reach - 0.04, reach, z))
        covered = covered * (1 - 0.7 * smoothstep(0.45, 0.7, wear) * (np.abs(z - 0.5) < 0.42))
        rim_paint = np.asarray(paint) * (0.93 + 0.05 * noise(rng, (strip, size), (2, 32), octaves=2))[..., None]
        rim = rim * (1 - covered[..., None]) + rim_paint * covered[..., None]
        rim_height = rim_height * (1 - covered) + 0.8 * covered   # the paint's edge stands proud
        face_height = grain.height * 0.35 + 0.08 * noise(rng, grain.late.shape, (64, 64), octaves=2)
    else:
        face = wood
    image = np.vstack([face, rim])
    height = np.vstack([face_height, rim_height])
    return image, normal_map(height, 1.2)


# --- the base plate ---

def base_texture(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A disc turned from three glued boards of beech (see meshes.FaceUV, BASE_FACE_CM):
    the lathe's fine rings on top, the border ring stained darker, a groove round the site."""
    rng = np.random.default_rng(seed)
    size = FACE_SIZE
    strip = int(round(size * meshes.FaceUV.strip))
    face_rows = size - strip
    side = meshes.BASE_FACE_CM
    edges = np.round(np.linspace(0, size, 4)).astype(int) + np.array([0, -40, 35, 0])
    face = np.zeros((face_rows, size, 3))
    height = np.zeros((face_rows, size))
    for i in range(3):
        x0, x1 = edges[i], edges[i + 1]
        grain = board(rng, (face_rows, x1 - x0), (side, (x1 - x0) / size * side), ring_cm=rng.uniform(0.3, 0.45),
                      sawn="flat", pores=0.4, flecks=0.8, wraps=True)
        face[:, x0:x1] = tinted(grain.colour(*BEECH, pore_dark=0.2, fleck_light=-0.12, contrast=0.7), rng, 0.05)
        height[:, x0:x1] = grain.height
    # where the boards are glued: a faint line
    cols = np.arange(size)
    glue = np.exp(-(np.min(np.abs(cols[None, :] - edges[1:3, None]), axis=0) / 0.8) ** 2)[None, :]
    face *= (1 - 0.25 * glue)[..., None]
    # in the disc's own frame, centimetres from its centre
    y = (0.5 - (np.arange(face_rows)[:, None] + 0.5) / face_rows) * side
    x = ((np.arange(size)[None, :] + 0.5) / size - 0.5) * side
    r = np.hypot(x, y)
    lathe = noise(rng, (1, 4096), (1, 256), octaves=2)[0]
    turning = lathe[np.clip((r / (side / 2) * 4095).astype(int), 0, 4095)]
    face *= (1 + 0.025 * turning)[..., None]
    height += 0.35 * turning
    site = dim.BASE.site_radius
    border = smoothstep(site, site + 0.05, r)
    face = face * (1 - border[..., None]) + face * np.array(BORDER_STAIN) * border[..., None]
    line = np.exp(-((r - site) / 0.06) ** 2)
    face *= (1 - 0.7 * line)[..., None]
    height -= 3.0 * line
    # the rim: long grain where the boards run along it, end grain where they end
    angle = 2 * np.pi * (np.arange(size) + 0.5) / size
    end_on = (np.sin(angle) ** 2)[None, :]
    rim_grain = board(rng, (size, strip), (2 * np.pi * dim.BASE.radius, dim.BASE.thickness), ring_cm=0.35,
                      sawn="quarter", pores=0.4, wraps=True)
    long_face = rim_grain.colour(*BEECH, pore_dark=0.2).transpose(1, 0, 2)
    ends = noise(rng, (strip, size), (max(2, strip // 2), size // 2), octaves=1)
    end_face = np.asarray(BEECH[1]) * (0.92 + 0.08 * ends)[..., None]
    rim = long_face * (1 - end_on[..., None]) + end_face * end_on[..., None]
    rim_height = rim_grain.height.T * (1 - end_on) + 0.4 * ends * end_on
    image = np.vstack([face, rim])
    return image, normal_map(np.vstack([height, rim_height]), 1.2)


# --- columns ---

FLUTE = 0.14   # half a flute's width, as a share of the distance between flutes


def column_mark_side(colour: str, rows: int, cols: int) -> np.ndarray:
    """How much of the mark covers each pixel of the side (rows × cols, row 0 at the column's top)."""
    y, x = (np.mgrid[0:rows, 0:cols] + 0.5) / np.array([rows, cols])[:, None, None]
    aa = 1.5 / rows   # about a pixel and a half of soft edge

    def band(d, half):
        return 1 - smoothstep(half - aa, half + aa, d)
    if colour == "blue":    # two rings near each end
        return band(np.minimum.reduce([abs(y - c) for c in (0.14, 0.22, 0.78, 0.86)]), 0.022)
    if colour == "red":     # staggered dots
        gx, gy = x * 4, y * 6
        gx = gx + 0.5 * (np.floor(gy) % 2)
        d = np.hypot((gx % 1 - 0.5) * 1.0, (gy % 1 - 0.5) * 1.25)
        return 1 - smoothstep(0.2 - 0.02, 0.2 + 0.02, d)
    if colour == "yellow":  # flutes: six grooves along the column
        d = np.abs((x * 6) % 1 - 0.5)
        return 1 - smoothstep(FLUTE - 0.02, FLUTE + 0.02, d)
    if colour == "green":   # diagonal stripes, continuous across the wrap
        d = np.abs((x * 4 + y * 3) % 1 - 0.5)
        return 1 - smoothstep(0.13 - 0.015, 0.13 + 0.015, d)
    raise ValueError(colour)


def column_mark_cap(colour: str, size: int) -> np.ndarray:
    """The end face's mark, size × size, centred."""
    y, x = (np.mgrid[0:size, 0:size] + 0.5) / size * 2 - 1
    r = np.hypot(x, y)
    aa = 2.0 / size
    if colour == "blue":
        d = np.abs(r - 0.52) - 0.10
    elif colour == "red":
        dots = [(0.0, -0.34), (0.3, 0.18), (-0.3, 0.18)]
        d = np.minimum.reduce([np.hypot(x - cx, y - cy) for cx, cy in dots]) - 0.16
    elif colour == "yellow":
        d = np.maximum(abs(x) - 0.15, abs(y) - 0.6)
    elif colour == "green":
        d = np.maximum(np.minimum(abs(x - y), abs(x + y)) / np.sqrt(2) - 0.11, r - 0.64)
    else:
        raise ValueError(colour)
    return 1 - smoothstep(-aa, aa, d)


def column_texture(colour: str | None, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A column's picture (see meshes.ColumnUV): maple stained in the player's colour, long grain up
    the side, the rings on the end face, the mark in a light paint (or, yellow, cut as flutes).
    `colour` None: bare maple, no mark."""
    rng = np.random.default_rng(seed)
    width, height = COLUMN_SIZE
    side_rows = height * 3 // 4
    stain, mark_colour = (np.asarray(c) for c in COLUMN_STAIN.get(colour, (np.mean(MAPLE, axis=0), (0, 0, 0))))
    # The rings are cylinders round a pith beside the column, slightly askew to it: up the side
    # they show as long lines closing into arches where the side is tangent to them.
    ring = rng.uniform(0.09, 0.14)           # cm, on a column about 1 cm in radius
    pith = rng.uniform(2.5, 4.0)
    tilt = rng.uniform(0.05, 0.12)
    theta = 2 * np.pi * (np.arange(width)[None, :] + 0.5) / width
    z = (1 - (np.arange(side_rows)[:, None] + 0.5) / side_rows) * dim.COLUMN_HEIGHT
    offset = pith + tilt * (z - dim.COLUMN_HEIGHT / 2)
    radius = np.sqrt(1 + offset ** 2 - 2 * offset * np.cos(theta))
    position = radius / ring + noise(rng, (side_rows, width), (3, 8), octaves=3) * 0.5
    late = ring_profile(position) * (0.6 + 0.3 * noise(rng, (side_rows, width), (2, 6), octaves=2))
    streaks = noise(rng, (side_rows, width), (max(2, side_rows // 128), width // 8), octaves=2, gain=0.5) * 0.5
    pores = dashes(rng, (side_rows, width), 0.002, 6) * 0.6
    side_grain = Grain(late, pores, np.zeros_like(late), streaks, 0.25 * late - 0.4 * pores)
    # the end face: arcs of the same rings, rays across them
    cap = COLUMN_CAP
    cy, cx = (np.mgrid[0:cap, 0:cap] + 0.5) / cap * 2 - 1
    cap_radius = np.hypot(cx - pith, cy)
    cap_position = cap_radius / ring + noise(rng, (cap, cap), (4, 4), octaves=3) * 0.4
    angle = np.arctan2(cy, cx - pith)
    rays = dashes(rng, (cap, 720), 0.01, 5)[:, ((angle + np.pi) / (2 * np.pi) * 719).astype(int)][0]
    cap_late = ring_profile(cap_position, 0.35) * 0.9
    cap_pores = dashes(rng, (cap, cap), 0.02, 2)
    end_grain = Grain(cap_late, cap_pores, rays * 0.5, np.zeros((cap, cap)), 0.4 * cap_late - 0.6 * cap_pores)

    def stained(grain: Grain, darker: float) -> np.ndarray:
        wood = grain.colour(*MAPLE, pore_dark=0.3)
        lum = wood.mean(axis=2) / np.mean(MAPLE[0])
        return stain * (lum * darker)[..., None] * (1 - 0.10 * grain.late[..., None])

    image = np.zeros((height, width, 3))
    relief = np.zeros((height, width))
    mark = column_mark_side(colour, side_rows, width) if colour else np.zeros((side_rows, width))
    side = stained(side_grain, 1.0)
    if colour == "yellow":   # flutes are cut: a groove, the bare wood darkened in it
        across = np.abs((np.arange(width)[None, :] + 0.5) / width * 6 % 1 - 0.5) / (FLUTE + 0.02)
        groove = np.sqrt(np.clip(1 - across ** 2, 0, 1)) * mark
        image[height - side_rows:] = side * (1 - mark[..., None]) + mark_colour * side / stain.max() * mark[..., None]
        relief[height - side_rows:] = side_grain.height - 4.0 * groove
    else:
        paint = mark_colour * (0.97 + 0.03 * streaks[..., None])
        image[height - side_rows:] = side * (1 - mark[..., None]) + paint * mark[..., None]
        relief[height - side_rows:] = side_grain.height + 1.2 * blur(mark, 1)
    # the top rows: the end face in its square, the rest a plain strip of the side
    top = np.zeros((height - side_rows, width, 3))
    top[:] = side[: height - side_rows]
    top[:, :cap] = 0
    cap_mark = column_mark_cap(colour, cap) if colour else np.zeros((cap, cap))
    face = stained(end_grain, 0.88)
    top[:, :cap] = face * (1 - cap_mark[..., None]) + mark_colour * cap_mark[..., None]
    image[: height - side_rows] = top
    relief[: height - side_rows, :cap] = end_grain.height + 1.2 * blur(cap_mark, 1, wrap=False)
    return image, normal_map(relief, 0.8)


def makers() -> dict[str, Callable[[], tuple[np.ndarray, np.ndarray]]]:
    """How to make every texture, by name: each gives its picture and its normal map."""
    made = {
        "wood_table": lambda: table(13),
        "wood_base": lambda: base_texture(12),
        "wood_floor": lambda: floor_texture(11),
        "column_wood": lambda: column_texture(None, 20),
    }
    for seed, (colour, paint) in enumerate(FLOOR_PAINT.items(), start=31):
        made[f"floor_{colour}"] = lambda seed=seed, paint=paint: floor_texture(seed, paint)
    for seed, colour in enumerate(COLUMN_STAIN, start=21):
        made[f"column_{colour}"] = lambda seed=seed, colour=colour: column_texture(colour, seed)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "textures")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="make only these textures (wood_table, ...)")
    args = parser.parse_args()
    wanted = makers()
    if args.only:
        unknown = sorted(set(args.only) - set(wanted))
        if unknown:
            parser.error(f"no texture called {', '.join(unknown)}")
        wanted = {name: make for name, make in wanted.items() if name in args.only}
    args.out.mkdir(parents=True, exist_ok=True)
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", f"notify-level-pnmimage error\njpeg-quality {JPEG_QUALITY}")
    for name, make in wanted.items():
        image, normals = make()
        save(image, args.out / f"{name}.jpg")
        save(normals, args.out / f"{name}_normal.jpg")
    print(f"{len(wanted)} textures written to {args.out}")


if __name__ == "__main__":
    main()
