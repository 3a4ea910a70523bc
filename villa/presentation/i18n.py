"""Languages: every word a player reads goes through `_` (gettext).

    from villa.presentation import i18n
    from villa.presentation.i18n import _
    i18n.install("system")      # or "en", "de", "fr", "nl"; returns the language in use
    label = _("New game")

English is the source language: an English string is its own translation. The catalogs
live in villa/locale/<lang>/LC_MESSAGES/villa.po (compiled to villa.mo by
scripts/compile_translations.py). `_` looks the current language up at every call, so a
text built after `install` is in the new language; screens rebuild themselves when
`generation()` changes (see villa.presentation.menus.base.Screen).

No Panda3D here: this module is usable anywhere.
"""

from __future__ import annotations

import gettext
import locale
import logging
import os
from typing import Callable

from villa.presentation import assets

log = logging.getLogger(__name__)

DOMAIN = "villa"
LOCALE_DIR = assets.LOCALE
SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "de", "fr", "nl")
# Each language named in itself, as a language menu shows it (never translated).
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "nl": "Nederlands"}

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_generation = 0
_listeners: list[Callable[[str], None]] = []


def system_language(environ: dict[str, str] | None = None) -> str:
    """The system's language, when it is one of ours; English otherwise.

    Reads LANGUAGE (a colon-separated preference list), LC_ALL, LC_MESSAGES and LANG the way
    gettext does, then the locale module's default.
    """
    env = os.environ if environ is None else environ
    candidates: list[str] = []
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            candidates.extend(value.split(":"))
            if name != "LANGUAGE":
                break
    if environ is None:
        try:
            code = locale.getlocale()[0]
        except ValueError:
            code = None
        if code:
            candidates.append(code)
    for candidate in candidates:
        code = candidate.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
        if code in ("c", "posix", ""):
            continue
        if code in LANGUAGES:
            return code
    return SOURCE_LANGUAGE


def resolve(code: str | None) -> str:
    """The language a setting means: 'system' (or None) follows the system; unknown codes fall back to English."""
    if not code or code == "system":
        return system_language()
    code = code.replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else SOURCE_LANGUAGE


def install(code: str | None = "system") -> str:
    """Switch every later `_` call to the language `code` means; returns the language in use.

    A missing or broken catalog is never fatal: the game then speaks English (logged once).
    """
    global _translation, _language, _generation
    language = resolve(code)
    translation: gettext.NullTranslations = gettext.NullTranslations()
    if language != SOURCE_LANGUAGE:
        try:
            translation = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[language])
        except (OSError, ValueError) as error:  # FileNotFoundError, or a damaged .mo
            log.warning("no usable %s catalog (%s); using English", language, error)
            language = SOURCE_LANGUAGE
    _translation, _language = translation, language
    _generation += 1
    for listener in list(_listeners):
        listener(language)
    return language


def _(message: str) -> str:
    """The current language's translation of an English message."""
    return _translation.gettext(message)


def N_(message: str) -> str:
    """Mark a message for translation without translating it yet (tables built at import time)."""
    return message


def language() -> str:
    """The language in use now ('en', 'de', 'fr' or 'nl')."""
    return _language


def generation() -> int:
    """Grows by one at every `install`: a screen built under an older generation is in an old language."""
    return _generation


def on_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call `listener(language)` after every `install`; returns a function that stops it."""
    _listeners.append(listener)

    def stop() -> None:
        if listener in _listeners:
            _listeners.remove(listener)
    return stop
