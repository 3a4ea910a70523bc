"""What the clip row says before anything is drawn: online the finished game's record may not have come yet, and a
game saved before the game recorded falls has nothing to make a clip of."""

from __future__ import annotations

from dataclasses import replace

from villa.app.clipping import Clipping
from villa.presentation import i18n, words
from tests.match.falls import pulled_through


def test_a_clip_asked_for_before_the_record_came_says_so_and_one_without_motion_too():
    i18n.install("en")
    waiting = Clipping(None, lambda: None, fell=True)
    waiting.make()
    assert waiting.said == "The game's record has not come from the server yet; try again in a moment."
    assert waiting.job is None
    record = replace(pulled_through()[0].record, motion=None)
    older = Clipping(None, lambda: record, fell=True)
    older.make()
    assert older.said == words.NO_CLIP and older.job is None
