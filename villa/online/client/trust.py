"""How a player's window checks the server it reached, once the TLS handshake is done and before it sends a
single byte of the game (its hello included):

1. **A pin** (the fingerprint an invite carries, or one a fleet's server gave for another): the certificate must
   be that one, whoever issued it.
2. Else **a CA's certificate** for the host's name (or IP address), checked against the system's authorities.
   The address is then remembered as one that shows such a certificate: a self-signed one there later is refused.
3. Else **trust on first use**, as SSH does: the first certificate seen at an address is remembered by its
   fingerprint, and a different one there later is refused, in words, with both fingerprints.

What is remembered (`KnownServers`) the window keeps in a file (`villa.app.known_servers`); by default it lives as
long as the `Trust`. A refusal is an `OnlineError` the screens word (`Online.NOT_INVITED`, `CERT_CHANGED`,
`CERT_UNVOUCHED`).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import ssl
import sys
from pathlib import Path
from typing import Protocol

from cryptography import x509
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from villa.online.protocol import Online, OnlineError
from villa.online.wire.certificates import fingerprint, short

log = logging.getLogger(__name__)

VOUCHED = "ca"       # what is remembered of an address whose server showed a CA's certificate for its name

# where systems keep the authorities they trust (the first found is read): Debian and Ubuntu, Fedora and RHEL,
# openSUSE, older RHEL, CentOS, Alpine and Arch and macOS
ROOT_FILES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem",
              "/etc/pki/tls/cacert.pem", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "/etc/ssl/cert.pem")
SERVER_AUTH = "1.3.6.1.5.5.7.3.1"


class KnownServers(Protocol):
    """What a player remembers of the servers it reached: address (host:port) -> fingerprint, or `VOUCHED`."""

    def get(self, address: str) -> str | None: ...
    def remember(self, address: str, what: str) -> None: ...


class Remembered(dict):
    """Known servers in memory only."""

    def remember(self, address: str, what: str) -> None:
        self[address] = what


def system_roots() -> list[x509.Certificate]:
    """The authorities the system trusts: `SSL_CERT_FILE` if set, else the first of `ROOT_FILES` found, or on
    Windows its own store; none when there is none (every certificate then goes by its fingerprint)."""
    if sys.platform == "win32":
        return _windows_roots()
    named = os.environ.get("SSL_CERT_FILE")
    for path in ([named] if named else []) + list(ROOT_FILES):
        try:
            return x509.load_pem_x509_certificates(Path(path).read_bytes())
        except (OSError, ValueError):
            continue
    return []


def _windows_roots() -> list[x509.Certificate]:
    found = []
    for store in ("ROOT", "CA"):
        try:
            entries = ssl.enum_certificates(store)
        except (OSError, AttributeError):
            continue
        for der, encoding, trust in entries:
            if encoding == "x509_asn" and (trust is True or SERVER_AUTH in trust):
                try:
                    found.append(x509.load_der_x509_certificate(der))
                except ValueError:
                    pass
    return found


class Trust:
    """A player's way of checking servers: what it remembers, and the authorities it trusts (the system's,
    read the first time a server shows a certificate a CA may have issued; `roots` for tests)."""

    def __init__(self, known: KnownServers | None = None, roots: list[x509.Certificate] | None = None) -> None:
        self.known: KnownServers = known if known is not None else Remembered()
        self._roots = roots
        self._store: Store | None = None

    def check(self, host: str, port: int, pin: str | None, chain: list[bytes]) -> None:
        """Refuse (an `OnlineError`) the server's chain (DER, its own certificate first) unless it passes."""
        address = f"{host}:{port}"
        shown = fingerprint(chain[0])
        if pin is not None:
            if shown != pin:
                raise OnlineError(Online.NOT_INVITED, address=address, pin=short(pin), shown=short(shown))
            self.known.remember(address, shown)
            return
        if self.vouched(host, chain):
            self.known.remember(address, VOUCHED)
            return
        kept = self.known.get(address)
        if kept == VOUCHED:
            raise OnlineError(Online.CERT_UNVOUCHED, address=address, shown=short(shown))
        if kept is not None and kept != shown:
            raise OnlineError(Online.CERT_CHANGED, address=address, was=short(kept), shown=short(shown))
        if kept is None:
            log.info("first visit to %s: its certificate %s is remembered", address, shown)
            self.known.remember(address, shown)

    def vouched(self, host: str, chain: list[bytes]) -> bool:
        """Does a CA the system trusts vouch for this chain, for this host's name or address?"""
        try:
            certificates = [x509.load_der_x509_certificate(der) for der in chain]
        except ValueError:
            return False
        if certificates[0].issuer == certificates[0].subject:
            return False             # self-signed: nobody else vouches for it
        store = self._trusted()
        if store is None:
            return False
        try:
            subject = x509.IPAddress(ipaddress.ip_address(host.strip("[]")))
        except ValueError:
            subject = x509.DNSName(host.lower().rstrip("."))
        try:
            PolicyBuilder().store(store).build_server_verifier(subject).verify(certificates[0], certificates[1:])
        except (VerificationError, ValueError) as error:
            log.info("no CA the system trusts vouches for %s: %s", host, error)
            return False
        return True

    def _trusted(self) -> Store | None:
        if self._store is None:
            roots = self._roots if self._roots is not None else system_roots()
            if not roots:
                return None
            self._store = Store(roots)
        return self._store
