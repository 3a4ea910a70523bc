"""UPnP IGD, the way most home routers are asked to forward a port: find the router by SSDP (a search sent to
the LAN's multicast group), read its device description for the WAN connection's control address, then ask it
by SOAP: `GetExternalIPAddress`, `AddPortMapping` (with a lease; asked again to renew), `DeletePortMapping`.

UPnP IGD:1 and IGD:2, `WANIPConnection` or `WANPPPConnection`. A router that only keeps mappings for good (error
725) gets one without a lease, removed when the room closes. A port another machine holds (718) is asked for
again a few ports higher: the invite says which port the router gave.
"""

from __future__ import annotations

import logging
import socket
import time
from dataclasses import dataclass

from villa.online.router import http
from villa.online.router.mapping import Mapping, NoRouter, Refused

log = logging.getLogger(__name__)

SSDP = ("239.255.255.250", 1900)
SEARCHED = ("urn:schemas-upnp-org:device:InternetGatewayDevice:1",
            "urn:schemas-upnp-org:device:InternetGatewayDevice:2",
            "urn:schemas-upnp-org:service:WANIPConnection:1")
SERVICES = ("urn:schemas-upnp-org:service:WANIPConnection:2", "urn:schemas-upnp-org:service:WANIPConnection:1",
            "urn:schemas-upnp-org:service:WANPPPConnection:1")
SEARCH_S = 2.0           # s routers have to answer the search (its MX)
AFTER_FIRST_S = 0.3      # s more for others, once one answered
PORTS_TRIED = 5          # ports asked for, from the game's own up, when another machine holds one
DESCRIPTION = "Villa Paletti"
CONFLICT, PERMANENT_ONLY = 718, 725


class UpnpError(Exception):
    def __init__(self, code: int, description: str) -> None:
        super().__init__(f"UPnP error {code} {description}".strip())
        self.code = code


@dataclass(frozen=True)
class Gateway:
    control_url: str
    service: str
    local_address: str     # this machine's address as the router saw it


def search(wait: float = SEARCH_S) -> list[str]:
    """The description addresses (LOCATION) of the gateways that answer an SSDP search on the LAN."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
        for target in SEARCHED:
            message = (f'M-SEARCH * HTTP/1.1\r\nHOST: {SSDP[0]}:{SSDP[1]}\r\nMAN: "ssdp:discover"\r\n'
                       f"MX: {round(wait)}\r\nST: {target}\r\n\r\n")
            try:
                sock.sendto(message.encode("ascii"), SSDP)
            except OSError as error:       # no network at all, or no route to the multicast group
                raise NoRouter(f"no search sent: {error}") from None
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                datagram, _sender = sock.recvfrom(4096)
            except (socket.timeout, OSError):
                break
            location = http.headers_of(datagram).get("location", "")
            if location.startswith("http://") and location not in found:
                found.append(location)
                end = min(end, time.monotonic() + AFTER_FIRST_S)
    return found


def gateway(location: str) -> Gateway | None:
    """The WAN connection service a device description offers (the first the game knows), or None."""
    answer = http.request(location)
    if answer.status != 200:
        return None
    base = http.element(answer.body, "URLBase") or location
    for service in http.elements(answer.body, "service"):
        kind = http.element(service, "serviceType") or ""
        control = http.element(service, "controlURL")
        if control and any(kind.startswith(known.rsplit(":", 1)[0]) for known in SERVICES):
            return Gateway(http.joined(base, control), kind, answer.local_address)
    return None


def call(gateway: Gateway, action: str, arguments: dict[str, str | int]) -> str:
    """One SOAP action; its answer's body, or UpnpError with the router's code."""
    values = "".join(f"<{k}>{http.escape(str(v))}</{k}>" for k, v in arguments.items())
    body = ('<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
            f'<u:{action} xmlns:u="{gateway.service}">{values}</u:{action}></s:Body></s:Envelope>\r\n')
    answer = http.request(gateway.control_url, "POST", body, {
        "Content-Type": 'text/xml; charset="utf-8"', "SOAPAction": f'"{gateway.service}#{action}"'})
    if answer.status != 200:
        code = http.element(answer.body, "errorCode") or ""
        raise UpnpError(int(code) if code.isdigit() else answer.status, http.element(answer.body, "errorDescription")
                        or "")
    return answer.body


class Igd:
    via = "UPnP"

    def __init__(self, wait: float = SEARCH_S) -> None:
        self.wait = wait

    def open(self, port: int, lease: int) -> Mapping:
        router = self._find()
        public = self._public_address(router)
        for public_port in range(port, min(port + PORTS_TRIED, 65536)):
            try:
                granted = self._add(router, port, public_port, lease)
            except UpnpError as error:
                if error.code == CONFLICT:
                    log.info("the router holds port %s for another machine", public_port)
                    continue
                raise Refused(self.via, str(error)) from None
            return Mapping(self.via, port, public_port, public, router.local_address, granted, router)
        raise Refused(self.via, f"ports {port} to {port + PORTS_TRIED - 1} are held for other machines")

    def renew(self, mapping: Mapping) -> Mapping:
        router = mapping.key
        try:
            granted = self._add(router, mapping.port, mapping.public_port, mapping.lease)
        except UpnpError as error:
            raise Refused(self.via, str(error)) from None
        public = self._public_address(router) or mapping.public_address
        return Mapping(self.via, mapping.port, mapping.public_port, public, mapping.local_address, granted, router)

    def remove(self, mapping: Mapping) -> None:
        call(mapping.key, "DeletePortMapping", {"NewRemoteHost": "", "NewExternalPort": mapping.public_port,
                                                "NewProtocol": "TCP"})

    def _find(self) -> Gateway:
        for location in search(self.wait):
            try:
                found = gateway(location)
            except OSError as error:
                log.info("the device at %s did not describe itself: %s", location, error)
                continue
            if found is not None:
                return found
        raise NoRouter("no UPnP gateway answered")

    def _public_address(self, router: Gateway) -> str | None:
        try:
            return http.element(call(router, "GetExternalIPAddress", {}), "NewExternalIPAddress") or None
        except (UpnpError, OSError) as error:
            log.info("the router did not say its public address: %s", error)
            return None

    def _add(self, router: Gateway, port: int, public_port: int, lease: int) -> int:
        """The mapping asked for; the lease it got (0: for good, where the router keeps no other)."""
        for asked in (lease, 0) if lease else (0,):
            try:
                call(router, "AddPortMapping", {
                    "NewRemoteHost": "", "NewExternalPort": public_port, "NewProtocol": "TCP",
                    "NewInternalPort": port, "NewInternalClient": router.local_address, "NewEnabled": 1,
                    "NewPortMappingDescription": DESCRIPTION, "NewLeaseDuration": asked})
                return asked
            except UpnpError as error:
                if error.code != PERMANENT_ONLY or not asked:
                    raise
                log.info("the router keeps no mapping for a while only: one for good, removed with the room")
        raise AssertionError("unreachable")
