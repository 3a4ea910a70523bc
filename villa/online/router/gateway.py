"""The default gateway: the home's router, which NAT-PMP and PCP are sent to (they have no search of their own).

Linux says it in /proc/net/route; macOS and Windows in what their `route` command prints. Where none of them
answers, nothing is asked that way.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import struct
import subprocess
import sys
from pathlib import Path

ROUTES = Path("/proc/thread-self/net/route")   # this thread's network, where threads may differ
OLD_ROUTES = Path("/proc/net/route")                # Linux before 3.17
RTF_GATEWAY = 0x2


def default_gateway() -> str | None:
    try:
        for routes in (ROUTES, OLD_ROUTES):
            if routes.exists():
                return gateway_in_proc_route(routes.read_text())
        if sys.platform == "darwin":
            return gateway_in_route_get(_run(["route", "-n", "get", "default"]))
        if sys.platform == "win32":
            return gateway_in_route_print(_run(["route", "print", "-4", "0.0.0.0"]))
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return None


def local_address_towards(gateway: str) -> str:
    """This machine's address on the way to `gateway` (no packet is sent to find it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((gateway, 9))
        return probe.getsockname()[0]


def gateway_in_proc_route(text: str) -> str | None:
    """Linux's routing table: the gateway of the default route (destination 0, the gateway flag set)."""
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) >= 4 and fields[1] == "00000000" and int(fields[3], 16) & RTF_GATEWAY:
            return socket.inet_ntoa(struct.pack("<I", int(fields[2], 16)))
    return None


def gateway_in_route_get(text: str) -> str | None:
    """macOS' `route -n get default`: its 'gateway:' line."""
    found = re.search(r"^\s*gateway:\s*(\S+)\s*$", text, re.M)
    return _ipv4(found.group(1)) if found else None


def gateway_in_route_print(text: str) -> str | None:
    """Windows' `route print -4 0.0.0.0`: the first route of destination and mask 0.0.0.0, its gateway."""
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0] == fields[1] == "0.0.0.0" and _ipv4(fields[2]):
            return fields[2]
    return None


def _ipv4(text: str) -> str | None:
    try:
        return str(ipaddress.IPv4Address(text))
    except ValueError:
        return None


def _run(command: list[str]) -> str:
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)     # no console flashing up on Windows
    return subprocess.run(command, capture_output=True, text=True, timeout=3, creationflags=flags).stdout
