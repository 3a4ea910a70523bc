"""A home's network on this one machine, for the tests of a router asked to forward the game's port: three
network namespaces of the test's own, joined by veth pairs.

    home (192.168.77.2) ── lan │ router: Debian's miniupnpd (UPnP IGD, PCP, NAT-PMP), nftables │ wan ── friend
                                 192.168.77.1            81.2.69.1                        81.2.69.2

The home's default route goes through the router, which forwards nothing from outside but what miniupnpd maps.
`inside(namespace)` runs the code in its block (this thread, and the threads it starts) in a namespace:
sockets made there stay there. Needs root (or CAP_SYS_ADMIN and CAP_NET_ADMIN); `HomeNetwork.unavailable()`
says why namespaces cannot be made here, if they cannot.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import shutil
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

LAN_ROUTER, HOME = "192.168.77.1", "192.168.77.2"
WAN_ROUTER, FRIEND = "81.2.69.1", "81.2.69.2"     # a public address: the namespaces reach nothing else
NETNS = Path("/var/run/netns")
CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)
_names = itertools.count()

NFT_RULES = """
table inet filter {
    chain forward {
        type filter hook forward priority 0; policy drop;
        ct state established,related accept
        iifname "lan" accept
        jump miniupnpd
    }
    chain miniupnpd {
    }
    chain prerouting {
        type nat hook prerouting priority -100; policy accept;
        jump prerouting_miniupnpd
    }
    chain postrouting {
        type nat hook postrouting priority 100; policy accept;
        jump postrouting_miniupnpd
    }
    chain prerouting_miniupnpd {
    }
    chain postrouting_miniupnpd {
    }
}
"""


def program(name: str) -> str | None:
    """A system program's path, also where the PATH leaves /usr/sbin out."""
    return shutil.which(name, path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"]))


def _run(*command: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=20)
    if done.returncode != 0:
        raise OSError(f"{' '.join(command)}: {done.stderr.strip() or done.returncode}")
    return done.stdout


@contextmanager
def inside(namespace: str):
    """This thread in the named network namespace for the block (threads started in it stay there)."""
    here = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    there = os.open(NETNS / namespace, os.O_RDONLY)
    try:
        if _libc.setns(there, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"cannot enter the network namespace {namespace}")
        yield
    finally:
        _libc.setns(here, CLONE_NEWNET)
        os.close(here)
        os.close(there)


class HomeNetwork:
    def __init__(self, folder: Path, upnp: bool = True, natpmp: bool = True, allow: bool = True,
                 router: bool = True) -> None:
        """`upnp`, `natpmp` (NAT-PMP and PCP): what miniupnpd speaks; `allow`: whether it maps this home's
        ports at all; `router`: False, a router that forwards but runs no miniupnpd."""
        tag = f"vp{os.getpid()}x{next(_names)}"
        self.home, self.router, self.friend = f"{tag}-home", f"{tag}-router", f"{tag}-friend"
        self.folder = folder
        self.daemon: subprocess.Popen | None = None
        self._made: list[str] = []
        try:
            self._build()
            if router:
                self._start_miniupnpd(upnp, natpmp, allow)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def unavailable() -> str | None:
        """Why network namespaces cannot be made here (None: they can)."""
        if program("ip") is None:
            return "no `ip` command (iproute2)"
        name = f"vp{os.getpid()}probe"
        done = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True, timeout=20)
        if done.returncode != 0:
            return f"`ip netns add` is refused here: {done.stderr.strip()}"
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)
        return None

    def _build(self) -> None:
        for name in (self.home, self.router, self.friend):
            _run("ip", "netns", "add", name)
            self._made.append(name)
            _run("ip", "-n", name, "link", "set", "lo", "up")
        _run("ip", "-n", self.router, "link", "add", "lan", "type", "veth", "peer", "name", "eth0", "netns", self.home)
        _run("ip", "-n", self.router, "link", "add", "wan", "type", "veth", "peer", "name", "eth0", "netns",
             self.friend)
        for namespace, device, address in ((self.router, "lan", LAN_ROUTER), (self.router, "wan", WAN_ROUTER),
                                           (self.home, "eth0", HOME), (self.friend, "eth0", FRIEND)):
            _run("ip", "-n", namespace, "addr", "add", f"{address}/24", "dev", device)
            _run("ip", "-n", namespace, "link", "set", device, "up")
        _run("ip", "-n", self.home, "route", "add", "default", "via", LAN_ROUTER)
        _run("ip", "netns", "exec", self.router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        done = subprocess.run(["ip", "netns", "exec", self.router, "nft", "-f", "-"], input=NFT_RULES,
                              capture_output=True, text=True, timeout=20)
        if done.returncode != 0:
            raise OSError(f"nft: {done.stderr.strip()}")

    def _start_miniupnpd(self, upnp: bool, natpmp: bool, allow: bool) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "miniupnpd.conf"
        rule = "allow" if allow else "deny"
        config.write_text("\n".join([
            "ext_ifname=wan", "listening_ip=lan", "port=0", f"enable_upnp={'yes' if upnp else 'no'}",
            f"enable_natpmp={'yes' if natpmp else 'no'}", "secure_mode=yes", "system_uptime=yes",
            "uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b", "upnp_table_name=filter", "upnp_nat_table_name=filter",
            "upnp_forward_chain=miniupnpd", "upnp_nat_chain=prerouting_miniupnpd",
            "upnp_nat_postrouting_chain=postrouting_miniupnpd", "min_lifetime=1",
            f"{rule} 1024-65535 192.168.77.0/24 1024-65535", "deny 0-65535 0.0.0.0/0 0-65535", ""]))
        self.log = self.folder / "miniupnpd.log"
        with open(self.log, "w") as log:
            self.daemon = subprocess.Popen(
                ["ip", "netns", "exec", self.router, program("miniupnpd") or "miniupnpd", "-f", str(config), "-d",
                 "-P", str(self.folder / "miniupnpd.pid")], stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + 10
        while "Listening for NAT-PMP" not in self.log.read_text() and "HTTP listening" not in self.log.read_text():
            if self.daemon.poll() is not None or time.monotonic() > end:
                raise OSError(f"miniupnpd did not start: {self.log.read_text()[-2000:]}")
            time.sleep(0.02)
        if upnp:
            while "HTTP listening" not in self.log.read_text():
                time.sleep(0.02)

    def forwarded(self) -> list[str]:
        """The router's forwarding rules now (one line each, as nft lists them)."""
        text = _run("ip", "netns", "exec", self.router, "nft", "list", "chain", "inet", "filter",
                    "prerouting_miniupnpd")
        return [line.strip() for line in text.splitlines() if "dnat" in line]

    def forwards(self, port: int) -> bool:
        return any(f"dport {port} " in line for line in self.forwarded())

    def close(self) -> None:
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.send_signal(signal.SIGTERM)
            try:
                self.daemon.wait(1)      # (busy looking for a port it may give, it can take its time)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait(5)
        for name in reversed(self._made):
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20)
        self._made = []
