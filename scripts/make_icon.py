#!/usr/bin/env python3
"""The game's icon, drawn in code: a small villa of columns and floors on its base plate.

Writes icons/villa-paletti-<size>.png for each size (each drawn at its own size, so the
small ones stay crisp) and icons/villa-paletti.ico holding them all (Windows' window and
file icon). The same input gives the same bytes, so the committed files can be checked.

    python scripts/make_icon.py [--out icons]
"""

from __future__ import annotations

import argparse
import struct
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
NAME = "villa-paletti"
SIZES = (16, 32, 48, 64, 128, 256)
SUPERSAMPLE = 4  # samples per pixel edge: smooth edges without a drawing library

CREAM = (0.98, 0.93, 0.82)
CREAM_SHADE = (0.90, 0.80, 0.62)
EDGE = (0.55, 0.38, 0.22)
WOOD = (0.64, 0.42, 0.23)
SEAL = (0.96, 0.76, 0.22)
COLUMNS = {"blue": (0.22, 0.42, 0.90), "red": (0.88, 0.20, 0.16), "yellow": (0.98, 0.80, 0.20),
           "green": (0.22, 0.66, 0.32)}
BLUE_FLOOR = (0.50, 0.64, 0.95)
GREEN_FLOOR = (0.52, 0.80, 0.45)

# (left, top, right, bottom) in icon units (0..1, y down), rounding, colour, shading
PIECES = [
    ((0.10, 0.80, 0.90, 0.89), 0.025, WOOD, "slab"),                # the base plate
    ((0.17, 0.58, 0.26, 0.80), 0.015, COLUMNS["blue"], "round"),    # columns under the blue floor
    ((0.36, 0.58, 0.45, 0.80), 0.015, COLUMNS["red"], "round"),
    ((0.55, 0.58, 0.64, 0.80), 0.015, COLUMNS["yellow"], "round"),
    ((0.74, 0.58, 0.83, 0.80), 0.015, COLUMNS["green"], "round"),
    ((0.13, 0.51, 0.87, 0.585), 0.025, BLUE_FLOOR, "slab"),         # the blue floor
    ((0.26, 0.31, 0.35, 0.51), 0.015, COLUMNS["red"], "round"),     # columns on it
    ((0.455, 0.31, 0.545, 0.51), 0.015, COLUMNS["green"], "round"),
    ((0.65, 0.31, 0.74, 0.51), 0.015, COLUMNS["yellow"], "round"),
    ((0.21, 0.245, 0.79, 0.315), 0.025, GREEN_FLOOR, "slab"),       # the green floor
    ((0.42, 0.12, 0.58, 0.245), 0.03, SEAL, "slab"),                # the Master Builder Seal on top
]


def _rounded_box(xs, ys, box, radius):
    """Coverage (0/1) of a rounded rectangle at the sample points."""
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, (top + bottom) / 2
    hx, hy = (right - left) / 2 - radius, (bottom - top) / 2 - radius
    qx, qy = np.abs(xs - cx) - hx, np.abs(ys - cy) - hy
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - radius
    return (outside <= 0).astype(np.float64)


def _shade(xs, ys, box, colour, kind):
    """A piece's colour at the sample points: slabs lit from above, columns round (lit left of centre)."""
    left, top, right, bottom = box
    base = np.array(colour)
    if kind == "round":
        u = np.clip((xs - left) / (right - left), 0, 1)
        light = 0.72 + 0.45 * np.cos((u - 0.38) * np.pi) ** 2
    else:
        v = np.clip((ys - top) / (bottom - top), 0, 1)
        light = 1.12 - 0.3 * v
    return np.clip(base * light[..., None], 0, 1)


def draw(size: int) -> np.ndarray:
    """The icon as an RGBA uint8 array, `size` pixels square."""
    n = size * SUPERSAMPLE
    ys, xs = (np.mgrid[0:n, 0:n] + 0.5) / n
    rgb = np.zeros((n, n, 3))
    alpha = _rounded_box(xs, ys, (0.02, 0.02, 0.98, 0.98), 0.18)
    card = np.array(CREAM) * (1 - ys[..., None]) + np.array(CREAM_SHADE) * ys[..., None]
    inner = _rounded_box(xs, ys, (0.02 + 0.025, 0.02 + 0.025, 0.98 - 0.025, 0.98 - 0.025), 0.16)
    rgb[:] = np.where(inner[..., None] > 0, card, np.array(EDGE))
    for box, radius, colour, kind in PIECES:
        shadow = _rounded_box(xs - 0.012, ys - 0.012, box, radius) * inner
        rgb *= 1 - 0.18 * shadow[..., None]
        cover = _rounded_box(xs, ys, box, radius)[..., None]
        rgb = rgb * (1 - cover) + _shade(xs, ys, box, colour, kind) * cover
    rgba = np.dstack([rgb, alpha])
    # average each SUPERSAMPLE² block, colour weighted by coverage so the edges do not darken
    blocks = rgba.reshape(size, SUPERSAMPLE, size, SUPERSAMPLE, 4)
    a = blocks[..., 3].mean(axis=(1, 3))
    premultiplied = (blocks[..., :3] * blocks[..., 3:]).mean(axis=(1, 3))
    colour = np.where(a[..., None] > 0, premultiplied / np.maximum(a, 1e-9)[..., None], 0)
    return (np.dstack([colour, a]) * 255 + 0.5).astype(np.uint8)


def png_bytes(image: np.ndarray) -> bytes:
    """A PNG of an RGBA uint8 array: no filter, zlib at level 9 (always the same bytes)."""
    height, width, _ = image.shape
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico holding a PNG for each size (Windows Vista and later read them)."""
    entries, offset = [], 6 + 16 * len(pngs)
    for size, data in pngs.items():
        side = 0 if size >= 256 else size  # 0 means 256
        entries.append(struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset))
        offset += len(data)
    return struct.pack("<HHH", 0, 1, len(pngs)) + b"".join(entries) + b"".join(pngs.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "icons", help="folder to write to (default: icons/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    pngs = {size: png_bytes(draw(size)) for size in SIZES}
    for size, data in pngs.items():
        (args.out / f"{NAME}-{size}.png").write_bytes(data)
    (args.out / f"{NAME}.ico").write_bytes(ico_bytes(pngs))
    print(f"wrote {len(pngs)} PNGs and {NAME}.ico to {args.out}")


if __name__ == "__main__":
    main()
