"""The dedicated server's files: each room's autosave in the record format of every save, its seats in the same
file, and on a new start every room taken up again; a file that does not load is named and left as it is."""

from __future__ import annotations

import json

from panda3d.core import Point3

from villa import rules
from villa.app import saves
from villa.app.dedicated import parse
from villa.app.room_files import RoomFiles
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match import record as records
from villa.match import requests as rq
from villa.online.server import Room, Seating
from villa.online.server.seating import Sitter


def three_seats(seed: int = 3) -> MatchSetup:
    """Two people's seats and a computer player's; the colours dealt (the seat with the computer starts)."""
    return MatchSetup((Seat("Seat 1"), Seat("Seat 2"), Seat("Computer", Strength.EASY)), layout_named("random", seed),
                      seed=seed, deal_colours=True)


def kept_room(files: RoomFiles, match: Match) -> Room:
    """A room playing `match` as its autosave has it, Anna sat at the first seat with her token."""
    seating = Seating(match.setup.seats, {0: Sitter("Anna", "tok")})
    return Room("ABCDE", match.setup, keep=files, record=match.record, seating=seating)


def test_a_room_kept_after_its_turn_is_taken_up_again_and_a_broken_one_is_left(tmp_path, capsys):
    files = RoomFiles(tmp_path)
    match = Match(three_seats())
    room = kept_room(files, match)
    room.keep()
    assert files.flush()
    document = json.loads((tmp_path / "ABCDE.room.json").read_text(encoding="utf-8"))
    assert records.from_document(document["record"]).state == match.state      # a save like any other, inside
    assert document["seats"]["seats"]["0"] == {"name": "Anna", "token": "tok"}
    (tmp_path / "QQQQQ.room.json").write_text("{ not json", encoding="utf-8")

    rooms = files.under_way()
    assert [r.code for r in rooms] == ["ABCDE"]
    assert rooms[0].seating.sitters[0].token == "tok" and rooms[0].match.state == match.state
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("villa-paletti-server: the room QQQQQ was not taken up: ")
    assert (tmp_path / "QQQQQ.room.json").read_text(encoding="utf-8") == "{ not json"   # never changed
    for taken in rooms:
        taken.close()
    room.close()
    match.close()


def test_the_command_line_refuses_a_table_without_a_person(capsys):
    for argv in (["--people", "0", "--computers", "2"], ["--people", "4", "--computers", "1"], ["--port", "0"]):
        try:
            parse(argv)
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError(f"{argv} was accepted")
    assert "2 to 4 seats" in capsys.readouterr().err


def test_a_finished_online_game_is_kept_as_a_replay_and_not_taken_up_again(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path / "home"))
    match = Match(three_seats())
    column = sorted(rules.grabbable_columns(match.state))[0]
    pos = match.villa.nodes[column].getPos()
    rq.ask(match, lambda s: rq.Take(s, column, tuple(Point3(pos))))
    while not (match.over and match.villa.settled):        # shoved through the villa: it falls
        if match.hand is not None:
            rq.ask(match, lambda s: rq.Aim(s, tuple(Point3(-3 * pos.x, -3 * pos.y, pos.z + 40))))
        match.frame()
    files = RoomFiles(tmp_path / "online")
    room = kept_room(files, match)
    room.keep()
    room.keep()
    assert files.flush()
    replays = list(saves.replays_dir().glob("*.json"))
    assert len(replays) == 1 and saves.load(replays[0]).state == match.state
    assert files.under_way() == [] and not list((tmp_path / "online").glob("*.room.json"))
    room.close()
    match.close()
