"""Refusals counted, and logged once a minute per network and reason: a flood of them writes a few lines, not
one each, so the log keeps what happened before it (and anything that went wrong, which is logged in full by
whoever met it, never here).

    tally = Tally(log, clock)
    tally.refused("203.0.113.7", "too fast", "connection 4 (Aim)")
    tally.tell()      # each round: the minute's counts, once a minute

The first refusal of a network and reason is logged at once, with what it was; the others that minute are
counted and logged together when the minute is over ("and 2999 more"). At most `most` networks are named a
minute for each reason; the rest are told in one line (how many refusals, from how many networks).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

MINUTE_S = 60.0


class Tally:
    def __init__(self, log: logging.Logger, clock: Callable[[], float] = time.monotonic, minute_s: float = MINUTE_S,
                 most: int = 50) -> None:
        self.log, self.clock, self.minute_s, self.most = log, clock, minute_s, most
        self._since: dict[tuple[str, str], float] = {}     # (network, reason) -> when its minute began
        self._more: dict[tuple[str, str], int] = {}        # refusals this minute not yet logged
        self._named: dict[str, int] = {}                   # reason -> networks named in a minute under way
        self._unnamed: dict[str, tuple[int, set[str]]] = {}   # reason -> refusals and networks past `most`
        self._unnamed_since: float | None = None
        self._told_at = clock()
        self.counts: dict[str, int] = {}                   # every refusal ever, by reason

    def __len__(self) -> int:
        return len(self._since)

    def refused(self, network: str, reason: str, what: str = "") -> None:
        """A refusal of `reason` to someone from `network`; `what` says what it was (logged with the first)."""
        self.counts[reason] = self.counts.get(reason, 0) + 1
        key = (network, reason)
        if key in self._since:
            self._more[key] = self._more.get(key, 0) + 1
            return
        if self._named.get(reason, 0) >= self.most:
            count, networks = self._unnamed.get(reason, (0, set()))
            if len(networks) < 100_000:
                networks.add(network)
            self._unnamed[reason] = (count + 1, networks)
            if self._unnamed_since is None:
                self._unnamed_since = self.clock()
            return
        self._since[key] = self.clock()
        self._named[reason] = self._named.get(reason, 0) + 1
        self.log.info("refused %s: %s%s", network, reason, f" ({what})" if what else "")

    def tell(self) -> None:
        """Log the counts of every minute that is over, and forget the networks that were quiet in it (looked at
        once a second)."""
        now = self.clock()
        if now - self._told_at < min(1.0, self.minute_s):
            return
        self._told_at = now
        for key, since in list(self._since.items()):
            if now - since < self.minute_s:
                continue
            more = self._more.pop(key, 0)
            if more:
                self.log.info("refused %s: %s, %d more in %.0f s", key[0], key[1], more, now - since)
                self._since[key] = now            # a new minute, its count to come
            else:
                del self._since[key]
                self._named[key[1]] -= 1
        if self._unnamed_since is not None and now - self._unnamed_since >= self.minute_s:
            for reason, (count, networks) in sorted(self._unnamed.items()):
                self.log.info("refused %d more: %s, from %d other networks in %.0f s", count, reason, len(networks),
                              now - self._unnamed_since)
            self._unnamed.clear()
            self._unnamed_since = None

    def close(self) -> None:
        """Log every count still held (the server stops)."""
        self.minute_s = 0.0
        self.tell()
