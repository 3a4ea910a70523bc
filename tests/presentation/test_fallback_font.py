"""Names in scripts the game's font cannot draw (Chinese, Japanese) are drawn in the fallback font that every build
ships (Droid Sans Fallback, cut down to what names are written with), in the menus' fields and labels, the lobby
and the HUD; everything DejaVu draws stays DejaVu's."""

from __future__ import annotations

import pytest

from villa.presentation import assets
from villa.presentation.fonts import FALLBACK, drawable, font, font_for, text_width

pytestmark = pytest.mark.gui

NAMES = ("张伟", "王秀英", "陳志明", "山田太郎", "さくら", "ナオミ", "鈴木 一郎")


def test_every_character_of_chinese_and_japanese_names_has_a_glyph_in_the_fallback_and_none_in_dejavu(stage):
    fallback = font("fallback")
    assert fallback is not None and assets.font_file("fallback").suffix == ".woff"
    for name in NAMES:
        for ch in name.replace(" ", ""):
            assert type(fallback.getGlyph(ord(ch))).__name__ == "DynamicTextGlyph", ch
            assert type(font().getGlyph(ord(ch))).__name__ != "DynamicTextGlyph", ch
        letters = name.replace(" ", "")
        assert abs(text_width(drawable(letters), font()) - len(letters)) < 0.05, \
            "laid out in the fallback: each character a full em, not an empty box"


def test_what_dejavu_draws_is_left_as_it_is_and_only_the_rest_is_set_in_the_fallback(stage):
    for text in ("Anna", "Zoë Ångström", "Ђорђе Παύλος", "\1blue\1Anna\2: ★ seal"):
        assert drawable(text) == text
        assert font_for(text) is font()
    assert drawable("张伟 and Anna") == f"\1{FALLBACK}\1张伟\2 and Anna"
    assert drawable("Waiting for 山田太郎 to come back", "bold") == \
        f"Waiting for \1{FALLBACK}\1山田太郎\2 to come back"
    assert font_for("山田太郎") is font("fallback") and font_for("Anna") is font()
    assert font_for("山田太 Ta") is font("fallback") and font_for("Annabelle 山") is font(), \
        "a field draws in one font: the one that draws more of it"


def test_a_chinese_name_typed_in_the_join_form_and_shown_in_the_lobby_is_drawn(stage, frames, snapshot):
    from types import SimpleNamespace

    from villa.presentation.menus.lobby import LobbyScreen
    from villa.presentation.menus.online import JoinScreen
    form = JoinScreen(address="127.0.0.1:47170", name="", on_join=lambda *_: None, on_back=lambda: None)
    form.show()
    entry = form.widgets["name"]
    entry.enterText("张伟")
    entry["command"](entry.get())          # as a key typed does (the field's own callback)
    assert _font_of(entry).this == font("fallback").this
    frames(2)
    snapshot("join-form-chinese-name")
    entry.enterText("Anna")
    entry["command"](entry.get())
    assert _font_of(entry).this == font().this
    form.destroy()

    player = SimpleNamespace(code="K7QXM", seats={1: "t"}, table={"seats": [
        {"name": "山田太郎", "computer": None, "taken": True, "here": True},
        {"name": "张伟", "computer": None, "taken": True, "here": True}], "started": False, "host": 0, "clock": 0})
    lobby = LobbyScreen(player=player, sharing=lambda: None, on_sit=None, on_computer=None, on_start=None,
                        on_rules=None, on_leave=None)
    lobby.show()
    frames(2)
    texts = [w["text"] for w in _labels(lobby)]
    assert f"\1{FALLBACK}\1山田太郎\2" in texts and any(t.startswith(f"\1{FALLBACK}\1张伟\2") for t in texts)
    snapshot("lobby-chinese-and-japanese-names")
    lobby.destroy()


def _labels(screen):
    from direct.gui.DirectGuiBase import DirectGuiWidget
    found = []
    for node in screen.root.findAllMatches("**"):
        widget = DirectGuiWidget.guiDict.get(node.getName().split("-")[-1])
        if widget is not None and isinstance(widget["text"], str):
            found.append(widget)
    return found


def _font_of(entry):
    """The font a text field draws in now."""
    return entry.component("text").textNode.getFont()


def test_words_set_on_a_screen_later_are_drawn_in_the_fallback_too(stage, frames):
    """A notice or a prompt set after the screen is built (the host's name in it) is set in the fallback as well."""
    from villa.presentation.menus import MainMenu
    menu = MainMenu(can_continue=False, on_new_game=None, on_online=None, on_continue=None, on_learn=None,
                    on_rules=None, on_settings=None, on_how_to_play=None, on_quit=None)
    menu.tell("安娜's window, which hosted this game, has closed.")
    assert menu.widgets["notice"]["text"] == f"\1{FALLBACK}\1安娜\2's window, which hosted this game, has closed."
    menu.destroy()
