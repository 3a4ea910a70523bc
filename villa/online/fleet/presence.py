"""A server's presence in its fleet (refreshed with its leases), the fleet's servers as last looked up (where its
players look for their rooms if this server goes), and, once at start, what in Redis' settings costs games."""

from __future__ import annotations

import redis

from villa.online.fleet import redis_keys as keys
from villa.online.fleet.line import Batch, Call
from villa.online.wire.certificates import place


class Presence:
    def __init__(self, fleet) -> None:
        self.fleet = fleet
        self.listed: list[str] = [fleet.public]
        self._looked = -1e9           # when the fleet was last looked up (this server's clock)

    def call(self) -> Call:
        fleet = self.fleet
        self._looked = fleet.now()
        return Call("present", [keys.SERVERS], [fleet.id, fleet.public, int(fleet.timings.presence_s * 1000)],
                    self._answered)

    def addresses(self) -> list[str]:
        """Where players find this fleet's rooms: this server first, then the others present, as last looked up: with
        each renewal, and whenever asked a while after (a player entering learns of a server started a moment ago;
        the server tells its players when the list changes)."""
        fleet = self.fleet
        if fleet.now() - self._looked > fleet.timings.refresh_s / 2:
            fleet.asks.append(self.call())
        return self.listed

    def now(self) -> bool:
        """This server said present and the others looked up, waited for (a server starting): False if Redis did not
        answer."""
        batch = Batch([self.call()])
        fleet = self.fleet
        if not fleet.line.now(batch, max(2.0, 8 * fleet.timings.redis_s)):
            return False
        batch.calls[0].then(batch.error or batch.calls[0].answer, batch.sent_at)
        return batch.error is None

    def _answered(self, answer, sent_at: float) -> None:
        if isinstance(answer, list):
            fleet = self.fleet
            found = [(_text(answer[n]), _text(answer[n + 1])) for n in range(0, len(answer) - 1, 2)]
            # one address a place: an entry left at this server's place by a process before it (another
            # certificate, maybe) would have players hold this server to a fingerprint it no longer shows
            others: dict[str, str] = {}
            for address in sorted(address for server, address in found if server != fleet.id):
                if place(address) != place(fleet.public):
                    others.setdefault(place(address), address)
            self.listed = [fleet.public, *others.values()]


def warnings(client: redis.Redis) -> list[tuple[str, dict]]:
    """What in Redis' settings costs the fleet games, where Redis lets a server read them: an evicting policy
    ("evicts", its name), no persistence at all ("no persistence"), or snapshots only ("snapshots only");
    ("unread", the reason) if Redis would not say."""
    try:
        config = {}
        for name in ("maxmemory-policy", "appendonly", "save"):
            config.update({_text(k): _text(v) for k, v in client.config_get(name).items()})
    except (redis.RedisError, OSError) as error:
        return [("unread", {"why": str(error)})]
    found: list[tuple[str, dict]] = []
    policy = config.get("maxmemory-policy", "noeviction")
    if policy != "noeviction":
        found.append(("evicts", {"policy": policy}))
    if config.get("appendonly", "no") != "yes":
        found.append(("snapshots only" if config.get("save", "").strip() else "no persistence", {}))
    return found


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.decode()
    return "" if value is None else str(value)
