"""A clip of the villa's fall (or of the last turn's pull): the recorded motion (`villa.match.motion`) drawn
frame by frame off screen, as the player saw it, with a caption.

    caption = Caption(words.clip_caption(record, motion), words.clip_date(motion.when()))
    film = Film(stage, motion, caption, shot=Shot(heading, pitch))   # stage: an offscreen buffer of the clip's size
    for i in range(len(film)):
        pixels = film.draw(i)        # RGB bytes, the top row first
    film.close()

The camera stands where the player watched from (its heading and height; the whole villa framed) while the
column is pulled; once the villa falls it turns slowly round it and draws back to take in the heap. Drawn at
the Low preset: the software renderer's budget, and a clip plays on small screens. The table is out of focus
as in a close-up photograph: the eye stays on the villa, and a clip of it packs far smaller.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from panda3d.core import (CardMaker, GraphicsOutput, PNMImage, Point3, SamplerState, TextNode, Texture,
                          TransparencyAttrib)

from villa.match.motion import RATE, Motion
from villa.match.record import Record
from villa.presentation import assets, words
from villa.presentation.camera import View
from villa.presentation.fonts import font
from villa.presentation.view import PLAY_PITCH, VillaView

VILLA_SHARE = 0.62          # of the picture's height the standing villa fills
HEAP_SHARE = 0.5            # and the heap, at the end
TURN_DEG = 50.0             # how far the camera goes round the villa once it falls
RISE_DEG = 8.0              # and how much higher it looks down from
STILL_AFTER_FALL_S = 0.4    # the first moment of the fall, seen as the player saw it
HOLD_S = 0.6                # the heap at rest, the camera still, at the end
MIN_PITCH, MAX_PITCH = 14.0, 45.0
TABLE_SOFTNESS = 8          # the table's wood drawn from a picture this many times smaller: out of focus
CAPTION_INK = (0.98, 0.95, 0.88, 1)
CAPTION_SOFT = (0.85, 0.80, 0.72, 1)
BAND = (0.06, 0.045, 0.035, 0.72)
TIME_LINE = (0.85, 0.45, 0.25, 1)


@dataclass(frozen=True)
class Caption:
    """The clip's words, worded where the player reads them (`words.clip_caption`, `words.clip_date`)."""

    line: str
    date: str

    @classmethod
    def of(cls, record: Record, motion: Motion) -> "Caption":
        return cls(words.clip_caption(record, motion), words.clip_date(motion.when()))


@dataclass(frozen=True)
class Shot:
    """Where the player watched from: the camera's heading and pitch (degrees; see `villa.presentation.camera`)."""

    heading: float
    pitch: float


