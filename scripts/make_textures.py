#!/usr/bin/env python3
"""Generate the game's textures into textures/: wood with grain, and the four column colours with their marks.

Deterministic (fixed seeds), so running it again gives the same files. Each texture is
512×512 and tiles seamlessly where it wraps.

Column textures: the lower three quarters wrap round the column's side (u around,
v up the height); the top-left 128×128 square is the end face. Each player colour
carries its own mark, so the colours can be told apart without colour vision:
blue rings, red dots, yellow flutes (vertical stripes), green diagonal stripes;
the end faces show a ring, three dots, a bar and a cross.

    python scripts/make_textures.py [--out textures]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

SIZE = 512
CAP = 128  # end-face square of a column texture
SIDE_ROWS = SIZE - CAP

# Stain colours (linear-ish RGB, 0..1); the marks are inlaid in a contrasting wood.
COLUMN_STAINS = {
    "blue": ((0.14, 0.33, 0.74), (0.95, 0.90, 0.78)),
    "red": ((0.78, 0.13, 0.11), (0.96, 0.90, 0.76)),
    "yellow": ((0.96, 0.78, 0.16), (0.33, 0.20, 0.10)),
    "green": ((0.15, 0.54, 0.25), (0.95, 0.90, 0.76)),
}
WOODS = {
    # name: (light early wood, dark late wood, ring count, waviness, seed)
    "wood_floor": ((0.95, 0.89, 0.76), (0.86, 0.75, 0.58), 11, 0.9, 11),   # birch plywood: faint grain
    "wood_base": ((0.86, 0.68, 0.46), (0.64, 0.45, 0.27), 9, 1.3, 12),
    "wood_table": ((0.44, 0.27, 0.15), (0.30, 0.17, 0.09), 20, 3.0, 13),   # walnut: fine, gently wavering grain
}


def tileable_noise(rng: np.random.Generator, height: int, width: int,
                   cells_y: int, cells_x: int, octaves: int = 4) -> np.ndarray:
    """Fractal value noise in [0, 1] that wraps in both directions."""
    total = np.zeros((height, width))
    weight_sum = 0.0
    for octave in range(octaves):
        cy, cx = cells_y * 2 ** octave, cells_x * 2 ** octave
        lattice = rng.random((cy, cx))
        y = np.arange(height) * cy / height
        x = np.arange(width) * cx / width
        y0, x0 = y.astype(int), x.astype(int)
        fy, fx = y - y0, x - x0
        fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)  # smoothstep between lattice points
        y1, x1 = (y0 + 1) % cy, (x0 + 1) % cx
        top = lattice[y0][:, x0] * (1 - fx) + lattice[y0][:, x1] * fx
        bottom = lattice[y1][:, x0] * (1 - fx) + lattice[y1][:, x1] * fx
        weight = 0.5 ** octave
        total += weight * (top * (1 - fy[:, None]) + bottom * fy[:, None])
        weight_sum += weight
    return total / weight_sum


def grain(rng: np.random.Generator, height: int, width: int, rings: int, waviness: float,
          along_x: bool = True) -> np.ndarray:
    """Flat-sawn grain in [0, 1] (1 = dark late wood): bands that run along x (or y), wavering."""
    if not along_x:
        return grain(rng, width, height, rings, waviness).T
    warp = tileable_noise(rng, height, width, 3, 2, octaves=3) - 0.5
    position = np.arange(height)[:, None] / height * rings + warp * waviness
    bands = 0.5 + 0.5 * np.sin(2 * np.pi * position)
    bands = bands ** 4  # thin dark late-wood lines between broad light bands
    fibres = tileable_noise(rng, height, width, 64, 4, octaves=2)  # fine streaks along the grain
    return np.clip(0.75 * bands + 0.35 * (fibres - 0.5) + 0.1, 0.0, 1.0)


def wood(light, dark, rings, waviness, seed, along_x=True) -> np.ndarray:
    rng = np.random.default_rng(seed)
    g = grain(rng, SIZE, SIZE, rings, waviness, along_x)[..., None]
    return np.asarray(light) * (1 - g) + np.asarray(dark) * g


def column_mark_side(colour: str) -> np.ndarray:
    """Mask (1 = mark) for the side of a column, SIDE_ROWS × SIZE, row 0 at the column's top."""
    y, x = np.mgrid[0:SIDE_ROWS, 0:SIZE] / np.array([SIDE_ROWS, SIZE])[:, None, None]
    if colour == "blue":  # two rings near each end
        d = np.minimum.reduce([abs(y - c) for c in (0.16, 0.24, 0.76, 0.84)])
        return (d < 0.022).astype(float)
    if colour == "red":  # staggered dots
        cols, rows = 4, 6
        gx, gy = x * cols, y * rows
        gx = gx + 0.5 * (np.floor(gy) % 2)
        dx, dy = (gx % 1) - 0.5, (gy % 1) - 0.5
        return ((dx * dx * 1.0 + dy * dy * 1.6) < 0.05).astype(float)
    if colour == "yellow":  # flutes: vertical stripes
        return ((x * 6) % 1 < 0.22).astype(float)
    if colour == "green":  # diagonal stripes, continuous across the wrap
        return (((x * 4 + y * 3) % 1) < 0.24).astype(float)
    raise ValueError(colour)


