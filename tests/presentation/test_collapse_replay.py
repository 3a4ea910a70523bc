"""The collapse's slow-motion replay and the clacks, without a window."""

from __future__ import annotations

from villa.presentation.collapse_replay import BEFORE, MAX_AFTER, SLOW_MOTION, CollapseRecorder, Playback
from villa.presentation.impacts import Impacts


def _poses(t: float):
    return {"floor-1": ((t, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0))}


def test_the_recording_keeps_a_second_before_the_fall_and_stops_once_all_is_at_rest():
    recorder = CollapseRecorder()
    for i in range(600):
        recorder.add(i / 60, _poses(i / 60))
    assert recorder.frames[-1][0] - recorder.frames[0][0] <= BEFORE
    recorder.fell(10.0)
    recorder.add(10.5, _poses(10.5))
    assert not recorder.done
    recorder.add(11.0, _poses(11.0), at_rest=True)
    assert recorder.done
    recorder.add(12.0, _poses(12.0))
    assert recorder.frames[-1][0] == 11.0


def test_a_fall_that_never_rests_is_recorded_for_a_few_seconds_at_most():
    recorder = CollapseRecorder()
    recorder.fell(0.0)
    for i in range(1, 600):
        recorder.add(i / 60, _poses(i / 60))
    assert recorder.done and recorder.frames[-1][0] <= MAX_AFTER + 0.02


def test_the_playback_runs_at_a_quarter_speed_and_ends():
    frames = [(i / 60, _poses(i / 60)) for i in range(61)]   # one second of fall
    playback = Playback(frames)
    assert abs(playback.length - 1 / SLOW_MOTION) < 1e-9
    shown = playback.advance(1.0)   # a second of playback shows a quarter second of the fall
    assert abs(shown["floor-1"][0][0] - 0.25) < 1 / 60
    assert playback.advance(2.0) is not None and playback.advance(1.1) is None


def test_a_piece_stopping_short_is_a_clack_at_the_speed_it_lost():
    ears = Impacts()
    dt = 1 / 60
    assert ears.hits({"a": ((0, 0, 10.0), None)}, dt) == []
    assert ears.hits({"a": ((0, 0, 9.0), None)}, dt) == []        # falling at 60 cm/s
    hits = ears.hits({"a": ((0, 0, 8.95), None)}, dt)             # and stopped on the table
    assert len(hits) == 1 and 50 < hits[0] < 60
    assert ears.hits({"a": ((0, 0, 8.95), None)}, dt, moving=False) == []
