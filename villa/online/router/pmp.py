"""NAT-PMP (RFC 6886) and PCP (RFC 6887), the ways routers that do not speak UPnP are asked (Apple's, many
others as well as UPnP): a small UDP packet to the default gateway's port 5351, asked again at 0.25, 0.5 and
1 s, and the answer says the mapped port, its lifetime and (PCP in the same answer, NAT-PMP in one of its own)
the public address. A mapping is renewed by asking again, and removed by asking for a lifetime of 0.

A router that knows only NAT-PMP answers a PCP request with "unsupported version": then NAT-PMP is asked.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import struct

from villa.online.router.gateway import default_gateway, local_address_towards
from villa.online.router.mapping import Mapping, NoRouter, Refused

log = logging.getLogger(__name__)

PORT = 5351
TRIES_S = (0.25, 0.5, 1.0)         # s waited for each try's answer
TCP = 6
UNSUPPORTED_VERSION = 1            # the same result number in both
NATPMP_RESULTS = {1: "unsupported version", 2: "not authorized or refused", 3: "network failure",
                  4: "out of resources", 5: "unsupported opcode"}
PCP_RESULTS = {1: "unsupported version", 2: "not authorized", 3: "malformed request", 4: "unsupported opcode",
               5: "unsupported option", 6: "malformed option", 7: "network failure", 8: "no resources",
               9: "unsupported protocol", 10: "user exceeded quota", 11: "cannot provide external",
               12: "address mismatch", 13: "excessive remote peers"}


class Unsupported(NoRouter):
    """The router answered, but does not speak this version of the protocol."""


def ask(gateway: str, packet: bytes, opcode: int, least: int) -> bytes:
    """The gateway's answer to `packet` (its opcode's answer, at least `least` bytes); NoRouter if none came."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect((gateway, PORT))
            for wait in TRIES_S:
                sock.send(packet)
                sock.settimeout(wait)
                try:
                    while True:
                        answer = sock.recv(1100)
                        if len(answer) >= 4 and answer[1] == opcode | 0x80 and len(answer) >= least:
                            return answer
                        if len(answer) >= 4 and answer[1] & 0x80 and answer[0] != packet[0]:
                            return answer      # another version's answer: "unsupported version"
                except socket.timeout:
                    continue
        except ConnectionRefusedError:
            raise NoRouter(f"nothing listens on {gateway}:{PORT}") from None
        except OSError as error:
            raise NoRouter(f"{gateway}:{PORT}: {error}") from None
    raise NoRouter(f"no answer from {gateway}:{PORT}")


def _the_gateway() -> str:
    gateway = default_gateway()
    if gateway is None:
        raise NoRouter("no default gateway")
    return gateway


class NatPmp:
    via = "NAT-PMP"

    def __init__(self, gateway: str | None = None) -> None:
        self.gateway = gateway

    def open(self, port: int, lease: int) -> Mapping:
        gateway = self.gateway or _the_gateway()
        public = self._public_address(gateway)
        return self._map(gateway, port, port, lease, public)

    def renew(self, mapping: Mapping) -> Mapping:
        gateway = mapping.key
        return self._map(gateway, mapping.port, mapping.public_port, mapping.lease, mapping.public_address)

    def remove(self, mapping: Mapping) -> None:
        self._map(mapping.key, mapping.port, 0, 0, None)

    def _public_address(self, gateway: str) -> str:
        answer = ask(gateway, struct.pack("!BB", 0, 0), 0, 12)
        version, _op, result = struct.unpack("!BBH", answer[:4])
        self._check(version, result)
        return socket.inet_ntoa(answer[8:12])

    def _map(self, gateway: str, port: int, public_port: int, lease: int, public: str | None) -> Mapping:
        answer = ask(gateway, struct.pack("!BBHHHI", 0, 2, 0, port, public_port, lease), 2, 16)
        version, _op, result = struct.unpack("!BBH", answer[:4])
        self._check(version, result)
        _epoch, _inside, mapped, granted = struct.unpack("!IHHI", answer[4:16])
        return Mapping(self.via, port, mapped, public, local_address_towards(gateway), granted, gateway)

    def _check(self, version: int, result: int) -> None:
        if version != 0 or result == UNSUPPORTED_VERSION:
            raise Unsupported("the router does not speak NAT-PMP")
        if result:
            raise Refused(self.via, f"result {result} ({NATPMP_RESULTS.get(result, 'unknown')})")


class Pcp:
    via = "PCP"

    def __init__(self, gateway: str | None = None) -> None:
        self.gateway = gateway

    def open(self, port: int, lease: int) -> Mapping:
        gateway = self.gateway or _the_gateway()
        return self._map(gateway, os.urandom(12), port, port, lease)

    def renew(self, mapping: Mapping) -> Mapping:
        gateway, nonce = mapping.key
        return self._map(gateway, nonce, mapping.port, mapping.public_port, mapping.lease)

    def remove(self, mapping: Mapping) -> None:
        gateway, nonce = mapping.key
        self._map(gateway, nonce, mapping.port, 0, 0)

    def _map(self, gateway: str, nonce: bytes, port: int, public_port: int, lease: int) -> Mapping:
        local = local_address_towards(gateway)
        anywhere = ipaddress.IPv6Address("::ffff:0.0.0.0").packed
        packet = (struct.pack("!BBHI", 2, 1, 0, lease) + _mapped(local) + nonce
                  + struct.pack("!B3xHH", TCP, port, public_port) + anywhere)
        answer = ask(gateway, packet, 1, 60)
        if answer[0] != 2 or len(answer) < 60:
            raise Unsupported("the router does not speak PCP")
        result, granted = answer[3], struct.unpack("!I", answer[4:8])[0]
        if result:
            raise Refused(self.via, f"result {result} ({PCP_RESULTS.get(result, 'unknown')})")
        if answer[24:36] != nonce:
            raise Refused(self.via, "an answer to another request")
        mapped = struct.unpack("!H", answer[42:44])[0]
        outside = ipaddress.IPv6Address(answer[44:60])
        public = str(outside.ipv4_mapped) if outside.ipv4_mapped else str(outside)
        return Mapping(self.via, port, mapped, public, local, granted, (gateway, nonce))


def _mapped(address: str) -> bytes:
    return ipaddress.IPv6Address(f"::ffff:{address}").packed
