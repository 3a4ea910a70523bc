"""The villa's sounds: wooden clacks on contact, a creak under load, the crash.

    sound = Sound()                 # ShowBase's effects manager when a window is open, else its own
    sound.set_volume(settings.volume)
    sound.clack(impact_speed)       # cm/s: louder the harder the hit; soft touches make no sound
    sound.creak(load)               # 0..1 every frame while pulling; 0 (or stop_creak) when done
    sound.crash()

With no sound device (or Panda3D's null audio library) every call does nothing, quietly:
no exception, no error messages (`stage.quiet_audio_errors`).
"""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path

from panda3d.core import AudioManager, Filename

from villa.presentation import assets
from villa.presentation.stage import quiet_audio_errors, stage

log = logging.getLogger(__name__)

SOUNDS = assets.SOUNDS
CLACKS = ("clack-1.wav", "clack-2.wav", "clack-3.wav", "clack-4.wav")
CREAK, CRASH = "creak.wav", "crash.wav"

QUIET_SPEED = 4.0      # cm/s: contacts slower than this are silent
LOUD_SPEED = 120.0     # cm/s: from here on a clack is at full loudness
MIN_GAP = 0.035        # s between two clacks (a settling pile makes hundreds of contacts)
MAX_PER_SECOND = 14
CREAK_THRESHOLD = 0.05


def loudness(speed: float) -> float:
    """0..1 for an impact at `speed` cm/s: silent below QUIET_SPEED, full from LOUD_SPEED, perceptual in between."""
    if speed <= QUIET_SPEED:
        return 0.0
    x = min(1.0, (speed - QUIET_SPEED) / (LOUD_SPEED - QUIET_SPEED))
    return 0.12 + 0.88 * x ** 0.6


def _default_manager():
    if stage.base is not None and getattr(stage.base, "sfxManagerList", None):
        return stage.base.sfxManagerList[0], False
    quiet_audio_errors()
    return AudioManager.createAudioManager(), True


class Sound:
    def __init__(self, manager=None, *, folder: Path = SOUNDS, volume: float = 0.8,
                 rng: random.Random | None = None) -> None:
        self._own_manager = False
        try:
            if manager is None:
                manager, self._own_manager = _default_manager()
        except Exception as error:  # an audio library that will not load is no reason to stop the game
            log.info("no audio: %s", error)
            manager = None
        self.manager = manager
        self.enabled = bool(manager is not None and manager.isValid())
        self.volume = min(1.0, max(0.0, volume))
        self.rng = rng or random.Random()
        self.clacks = []
        self.creak_sound = self.crash_sound = None
        self._creak_level = 0.0
        self._clack_times: list[float] = []
        if self.enabled:
            self.clacks = [s for s in (self._load(folder / name) for name in CLACKS) if s is not None]
            self.creak_sound = self._load(folder / CREAK)
            self.crash_sound = self._load(folder / CRASH)
            if self.creak_sound is not None:
                self.creak_sound.setLoop(True)
        else:
            log.info("no sound device: the game plays silently")

    def _load(self, path: Path):
        if not path.exists():
            log.warning("sound %s is missing", path)
            return None
        try:
            sound = self.manager.getSound(Filename.fromOsSpecific(str(path)))
        except Exception as error:
            log.warning("cannot load %s: %s", path, error)
            return None
        return sound if sound is not None and sound.length() > 0 else None

    # --- the API ---
    def set_volume(self, volume: float) -> None:
        """The master volume, 0..1 (Settings.volume)."""
        self.volume = min(1.0, max(0.0, float(volume)))
        if self.creak_sound is not None:
            self.creak_sound.setVolume(self._creak_level * self.volume)

    def clack(self, speed: float, now: float | None = None) -> float:
        """A wooden clack for a contact at `speed` cm/s; returns the loudness played (0: none)."""
        level = loudness(speed)
        if level <= 0.0 or self.volume <= 0.0:
            return 0.0
        now = self._now() if now is None else now
        recent = [t for t in self._clack_times if now - t < 1.0]
        if (recent and now - recent[-1] < MIN_GAP) or len(recent) >= MAX_PER_SECOND:
            self._clack_times = recent
            return 0.0
        recent.append(now)
        self._clack_times = recent
        if self.clacks:
            sound = self.rng.choice(self.clacks)
            sound.setVolume(level * self.volume)
            sound.setPlayRate(0.92 + 0.16 * self.rng.random())
            sound.play()
        return level

    def creak(self, load: float) -> float:
        """The creak of wood under load, 0..1 (e.g. the pull force over its cap); call each frame; 0 stops it."""
        level = min(1.0, max(0.0, float(load)))
        # follow the load smoothly, so the creak swells and fades instead of jumping
        self._creak_level += (level - self._creak_level) * 0.35
        if level <= 0.0 and self._creak_level < CREAK_THRESHOLD:
            self.stop_creak()
            return 0.0
        if self.creak_sound is not None:
            self.creak_sound.setVolume(self._creak_level * self.volume)
            self.creak_sound.setPlayRate(0.85 + 0.3 * self._creak_level)
            if self._creak_level >= CREAK_THRESHOLD and self.creak_sound.status() != self.creak_sound.PLAYING:
                self.creak_sound.play()
        return self._creak_level

    def stop_creak(self) -> None:
        self._creak_level = 0.0
        if self.creak_sound is not None:
            self.creak_sound.stop()

    def crash(self, strength: float = 1.0) -> None:
        """The villa falls."""
        self.stop_creak()
        if self.crash_sound is not None and self.volume > 0:
            self.crash_sound.setVolume(min(1.0, max(0.2, strength)) * self.volume)
            self.crash_sound.play()

    def update(self) -> None:
        """Only for a manager of its own (no window open): call once a frame."""
        if self.enabled and self._own_manager:
            self.manager.update()

    def close(self) -> None:
        self.stop_creak()
        for sound in [*self.clacks, self.crash_sound]:
            if sound is not None:
                sound.stop()
        if self._own_manager and self.manager is not None:
            self.manager.shutdown()
        self.enabled = False

    @staticmethod
    def _now() -> float:
        if stage.clock is not None:
            return stage.clock.getFrameTime()
        return time.monotonic()
