"""The room as one who enters is told it: its code, the table, the rules' state, in a game the villa and the hand,
and a finished game's record. Each part is built once per change of what it is made of and shared by everyone
who asks meanwhile (the very message: the door frames it once for them all), so a flood of `Enter`s costs the
server a lookup each, not a build.

    snapshot = Snapshot()
    news.to((client,), snapshot.entering(room))

It keeps no hold on its room (the room is told each time): a room closed is freed at once, with what it built.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from villa import rules
from villa.online import protocol
from villa.online.wire import messages as m


_records: ThreadPoolExecutor | None = None     # a server's one thread for finished games' records


class Snapshot:
    """Each method is given the `Room` whose snapshot it is (its code, plan, match, tick, clock, table, news,
    holder)."""

    def __init__(self) -> None:
        self.table_version = 0          # each change of the table told (the room counts them)
        self.moved_at = 0               # the last frame the villa moved in (the room says so)
        self._parts: dict[str, tuple[tuple, object]] = {}     # each part, with what it was made of

    def entering(self, room) -> list:
        """What one who enters is told, in its order."""
        match, state = room.match, self.state(room)
        told = [self._once("entered", (room.code,), lambda: m.Entered(room.code)), self.table(room),
                self._once("state", (state,), lambda: m.State(protocol.pack_state(state)))]
        if match is not None:
            poses = self._once("poses", (match.villa, self.moved_at),
                               lambda: protocol.pack_poses(protocol.poses_of(match.villa)))
            tick = room.tick
            told.append(self._once("villa", (poses, tick), lambda: m.Villa(tick, poses)))
            told.append(room.news.hand_message(match, tick, room.holder()))
        return told

    def table(self, room) -> m.Table:
        """The table as it stands (the time left of a move, to the tenth of a second)."""
        left = round(room.clock.left(), 1) if room.match is not None and room.clock.seconds else None
        return self._once("table", (self.table_version, self.state(room), left),
                          lambda: m.Table(protocol.pack_table(room.table())))

    def state(self, room) -> rules.GameState:
        """The rules' state: the game's, or before it the one its plan begins with."""
        if room.match is not None:
            return room.match.state
        return self._once("lobby", (room.plan,), lambda: rules.new_game(room.plan.rules_setup()))

    def record(self, room) -> list[m.Record]:
        """The finished game's record in its parts."""
        match = room.match
        return self._once("record", (match.state,), lambda: room.news.record_messages(match.record))

    def record_aside(self, room) -> Future:
        """The same, made on a thread of its own (a long game's record takes tens of milliseconds to write and
        compress): `record` then finds it made, once the future is done."""
        global _records
        match = room.match
        state, record, news = match.state, match.record, room.news

        def make() -> None:
            self._parts["record"] = ((state,), news.record_messages(record))
        if _records is None:
            _records = ThreadPoolExecutor(max_workers=1, thread_name_prefix="records")
        return _records.submit(make)

    def _once(self, part: str, of: tuple, build: Callable[[], object]):
        """A part, built again only when what it was made of is no longer the same (each thing compared by
        identity, each number or word by value)."""
        kept = self._parts.get(part)
        if kept is not None and all(a is b or (type(a) in (int, float, str) and a == b) for a, b in zip(kept[0], of)):
            return kept[1]
        made = build()
        self._parts[part] = (of, made)
        return made
