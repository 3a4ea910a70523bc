"""What each way of asking a home's router gives back, and how it says no."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any, Protocol

# addresses no friend on the internet can reach: the router's own outside address is one of these when
# another router (a provider's carrier-grade NAT, a second box) sits beyond it
_UNREACHABLE = [ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
                                                  "169.254.0.0/16", "127.0.0.0/8", "0.0.0.0/8")]


class NoRouter(OSError):
    """Nothing answered this way of asking (no router there, or one that does not speak it)."""


class Refused(OSError):
    """A router answered, and would not map the port: `detail` is its own reason (an error code), for the log."""

    def __init__(self, via: str, detail: str) -> None:
        super().__init__(f"{via}: {detail}")
        self.via, self.detail = via, detail


@dataclass(frozen=True)
class Mapping:
    """A port the router forwards to this machine: `public_address:public_port` outside to `local_address:port`
    inside, for `lease` seconds (0: until it is removed, or the router restarts)."""

    via: str
    port: int
    public_port: int
    public_address: str | None
    local_address: str
    lease: int
    key: Any = None            # what the way of asking needs to renew or remove it (a PCP nonce, the router)


class Way(Protocol):
    """One way of asking a router: UPnP IGD, PCP, NAT-PMP."""

    via: str

    def open(self, port: int, lease: int) -> Mapping: ...

    def renew(self, mapping: Mapping) -> Mapping: ...

    def remove(self, mapping: Mapping) -> None: ...


def reachable_from_outside(address: str | None) -> bool:
    """Is this a public address (and not one behind yet another router)?"""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return not any(ip in network for network in _UNREACHABLE if network.version == ip.version)
