#!/usr/bin/env python3
"""Write the pieces to models/ as Panda3D .bam files: the base plate, the five floors, each
column kind and the Master Builder Seal.

Their sizes come from villa/physics/dimensions.py, the one table the physics builds its
bodies from, so a model and its body cannot drift apart. The models are for drawing
only (no collision shapes: the physics does the touching). Each refers to its textures
by bare name (`floor_blue.jpg`), found along the model path wherever the game is
installed. A column model is bare maple; the game paints each column in its colour.

Deterministic: running it again writes the same bytes.

    python scripts/make_models.py [--out models]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from villa.physics import dimensions as dim  # noqa: E402
from villa.presentation import meshes  # noqa: E402
from villa.presentation.models import (BASE_CHAMFER, BASE_SEGMENTS, COLUMN_CHAMFER, COLUMN_SEGMENTS,  # noqa: E402
                                       FLOOR_CHAMFER, SEAL, column_model, floor_model, normal_stage, texture_names)

# A column always stands between two surfaces: its ends see less of the sky. Light baked
# into the side's vertices, darkest where it meets the floor (about a third less), gone
# within a couple of centimetres.
END_SHADE = 0.32
END_SHADE_REACH = 0.55       # cm: e-folding length up the side
END_SHADE_RINGS = (0.2, 0.6, 1.4)   # cm from each end: rows of vertices for it

# the seal's long faces in turn: blue, green, yellow, red
SEAL_PAINTS = ((0.14, 0.33, 0.72), (0.16, 0.50, 0.23), (0.94, 0.75, 0.15), (0.76, 0.14, 0.11))


def column_shade(height: float):
    def shade(x: float, y: float, z: float) -> float:
        below, above = z + height / 2, height / 2 - z
        return 1.0 - END_SHADE * (math.exp(-below / END_SHADE_REACH) + math.exp(-above / END_SHADE_REACH))
    return shade


def pieces():
    """(file name, GeomNode, texture name) for every model."""
    base = dim.BASE
    yield "base.bam", meshes.extrusion(
        "base", meshes.circle(base.radius, BASE_SEGMENTS), -base.thickness / 2, base.thickness / 2,
        chamfer=BASE_CHAMFER, uv=meshes.FaceUV(meshes.BASE_FACE_CM)), "wood_base"
    for level, spec in dim.FLOORS.items():
        yield floor_model(level), meshes.extrusion(
            f"floor-{level}", spec.outline, -spec.thickness / 2, spec.thickness / 2, chamfer=FLOOR_CHAMFER,
            uv=meshes.FaceUV(meshes.FLOOR_FACE_CM)), f"floor_{spec.colour}"
    for kind, spec in dim.COLUMNS.items():
        outline = list(spec.corners()) if spec.sides else meshes.circle(spec.radius, COLUMN_SEGMENTS[kind])
        h = spec.height / 2
        rings = [z for d in END_SHADE_RINGS for z in (-h + d, h - d)]
        yield column_model(kind), meshes.extrusion(
            f"column-{kind}", outline, -h, h, chamfer=COLUMN_CHAMFER, smooth=not spec.sides,
            uv=meshes.ColumnUV(), rings=rings, shade=column_shade(spec.height)), "column_wood"
    yield "seal.bam", meshes.seal("seal", SEAL.length, SEAL.side, SEAL_PAINTS, SEAL.rim), "wood_floor"


def write(folder: Path) -> list[Path]:
    from panda3d.core import Filename, ModelRoot, NodePath, SamplerState, TexturePool, TextureStage, loadPrcFileData
    loadPrcFileData("make_models", "\n".join([
        f"model-path {(ROOT / 'textures').as_posix()}",
        "bam-texture-mode unchanged",   # bare names: found along the model path when loaded
        "notify-level-gobj error",
    ]))
    normal = normal_stage()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for file_name, geom_node, texture in pieces():
        root = NodePath(ModelRoot(file_name.removesuffix(".bam")))
        node = root.attachNewNode(geom_node)
        for stage, name in zip((TextureStage.getDefault(), normal), texture_names(texture)):
            image = TexturePool.loadTexture(name)
            if not image:
                raise OSError(f"{name} is missing: run scripts/make_textures.py first")
            image.setFilename(name)
            # one mipmap level per look-up: software renderers pay twice for blending two levels
            image.setMinfilter(SamplerState.FT_linear_mipmap_nearest)
            image.setMagfilter(SamplerState.FT_linear)
            node.setTexture(stage, image)
        path = folder / file_name
        if not root.writeBamFile(Filename.fromOsSpecific(str(path))):
            raise OSError(f"could not write {path}")
        written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "models")
    args = parser.parse_args()
    written = write(args.out)
    print(f"{len(written)} models written to {args.out}")


if __name__ == "__main__":
    main()
