"""A server's TLS certificate and key on disk: its own, made at first start and kept in the data folder, or a
CA's given on the command line (`villa-paletti-server --cert FILE --key FILE`).

    identity = own_identity(data_dir() / "tls")      # made once, then the same at every start
    identity = given_identity(cert_path, key_path)   # a PlayerError in one sentence if they do not serve

Both files are readable by their user alone (0600, in a folder of 0700): the key is the server's identity, and
whoever reads it can pass for the server. A dedicated server and a game hosted in the window on the same
machine and account share them (the same data folder), so both show the same fingerprint. A folder that cannot
be written leaves the server with a new certificate for that run only (said in the log): a write that fails
never stops a game.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

from villa.app.logs import PlayerError
from villa.online.wire.certificates import CertificateError, Identity, make_identity, read_identity

log = logging.getLogger(__name__)

CERTIFICATE = "server-cert.pem"
KEY = "server-key.pem"


def own_identity(folder: Path) -> Identity:
    """The certificate and key kept in `folder`, made and kept there the first time (or when they no longer
    read, the old files set aside)."""
    certificate, key = folder / CERTIFICATE, folder / KEY
    if certificate.exists() or key.exists():
        try:
            identity = read_identity(certificate.read_bytes(), key.read_bytes())
            _only_for_its_user(key)
            return identity
        except (OSError, CertificateError) as error:
            log.warning("the server's certificate in %s does not read (%s): a new one is made", folder, error)
            for path in (certificate, key):
                try:
                    path.replace(path.with_name(path.name + ".unreadable"))
                except OSError:
                    pass
    identity = make_identity()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_private(key, identity.key_pem())
        _write_private(certificate, identity.certificate_pem())
        log.info("a new certificate for the server is kept in %s: %s", folder, identity.fingerprint)
    except OSError as error:
        log.warning("the server's certificate could not be kept in %s (%s): this run has one of its own", folder,
                    error)
    return identity


def given_identity(certificate: Path, key: Path) -> Identity:
    """A CA's certificate (its chain after it) and its key, from PEM files."""
    try:
        return read_identity(certificate.read_bytes(), key.read_bytes())
    except OSError as error:
        raise PlayerError(f"the certificate or key could not be read: {error.strerror or error} "
                          f"({error.filename or certificate})") from None
    except CertificateError as error:
        raise PlayerError(f"{certificate} and {key} cannot serve TLS: {error}") from None


def _write_private(path: Path, data: bytes) -> None:
    """Written whole or not at all, readable by its user alone from the moment it exists."""
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


def _only_for_its_user(key: Path) -> None:
    """A key others may read (copied in by hand, say) is made private again."""
    try:
        if os.name == "posix" and stat.S_IMODE(key.stat().st_mode) & 0o077:
            os.chmod(key, 0o600)
            log.warning("%s could be read by others: it is readable by its user alone now", key)
    except OSError:
        pass
