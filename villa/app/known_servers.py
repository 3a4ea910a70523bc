"""The servers this window has played on, and the certificate each showed: trust on first use, kept in the
config folder (`known_servers.json`: "host:port" -> its certificate's fingerprint, or "ca" for a server that
showed a CA's certificate for its name). `villa.online.client.trust` reads and adds to it.

A file that does not read is set aside (`known_servers.json.unreadable`), never overwritten: what it held is
what keeps a changed certificate from passing. A write that fails is logged and the game goes on (the server
is then checked anew at its next visit).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from villa.app.storage import config_dir, write_atomically
from villa.online.client.trust import VOUCHED
from villa.online.wire.certificates import pin_of

log = logging.getLogger(__name__)

FILE = "known_servers.json"
MOST = 1000          # addresses kept; the oldest first forgotten


class KnownServersFile:
    """`KnownServers` in a JSON file, read once, written at each change."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / FILE
        self._known: dict[str, str] | None = None

    def get(self, address: str) -> str | None:
        return self._read().get(address)

    def remember(self, address: str, what: str) -> None:
        known = self._read()
        if known.get(address) == what:
            return
        known.pop(address, None)
        known[address] = what
        while len(known) > MOST:
            del known[next(iter(known))]
        try:
            write_atomically(self.path, json.dumps(known, indent=1) + "\n")
        except OSError as error:
            log.warning("the servers' certificates could not be kept in %s: %s", self.path, error)

    def _read(self) -> dict[str, str]:
        if self._known is None:
            self._known = {}
            try:
                text = self.path.read_text(encoding="utf-8")
            except FileNotFoundError:
                return self._known
            except OSError as error:
                log.warning("%s could not be read: %s", self.path, error)
                return self._known
            try:
                found = json.loads(text)
                if not isinstance(found, dict):
                    raise ValueError("not an object")
                self._known = {str(k): v if v == VOUCHED else pin_of(v) for k, v in found.items()
                               if isinstance(v, str) and (v == VOUCHED or pin_of(v))}
            except ValueError as error:
                log.warning("%s does not read (%s): it is set aside", self.path, error)
                try:
                    self.path.replace(self.path.with_name(self.path.name + ".unreadable"))
                except OSError:
                    pass
        return self._known
