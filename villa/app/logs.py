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

from villa.app.storage import data_dir


class PlayerError(Exception):
    """Something the player can fix (a bad file, a wrong option): shown as it is, exit code 2."""


def log_path() -> Path:
    return data_dir() / "villa.log"


def start_logging() -> None:
    """Log to the user's data folder; quietly log nowhere if that folder cannot be written."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "villa_log", False)]:
        if Path(handler.baseFilename) == log_path():
            return
        root.removeHandler(handler)  # the data folder moved (VILLA_HOME changed)
        handler.close()
    try:
        log_path().parent.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(log_path(), maxBytes=1_000_000, backupCount=2, encoding="utf-8")
    except OSError:
        return
    handler.villa_log = True
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def run_guarded(entry: Callable[[], int]) -> int:
    """Run `entry`, turning any failure into a clear message and an exit code, never a traceback."""
    start_logging()
    try:
        return entry()
    except PlayerError as error:
        logging.getLogger("villa").warning("%s", error)
        print(f"villa-paletti: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception:  # noqa: BLE001 - the last line of defence
        logging.getLogger("villa").exception("unexpected failure")
        print(f"villa-paletti: something went wrong and the game had to stop. "
              f"The details are in {log_path()}", file=sys.stderr)
        return 1
