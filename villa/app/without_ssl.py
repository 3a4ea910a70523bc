"""A stand-in for Python's `ssl` where the standalone build cannot load it: Panda3D's Linux interpreter takes
OpenSSL 3.3 or later from the system, which most Linux systems do not have yet. redis (the fleet's client,
which the game and the server both import) reads ssl's names as it loads, even when ssl is missing; with the
stand-in it loads, a fleet on redis:// works, and TLS (rediss://) is refused in a sentence.

The game's program imports this first. Where ssl loads (a checkout, Windows, macOS, a Linux with OpenSSL 3.3
or later) it does nothing.
"""

from __future__ import annotations

import sys
import types

try:
    import ssl
except ImportError:          # the build's _ssl without the OpenSSL it was made for
    ssl = None

WHY = "this build of the game has no TLS on this system (it needs OpenSSL 3.3 or later): use redis://, not rediss://"


class NoTLS(OSError):
    """Every name the stand-in is asked for: an exception class, as redis catches some of them, that cannot be
    made (so that whatever would speak TLS stops with `WHY`)."""

    def __new__(cls, *args, **kwargs):
        raise OSError(WHY)


def _any_name(name: str) -> type[NoTLS]:
    if name.startswith("__"):
        raise AttributeError(name)
    return NoTLS


if ssl is None:
    ssl = types.ModuleType("ssl", WHY)
    ssl.__getattr__ = _any_name
    sys.modules["ssl"] = ssl
