"""The last turn's motion: every piece's pose, 30 times a second, from the moment something moved until the
villa lay still again; a clip of the game is made from it (`villa.presentation.clip`).

    recorder = MotionRecorder()
    recorder.frame(villa)         # after every step: kept while anything moves, at RATE
    recorder.fell()               # the villa collapsed now
    motion = recorder.turn_over(turn)   # the turn is written down: its motion, and a fresh recording

At most MAX_S seconds are kept: the last ones, but a fall keeps LEAD_S seconds before the collapse and
loses its end instead. Time in which nothing moved (a player thinking, mid-pull) is left out.

In a record the motion is compact: positions in hundredths of a centimetre and quaternions in
ten-thousandths, as whole numbers, each piece's track as differences from the frame before; a piece that
never moved is one pose.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from villa.physics.pieces import STEP
from villa.rules.pieces import COLUMNS_BY_ID, FLOOR_COLOURS, floor_id

RATE = 30                   # frames a second
MAX_S = 12.0
LEAD_S = 2.0                # a fall: at least this much before it, when the turn had that much
MAX_FRAMES = int(MAX_S * RATE)
LEAD_FRAMES = int(LEAD_S * RATE)
TICKS_PER_FRAME = round(1.0 / (RATE * STEP))
POSITION_UNIT = 0.01        # cm
TURN_UNIT = 1e-4
REACH = 400.0               # cm: no piece is ever farther from the middle of the table
PIECES = frozenset(COLUMNS_BY_ID) | {floor_id(level) for level in range(1, len(FLOOR_COLOURS) + 1)}

Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]


class MotionError(ValueError):
    """A recorded motion that does not hold together; the message says what, in one sentence."""


@dataclass(frozen=True)
class Motion:
    """A turn's motion: `frames[i]` is every piece's pose at frame i (RATE a second); `fell_at`: the frame the
    villa collapsed at (None: it stood); `turn`: the turn whose end it shows; `at`: when (UTC, ISO 8601)."""

    turn: int
    frames: tuple[dict[str, Pose], ...]
    fell_at: int | None
    at: str

    @property
    def seconds(self) -> float:
        return len(self.frames) / RATE

    @property
    def fell(self) -> bool:
        return self.fell_at is not None

    def when(self) -> datetime:
        """When the motion ended, in UTC."""
        try:
            moment = datetime.fromisoformat(self.at)
        except ValueError:
            moment = datetime(1970, 1, 1)
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class MotionRecorder:
    def __init__(self) -> None:
        self.frames: deque[dict[str, Pose]] = deque()
        self.fell_at: int | None = None
        self._last_tick: int | None = None

    def frame(self, villa) -> None:
        """After a step: the poses, if anything moves and a frame's time has passed since the last one kept."""
        if villa.still:
            return
        if self._last_tick is not None and villa.ticks - self._last_tick < TICKS_PER_FRAME:
            return
        self._last_tick = villa.ticks
        self.add(villa.poses())

    def add(self, poses: dict[str, Pose]) -> None:
        poses = {piece: pose for piece, pose in poses.items() if piece in PIECES}
        if len(self.frames) >= MAX_FRAMES:
            if self.fell_at is not None and self.fell_at <= LEAD_FRAMES:
                return            # full: a fall keeps its lead and loses its end
            self.frames.popleft()
            if self.fell_at is not None:
                self.fell_at -= 1
        self.frames.append(poses)

    def fell(self) -> None:
        if self.fell_at is None and self.frames:
            self.fell_at = len(self.frames) - 1

    def turn_over(self, turn: int, at: datetime | None = None) -> Motion | None:
        """The turn is written down: its motion (None: nothing moved), and the recording starts afresh."""
        frames, fell_at = tuple(self.frames), self.fell_at
        self.frames, self.fell_at, self._last_tick = deque(), None, None
        if len(frames) < 2:
            return None
        moment = (at or datetime.now(timezone.utc)).isoformat(timespec="seconds")
        return Motion(turn, frames, fell_at, moment)


