"""The game's log file, and the guard that keeps tracebacks away from players.

Details of anything that goes wrong go to `villa.log` in the user's data folder;
the player sees one clear sentence and where the details are.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path

from villa.app.ends import INTERRUPTED, Ended
from villa.app.storage import data_dir


class PlayerError(Exception):
    """Something the player can fix (a bad file, a wrong option): shown as it is, exit code 2."""


def log_path() -> Path:
    return data_dir() / "villa.log"


def start_logging() -> bool:
    """Log to the user's data folder; log nowhere (never to the player's terminal) if that folder cannot be
    written. Returns whether there is a log file."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "villa_log", False)]:
        if isinstance(handler, RotatingFileHandler) and Path(handler.baseFilename) == log_path():
            return True
        root.removeHandler(handler)  # the data folder moved (VILLA_HOME changed), or had no log
        handler.close()
    try:
        log_path().parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(log_path(), maxBytes=1_000_000, backupCount=2, encoding="utf-8")
    except OSError:
        nowhere = logging.NullHandler()   # without a handler, Python would print warnings on stderr
        nowhere.villa_log = True
        root.addHandler(nowhere)
        return False
    handler.villa_log = True
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return True


def run_guarded(entry: Callable[[], int]) -> int:
    """Run `entry`, turning any failure into a clear message and an exit code, never a traceback."""
    logged = start_logging()
    try:
        return entry()
    except PlayerError as error:
        logging.getLogger("villa").warning("%s", error)
        print(f"villa-paletti: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return INTERRUPTED
    except Ended as end:   # asked to end from outside (logout, `kill`): as Ctrl+C, nothing to tell
        return end.code
    except BrokenPipeError:   # the output went to a program that stopped reading
        return 0
    except Exception:  # noqa: BLE001 - the last line of defence
        logging.getLogger("villa").exception("unexpected failure")
        where = f"The details are in {log_path()}" if logged else "No log could be written"
        print(f"villa-paletti: something went wrong and the game had to stop. {where}", file=sys.stderr)
        return 1
