"""The parts a fleet keeps of a room, without Redis: a journal entry read back as it was written, news held at the
room's gate until its write is done and let out in order, a game written as its parts (the recipe, each settled
turn, the seats) read back as the same record, and what a window says of its moves in flight when it comes back."""

from __future__ import annotations

import dataclasses
import json

from villa import rules
from villa.app import headless
from villa.match import Match, MatchSetup, Seat, Strength, layout_named
from villa.match import record as records
from villa.match import requests as rq
from villa.online.client.in_flight import InFlight
from villa.online.fleet import documents
from villa.online.protocol import Online, OnlineError, refusal_parts
from villa.online.server import Room
from villa.online.server.gate import Gate
from villa.online.server.journal import MARK, PERSON, ROOM, Entry, Journal


def test_a_journal_entry_reads_back_as_it_was_written():
    for entry in (Entry(7, 3, 1920, PERSON, rq.Aim(1, (1.5, -2.25, 9.0))), Entry(8, 3, 1928, ROOM, rq.GiveUp(0)),
                  Entry(9, 4, 2048, MARK)):
        assert Entry.from_bytes(entry.to_bytes()) == entry
    journal = Journal()
    assert journal.seq == 0 and not journal.entries


def test_news_waits_at_the_gate_for_its_write_and_goes_out_in_order():
    sent = []
    gate = Gate(lambda client, message: sent.append((client, message)))
    gate.send(1, "before")                       # nothing to wait for: at once
    gate.wait_for(3)
    gate.send(1, "a")
    gate.send(2, "b")
    gate.wait_for(5)
    gate.send(1, "c")
    assert sent == [(1, "before")] and gate.holding == 3
    gate.written(4)                              # what waited for 3 goes, what waits for 5 stays
    assert sent == [(1, "before"), (1, "a"), (2, "b")] and gate.holding == 1
    gate.written(5)
    assert sent[-1] == (1, "c") and gate.holding == 0
    gate.wait_for(6)
    gate.send(1, "never")
    gate.drop()                                  # the room let go: what was never written is never told
    gate.written(6)
    assert sent[-1] == (1, "c")


def test_a_game_written_as_its_parts_reads_back_as_the_same_record():
    """All but the last turn's motion (a clip's: 66 kB here, more than the rest of the game), which Redis is spared:
    a room taken over records the motion of the turns it plays itself."""
    setup = MatchSetup((Seat("Ann", Strength.EASY), Seat("Ben", Strength.EASY)), layout_named("rings", 2), seed=2,
                       deal_colours=True)
    match = Match(setup)
    headless.play(match, 3, Strength.EASY)
    room = Room("K7QWE", setup, record=match.record)
    record, seats = room.kept()
    log = record.state.log
    turns = [documents.turn_entry(turn, log, record.turns[n - 1].actions if n else len(record.start.log), None,
                                  seats["asked"] if n == len(record.turns) - 1 else {})
             for n, turn in enumerate(record.turns)]
    kept = documents.read_room(documents.game_document(record), documents.seats_document(room), turns, [], 0)
    assert record.motion is not None and kept.record.motion is None
    assert records.content(kept.record) == records.content(dataclasses.replace(record, motion=None))
    assert kept.seats["room"] == "K7QWE" and kept.entries == ()
    room.close()
    match.close()


def test_a_room_that_does_not_read_is_said_so():
    try:
        documents.read_room(b"{}", b"{}", [b"{}"], [], 0)
    except documents.DocumentError as error:
        assert "does not read" in str(error)
    else:
        raise AssertionError("a room of nothing was read")


def test_a_move_in_flight_is_refused_once_if_the_game_never_had_it_and_told_once_if_it_refused_it():
    flight = InFlight()
    table = {"asked": {"0": [4, 1, None]}}
    flight.seated(table, [0])                    # sat down: four of seat 0's requests had, one refused
    flight.sent_one(0)
    flight.sent_one(0)                           # two more sent; the server went
    back = flight.back({"asked": {"0": [5, 1, None]}}, [0])       # the game had one of them
    assert isinstance(back, OnlineError) and back.code is Online.MOVE_LOST
    assert flight.back({"asked": {"0": [5, 1, None]}}, [0]) is None, "said once"
    refused = rq.not_now(rules.new_game(MatchSetup((Seat("A"), Seat("B")), layout_named("rings", 1)).rules_setup()),
                         "Take")
    flight.sent_one(0)                           # the game had it and refused it; the refusal never came
    back = flight.back({"asked": {"0": [6, 2, list(refusal_parts(refused))]}}, [0])
    assert isinstance(back, rules.RuleError) and back.rule == "not-now"
    flight.sent_one(0)
    flight.refused("rules", "not-now")           # one refused and heard: nothing more to say
    assert flight.back({"asked": {"0": [7, 3, list(refusal_parts(refused))]}}, [0]) is None
    assert json.loads(json.dumps(flight.sent)) == {"0": 7}
