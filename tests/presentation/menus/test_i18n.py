"""Languages: every catalog loads, is complete, and compiles to the committed .mo files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from villa.presentation import i18n
from villa.presentation.i18n import _

ROOT = Path(__file__).resolve().parents[3]


def _compiler():
    spec = importlib.util.spec_from_file_location("compile_translations", ROOT / "scripts" / "compile_translations.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


compiler = _compiler()

SAMPLES = {"en": ("New game", "New game"), "de": ("New game", "Neues Spiel"), "fr": ("New game", "Nouvelle partie"),
           "nl": ("New game", "Nieuw spel")}


@pytest.mark.parametrize("language", ["en", "de", "fr", "nl"])
def test_each_language_loads(language):
    assert i18n.install(language) == language
    english, translated = SAMPLES[language]
    assert _(english) == translated
    assert i18n.language() == language


def test_the_publishers_words_in_german():
    i18n.install("de")
    assert _("The Master Builder Seal") == "Das Baumeistersiegel"
    assert "Säule" in _("Drag a glowing column") and "Plateau" in _("propose the next floor")
    assert _("{name} brought the villa down.").format(name="Rüdiger") == "Rüdiger hat die Villa zum Einsturz gebracht."


def test_unknown_languages_fall_back_to_english():
    assert i18n.install("xx") == "en"
    assert _("New game") == "New game"
    assert i18n.resolve("de_AT.UTF-8") == "de"


@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANGUAGE": "fr_BE:en", "LANG": "de_DE.UTF-8"}, "fr"),
    ({"LC_ALL": "nl_NL.UTF-8", "LANG": "fr_FR.UTF-8"}, "nl"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "en"),
    ({}, "en"),
])
def test_system_language(environ, expected):
    assert i18n.system_language(environ) == expected


def test_system_follows_the_environment(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "nl_BE.UTF-8")
    assert i18n.install("system") == "nl"
    assert _("Settings") == "Instellingen"


def test_a_change_is_announced_and_counted():
    heard = []
    stop = i18n.on_change(heard.append)
    before = i18n.generation()
    i18n.install("fr")
    stop()
    i18n.install("de")
    assert heard == ["fr"] and i18n.generation() == before + 2


def test_every_message_in_the_code_is_translated_in_every_catalog():
    """The completeness check: _("...") and N_("...") strings found with ast, against each .po and .mo."""
    assert set(compiler.catalogs()) == {"de", "fr", "nl"}
    found = compiler.extract()
    assert len(found) > 100 and "New game" in found
    assert compiler.problems() == []


def test_a_missing_translation_fails_the_check(tmp_path):
    package = tmp_path / "villa"
    package.mkdir()
    (package / "screen.py").write_text('from i18n import _\nLABEL = _("Hello")\nOTHER = _("Goodbye")\n')
    po = tmp_path / "locale" / "de" / "LC_MESSAGES" / "villa.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr "Hallo"\n',
                  encoding="utf-8")
    problems = compiler.problems(package, tmp_path / "locale")
    assert any("missing 'Goodbye'" in p for p in problems)
    assert any("stale" in p for p in problems)


def test_placeholders_must_survive_translation(tmp_path):
    package = tmp_path / "villa"
    package.mkdir()
    (package / "screen.py").write_text('_("{name} begins.")\n')
    po = tmp_path / "locale" / "fr" / "LC_MESSAGES" / "villa.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "{name} begins."\nmsgstr "{nom} commence."\n', encoding="utf-8")
    compiler.compile_all(tmp_path / "locale")
    assert any("placeholders" in p for p in compiler.problems(package, tmp_path / "locale"))


def test_po_files_read_back_as_written(tmp_path):
    entries = compiler.read_po(compiler.catalogs()["de"])
    copy = tmp_path / "villa.po"
    compiler.write_po(copy, entries)
    again = compiler.read_po(copy)
    assert [(e.msgid, e.msgstr) for e in again] == [(e.msgid, e.msgstr) for e in entries]


def test_the_compiled_catalog_is_what_gettext_reads(tmp_path):
    import gettext
    entries = [compiler.Entry("", "Content-Type: text/plain; charset=UTF-8\n"),
               compiler.Entry("Quit", "Beenden"), compiler.Entry("Two\nlines \"quoted\"", "Zwei\nZeilen „zitiert“"),
               compiler.Entry("Untranslated", "")]
    mo = tmp_path / "x.mo"
    mo.write_bytes(compiler.compile_mo(entries))
    with mo.open("rb") as stream:
        catalog = gettext.GNUTranslations(stream)
    assert catalog.gettext("Quit") == "Beenden"
    assert catalog.gettext("Two\nlines \"quoted\"") == "Zwei\nZeilen „zitiert“"
    assert catalog.gettext("Untranslated") == "Untranslated"


def test_the_script_checks_cleanly():
    assert compiler.main(["--check"]) == 0