# --- in a record -------------------------------------------------------------------------------

def _units(pose: Pose) -> list[int]:
    (x, y, z), quat = pose
    return [round(v / POSITION_UNIT) for v in (x, y, z)] + [round(v / TURN_UNIT) for v in quat]


def to_json(motion: Motion) -> dict[str, Any]:
    tracks, since = {}, {}
    for piece in sorted(motion.frames[-1]):
        first = next(i for i, frame in enumerate(motion.frames) if piece in frame)
        if first:
            since[piece] = first    # brought in during the turn (the floor laid)
        units = [_units(frame[piece]) for frame in motion.frames[first:]]
        if all(u == units[0] for u in units):
            tracks[piece] = units[0]
            continue
        flat = list(units[0])
        for before, now in zip(units, units[1:]):
            flat += [b - a for a, b in zip(before, now)]
        tracks[piece] = flat
    data = {"turn": motion.turn, "rate": RATE, "frames": len(motion.frames), "fell_at": motion.fell_at,
            "at": motion.at, "pieces": tracks}
    if since:
        data["since"] = since
    return data


def from_json(data: Any) -> Motion:
    """Inverse of `to_json`; `MotionError` saying what is wrong."""
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), dict):
        raise MotionError("the recorded motion is damaged")
    count, turn, fell_at, at = (data.get(k) for k in ("frames", "turn", "fell_at", "at"))
    if data.get("rate") != RATE:
        raise MotionError(f"the recorded motion has {data.get('rate')!r} frames a second, not {RATE}")
    if not _whole(count) or not 2 <= count <= MAX_FRAMES:
        raise MotionError(f"the recorded motion has a wrong number of frames ({_short(count)})")
    if not _whole(turn) or turn < 1:
        raise MotionError(f"the recorded motion names no turn ({_short(turn)})")
    if fell_at is not None and (not _whole(fell_at) or not 0 <= fell_at < count):
        raise MotionError(f"the recorded motion falls at a frame it does not have ({_short(fell_at)})")
    if not isinstance(at, str) or len(at) > 40:
        raise MotionError("the recorded motion has no time")
    unknown = sorted(set(data["pieces"]) - PIECES)
    if unknown:
        raise MotionError(f"the recorded motion moves pieces this game does not have: {', '.join(unknown[:3])}")
    since = data.get("since", {})
    if not isinstance(since, dict) or not set(since) <= set(data["pieces"]) \
            or not all(_whole(k) and 0 < k < count - 1 for k in since.values()):
        raise MotionError("the recorded motion brings pieces in at frames it does not have")
    frames: list[dict[str, Pose]] = [{} for _ in range(count)]
    for piece, track in data["pieces"].items():
        first = since.get(piece, 0)
        for index, units in enumerate(_track(piece, track, count - first), start=first):
            frames[index][piece] = _pose(piece, units)
    return Motion(turn, tuple(frames), fell_at, at)


def _track(piece: str, track: Any, count: int) -> list[list[int]]:
    if not isinstance(track, list) or len(track) not in (7, 7 * count) or not all(_whole(v) for v in track):
        raise MotionError(f"the recorded motion of {piece} is not {count} poses")
    if len(track) == 7:
        return [track] * count
    units, now = [], list(track[:7])
    units.append(now)
    for i in range(7, len(track), 7):
        now = [a + d for a, d in zip(now, track[i:i + 7])]
        units.append(now)
    return units


def _pose(piece: str, units: list[int]) -> Pose:
    x, y, z = (u * POSITION_UNIT for u in units[:3])
    quat = [u * TURN_UNIT for u in units[3:]]
    norm = math.sqrt(sum(q * q for q in quat))
    if max(abs(x), abs(y), abs(z)) > REACH or abs(norm - 1.0) > 0.01:
        raise MotionError(f"the recorded motion puts {piece} off the table or turns it by no rotation")
    return (x, y, z), tuple(q / norm for q in quat)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"
