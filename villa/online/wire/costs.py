"""What serving a connection costs, and where it comes from.

Whatever a connection makes the server do is charged to it and to its network (`network_of`: an IPv4 address,
or an IPv6 address's /64, which one home holds whole): the server's time it took, and the bytes it sent in
answer. Each is an `Account` on a `Budget`, refilled at its rate up to its burst; one that is spent waits (the
door reads nothing more from that connection, or that network, until it is paid), so a flood of asks costs its
sender time rather than everyone else.

    account = Account(Budget(time_s=0.02, time_burst_s=0.5, bytes=128_000, bytes_burst=2_000_000), now)
    account.charge(0.003, 4200)
    if account.owing(now): ...        # wait `account.paid_at(now) - now` seconds
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass


def network_of(address: str) -> str:
    """Where a connection comes from, as it is counted: an IPv6 address's /64 (a home or a server is given a whole
    one, to change addresses in at will), an IPv4 address (or one mapped into IPv6) as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


@dataclass(frozen=True)
class Budget:
    """Server time (s) and bytes sent that may be spent a second, and at once."""

    time_s: float
    time_burst_s: float
    bytes: float
    bytes_burst: float


class Account:
    """One budget's balance: time and bytes, each refilled at its rate up to its burst, each may go below zero
    (a costly ask is carried out whole, then paid for by waiting)."""

    __slots__ = ("budget", "time", "bytes", "at")

    def __init__(self, budget: Budget, now: float) -> None:
        self.budget = budget
        self.time = budget.time_burst_s
        self.bytes = budget.bytes_burst
        self.at = now

    def _refill(self, now: float) -> None:
        elapsed = now - self.at
        if elapsed > 0:
            budget = self.budget
            self.time = min(budget.time_burst_s, self.time + elapsed * budget.time_s)
            self.bytes = min(budget.bytes_burst, self.bytes + elapsed * budget.bytes)
            self.at = now

    def charge(self, seconds: float, sent: int) -> None:
        self.time -= seconds
        self.bytes -= sent

    def owing(self, now: float) -> bool:
        self._refill(now)
        return self.time < 0 or self.bytes < 0

    def full(self, now: float) -> bool:
        """Nothing spent that is not refilled (an account that may be forgotten)."""
        self._refill(now)
        return self.time >= self.budget.time_burst_s and self.bytes >= self.budget.bytes_burst

    def paid_at(self, now: float) -> float:
        """When it owes nothing again."""
        self._refill(now)
        budget = self.budget
        wait = max(0.0, -self.time / budget.time_s if budget.time_s > 0 else 0.0,
                   -self.bytes / budget.bytes if budget.bytes > 0 else 0.0)
        return now + wait
