"""What a fleet's server writes of the rooms it holds, in each room's order: the journal's entries ahead of the
room's news, each settled turn appended, the seats when they change, the room whole when Redis lost part of it,
and last its release. A write is done, refused (another server holds the room: it is closed here), or goes again;
the room's news waits for it (its ticket)."""

from __future__ import annotations

import logging

from villa.online.fleet import documents
from villa.online.fleet import redis_keys as keys
from villa.online.fleet.held import Held, Op
from villa.online.fleet.line import Call
from villa.online.server.journal import Entry
from villa.online.server.room import Room

log = logging.getLogger(__name__)

NEVER = 2**62              # a write that is never done: news of a room this server lost is never told


def ignore(_answer, _sent_at: float) -> None:
    pass


class Writes:
    def __init__(self, fleet) -> None:
        self.fleet = fleet

    def ahead(self, room: Room, entry: Entry) -> int:
        """A journal entry, written before the room tells its people anything after it: the write's ticket."""
        held = self._holding(room)
        if held is None:
            return NEVER
        return self._queue(held, "append", [entry.seq, entry.to_bytes()])

    def keep(self, room: Room) -> int | None:
        """The room kept as it stands: its game written whole once it begins, then each settled turn appended and
        the seats written when they change. Returns the ticket of the last write asked for (None: nothing to write)."""
        held = self._holding(room)
        if held is None:
            return NEVER
        match = room.match
        if match is None:
            return None
        if not held.begun or held.whole:
            return self._whole_again(held)
        ticket = None
        turns = match.turns
        if len(turns) == held.turns + 1 and held.turns:
            entry = documents.turn_entry(turns[-1], match.state.log, held.actions, turns[-2].actions,
                                         room.journal.asked_settled)
            ticket = self._queue(held, "turn", [turns[-1].turn, room.journal.settled_seq, entry])
            held.turns, held.actions = len(turns), turns[-1].actions
        elif len(turns) != held.turns:
            return self._whole_again(held)
        seats = documents.seats_document(room)
        if seats != held.seats:
            held.seats = seats
            ticket = self._queue(held, "seats", [seats])
        return ticket

    def release(self, code: str, what: str) -> None:
        """The room let go, once its writes are done: "finished", "dormant" or "handover"."""
        held = self.fleet.held.get(code)
        if held is not None and held.closing is None:
            self._queue(held, "release", [what, int(self.fleet.timings.dormant_s * 1000)])
            held.closing = what

    def _whole_again(self, held: Held) -> int:
        held.whole = True
        held.queue.clear()
        held.tickets += 1
        return held.tickets

    def _holding(self, room: Room) -> Held | None:
        held = self.fleet.held.get(room.code)
        if held is not None and held.closing is None:
            held.room, room.fence = room, held.fence
            return held
        return None

    def _queue(self, held: Held, script: str, args: list) -> int:
        held.tickets += 1
        held.queue.append(Op(held.tickets, script, args))
        return held.tickets

    # --- in a batch -----------------------------------------------------------------------------------------------

    def calls(self, code: str, held: Held) -> list[tuple[Call, list[Op]]]:
        """The room's writes for this batch, in order: its journal's entries one after another in one call."""
        if held.whole:
            call = self._whole(code, held)
            return [] if call is None else [(call, [Op(held.tickets, "whole", [room_seq(held), held.turns])])]
        calls: list[tuple[Call, list[Op]]] = []
        queue = held.queue
        while queue:
            op = queue.popleft()
            if op.script == "append":
                ops = [op]
                while queue and queue[0].script == "append":
                    ops.append(queue.popleft())
                calls.append((self._call(code, held, "append", [ops[0].args[0], *(o.args[1] for o in ops)]), ops))
            else:
                calls.append((self._call(code, held, op.script, op.args), [op]))
        return calls

    def _call(self, code: str, held: Held, script: str, args: list) -> Call:
        return Call(script, keys.room_keys(code), [self.fleet.id, held.fence, *args], then=ignore)

    def _whole(self, code: str, held: Held) -> Call | None:
        """The room written whole: its game, seats, every settled turn and the journal since (built now, from the
        room as it stands)."""
        room = held.room
        if room is None or room.match is None:
            held.whole = False
            return None
        record, seats = room.kept()
        turns = [documents.turn_entry(turn, record.state.log, record.turns[n - 1].actions if n
                                      else len(record.start.log), None,
                                      seats.get("asked", {}) if n == len(record.turns) - 1 else {})
                 for n, turn in enumerate(record.turns)]
        seats_doc = documents.seats_document(room)
        journal = room.journal
        args = [self.fleet.public, documents.game_document(record), seats_doc, journal.settled_seq, journal.seq,
                len(turns), *turns, *(entry.to_bytes() for entry in journal.entries)]
        held.turns, held.actions, held.seats = len(record.turns), record.turns[-1].actions, seats_doc
        held.whole = False
        held.queue.clear()
        return self._call(code, held, "whole", args)

    def done(self, code: str, held: Held, calls: list, error: Exception | None) -> None:
        """What came of the room's writes in a batch: done (its news goes out), refused (the room is closed here), or
        put back to go again; after one that did not go, none after it counts as done."""
        fleet, done = self.fleet, 0
        for number, (call, ops) in enumerate(calls):
            answer = error or call.answer
            if answer == 1 or (answer == 0 and ops[-1].script == "release"):
                done = ops[-1].ticket
                if answer == 1:
                    _acknowledged(held, ops)
                if ops[-1].script == "release":
                    self._released(code, held)
                    return
                continue
            if fleet.held.get(code) is not held:
                return
            later = [op for _call, ops_ in calls[number:] for op in ops_]
            if answer == 0:
                log.warning("room %s: a write was refused (another server holds it now): it is closed here", code)
                fleet.drop(code)
                return
            if answer == -1:
                fleet.say(f"gap {code}", logging.WARNING, "room %s: Redis does not hold what leads up to its writes: "
                          "it is written whole again", code)
                held.whole = True
            else:
                if answer == -2:
                    fleet.renew_soon()        # its lease lapsed in Redis (Redis was away): renewed first, then again
                else:
                    fleet.trouble(answer)
                if any(op.script == "whole" for op in later):
                    held.whole = True        # built again from the room as it stands by then
                else:
                    held.queue.extendleft(reversed(later))
            break
        if done and held.room is not None:
            held.room.scribe.gate.written(done)

    def _released(self, code: str, held: Held) -> None:
        fleet = self.fleet
        if fleet.held.get(code) is held:
            del fleet.held[code]
        command = ["ZADD", keys.LEASES, 0, code] if held.closing == "handover" else ["ZREM", keys.LEASES, code]
        fleet.asks.append(Call(None, [], command, ignore))


def room_seq(held: Held) -> int:
    return held.room.journal.seq if held.room is not None else 0


def _acknowledged(held: Held, ops: list[Op]) -> None:
    """What Redis now holds of the room, as it said (checked at each renewal)."""
    last = ops[-1]
    if last.script == "append":
        held.acked_seq = max(held.acked_seq, last.args[0])
    elif last.script == "turn":
        held.acked_turns = max(held.acked_turns, last.args[0] + 1)
    elif last.script == "whole":
        held.begun = True
        held.acked_seq, held.acked_turns = last.args
