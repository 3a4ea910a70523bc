"""What every player of a fault test heard, and the checks run on it afterwards.

Each action a player heard accepted (a `Moves` message) is recorded with its room, its place in the room's log, the
server that told it and the fencing number that server held the room by, and when; each state a player was given on
entering (a room found again after a failure among them) is recorded as seen. Afterwards, for every room:

- one line: wherever and whenever it was heard, each place of the log holds one action (every player's log a prefix
  of the longest);
- nothing heard missing: every action heard accepted is in the room's log at the end;
- no split brain: no two fencing numbers had actions accepted at once (their spans of time do not overlap, the
  lower one's before the higher one's).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass

from villa import rules
from villa.online.client import Player


@dataclass(frozen=True)
class Heard:
    room: str
    index: int
    action: str           # the action as JSON, to compare
    server: int           # the port of the server that told it
    fence: int | None
    at: float
    accepted: bool        # a move told as it was accepted (False: part of a state given on entering)


class History:
    def __init__(self) -> None:
        self.heard: list[Heard] = []
        self.players: list[Player] = []

    def follow(self, player: Player) -> Player:
        self.players.append(player)
        return player

    def poll(self) -> None:
        """Each player's news taken in (call it as often as the players are polled)."""
        now = time.monotonic()
        for player in self.players:
            player.poll()
            while player.news:
                news = player.news.popleft()
                room, fence = player.room_code, player.table.get("fence")
                if news[0] == "moves":
                    _kind, before, move, _after = news
                    self.heard.append(Heard(room, len(before.log), _json(move), player.port, fence, now, True))
                elif news[0] == "state":
                    for index, move in enumerate(news[2].log):
                        self.heard.append(Heard(room, index, _json(move), player.port, fence, now, False))

    def until(self, done, seconds: float = 30.0) -> bool:
        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                return False
            self.poll()
            time.sleep(0.002)
        return True

    def accepted(self, room: str) -> list[Heard]:
        return [h for h in self.heard if h.room == room and h.accepted]

    def check(self) -> dict:
        """The three checks, for every room heard of; returns what was checked (for the figures)."""
        rooms = sorted({h.room for h in self.heard})
        checked = {}
        for room in rooms:
            heard = [h for h in self.heard if h.room == room]
            line: dict[int, str] = {}
            for h in heard:
                assert line.setdefault(h.index, h.action) == h.action, \
                    f"room {room}: two actions at place {h.index} of its log ({line[h.index]} and {h.action})"
            logs = [[_json(m) for m in p.state.log] for p in self.players if p.room_code == room and p.state]
            longest = max(logs, key=len, default=[])
            for log in logs:
                assert longest[:len(log)] == log, f"room {room}: a player's log is not a prefix of the longest"
            missing = [h for h in heard if h.accepted and (h.index >= len(longest) or longest[h.index] != h.action)]
            assert not missing, f"room {room}: actions heard accepted are missing at the end: {missing[:3]}"
            spans: dict[int, list[float]] = defaultdict(list)
            for h in heard:
                if h.accepted and h.fence is not None:
                    spans[h.fence].append(h.at)
            fences = sorted(spans)
            for lower, higher in zip(fences, fences[1:]):
                assert max(spans[lower]) <= min(spans[higher]), \
                    f"room {room}: fences {lower} and {higher} both had actions accepted at once"
            checked[room] = {"actions": len(longest), "heard_accepted": sum(h.accepted for h in heard),
                             "fences": fences, "servers": sorted({h.server for h in heard if h.accepted})}
        return checked


def _json(move) -> str:
    return json.dumps(rules.moves_to_json([move]), sort_keys=True)
