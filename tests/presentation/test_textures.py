"""The texture script makes the same pictures each time, every texture the game loads is there,
and the pictures read as what they show: grain in the wood, paint on the floors, marks on the columns."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
COLOURS = ("blue", "red", "yellow", "green")
FLOORS = ("blue", "green", "yellow", "orange", "red")
PICTURES = (["wood_table", "wood_base", "wood_floor", "column_wood"] + [f"floor_{c}" for c in FLOORS]
            + [f"column_{c}" for c in COLOURS])
NAMES = [f"{name}{kind}.jpg" for name in PICTURES for kind in ("", "_normal")]


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("make_textures", ROOT / "scripts" / "make_textures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# one of each kind: the table, the base plate, a painted floor, a stained column (all of them, which
# takes half a minute, with pytest -m slow)
SAMPLE = ["wood_table", "wood_base", "floor_red", "column_green"]


def _make(folder: Path, names: list[str] | None) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_textures.py"), "--out", str(folder),
                    *(["--only", *names] if names else [])], check=True, capture_output=True)


def _digests(folder: Path, names: list[str]) -> dict[str, str]:
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in names}


def _image(path: Path, step: int = 1) -> np.ndarray:
    from panda3d.core import Filename, PNMImage
    image = PNMImage()
    assert image.read(Filename.fromOsSpecific(str(path)))
    w, h = image.getXSize(), image.getYSize()
    return np.array([[image.getXel(x, y) for x in range(0, w, step)] for y in range(0, h, step)])


def test_every_texture_the_game_loads_is_there():
    for name in NAMES:
        size = (ROOT / "textures" / name).stat().st_size
        assert 20_000 < size < 400_000, f"{name} is {size} bytes"


@pytest.mark.parametrize("sample", [SAMPLE, pytest.param(None, marks=pytest.mark.slow)], ids=["sample", "all"])
def test_the_script_makes_the_committed_textures_again_byte_for_byte(tmp_path, sample):
    _make(tmp_path, sample)
    names = [f"{name}{kind}.jpg" for name in (sample or PICTURES) for kind in ("", "_normal")]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    assert _digests(tmp_path, names) == _digests(ROOT / "textures", names), \
        "run scripts/make_textures.py and commit textures/"


def test_the_same_seed_gives_the_same_grain_and_another_seed_another(script):
    a, _ = script.column_texture(None, 13)
    b, _ = script.column_texture(None, 13)
    c, _ = script.column_texture(None, 14)
    assert np.array_equal(a, b)
    assert np.abs(a - c).mean() > 0.01


def test_the_texture_sizes_follow_the_layouts():
    from panda3d.core import Filename, PNMImageHeader
    expected = {"column": (512, 1024)}
    for name in NAMES:
        header = PNMImageHeader()
        assert header.readHeader(Filename.fromOsSpecific(str(ROOT / "textures" / name)))
        assert (header.getXSize(), header.getYSize()) == expected.get(name.split("_")[0], (1024, 1024)), name


def test_normal_maps_hold_unit_normals_facing_out():
    normals = _image(ROOT / "textures" / "wood_table_normal.jpg", step=8) * 2 - 1
    lengths = np.linalg.norm(normals, axis=2)
    assert np.median(np.abs(lengths - 1)) < 0.03   # JPEG blurs the seams a little: the shaders normalise
    assert normals[..., 2].min() > 0.0 and np.mean(normals[..., 2] > 0.6) > 0.9   # steep only at the seams
    assert normals[..., :2].std() > 0.02, "the grain has relief"


def test_the_table_is_planks_with_grain_across_them_not_smooth_waves(script):
    image, _ = script.table(13)
    grey = image.mean(axis=2)
    # fine grain: much of the variation lies between neighbouring texels across the planks
    fine = np.abs(np.diff(grey, axis=1)).mean()
    assert fine > 0.004
    # along a plank the wood changes slowly (long grain); across, quickly
    assert np.abs(np.diff(grey, axis=0)).mean() < fine
    # the planks differ in colour, board to board
    edges = np.linspace(0, image.shape[1], 8).astype(int)
    means = [grey[:, a + 4:b - 4].mean() for a, b in zip(edges, edges[1:])]
    assert max(means) - min(means) > 0.01


def test_a_floor_is_its_paint_with_the_grain_showing_and_plies_on_its_rim(script):
    image, _ = script.floor_texture(31, script.FLOOR_PAINT["blue"])
    strip = int(round(image.shape[0] * 1 / 16))
    face, rim = image[:-strip], image[-strip:]
    paint = np.asarray(script.FLOOR_PAINT["blue"])
    assert np.abs(face.mean(axis=(0, 1)) - paint).max() < 0.05, "the face is the paint's colour"
    assert 0.005 < face.mean(axis=2).std() < 0.06, "the grain shows, faintly"
    middle = rim[strip // 2]   # half-way through the board: bare plywood, lighter than blue paint
    assert middle.mean() > face.mean() + 0.2


@pytest.mark.parametrize("colour", COLOURS)
def test_each_column_colour_keeps_its_mark_legible(script, colour):
    image, _ = script.column_texture(colour, 21)
    side = image[image.shape[0] // 4:]
    mark = script.column_mark_side(colour, *side.shape[:2]) > 0.5
    stain, inlay = (np.asarray(c) for c in script.COLUMN_STAIN[colour])
    assert 0.05 < mark.mean() < 0.5
    contrast = np.abs(side[mark].mean(axis=0) - side[~mark].mean(axis=0)).sum()
    assert contrast > 0.5, "the mark stands out of the stain"
