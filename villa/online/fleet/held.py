"""A room a fleet's server holds: its lease as this server counts it, and its writes to Redis, in order."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from villa.online.server.room import Room

DRIFT = 0.01               # a lease counts as held for 1 % less than it lasts in Redis, ...
DRIFT_S = 0.002            # ... and 2 ms less again: the two clocks may drift apart that much (as Redis' own
                           # distributed lock counts it); the reapers wait a whole lease more on top


def valid_until(sent_at: float, lease_s: float) -> float:
    """Until when a lease Redis granted holds by this server's clock: counted from when the renewal was sent (Redis
    counts from when it got it, later), less the drift."""
    return sent_at + lease_s - lease_s * DRIFT - DRIFT_S


@dataclass
class Op:
    ticket: int
    script: str              # "append", "turn", "seats", "whole", "release"
    args: list


@dataclass
class Held:
    fence: int
    until: float             # the lease holds until then unless renewed (this server's clock)
    touched: float           # when the last renewal Redis granted was sent
    room: Room | None = None
    begun: bool = False      # its game is in Redis (written whole once)
    whole: bool = False      # to be written whole again (Redis lost part of it, or it leads nowhere)
    turns: int = 0           # turn entries in Redis
    actions: int = 0         # moves those entries hold
    seats: bytes | None = None
    tickets: int = 0         # writes asked for
    acked_seq: int = 0       # the last journal entry Redis acknowledged, and its turn entries (a Redis that has fewer
    acked_turns: int = 0     # lost writes: a replica promoted, a restart): written whole again
    queue: deque[Op] = field(default_factory=deque)
    closing: str | None = None     # released as this ("finished", "dormant", "handover") once its writes are done
