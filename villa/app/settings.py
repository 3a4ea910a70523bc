"""Player settings, kept between runs in the user's config folder.

A broken settings file is never fatal and never lost: it is set aside (settings.json.broken),
the defaults are used, and the player is told (once: the file set aside is not read again).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from pathlib import Path
from typing import Callable

from villa.app.storage import config_dir, write_atomically
from villa.presentation.preferences import Settings

log = logging.getLogger(__name__)

SETTINGS_VERSION = 1
MAX_BYTES = 64 * 1024

Trouble = Callable[[Path, Path | None], None]   # (the file, where it was set aside, or None if it could not be)


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings(path: Path | None = None, on_trouble: Trouble | None = None) -> Settings:
    """The kept settings, or the defaults when there are none or the file is broken (`on_trouble` is told)."""
    path = path or settings_path()
    try:
        if not path.is_file():
            return Settings()
        if path.stat().st_size > MAX_BYTES:
            raise ValueError("the file is far too large for settings")
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("version") != SETTINGS_VERSION:
            raise ValueError(f"unknown settings version {data.get('version') if isinstance(data, dict) else None!r}")
        return Settings.from_json(data)
    except (OSError, ValueError, TypeError, RecursionError) as error:
        aside: Path | None = path.with_name(path.name + ".broken")
        try:
            path.replace(aside)
        except OSError:
            aside = None
        log.warning("settings file %s is unreadable (%s); kept as %s, using defaults", path, error, aside)
        if on_trouble is not None:
            on_trouble(path, aside)
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> None:
    data = {"version": SETTINGS_VERSION, **asdict(settings.validated())}
    write_atomically(path or settings_path(), json.dumps(data, indent=2) + "\n")
