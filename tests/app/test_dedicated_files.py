"""The server's files: each room's autosave and its seats as one file, written by a thread of its own while the
frames play on; on a new start every room taken up again, a file that does not load named and left as it is; a
finished game kept as a replay (tried again when the disk refused it); files left for a month pruned."""

from __future__ import annotations

import json
import os
import threading
import time

from panda3d.core import Point3

from villa import rules
from villa.app import room_files, saves
from villa.app.dedicated import RoomFiles, parse
from villa.match import Match
from villa.match import record as records
from villa.match import requests as rq
from villa.online.server import Room, Seating
from villa.online.server.seating import Sitter
from tests.online.conftest import three_seats


def _room(files: RoomFiles, match: Match, code: str = "ABCDE") -> Room:
    seating = Seating(match.setup.seats, {0: Sitter("Anna", "tok")})
    return Room(code, match.setup, keep=files, record=match.record, seating=seating)


def test_a_room_kept_after_its_turn_is_taken_up_again_and_a_broken_one_is_left(tmp_path, capsys):
    files = RoomFiles(tmp_path)
    match = Match(three_seats())
    _room(files, match).keep()
    assert files.flush()
    document = json.loads((tmp_path / "ABCDE.room.json").read_text(encoding="utf-8"))
    assert records.from_document(document["record"]).state == match.state     # a save like any other, and ...
    assert document["seats"]["seats"]["0"] == {"name": "Anna", "token": "tok"}  # ... its seats, in one file
    (tmp_path / "QQQQQ.room.json").write_text("{ not json", encoding="utf-8")
    (tmp_path / "WWWWW.json").write_text(records.dumps(match.record, "autosave"), encoding="utf-8")
    (tmp_path / "WWWWW.seats.json").write_text(json.dumps({"room": "WWWWW", "seats": {}}), encoding="utf-8")

    rooms = files.under_way()
    assert [r.code for r in rooms] == ["ABCDE", "WWWWW"]        # an earlier version's pair is read as well
    assert rooms[0].seating.sitters[0].token == "tok" and rooms[0].match.state == match.state
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("villa-paletti-server: the room QQQQQ was not taken up: ")
    assert (tmp_path / "QQQQQ.room.json").read_text(encoding="utf-8") == "{ not json"   # never changed
    for room in rooms:
        room.close()
    match.close()


def test_the_command_line_refuses_a_table_of_the_wrong_size(capsys):
    for argv in (["--people", "0", "--computers", "1"], ["--people", "4", "--computers", "1"], ["--port", "0"],
                 ["--keep-days", "0"], ["--people", "-1", "--computers", "3"]):
        try:
            parse(argv)
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError(f"{argv} was accepted")
    assert "2 to 4 seats" in capsys.readouterr().err
    assert parse(["--people", "0", "--computers", "2"]).people == 0     # computer players only, to watch


def test_an_autosave_is_written_off_the_frames_and_a_room_taken_up_meanwhile_is_as_handed_over(tmp_path,
                                                                                                monkeypatch):
    disk = threading.Event()
    write = room_files.write_atomically

    def slow(path, text):                 # a disk that takes its time
        assert disk.wait(10)
        write(path, text)
    monkeypatch.setattr(room_files, "write_atomically", slow)
    files = RoomFiles(tmp_path)
    match = Match(three_seats())
    room = _room(files, match)
    began = time.monotonic()
    room.keep()
    assert time.monotonic() - began < 0.5 and not (tmp_path / "ABCDE.room.json").exists(), "the frames go on"
    again = files.take_up("ABCDE")
    assert again is not None and again.match.state == match.state and again.seating.sitters[0].token == "tok"
    assert not files.flush(0.2), "still writing"
    disk.set()
    assert files.flush() and (tmp_path / "ABCDE.room.json").exists()
    for done in (room, again):
        done.close()
    match.close()


