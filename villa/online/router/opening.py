"""The home's router asked to let friends in: a game hosted in a window asks its router to forward the game's port
to this machine, learns the public address, keeps the mapping's lease renewed while the room is open, and removes
it when the room closes or the window quits. A mapping left behind by a crash lapses with its lease.

    opening = PortOpening(47170)
    opening.start()                  # asks in a thread of its own: nothing here waits on the network
    opening.forwarding               # each frame: asking, open (public address and port), no router, refused
    opening.close()                  # removes the mapping, in that thread

UPnP IGD is asked first, then PCP, then NAT-PMP (each gives up within a few seconds when nothing answers).
"""

from __future__ import annotations

import atexit
import logging
import threading
import weakref
from dataclasses import dataclass, replace
from enum import StrEnum

from villa.online.router.igd import Igd
from villa.online.router.mapping import Mapping, NoRouter, Refused, Way, reachable_from_outside
from villa.online.router.pmp import NatPmp, Pcp

log = logging.getLogger(__name__)

LEASE_S = 600             # s a mapping lasts unless renewed: what a crash leaves open closes by itself this soon
RENEW_PART = 3            # renewed when a third of its lease has passed (twice more before it would lapse)
CLOSE_S = 3.0             # s a quitting game waits for its mappings' removal, at most


class Step(StrEnum):
    ASKING = "asking"          # the router is being asked
    OPEN = "open"              # it forwards the port: `public_address:public_port`
    NO_ROUTER = "no router"    # nothing answered, in any of the ways
    REFUSED = "refused"        # a router answered, and would not (`why`: its reason)
    CLOSED = "closed"          # the mapping was removed (the room closed)


@dataclass(frozen=True)
class Forwarding:
    """What the router did for the game's port, as the lobby reads it."""

    step: Step
    port: int
    public_address: str | None = None
    public_port: int | None = None
    via: str = ""
    why: str = ""
    lease: int = 0

    @property
    def behind_another_router(self) -> bool:
        """The router's own outside address is private: another router beyond it (a provider's) stops friends."""
        return self.step is Step.OPEN and self.public_address is not None \
            and not reachable_from_outside(self.public_address)


_OPEN: weakref.WeakSet[PortOpening] = weakref.WeakSet()


class PortOpening:
    def __init__(self, port: int, lease: int = LEASE_S, ways: tuple[Way, ...] | None = None) -> None:
        self.port, self.lease = port, lease
        self.ways = ways if ways is not None else (Igd(), Pcp(), NatPmp())
        self._lock = threading.Lock()
        self._forwarding = Forwarding(Step.ASKING, port)
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"villa-router-{port}", daemon=True)

    @property
    def forwarding(self) -> Forwarding:
        with self._lock:
            return self._forwarding

    def start(self) -> PortOpening:
        _OPEN.add(self)
        self._thread.start()
        return self

    def close(self, wait: float = 0.0) -> None:
        """Remove the mapping (in the opening's thread); `wait`: seconds to wait for it at most."""
        self._closing.set()
        if wait and self._thread.is_alive():
            self._thread.join(wait)

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()

    def _tell(self, forwarding: Forwarding) -> None:
        with self._lock:
            self._forwarding = forwarding

    def _run(self) -> None:
        try:
            found = self._ask()
            if found is None:
                self._closing.wait()
                return
            way, mapping = found
            self._keep(way, mapping)
        except Exception:     # noqa: BLE001 - whatever a router sends, the game goes on without it
            log.exception("asking the router to forward port %s failed", self.port)
            self._tell(Forwarding(Step.NO_ROUTER, self.port, why="trouble"))
        finally:
            _OPEN.discard(self)

    def _ask(self) -> tuple[Way, Mapping] | None:
        refused: list[Refused] = []
        for way in self.ways:
            if self._closing.is_set():
                return None
            try:
                mapping = way.open(self.port, self.lease)
            except Refused as no:
                log.info("the router refused to forward port %s (%s)", self.port, no)
                refused.append(no)
                continue
            except OSError as nothing:     # NoRouter, a network that is not there, an answer that is no answer
                log.info("no router forwarded port %s by %s: %s", self.port, way.via, nothing)
                continue
            log.info("the router forwards %s:%s to port %s (%s, lease %s s)", mapping.public_address,
                     mapping.public_port, self.port, way.via, mapping.lease)
            self._tell(self._open(mapping))
            return way, mapping
        if refused:
            self._tell(Forwarding(Step.REFUSED, self.port, via=refused[0].via, why=refused[0].detail))
        else:
            self._tell(Forwarding(Step.NO_ROUTER, self.port))
        return None

    def _open(self, mapping: Mapping) -> Forwarding:
        return Forwarding(Step.OPEN, self.port, mapping.public_address, mapping.public_port, mapping.via,
                          lease=mapping.lease)

    def _keep(self, way: Way, mapping: Mapping) -> None:
        """Renew the lease until the room closes, then remove the mapping."""
        while not self._closing.wait(mapping.lease / RENEW_PART if mapping.lease else None):
            try:
                mapping = way.renew(mapping)
                self._tell(self._open(mapping))
            except OSError as error:       # asked again at the next renewal, before the lease runs out
                log.warning("the router did not renew port %s: %s", self.port, error)
        try:
            way.remove(mapping)
            log.info("the router no longer forwards port %s", mapping.public_port)
        except Exception as error:     # noqa: BLE001 - its lease ends it all the same
            log.warning("the router did not remove port %s (its lease ends it): %s", mapping.public_port, error)
        self._tell(replace(self.forwarding, step=Step.CLOSED))


def _close_all() -> None:
    """At exit: every mapping still open is removed (within CLOSE_S together)."""
    openings = list(_OPEN)
    for opening in openings:
        opening.close()
    for opening in openings:
        opening.close(CLOSE_S / max(1, len(openings)))


atexit.register(_close_all)
