"""Synthesize the game's sounds into sounds/: wooden clacks, a creak under load, a crash.

Run: .venv/bin/python scripts/make_sounds.py
Every sound is built from decaying resonances and filtered noise, seeded, so the
output is the same on every run; the WAV files are committed.
"""

from __future__ import annotations

import argparse
import wave
from pathlib import Path

import numpy as np

RATE = 44100
OUT = Path(__file__).resolve().parent.parent / "sounds"


def _seconds(duration: float) -> np.ndarray:
    return np.arange(int(duration * RATE)) / RATE


def _lowpass(signal: np.ndarray, cutoff_hz: float) -> np.ndarray:
    """One-pole low-pass: enough to take the hiss off noise."""
    alpha = 1.0 - np.exp(-2.0 * np.pi * cutoff_hz / RATE)
    out = np.empty_like(signal)
    acc = 0.0
    for i, x in enumerate(signal):
        acc += alpha * (x - acc)
        out[i] = acc
    return out


def clack(rng: np.random.Generator, pitch: float = 1.0, duration: float = 0.18) -> np.ndarray:
    """Hard wood striking wood: a click and a few fast-decaying body modes."""
    t = _seconds(duration)
    modes = np.array([620.0, 1330.0, 2150.0, 3400.0]) * pitch * rng.uniform(0.94, 1.06, 4)
    decays = np.array([38.0, 55.0, 80.0, 120.0]) * rng.uniform(0.9, 1.1, 4)
    gains = np.array([1.0, 0.7, 0.45, 0.25])
    body = sum(g * np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi)) * np.exp(-d * t)
               for f, d, g in zip(modes, decays, gains))
    click = rng.normal(0, 1, t.size) * np.exp(-t * 900.0)
    return body + 0.8 * click


def creak(rng: np.random.Generator, duration: float = 1.2) -> np.ndarray:
    """Wood sliding under load: stick-slip pulses at an uneven, wandering rate."""
    t = _seconds(duration)
    out = np.zeros_like(t)
    rate_hz = 28.0
    time = 0.0
    while time < duration - 0.05:
        start = int(time * RATE)
        pulse = clack(rng, pitch=rng.uniform(0.35, 0.5), duration=0.05)
        end = min(start + pulse.size, out.size)
        out[start:end] += pulse[: end - start] * rng.uniform(0.3, 1.0)
        rate_hz = float(np.clip(rate_hz + rng.normal(0, 4), 14, 45))
        time += 1.0 / rate_hz
    envelope = np.sin(np.pi * t / duration) ** 0.5
    return _lowpass(out * envelope, 2500.0)


def crash(rng: np.random.Generator, duration: float = 2.4) -> np.ndarray:
    """The villa falling: a thump, then a shower of clacks thinning out."""
    t = _seconds(duration)
    out = 1.6 * np.sin(2 * np.pi * 70 * t) * np.exp(-t * 9.0)
    out += _lowpass(rng.normal(0, 1, t.size), 600.0) * np.exp(-t * 2.5) * 2.0
    for _ in range(70):
        at = rng.exponential(0.45)
        if at >= duration - 0.2:
            continue
        hit = clack(rng, pitch=rng.uniform(0.6, 1.4)) * rng.uniform(0.2, 1.0) * np.exp(-at * 1.2)
        start = int(at * RATE)
        out[start:start + hit.size] += hit[: out.size - start]
    return out


def write_wav(path: Path, signal: np.ndarray, peak: float = 0.85) -> None:
    fade = min(400, signal.size // 4)
    signal = signal.copy()
    signal[-fade:] *= np.linspace(1, 0, fade)  # no click at the end
    signal *= peak / max(1e-9, float(np.max(np.abs(signal))))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes((signal * 32767).astype("<i2").tobytes())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write into (default: sounds/)")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(2001)
    for n, pitch in enumerate((0.85, 1.0, 1.15, 1.3), start=1):
        write_wav(out / f"clack-{n}.wav", clack(rng, pitch))
    write_wav(out / "creak.wav", creak(rng), peak=0.6)
    write_wav(out / "crash.wav", crash(rng))
    print(f"sounds written to {out}")


if __name__ == "__main__":
    main()
