"""The pieces' model files: drawn to the same measurements as the physics bodies, made again
byte for byte by their script, for drawing only, and finding their textures by bare name."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from panda3d.core import Filename, GeomVertexReader, Loader, LoaderOptions, NodePath, TextureAttrib, loadPrcFileData

from villa.physics import dimensions as dim
from villa.presentation import assets, models
from villa.rules.pieces import ALL_COLUMNS

ROOT = Path(__file__).resolve().parents[2]
TOLERANCE = 0.01   # cm: 0.1 mm
MODELS = (["base.bam", "seal.bam"] + [models.floor_model(level) for level in dim.FLOORS]
          + [models.column_model(kind) for kind in dim.COLUMNS])


@pytest.fixture(scope="module")
def load():
    loadPrcFileData("test_models", f"model-path {(ROOT / 'textures').as_posix()}\n"
                                   f"model-path {(ROOT / 'models').as_posix()}")
    loader = Loader.getGlobalPtr()
    options = LoaderOptions(LoaderOptions.LF_search | LoaderOptions.LF_report_errors | LoaderOptions.LF_no_cache)

    def read(name: str) -> NodePath:
        node = loader.loadSync(Filename(name), options)
        assert node is not None, f"{name} does not load"
        return NodePath(node)
    return read


def _points(model: NodePath) -> list[tuple[float, float, float]]:
    points = []
    for geom_node in model.findAllMatches("**/+GeomNode"):
        for geom in geom_node.node().getGeoms():
            reader = GeomVertexReader(geom.getVertexData(), "vertex")
            while not reader.isAtEnd():
                points.append(tuple(reader.getData3()))
    return points


def _distance_to_polygon(x: float, y: float, polygon) -> float:
    best = math.inf
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1]):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x - ax - t * dx, y - ay - t * dy))
    return best


def _rim(points, thickness: float):
    """The outermost ring of vertices: those at the widest height (between the chamfers)."""
    mid = [(x, y) for x, y, z in points if abs(z) < thickness / 2 - 0.02]
    reach = max(math.hypot(x, y) for x, y in mid)
    return mid, reach


def _outline_matches(points, outline, thickness: float) -> None:
    rim, _ = _rim(points, thickness)
    outline = list(outline)
    # every vertex of the model's side lies on the body's outline, or inside it (the chamfers)
    assert max(_distance_to_polygon(x, y, outline) for x, y in rim
               if _distance_to_polygon(x, y, outline) < 0.05) < TOLERANCE
    # and the side reaches every corner of the outline: between vertices the side is straight as well
    for x, y in outline:
        assert min(math.hypot(x - px, y - py) for px, py in rim) < TOLERANCE
    zs = [z for _, _, z in points]
    assert min(zs) == pytest.approx(-thickness / 2, abs=TOLERANCE)
    assert max(zs) == pytest.approx(thickness / 2, abs=TOLERANCE)


@pytest.mark.parametrize("level", sorted(dim.FLOORS))
def test_a_floor_model_is_its_body_s_outline_to_a_tenth_of_a_millimetre(load, level):
    spec = dim.FLOORS[level]
    _outline_matches(_points(load(models.floor_model(level))), spec.outline, spec.thickness)


def test_the_base_plate_model_is_its_disc(load):
    points = _points(load("base.bam"))
    rim, reach = _rim(points, dim.BASE.thickness)
    assert reach == pytest.approx(dim.BASE.radius, abs=TOLERANCE)
    count = len({(round(x, 4), round(y, 4)) for x, y in rim})
    # a polygon inscribed in the disc: its flats lie within a tenth of a millimetre of the circle
    assert dim.BASE.radius * (1 - math.cos(math.pi / count)) < TOLERANCE
    assert max(abs(z) for *_, z in points) == pytest.approx(dim.BASE.thickness / 2, abs=TOLERANCE)


@pytest.mark.parametrize("kind", sorted(dim.COLUMNS))
def test_a_column_model_is_its_body_to_a_tenth_of_a_millimetre(load, kind):
    from panda3d.bullet import BulletConvexHullShape, BulletCylinderShape

    from villa.physics.bodies import column_body
    spec = dim.COLUMNS[kind]
    points = _points(load(models.column_model(kind)))
    body = column_body(f"blue-{kind}", spec)
    core = [body.getShape(i) for i in range(body.getNumShapes())
            if isinstance(body.getShape(i), (BulletCylinderShape, BulletConvexHullShape))][0]
    rim, reach = _rim(points, spec.height)
    if spec.sides:   # the body's hull is made from the same corners
        _outline_matches(points, spec.corners(), spec.height)
    else:
        assert core.getRadius() == pytest.approx(reach, abs=TOLERANCE)
        count = len({(round(x, 4), round(y, 4)) for x, y in rim})
        assert spec.radius * (1 - math.cos(math.pi / count)) < TOLERANCE
    assert max(z for *_, z in points) - min(z for *_, z in points) == pytest.approx(spec.height, abs=TOLERANCE)


def test_the_seal_is_its_size(load):
    points = _points(load("seal.bam"))
    spans = [max(p[i] for p in points) - min(p[i] for p in points) for i in range(3)]
    assert spans[0] == pytest.approx(models.SEAL.length, abs=TOLERANCE)
    assert spans[1] == pytest.approx(models.SEAL.side, abs=0.02)   # the paint stands a hair proud


@pytest.mark.parametrize("name", MODELS)
def test_a_model_is_for_drawing_only_and_names_its_textures_bare(load, name):
    model = load(name)
    assert model.findAllMatches("**/+CollisionNode").getNumPaths() == 0
    textures = []
    for node in model.findAllMatches("**/+GeomNode"):
        for i in range(node.node().getNumGeoms()):
            attrib = node.node().getGeomState(i).getAttrib(TextureAttrib)
            attrib = attrib or node.getState().getAttrib(TextureAttrib)
            textures += [attrib.getOnTexture(stage) for stage in attrib.getOnStages()]
    assert len(textures) == 2, "a picture and its normal map"
    # the file names each texture bare, to be found along the model path wherever the game lies
    data = (ROOT / "models" / name).read_bytes()
    for texture in textures:
        bare = texture.getFilename().getBasename()
        assert (ROOT / "textures" / bare).exists()
        assert bare.encode() in data
    assert str(ROOT).encode() not in data and b"textures/" not in data


def test_the_game_reads_every_piece_from_the_models_folder_the_assets_name():
    pieces = ["base", *(f"floor-{level}" for level in dim.FLOORS), *(column.id for column in ALL_COLUMNS)]
    files = {models.model_file(models.piece_model(piece)) for piece in pieces}
    assert {path.parent for path in files} == {assets.MODELS}   # beside the executable in the built game
    assert all(path.is_file() for path in files) and len(files) == len(MODELS) - 1   # the seal is drawn apart


def test_making_the_models_again_gives_the_same_bytes(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_models.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    for name in MODELS:
        assert (tmp_path / name).read_bytes() == (ROOT / "models" / name).read_bytes(), \
            f"{name}: run scripts/make_models.py and commit models/"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(MODELS)
