"""The home's router, asked to forward a game's port to the window that hosts it (docs/online.md, "A home's
router").

- `opening`: `PortOpening`, which asks in a thread of its own, keeps the lease renewed and removes the mapping;
  `Forwarding`, what the lobby reads of it.
- `igd`: UPnP IGD (SSDP, the device description, SOAP); `pmp`: PCP and NAT-PMP; `gateway`: the default gateway.
- `http`: just enough HTTP and XML for a router's answers; `mapping`: what each way gives back.
"""

from villa.online.router.opening import Forwarding, PortOpening, Step

__all__ = ["Forwarding", "PortOpening", "Step"]
