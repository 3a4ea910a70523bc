"""The last turn's motion, recorded by the match and kept in its record: a clip of the fall is made from it."""

from __future__ import annotations

import json

import pytest

from villa.match import Match
from villa.match import record as records
from villa.match.motion import LEAD_FRAMES, MAX_FRAMES, RATE, MotionRecorder, from_json, to_json
from tests.match.falls import pulled_through


@pytest.fixture(scope="module")
def fallen():
    return pulled_through()


def _pose(x: float):
    return {"red-thin-1": ((x, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0)), "floor-1": ((0.0, 0.0, 5.0), (1.0, 0.0, 0.0, 0.0))}


def test_a_pull_that_brings_the_villa_down_is_kept_from_the_pull_until_the_pieces_rest(fallen):
    match, column, _player = fallen
    motion = match.motion
    assert motion is not None and motion.fell and motion.turn == match.turn
    assert 0 < motion.fell_at < len(motion.frames) - 1
    first, last = motion.frames[0], motion.frames[-1]
    start = match.record.turns[0].villa["pieces"][column][:3]
    assert max(abs(a - b) for a, b in zip(first[column][0], start)) < 1.0, "it starts as the pull starts"
    assert first["floor-1"] != last["floor-1"], "the fall is in it"
    assert set(last) >= {p for p in match.villa.poses() if p != "base"}


def test_the_motion_loads_back_from_the_record_within_a_tenth_of_a_millimetre(fallen):
    match, _column, _player = fallen
    again = records.from_document(json.loads(records.dumps(match.record, "replay")))
    motion, kept = match.motion, again.motion
    assert (kept.turn, kept.fell_at, len(kept.frames), kept.at) == (motion.turn, motion.fell_at,
                                                                    len(motion.frames), motion.at)
    for frame, back in zip(motion.frames, kept.frames):
        for piece, ((x, y, z), quat) in frame.items():
            (x2, y2, z2), quat2 = back[piece]
            assert max(abs(x - x2), abs(y - y2), abs(z - z2)) <= 0.006
            assert max(abs(a - b) for a, b in zip(quat, quat2)) <= 2e-4
    assert Match(again.setup, again).motion == kept, "a game taken up keeps its last motion"


def test_at_most_twelve_seconds_are_kept_and_a_fall_keeps_its_lead():
    recorder = MotionRecorder()
    for i in range(MAX_FRAMES + 100):
        recorder.add(_pose(i * 0.1))
    assert len(recorder.frames) == MAX_FRAMES and recorder.frames[0]["red-thin-1"][0][0] == pytest.approx(10.0)
    recorder.fell()
    for i in range(MAX_FRAMES):
        recorder.add(_pose(1000 + i))
    assert recorder.fell_at == LEAD_FRAMES, "the seconds before the fall stay; its long end is cut"
    motion = recorder.turn_over(3)
    assert motion.seconds == MAX_FRAMES / RATE and motion.fell and recorder.turn_over(4) is None


def test_a_piece_that_never_moved_is_kept_once(fallen):
    match, _column, _player = fallen
    data = to_json(match.motion)
    still = [p for p, track in data["pieces"].items() if len(track) == 7]
    moving = [p for p, track in data["pieces"].items() if len(track) > 7]
    assert moving and still and len(json.dumps(data)) < 400_000
    assert from_json(data).frames[-1].keys() == match.motion.frames[-1].keys()


@pytest.mark.parametrize("change, said", [
    (lambda d: d.update(frames=10**6), "number of frames"),
    (lambda d: d.update(fell_at=-1), "falls at a frame"),
    (lambda d: d["pieces"].update({"crown": [0] * 7}), "pieces this game does not have"),
    (lambda d: d["pieces"].update({"floor-1": [1, 2, 3]}), "is not"),
])
def test_a_damaged_motion_is_refused_in_one_sentence(fallen, change, said):
    match, _column, _player = fallen
    document = json.loads(records.dumps(match.record, "replay"))
    change(document["motion"])
    with pytest.raises(records.RecordError, match=said):
        records.from_document(document)


def test_a_record_cut_back_to_an_earlier_turn_keeps_no_motion_of_a_later_one(fallen):
    from dataclasses import replace
    match, _column, _player = fallen
    record = match.record
    earlier = replace(record, state=records.state_at(record, record.turns[-2]), turns=record.turns[:-1])
    assert "motion" not in records.content(earlier)
    document = json.loads(records.dumps(match.record, "replay"))
    document["motion"]["turn"] = 999
    assert records.from_document(document).motion is None


def test_a_save_of_an_older_game_without_motion_still_loads(fallen):
    match, _column, _player = fallen
    document = json.loads(records.dumps(match.record, "replay"))
    del document["motion"]
    assert records.from_document(document).motion is None
