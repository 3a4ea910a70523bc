"""The texture script makes small, repeatable pictures, and every texture the scene loads is there."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["wood_floor.jpg", "wood_base.jpg", "wood_table.jpg",
         "column_blue.jpg", "column_red.jpg", "column_yellow.jpg", "column_green.jpg"]


def _make(folder: Path) -> dict[str, str]:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_textures.py"), "--out", str(folder)],
                   check=True, capture_output=True)
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in NAMES}


def test_the_script_makes_every_texture_small_and_the_same_each_time(tmp_path):
    first = _make(tmp_path / "a")
    assert first == _make(tmp_path / "b")
    for name in NAMES:
        size = (tmp_path / "a" / name).stat().st_size
        assert 5_000 < size < 200_000, f"{name} is {size} bytes"


def test_the_committed_textures_are_the_ones_the_script_makes(tmp_path):
    made = _make(tmp_path)
    committed = {name: hashlib.sha256((ROOT / "textures" / name).read_bytes()).hexdigest() for name in NAMES}
    assert committed == made, "run scripts/make_textures.py and commit textures/"


def test_the_textures_are_512_square():
    from panda3d.core import Filename, PNMImageHeader
    for name in NAMES:
        header = PNMImageHeader()
        assert header.readHeader(Filename.fromOsSpecific(str(ROOT / "textures" / name)))
        assert (header.getXSize(), header.getYSize()) == (512, 512)
