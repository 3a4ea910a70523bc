"""The floors' outlines for many points at once (numpy): signed distances and "under a floor", for
planning. The physics' own tests (`villa.physics.geometry`, `pulling.under_a_floor`) judge one point
at a time, exactly; a plan looks at thousands of points, so it asks the same questions in bulk."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from villa.physics import bodies
from villa.physics.dimensions import FLOORS


@lru_cache(maxsize=None)
def _edges(level: int) -> tuple[np.ndarray, np.ndarray]:
    poly = np.asarray(FLOORS[level].outline, dtype=float)
    return poly, np.roll(poly, -1, axis=0)


@lru_cache(maxsize=None)
def _slabs(level: int) -> np.ndarray:
    return np.asarray(bodies.floor_slabs(level), dtype=float)


def signed_distance(level: int, points: np.ndarray) -> np.ndarray:
    """Distance of each local point (N x 2) to the floor's outline: positive inside, negative outside."""
    a, b = _edges(level)
    p = points[:, None, :]
    d = b - a
    t = np.clip(((p - a) * d).sum(-1) / (d * d).sum(-1), 0.0, 1.0)
    nearest = a + t[..., None] * d
    distance = np.sqrt(((p - nearest) ** 2).sum(-1)).min(axis=1)
    x, y = points[:, 0:1], points[:, 1:2]
    crosses = ((a[:, 1] > y) != (b[:, 1] > y)) & \
        (x < a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / np.where(b[:, 1] == a[:, 1], 1e-12, b[:, 1] - a[:, 1]))
    inside = crosses.sum(axis=1) % 2 == 1
    return np.where(inside, distance, -distance)


def to_local(points: np.ndarray, x: float, y: float, yaw_deg: float) -> np.ndarray:
    a = np.radians(yaw_deg)
    c, s = np.cos(a), np.sin(a)
    dx, dy = points[:, 0] - x, points[:, 1] - y
    return np.stack([c * dx + s * dy, -s * dx + c * dy], axis=1)


def to_world(points: np.ndarray, x: float, y: float, yaw_deg: float) -> np.ndarray:
    a = np.radians(yaw_deg)
    c, s = np.cos(a), np.sin(a)
    return np.stack([x + c * points[:, 0] - s * points[:, 1], y + s * points[:, 0] + c * points[:, 1]], axis=1)


def under(level: int, local: np.ndarray, reach: float) -> np.ndarray:
    """Which local points (N x 2) a column of `reach` (radius and margin) would stand under the floor:
    its outline or its box slabs (they reach a little past the outline here and there)."""
    hit = signed_distance(level, local) > -reach
    slabs = _slabs(level)
    dx = np.maximum(np.abs(local[:, None, 0] - slabs[:, 0]) - slabs[:, 2], 0.0)
    dy = np.maximum(np.abs(local[:, None, 1] - slabs[:, 1]) - slabs[:, 3], 0.0)
    return hit | ((dx * dx + dy * dy) < reach * reach).any(axis=1)
