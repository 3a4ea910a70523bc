"""Invites opened by a click: the villa-paletti:// scheme registered with the desktop, so that a link in a chat
starts the game in the room it names (`villa-paletti INVITE`).

- Linux: the desktop entry says `MimeType=x-scheme-handler/villa-paletti;`, and `add-to-menu.sh` (in the
  game's folder; `scripts/play.sh --add-to-menu` for a checkout) makes it the scheme's handler (`xdg-mime`).
- macOS: the app's Info.plist declares the scheme (`CFBundleURLTypes`, written by `scripts/release.py`), and the
  running game answers the "get URL" Apple Event a click sends it (`villa.app.mac_links`).
- Windows: here, when the player asks for it in Settings: keys under the user's own
  HKEY_CURRENT_USER\\Software\\Classes\\villa-paletti (no administrator), removed again when asked.
"""

from __future__ import annotations

import sys
from pathlib import Path

from villa.online.invite import SCHEME

try:
    import winreg
except ImportError:      # not Windows
    winreg = None

CLASSES = rf"Software\Classes\{SCHEME}"
COMMAND = rf"{CLASSES}\shell\open\command"
ICON = rf"{CLASSES}\DefaultIcon"


def on_windows() -> bool:
    return sys.platform == "win32"


def program() -> list[str]:
    """What starts this game: the built game's own program, or a checkout's Python (without a console) on it."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    python = Path(sys.executable)
    windowless = python.with_name("pythonw.exe")
    return [str(windowless if windowless.exists() else python), "-m", "villa"]


def command_line(command: list[str]) -> str:
    """The registry's command: each part in quotes, the invite last ("%1")."""
    return " ".join(f'"{part}"' for part in [*command, "%1"])


def registered(registry=None, command: list[str] | None = None) -> bool:
    """Do links of the scheme open this game now (for this user)?"""
    registry = registry or winreg
    try:
        with registry.OpenKey(registry.HKEY_CURRENT_USER, COMMAND) as key:
            value, _kind = registry.QueryValueEx(key, "")
    except OSError:
        return False
    return value == command_line(command or program())


def register(registry=None, command: list[str] | None = None) -> None:
    """Links of the scheme open this game, for this user."""
    registry = registry or winreg
    command = command or program()
    for path, values in ((CLASSES, {"": "URL:Villa Paletti invite", "URL Protocol": ""}),
                         (ICON, {"": f"{command[0]},0"}), (COMMAND, {"": command_line(command)})):
        with registry.CreateKeyEx(registry.HKEY_CURRENT_USER, path, 0, registry.KEY_WRITE) as key:
            for name, value in values.items():
                registry.SetValueEx(key, name, 0, registry.REG_SZ, value)


def unregister(registry=None) -> None:
    """Links of the scheme no longer open this game (the keys go, deepest first)."""
    registry = registry or winreg
    for path in (COMMAND, rf"{CLASSES}\shell\open", rf"{CLASSES}\shell", ICON, CLASSES):
        try:
            registry.DeleteKey(registry.HKEY_CURRENT_USER, path)
        except FileNotFoundError:
            pass


def choose(wanted: bool, registry=None) -> bool:
    """Settings' choice: register or unregister; whether links open this game afterwards."""
    try:
        register(registry) if wanted else unregister(registry)
    except OSError:
        pass
    return registered(registry)
