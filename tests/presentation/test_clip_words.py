"""The clip's caption: who pulled which column from under which floor, and the game's date, in the player's
language."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from villa.presentation import i18n
from villa.presentation import words
from tests.match.falls import pulled_through


@pytest.fixture(scope="module")
def fallen():
    return pulled_through(players=("Mira", "Emil", "Jo"))


@pytest.fixture
def english():
    i18n.install("en")
    yield
    i18n.install("en")


def test_the_caption_names_the_player_who_pulled_and_the_column_and_floor(fallen, english):
    match, column, player = fallen
    said = words.clip_caption(match.record, match.motion)
    assert said.startswith(match.state.players[player] + " pulled ")
    assert words.column_words(column) in said and "from under the blue floor" in said and "fell" in said
    others = [name for n, name in enumerate(match.state.players) if n != player]
    assert not any(name in said for name in others)


def test_the_caption_and_the_date_are_translated(fallen):
    match, column, player = fallen
    try:
        i18n.install("de")
        said = words.clip_caption(match.record, match.motion)
        date = words.clip_date(datetime(2026, 12, 1, 21, 43, tzinfo=timezone.utc))
    finally:
        i18n.install("en")
    assert said.startswith(match.state.players[player]) and "pulled" not in said and "blau" in said.lower()
    assert "Dezember" in date and "2026" in date


def test_the_date_is_the_day_of_the_game(english):
    assert words.clip_date(datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)) == "1 December 2026"
