"""Player settings, kept between runs in the user's config folder."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from villa.app.storage import config_dir, write_atomically

log = logging.getLogger(__name__)

GRAPHICS_QUALITIES = ("low", "medium", "high")
AUTOMATIC_QUALITY = "auto"   # the game picks: Low on a software renderer (villa.presentation.quality)
LANGUAGES = ("system", "en", "de", "fr", "nl")
SETTINGS_VERSION = 1


@dataclass(frozen=True)
class Settings:
    graphics_quality: str = AUTOMATIC_QUALITY   # or low, medium, high (see villa.presentation.quality)
    mouse_sensitivity: float = 1.0     # camera orbit speed factor, 0.25 .. 3
    invert_camera: bool = False        # invert the vertical orbit direction
    language: str = "system"           # "system" follows the system's locale
    volume: float = 0.8                # 0 .. 1

    def validated(self) -> "Settings":
        """A copy with every value inside its range; raises ValueError on a wrong kind of value."""
        if self.graphics_quality not in (AUTOMATIC_QUALITY, *GRAPHICS_QUALITIES):
            raise ValueError(f"graphics quality must be one of {', '.join((AUTOMATIC_QUALITY, *GRAPHICS_QUALITIES))}")
        if self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
        if not isinstance(self.invert_camera, bool):
            raise ValueError("invert camera must be true or false")
        return replace(
            self,
            mouse_sensitivity=min(3.0, max(0.25, float(self.mouse_sensitivity))),
            volume=min(1.0, max(0.0, float(self.volume))),
        )


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults when there are none.

    A broken settings file is never fatal and never lost: it is renamed aside
    (settings.json.broken) and the defaults are used, with a warning in the log.
    """
    path = path or settings_path()
    if not path.exists():
        return Settings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("version") != SETTINGS_VERSION:
            raise ValueError(f"unknown settings version {data.get('version') if isinstance(data, dict) else None!r}")
        known = {f.name for f in fields(Settings)}
        return Settings(**{k: v for k, v in data.items() if k in known}).validated()
    except (OSError, ValueError, TypeError) as error:
        aside = path.with_name(path.name + ".broken")
        log.warning("settings file %s is unreadable (%s); kept as %s, using defaults", path, error, aside)
        path.replace(aside)
        return Settings()


def save_settings(settings: Settings, path: Path | None = None) -> None:
    data = {"version": SETTINGS_VERSION, **asdict(settings.validated())}
    write_atomically(path or settings_path(), json.dumps(data, indent=2) + "\n")