def column_mark_cap(colour: str) -> np.ndarray:
    """Mask for the end face, CAP × CAP, centred."""
    y, x = (np.mgrid[0:CAP, 0:CAP] + 0.5) / CAP * 2 - 1
    r = np.hypot(x, y)
    if colour == "blue":
        return ((r > 0.42) & (r < 0.62)).astype(float)
    if colour == "red":
        dots = [(0.0, -0.34), (0.3, 0.18), (-0.3, 0.18)]
        return (np.minimum.reduce([np.hypot(x - cx, y - cy) for cx, cy in dots]) < 0.17).astype(float)
    if colour == "yellow":
        return ((abs(x) < 0.16) & (abs(y) < 0.62)).astype(float)
    if colour == "green":
        d = np.minimum(abs(x - y), abs(x + y)) / np.sqrt(2)
        return ((d < 0.12) & (r < 0.66)).astype(float)
    raise ValueError(colour)


def soften(mask: np.ndarray) -> np.ndarray:
    """A one-pixel blur, so marks have soft edges instead of jaggies."""
    padded = np.pad(mask, 1, mode="wrap")
    return sum(padded[1 + dy:1 + dy + mask.shape[0], 1 + dx:1 + dx + mask.shape[1]]
               for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9.0


def column_texture(colour: str, seed: int) -> np.ndarray:
    stain, inlay = (np.asarray(c) for c in COLUMN_STAINS[colour])
    rng = np.random.default_rng(seed)
    g = grain(rng, SIZE, SIZE, 5, 1.2, along_x=False)[..., None]  # grain runs up the column
    shade = 1.0 - 0.28 * g
    image = np.empty((SIZE, SIZE, 3))
    mask = np.zeros((SIZE, SIZE))
    mask[CAP:, :] = soften(column_mark_side(colour))
    cap_rng = np.random.default_rng(seed + 100)
    end_grain = 0.5 + 0.5 * np.sin(np.hypot(*(np.mgrid[0:CAP, 0:CAP] / CAP - 0.5)) * 70
                                   + 2 * tileable_noise(cap_rng, CAP, CAP, 4, 4))
    shade[:CAP, :CAP, 0] = 1.0 - 0.2 * end_grain ** 3
    mask[:CAP, :CAP] = soften(column_mark_cap(colour))
    m = mask[..., None]
    image[:] = (stain * (1 - m) + inlay * m) * shade
    return image


def save(image: np.ndarray, path: Path) -> None:
    from panda3d.core import Filename, Texture
    height, width, _ = image.shape
    data = (np.clip(image, 0, 1) * 255 + 0.5).astype(np.uint8)
    texture = Texture(path.stem)
    texture.setup2dTexture(width, height, Texture.T_unsigned_byte, Texture.F_rgb8)
    texture.setRamImage(np.ascontiguousarray(data[::-1, :, ::-1]).tobytes())  # Panda: BGR, bottom row first
    if not texture.write(Filename.fromOsSpecific(str(path))):
        raise OSError(f"could not write {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "textures")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from panda3d.core import loadPrcFileData
    loadPrcFileData("", "notify-level-pnmimage error\njpeg-quality 90")
    for name, (light, dark, rings, waviness, seed) in WOODS.items():
        save(wood(light, dark, rings, waviness, seed), args.out / f"{name}.jpg")
    for seed, colour in enumerate(COLUMN_STAINS, start=21):
        save(column_texture(colour, seed), args.out / f"column_{colour}.jpg")
    print(f"textures written to {args.out}")


if __name__ == "__main__":
    main()
