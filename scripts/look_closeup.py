#!/usr/bin/env python3
"""docs/look.jpg: the pieces close up, at a graphics quality (High by default): a floor's painted
edge with its plies, columns with their marks, the base plate and the table's grain.

A villa of two floors from a fixed seed, settled by the physics, seen from low beside the
blue floor's rim. Starts a virtual screen itself when no DISPLAY is set. The same
arguments give the same picture.

    python scripts/look_closeup.py [--out docs/look.jpg] [--quality high] [--size 1600x900]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FRAMES = 12          # the shadows, the table's pictures (a quarter a frame), then the picture
JPEG_QUALITY = 90


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "look.jpg")
    parser.add_argument("--quality", default="high", choices=("low", "medium", "high"))
    parser.add_argument("--size", default="1600x900")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--heading", type=float, default=60.0, help="degrees round the villa")
    parser.add_argument("--pitch", type=float, default=9.0, help="degrees above the table")
    parser.add_argument("--distance", type=float, default=22.0, help="cm from the blue floor's rim")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))

    from villa.presentation.xvfb import display_available
    with display_available(width, height):
        from panda3d.core import Filename, PNMImage, Point3, Vec3, loadPrcFileData

        from villa.physics import dimensions as dim
        from villa.physics import layouts
        from villa.physics.world import Villa
        from villa.presentation.stage import WindowOptions, close_window, open_window, stage
        from villa.presentation.view import VillaView

        open_window(WindowOptions(width=width, height=height, sync_video=False, fixed_frame_rate=60, sound=False))
        villa = Villa.from_layout(layouts.random_layout(args.seed, floors=2), setup=False)
        villa.run_until_settled(4.0)
        view = VillaView(stage, args.quality)
        view.show_poses(villa.poses())
        # look at the blue floor's rim on the camera's side, from nearer than the game lets the
        # player come (its camera keeps clear of every piece's bounding sphere)
        h, p = math.radians(args.heading), math.radians(args.pitch)
        towards = Vec3(-math.sin(h) * math.cos(p), -math.cos(h) * math.cos(p), math.sin(p))
        blue = view.scene.pieces["floor-1"]
        rim = max((stage.render.getRelativePoint(blue, Point3(x, y, 0)) for x, y in dim.FLOORS[1].outline),
                  key=lambda q: q.x * towards.x + q.y * towards.y)
        target = Point3(rim.x, rim.y, rim.z - 1.5) - towards * 3.0
        for _ in range(FRAMES):
            view.shadows.before_frame()
            stage.camera.setPos(target + towards * args.distance)
            stage.camera.lookAt(target)
            view.camera_pos[0] = stage.camera.getPos()
            stage.base.graphicsEngine.renderFrame()
        image = PNMImage()
        stage.win.getScreenshot(image)
        image.removeAlpha()
        loadPrcFileData("look", f"jpeg-quality {JPEG_QUALITY}")
        if not image.write(Filename.fromOsSpecific(str(args.out.resolve()))):
            raise OSError(f"could not write {args.out}")
        view.close()
        close_window()
    print(f"saved {args.out} ({width}x{height}, {args.quality}; heading {args.heading:g}°, "
          f"pitch {args.pitch:g}°, {math.floor(args.distance)} cm)")


if __name__ == "__main__":
    main()
