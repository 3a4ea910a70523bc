"""What the interface asks of the rules: who moves, which columns glow, and why the others do not."""

from __future__ import annotations

from villa.physics.layouts import preset, supports
from villa.presentation.referee import COLOUR_MARKS, Referee, column_label
from villa.rules import Colour, TakeColumn


def _referee(seed=1):
    layout = preset("free corners")
    return Referee(("Anna", "Ben", "Cleo", "Dario"), frozenset(s.column for s in supports(layout, 1)), seed=seed)


def test_the_player_to_move_may_take_their_own_columns_and_is_told_why_not_the_others():
    referee = _referee()
    own = referee.colours(referee.actor)[0]
    takeable = referee.takeable()
    assert takeable and all(c.startswith(own.value) for c in takeable)
    other = next(c for c in Colour if c is not own)
    reason = referee.why_not_take(f"{other.value}-thick")
    assert reason and "not one of your columns" in reason
    assert referee.why_not_take(takeable[0]) is None


def test_a_refused_action_comes_back_in_words_and_changes_nothing():
    referee = _referee()
    state = referee.state
    other = next(c for c in Colour if c not in referee.colours(referee.actor))
    assert referee.submit(TakeColumn(f"{other.value}-hex"))
    assert referee.state is state


def test_every_colour_has_a_mark_that_the_labels_name():
    assert set(COLOUR_MARKS) == set(Colour) and len(set(COLOUR_MARKS.values())) == 4
    assert column_label("green-hex") == "green hexagonal (stripes, 2 pt)"


def test_the_status_line_names_the_player_and_the_top_floor():
    referee = _referee()
    assert referee.name(referee.actor).split(" ")[0] in referee.status()
    assert "blue floor" in referee.status()
