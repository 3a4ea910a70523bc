"""Where the game keeps its files, and how it writes them without ever losing one.

Settings live in the user's config folder, saves and the log in the user's data
folder (platformdirs picks the right place on each system). `VILLA_HOME`, when
set, puts both under one folder instead: the tests use it to stay out of the
real user folders.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import platformdirs

APP_NAME = "villa-paletti"


def shown_path(path: Path | str) -> str:
    """A path as a message prints it: on one line, a newline or another control character in it written
    as its escape (a name the file system could not decode, too)."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(path))


def config_dir() -> Path:
    home = os.environ.get("VILLA_HOME")
    return Path(home) / "config" if home else Path(platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    home = os.environ.get("VILLA_HOME")
    return Path(home) / "data" if home else Path(platformdirs.user_data_dir(APP_NAME))


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that at any moment the file is either the old or the new one.

    The text goes to a temporary file in the same folder, is flushed to disk, and
    then renamed over the target (a rename within one folder is atomic).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


STALE_AFTER_S = 60.0     # a temporary file this old was left by a write that never finished


def clean_stale_files() -> None:
    """Remove the temporary files that writes cut short by a crash left in the data and config folders."""
    now = time.time()
    for folder in (data_dir(), data_dir() / "replays", config_dir()):
        try:
            leftovers = list(folder.glob(".*.tmp"))
        except OSError:
            continue
        for path in leftovers:
            try:
                if now - path.stat().st_mtime > STALE_AFTER_S:
                    path.unlink()
            except OSError:
                continue
