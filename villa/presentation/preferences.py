"""The player's settings, as the screens use them: what each may be, and a checked copy.

Where they are kept is the app's business (`villa.app.settings`); here is only what they are.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, fields, replace

log = logging.getLogger(__name__)

GRAPHICS_QUALITIES = ("low", "medium", "high")
AUTOMATIC_QUALITY = "auto"   # the game picks: Low on a software renderer (villa.presentation.quality)
LANGUAGES = ("system", "en", "de", "fr", "nl")
SENSITIVITY = (0.25, 3.0)
VOLUME = (0.0, 1.0)
COMPUTER_SPEEDS = (1.0, 2.0, 4.0)
STRENGTHS = ("easy", "medium", "hard")
MAX_NAME = 24
MAX_LESSONS = 64                       # lesson codes kept as done, at most
MAX_ADDRESS = 255                      # characters of a server's host:port
MAX_TOKEN = 64                         # characters of a seat's token (the .dc's bound)


@dataclass(frozen=True)
class KeptSeat:
    """A seat at an online table, kept to rejoin it after a dropped connection: the server (host:port), the room,
    the seat, its token, and when it was last seen (seconds since the epoch); whether its game had begun, and
    whether this window hosted it (its room is then kept in this computer's data folder, opened again here)."""

    address: str
    code: str
    seat: int
    token: str
    at: float
    started: bool = False
    hosts: bool = False

    @classmethod
    def from_json(cls, data) -> "KeptSeat":
        """ValueError for anything but the five fields of the right kinds (and the two flags, which older settings
        do not have)."""
        flags = {"started", "hosts"}
        if not isinstance(data, dict) or not {f.name for f in fields(cls)} - flags <= set(data) \
                or not set(data) <= {f.name for f in fields(cls)}:
            raise ValueError("a kept seat has an address, a room code, a seat, a token and a time")
        if any(not isinstance(data.get(flag, False), bool) for flag in flags):
            raise ValueError("a kept seat's flags are true or false")
        texts = {"address": MAX_ADDRESS, "code": 16, "token": MAX_TOKEN}
        for key, longest in texts.items():
            value = data[key]
            if not isinstance(value, str) or not 1 <= len(value) <= longest or not value.isprintable():
                raise ValueError(f"a kept seat's {key} must be printable text of at most {longest} characters")
        seat = data["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise ValueError("a kept seat's number must be 0 to 3")
        return cls(data["address"], data["code"], seat, data["token"], _number("a kept seat's time", data["at"],
                                                                             0.0, 1e12),
                   data.get("started", False), data.get("hosts", False))


@dataclass(frozen=True)
class Settings:
    graphics_quality: str = AUTOMATIC_QUALITY   # or low, medium, high (see villa.presentation.quality)
    mouse_sensitivity: float = 1.0     # camera orbit speed factor, 0.25 .. 3
    invert_camera: bool = False        # invert the vertical orbit direction
    language: str = "system"           # "system" follows the system's locale
    volume: float = 0.8                # 0 .. 1
    computer_speed: float = 1.0        # computer players' hands move this many times a person's speed
    builders_eye: bool = False         # new games show where each floor's load lies and what holds it up
    last_seats: tuple = ()             # the last new game's seats: (name, "easy" | "medium" | "hard" | None)
    lessons_done: tuple = ()           # the codes of the lessons completed (a tick on each in the list)
    kept_seat: KeptSeat | None = None  # the online seat to rejoin, while its game may still wait for it

    def validated(self) -> "Settings":
        """A copy with every number inside its range; ValueError for a value of the wrong kind (text where a
        number belongs, true for a number, not a number at all, one of no known choices)."""
        if not isinstance(self.graphics_quality, str) or self.graphics_quality not in (AUTOMATIC_QUALITY,
                                                                                       *GRAPHICS_QUALITIES):
            raise ValueError(f"graphics quality must be one of {', '.join((AUTOMATIC_QUALITY, *GRAPHICS_QUALITIES))}")
        if not isinstance(self.language, str) or self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
        if not isinstance(self.invert_camera, bool):
            raise ValueError("invert camera must be true or false")
        if not isinstance(self.builders_eye, bool):
            raise ValueError("builder's eye must be true or false")
        if self.kept_seat is not None and not isinstance(self.kept_seat, KeptSeat):
            raise ValueError("the kept online seat must be a KeptSeat")
        speed = _number("computer speed", self.computer_speed, COMPUTER_SPEEDS[0], COMPUTER_SPEEDS[-1])
        if speed not in COMPUTER_SPEEDS:
            raise ValueError(f"computer speed must be one of {', '.join(map(str, COMPUTER_SPEEDS))}")
        return replace(self, mouse_sensitivity=_number("mouse sensitivity", self.mouse_sensitivity, *SENSITIVITY),
                       volume=_number("volume", self.volume, *VOLUME), computer_speed=speed,
                       last_seats=_seats(self.last_seats), lessons_done=_codes(self.lessons_done))

    @classmethod
    def from_json(cls, data: dict) -> "Settings":
        """Settings from a plain record (keys this version does not know are left out); ValueError if bad."""
        known = {f.name for f in fields(cls)} - {"kept_seat"}
        return cls(**{k: v for k, v in data.items() if k in known}, kept_seat=_kept_seat(data)).validated()


def _kept_seat(data: dict) -> KeptSeat | None:
    """The kept online seat; a broken one is only a seat that cannot be rejoined, not broken settings."""
    if data.get("kept_seat") is None:
        return None
    try:
        return KeptSeat.from_json(data["kept_seat"])
    except (ValueError, TypeError) as error:
        log.warning("the kept online seat is ignored: %s", error)
        return None


def _number(what: str, value, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} must be a number")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number")
    return min(high, max(low, value))


def _seats(value) -> tuple:
    """The last game's seats, checked: () or 2 to 4 pairs of a printable name and a strength (or None)."""
    if not isinstance(value, (list, tuple)) or (value and not 2 <= len(value) <= 4):
        raise ValueError("the last seats must be a list of 2 to 4 seats")
    seats = []
    for seat in value:
        if not isinstance(seat, (list, tuple)) or len(seat) != 2:
            raise ValueError("a seat is a name and a strength")
        name, strength = seat
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise ValueError("a seat's name must be printable text of 1 to 24 characters")
        if strength is not None and strength not in STRENGTHS:
            raise ValueError(f"a seat's strength must be one of {', '.join(STRENGTHS)} or none")
        seats.append((name, strength))
    return tuple(seats)


def _codes(value) -> tuple:
    """The lessons done, checked: a list of short printable codes (ones this version does not know are kept,
    for the version that wrote them)."""
    if not isinstance(value, (list, tuple)) or len(value) > MAX_LESSONS:
        raise ValueError(f"the lessons done must be a list of at most {MAX_LESSONS} codes")
    for code in value:
        if not isinstance(code, str) or not 1 <= len(code) <= MAX_NAME or not code.isprintable():
            raise ValueError("a lesson's code must be printable text of 1 to 24 characters")
    return tuple(dict.fromkeys(value))