def _fallen() -> Match:
    match = Match(three_seats())
    column = sorted(rules.grabbable_columns(match.state))[0]
    pos = match.villa.nodes[column].getPos()
    rq.ask(match, lambda s: rq.Take(s, column, tuple(Point3(pos))))
    while not (match.over and match.villa.settled):        # shoved through the villa: it falls
        if match.hand is not None:
            rq.ask(match, lambda s: rq.Aim(s, tuple(Point3(-3 * pos.x, -3 * pos.y, pos.z + 40))))
        match.frame()
    return match


def test_a_finished_online_game_is_kept_as_a_replay_tried_again_when_the_disk_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(room_files, "RETRY_S", 0.05)
    save_replay, tries = saves.save_replay, []

    def once_refused(record):
        tries.append(record)
        if len(tries) == 1:
            raise OSError(28, "No space left on device")
        return save_replay(record)
    monkeypatch.setattr(saves, "save_replay", once_refused)
    match = _fallen()
    files = RoomFiles(tmp_path / "online")
    (tmp_path / "online").mkdir()
    (tmp_path / "online" / "ABCDE.room.json").write_text("{}", encoding="utf-8")
    room = _room(files, match)
    room.keep()
    deadline = time.monotonic() + 10
    while len(tries) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert files.flush() and len(tries) == 2 and files.failures == 1
    replays = list(saves.replays_dir().glob("*.json"))
    assert len(replays) == 1 and saves.load(replays[0]).state == match.state
    assert not (tmp_path / "online" / "ABCDE.room.json").exists() and files.take_up("ABCDE") is None
    room.close()
    match.close()


def test_room_files_left_longer_than_the_days_kept_are_pruned(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    files = RoomFiles(tmp_path)
    old, fresh = tmp_path / "QQQQQ.room.json", tmp_path / "WWWWW.room.json"
    for path in (old, fresh):
        path.write_text("{}", encoding="utf-8")
    month_ago = time.time() - 31 * 86400
    os.utime(old, (month_ago, month_ago))
    assert files.prune(30) == 1 and not old.exists() and fresh.exists()
    assert RoomFiles(tmp_path / "nowhere").prune(30) == 0


def test_a_server_that_runs_for_months_prunes_its_room_files_and_replays_every_hour(tmp_path, monkeypatch):
    """Its room files and its replays (a busy server keeps thousands a day), on the writer's thread, as the rooms
    hand it their autosaves: the disk a server takes is bounded by the days it keeps, and a room in play keeps its
    file."""
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    files = RoomFiles(tmp_path / "online", keep_days=2)
    match = Match(three_seats())
    room = _room(files, match)
    room.keep()
    assert files.flush()
    live = tmp_path / "online" / "ABCDE.room.json"
    replays = saves.replays_dir()
    replays.mkdir(parents=True, exist_ok=True)
    old_room, fresh_room = tmp_path / "online" / "QQQQQ.room.json", tmp_path / "online" / "WWWWW.room.json"
    old_replay, fresh_replay = replays / "20260101-000000-old.json", replays / "20260101-000000-fresh.json"
    for path in (old_room, fresh_room, old_replay, fresh_replay):
        path.write_text("{}", encoding="utf-8")
    three_days_ago, a_day_ago = time.time() - 3 * 86400, time.time() - 86400
    for path in (old_room, old_replay):
        os.utime(path, (three_days_ago, three_days_ago))
    for path in (fresh_room, fresh_replay):
        os.utime(path, (a_day_ago, a_day_ago))
    room.keep()                                     # within the hour: nothing is pruned
    assert files.flush() and old_room.exists() and old_replay.exists()

    monkeypatch.setattr(files, "_pruned_at", time.monotonic() - room_files.PRUNE_EVERY_S - 1)
    room.keep()                                     # an hour since the last: the writer prunes
    end = time.monotonic() + 10
    while (old_room.exists() or old_replay.exists()) and time.monotonic() < end:
        time.sleep(0.01)
    assert files.flush()
    assert not old_room.exists() and not old_replay.exists()            # past the days kept: gone
    assert fresh_room.exists() and fresh_replay.exists() and live.exists()  # within them, and the room in play: kept
    room.close()
    match.close()
