"""The pieces as model files in models/ (written by scripts/make_models.py): their names, the
few shape choices the size table leaves open, and loading them.

The models are read from the folder assets.py names (the checkout's models/, or the
one beside the built game's executable); each names its textures bare (`floor_blue.jpg`),
found along Panda3D's model path, which holds the textures' folder (see stage.py), so
they load the same from a checkout and from the built game.
"""

from __future__ import annotations

from dataclasses import dataclass

from pathlib import Path

from panda3d.core import Filename, NodePath, SamplerState, TextureStage

from villa.physics import dimensions as dim
from villa.presentation import assets
from villa.rules.pieces import level_of_floor

BASE_SEGMENTS = 96
BASE_CHAMFER = 0.25
FLOOR_CHAMFER = 0.12
COLUMN_CHAMFER = 0.09
# Sides of a round column's polygon: its flats lie within 0.1 mm of the true circle.
COLUMN_SEGMENTS = {"thin": 24, "hex": 6, "thick": 40}


@dataclass(frozen=True)
class SealSize:
    """The Master Builder Seal, a long square block (cm); `rim`: the bare wood round each colour."""

    length: float = 6.2
    side: float = 1.5
    rim: float = 0.16


SEAL = SealSize()


def floor_model(level: int) -> str:
    return f"floor-{level}.bam"


def column_model(kind: str) -> str:
    return f"column-{kind}.bam"


def piece_model(piece: str) -> str:
    """The model file of a piece id ("base", "floor-3", "red-thin-2")."""
    if piece == "base":
        return "base.bam"
    if level_of_floor(piece) is not None:
        return floor_model(int(piece.split("-")[1]))
    return column_model(dim.column_kind(piece))


def texture_names(name: str) -> tuple[str, str]:
    """A texture's picture and its normal map."""
    return f"{name}.jpg", f"{name}_normal.jpg"


def normal_stage() -> TextureStage:
    """The texture stage of the normal maps (the shaders read it as p3d_Texture1)."""
    stage = TextureStage("normal")
    stage.setMode(TextureStage.M_normal)
    stage.setSort(10)
    return stage


_NORMAL_STAGE = normal_stage()


def model_file(model: str) -> Path:
    """Where the game reads a model file ("base.bam") from."""
    return assets.MODELS / model


def load(loader, model: str) -> NodePath:
    """A fresh copy of a model from models/ (Panda3D keeps the file's contents once)."""
    path = model_file(model)
    node = loader.loadModel(Filename.fromOsSpecific(str(path)), okMissing=True)
    if node is None or node.isEmpty():
        raise OSError(f"cannot load {path}: run scripts/make_models.py")
    return node


def paint(loader, node: NodePath, colour: str) -> None:
    """Paint a column model in a player's colour (its stain and its mark)."""
    picture, normals = texture_names(f"column_{colour}")
    for stage, name in ((TextureStage.getDefault(), picture), (_NORMAL_STAGE, normals)):
        texture = loader.loadTexture(name)
        texture.setMinfilter(SamplerState.FT_linear_mipmap_nearest)
        texture.setMagfilter(SamplerState.FT_linear)
        node.setTexture(stage, texture, 1)