class Film:
    """The motion's frames drawn into the stage's window (an offscreen buffer of the clip's size)."""

    def __init__(self, stage, motion: Motion, caption: Caption, shot: Shot | None = None) -> None:
        self.stage, self.motion = stage, motion
        self.view = VillaView(stage, quality_setting="low")
        self._soften_table()
        self.size = (stage.win.getXSize(), stage.win.getYSize())
        self.path = self._path(shot)
        self.caption = _CaptionBand(stage, caption.line, caption.date)
        self.texture = Texture("clip frame")
        stage.win.addRenderTexture(self.texture, GraphicsOutput.RTM_copy_ram)

    def __len__(self) -> int:
        return len(self.motion.frames)

    @property
    def seconds(self) -> float:
        return len(self) / RATE

    def draw(self, index: int) -> bytes:
        """Frame `index`, drawn: RGB bytes, the top row first."""
        self.pose(index)
        self.stage.base.graphicsEngine.renderFrame()
        width, height = self.size
        rows = np.frombuffer(self.texture.getRamImageAs("RGB"), np.uint8).reshape(height, width * 3)
        return rows[::-1].tobytes()     # (the buffer's rows run from the bottom up)

    def pose(self, index: int) -> None:
        """The pieces and the camera as at frame `index`."""
        self.view.show_poses(self.motion.frames[index])
        self.caption.show_time((index + 1) / len(self))
        self.view.before_frame(0.0)     # the shadows readied (the view's own framing is overruled just below)
        at, camera = self.path(index), self.view.camera
        camera.goal = View(Point3(at.target), at.heading, at.pitch, at.distance)
        camera.view = View(Point3(at.target), at.heading, at.pitch, at.distance)
        camera.apply()
        self.view.camera_pos[0] = camera.position

    def close(self) -> None:
        self.stage.win.clearRenderTextures()
        self.caption.close()
        self.view.close()

    # --- the camera's way ---

    def _framed(self, index: int, heading: float, pitch: float, share: float, heap: bool) -> View:
        self.view.show_poses(self.motion.frames[index])
        camera = self.view.camera
        camera.goal.heading, camera.goal.pitch = heading, pitch
        points = self._heap_points() if heap else self.view.villa_points()
        camera.frame(points, share)
        goal = camera.goal
        return View(Point3(goal.target), goal.heading, goal.pitch, goal.distance)

    def _heap_points(self) -> list[Point3]:
        """Every piece near the base plate (one that rolled far away is let go), with the base plate's rim."""
        points = self.view.villa_points()
        for centre, radius in self.view.scene.obstacles():
            if centre.getXy().length() < 45.0:
                points += [centre + Point3(dx, dy, 0) * radius for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        return points

    def _path(self, shot: Shot | None):
        motion = self.motion
        heading, pitch = (shot.heading, shot.pitch) if shot is not None else (self._facing_the_pull(), PLAY_PITCH)
        pitch = min(MAX_PITCH, max(MIN_PITCH, pitch))
        start = self._framed(0, heading, pitch, VILLA_SHARE, heap=False)
        last = len(motion.frames) - 1
        if motion.fell_at is None:
            return lambda index: start
        end = self._framed(last, heading + TURN_DEG, min(MAX_PITCH, pitch + RISE_DEG), HEAP_SHARE, heap=True)
        end.distance = max(end.distance, start.distance)
        begin = min(last, motion.fell_at + round(STILL_AFTER_FALL_S * RATE))
        finish = max(begin + 1, last - round(HOLD_S * RATE))

        def at(index: int) -> View:
            t = min(1.0, max(0.0, (index - begin) / (finish - begin)))
            t = t * t * (3 - 2 * t)     # eased in and out
            return View(start.target + (end.target - start.target) * t,
                        start.heading + (end.heading - start.heading) * t,
                        start.pitch + (end.pitch - start.pitch) * t,
                        start.distance * (end.distance / start.distance) ** t)
        return at

    def _facing_the_pull(self) -> float:
        """The heading that looks at the villa from the side of the piece that moved most (the column pulled)."""
        first, moment = self.motion.frames[0], self.motion.frames[self.motion.fell_at or -1]
        moved = max(first, key=lambda piece: _distance(first[piece], moment.get(piece, first[piece]))
                    if not piece.startswith("floor") else -1.0)
        x, y = first[moved][0][:2]
        if math.hypot(x, y) < 1.0:
            return -35.0
        return math.degrees(math.atan2(-x, -y))

    def _soften_table(self) -> None:
        soft = [_out_of_focus(name) for name in ("wood_table.jpg", "wood_table_normal.jpg")]
        if all(soft):
            self.view.shadows.table.paint_wood(*soft)


def _out_of_focus(name: str) -> Texture | None:
    """A texture drawn from a picture TABLE_SOFTNESS times smaller than `name`: blurred when seen."""
    picture = PNMImage()
    if not picture.read(assets.panda_path(assets.TEXTURES / name)):
        return None
    small = PNMImage(max(8, picture.getXSize() // TABLE_SOFTNESS), max(8, picture.getYSize() // TABLE_SOFTNESS))
    small.gaussianFilterFrom(1.0, picture)
    soft = Texture(f"{name} out of focus")
    soft.load(small)
    soft.setMinfilter(SamplerState.FT_linear)
    soft.setMagfilter(SamplerState.FT_linear)
    soft.setWrapU(SamplerState.WM_repeat)
    soft.setWrapV(SamplerState.WM_repeat)
    return soft


def _distance(a, b) -> float:
    return math.dist(a[0], b[0])


class _CaptionBand:
    """Who pulled which piece, from under which floor; below it the game's name and date: over a dark band
    along the bottom of the picture."""

    def __init__(self, stage, line: str, date: str) -> None:
        aspect = stage.win.getXSize() / stage.win.getYSize()
        self.root = stage.aspect2d.attachNewNode("clip caption")
        band = CardMaker("caption band")
        band.setFrame(-aspect, aspect, -1.0, -0.78)
        card = self.root.attachNewNode(band.generate())
        card.setColor(*BAND)
        card.setTransparency(TransparencyAttrib.MAlpha)
        left = -aspect + 0.06
        self._text(line, "bold", (left, -0.868), 0.062, CAPTION_INK, wrap=(2 * aspect - 0.12) / 0.062)
        self._text(date, "body", (left, -0.952), 0.045, CAPTION_SOFT)
        self._text(assets.WINDOW_TITLE, "title", (aspect - 0.06, -0.93), 0.06, CAPTION_INK, align=TextNode.ARight)
        line = CardMaker("time line")     # along the band's top: how far the clip has run (no two frames alike)
        line.setFrame(0, 2 * aspect, -0.78, -0.772)
        self.time_line = self.root.attachNewNode(line.generate())
        self.time_line.setPos(-aspect, 0, 0)
        self.time_line.setColor(*TIME_LINE)
        self.time_line.setScale(0.001, 1, 1)

    def show_time(self, share: float) -> None:
        self.time_line.setScale(max(0.001, share), 1, 1)

    def _text(self, words: str, kind: str, pos, scale: float, ink, align=TextNode.ALeft, wrap: float = 0) -> None:
        node = TextNode("caption")
        typeface = font(kind)
        if typeface is not None:
            node.setFont(typeface)
        node.setText(words)
        node.setAlign(align)
        node.setTextColor(*ink)
        node.setShadow(0.04, 0.04)
        node.setShadowColor(0, 0, 0, 0.8)
        if wrap:
            node.setWordwrap(wrap)
        path = self.root.attachNewNode(node)
        path.setScale(scale)
        path.setPos(pos[0], 0, pos[1])

    def close(self) -> None:
        self.root.removeNode()
