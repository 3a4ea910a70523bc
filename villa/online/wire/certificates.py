"""A server's certificate and key, and the fingerprint a player checks it by.

    identity = make_identity()                    # a new key and a self-signed certificate, in memory
    identity.fingerprint                          # SHA-256 of the certificate's DER: 64 lowercase hex characters
    identity = read_identity(cert_pem, key_pem)   # a CA's certificate (its chain after it) and its key
    fingerprint(der) == pin_of("AB:CD:...")       # a fingerprint as typed or carried, made plain (None: none)
    host, port, pin = split_address("10.0.0.7:47170#3f9a...")   # an address with its certificate's fingerprint

A self-signed certificate is checked by its fingerprint alone (an invite's pin, or the one kept from the first
visit), so its names and dates matter little: it is made for twenty years, and a new one is a new fingerprint
every player must learn again. Its key is ECDSA on P-256: a handshake costs the server one quick signature.
Nothing here reads or writes a file: the app keeps them (`villa.app.server_identity`).
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
import string
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID

FINGERPRINT_LENGTH = 64          # hex characters of a SHA-256
NAME = "Villa Paletti server"    # the self-signed certificate's subject
YEARS = 20


class CertificateError(ValueError):
    """A certificate or key that cannot serve (unreadable, not matching, of a kind TLS cannot use)."""


@dataclass(frozen=True)
class Identity:
    """A server's certificate chain (its own first) and private key."""

    chain: tuple[x509.Certificate, ...]
    key: ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey | ed25519.Ed25519PrivateKey

    @property
    def certificate(self) -> x509.Certificate:
        return self.chain[0]

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.certificate.public_bytes(serialization.Encoding.DER))

    @property
    def self_signed(self) -> bool:
        return self.certificate.issuer == self.certificate.subject

    def certificate_pem(self) -> bytes:
        return b"".join(cert.public_bytes(serialization.Encoding.PEM) for cert in self.chain)

    def key_pem(self) -> bytes:
        return self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption())


def fingerprint(der: bytes) -> str:
    """The SHA-256 of a certificate's DER bytes, as 64 lowercase hex characters (no colons)."""
    return hashlib.sha256(der).hexdigest()


def pin_of(text: str | None) -> str | None:
    """A fingerprint as carried or typed (any case, with or without colons or spaces) made plain; None when
    the text is not one."""
    if not text:
        return None
    plain = "".join(ch for ch in text.strip().lower() if ch not in ": ")
    if len(plain) != FINGERPRINT_LENGTH or any(ch not in string.hexdigits for ch in plain):
        return None
    return plain


def short(pin: str) -> str:
    """The first 16 hex characters in pairs, as people compare them (AB:CD:...)."""
    return ":".join(pin[i:i + 2] for i in range(0, 16, 2)).upper()


def split_address(text: str) -> tuple[str, int, str | None] | None:
    """host:port, or host:port#fingerprint (an address a fleet or an invite carries with its server's
    certificate): (host, port, pin or None); None when it is no such address."""
    where, _hash, pin_text = text.partition("#")
    host, _colon, port = where.rpartition(":")
    host = host.strip("[]")
    pin = pin_of(pin_text) if pin_text else None
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or (pin_text and pin is None):
        return None
    return host, int(port), pin


def with_pin(address: str, pin: str | None) -> str:
    """host:port with the fingerprint after a #, when there is one."""
    return f"{address}#{pin}" if pin else address


def make_identity(name: str = NAME, now: datetime.datetime | None = None) -> Identity:
    """A new ECDSA P-256 key and a certificate it signs itself, valid from a day ago for `YEARS` years."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    certificate = (x509.CertificateBuilder()
                   .subject_name(subject).issuer_name(subject)
                   .public_key(key.public_key())
                   .serial_number(int.from_bytes(secrets.token_bytes(16), "big") >> 1)
                   .not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=365 * YEARS))
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .sign(key, hashes.SHA256()))
    return Identity((certificate,), key)


def read_identity(certificate_pem: bytes, key_pem: bytes) -> Identity:
    """A certificate (its chain after it, as a CA hands it out) and its private key, from PEM; a
    `CertificateError` saying what is wrong."""
    try:
        chain = tuple(x509.load_pem_x509_certificates(certificate_pem))
    except ValueError as error:
        raise CertificateError(f"no certificate could be read ({error})") from None
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except (ValueError, TypeError) as error:
        raise CertificateError(f"no private key could be read ({error})") from None
    if not isinstance(key, (ec.EllipticCurvePrivateKey, rsa.RSAPrivateKey, ed25519.Ed25519PrivateKey)):
        raise CertificateError(f"a {type(key).__name__} cannot serve TLS here: use an EC, RSA or Ed25519 key")
    ours = serialization.PublicFormat.SubjectPublicKeyInfo
    if key.public_key().public_bytes(serialization.Encoding.DER, ours) != \
            chain[0].public_key().public_bytes(serialization.Encoding.DER, ours):
        raise CertificateError("the key is not the certificate's")
    return Identity(chain, key)
