"""Sound: loudness from impact speed, a creak that follows the load, a crash; silent without a device."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from villa.presentation import sound as sound_module
from villa.presentation.sound import LOUD_SPEED, QUIET_SPEED, Sound, loudness

ROOT = Path(__file__).resolve().parents[3]


class FakeSound:
    PLAYING, READY = 2, 1

    def __init__(self, name: str) -> None:
        self.name, self.volume, self.rate, self.looping, self.playing, self.plays = name, 1.0, 1.0, False, False, 0

    def length(self) -> float:
        return 0.5

    def setVolume(self, volume):  # noqa: N802 (Panda3D's names)
        self.volume = volume

    def setPlayRate(self, rate):  # noqa: N802
        self.rate = rate

    def setLoop(self, loop):  # noqa: N802
        self.looping = loop

    def play(self):
        self.playing, self.plays = True, self.plays + 1

    def stop(self):
        self.playing = False

    def status(self):
        return self.PLAYING if self.playing else self.READY


class FakeManager:
    def __init__(self, valid: bool = True) -> None:
        self.valid, self.sounds = valid, {}

    def isValid(self):  # noqa: N802
        return self.valid

    def getSound(self, filename):  # noqa: N802
        sound = FakeSound(filename.getBasename())
        self.sounds[sound.name] = sound
        return sound


def test_loudness_grows_with_impact_speed():
    assert loudness(0) == 0 and loudness(QUIET_SPEED) == 0
    speeds = [QUIET_SPEED + 1, 10, 30, 60, LOUD_SPEED]
    levels = [loudness(s) for s in speeds]
    assert levels == sorted(levels) and len(set(levels)) == len(levels)
    assert levels[-1] == pytest.approx(1.0) and loudness(10 * LOUD_SPEED) == pytest.approx(1.0)


def test_a_clack_is_as_loud_as_the_hit_times_the_volume():
    manager = FakeManager()
    sound = Sound(manager, volume=0.5)
    assert sound.enabled and len(sound.clacks) == 4
    assert sound.clack(2.0, now=0.0) == 0.0  # a soft touch is silent
    level = sound.clack(60.0, now=1.0)
    played = [s for s in sound.clacks if s.plays]
    assert len(played) == 1 and played[0].volume == pytest.approx(level * 0.5)
    assert sound.clack(60.0, now=1.01) == 0.0  # too soon after the last one
    assert sound.clack(60.0, now=1.2) > 0


def test_a_settling_pile_does_not_machine_gun():
    sound = Sound(FakeManager())
    heard = sum(sound.clack(80.0, now=i * 0.005) > 0 for i in range(400))  # 2 s of contacts
    assert heard <= 2 * sound_module.MAX_PER_SECOND


def test_the_creak_follows_the_load():
    manager = FakeManager()
    sound = Sound(manager, volume=1.0)
    creak = manager.sounds["creak.wav"]
    assert creak.looping
    levels = [sound.creak(0.8) for _ in range(20)]
    assert creak.playing and levels == sorted(levels) and levels[-1] == pytest.approx(0.8, abs=0.01)
    assert creak.volume == pytest.approx(levels[-1])
    sound.set_volume(0.5)
    assert creak.volume == pytest.approx(levels[-1] * 0.5)
    for _ in range(30):
        sound.creak(0.0)
    assert not creak.playing


def test_the_crash_stops_the_creak():
    manager = FakeManager()
    sound = Sound(manager)
    for _ in range(10):
        sound.creak(1.0)
    sound.crash()
    assert manager.sounds["crash.wav"].plays == 1 and not manager.sounds["creak.wav"].playing


def test_volume_zero_is_silent_and_volume_is_clamped():
    sound = Sound(FakeManager(), volume=0.0)
    assert sound.clack(100.0, now=0.0) == 0.0
    sound.set_volume(7)
    assert sound.volume == 1.0


def test_an_invalid_manager_makes_no_sound_and_no_fuss():
    sound = Sound(FakeManager(valid=False))
    assert not sound.enabled and sound.clacks == [] and sound.creak_sound is None
    sound.clack(100.0)
    sound.creak(1.0)
    sound.crash()
    sound.set_volume(0.3)
    sound.close()


def test_on_a_machine_without_a_sound_device(tmp_path):
    """The real audio library, no sound card: no exception and not one line of complaint."""
    script = (
        "from panda3d.core import loadPrcFileData\n"
        "loadPrcFileData('test', 'audio-library-name p3openal_audio')\n"
        "from villa.presentation.sound import Sound\n"
        "sound = Sound()\n"
        "for speed in (1, 50, 200):\n"
        "    sound.clack(speed)\n"
        "for load in (0.2, 0.9, 0.0):\n"
        "    sound.creak(load)\n"
        "sound.crash()\n"
        "sound.set_volume(0.4)\n"
        "sound.update()\n"
        "sound.close()\n"
        "print('enabled' if sound.enabled else 'silent')\n"
    )
    has_device = Path("/dev/snd").exists()
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    if not has_device:
        assert done.stdout.strip() == "silent"
        assert done.stderr.strip() == "", done.stderr
