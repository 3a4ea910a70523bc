"""A new game's villa is settled once per layout: every next game on it starts from the very same villa."""

from __future__ import annotations

from villa.match import Match, MatchSetup, Seat, layout_named
from villa.match import building
from villa.physics.dimensions import ColumnSpot, FloorSpot, Layout
from villa.physics.world import Villa


def _setup(layout) -> MatchSetup:
    return MatchSetup((Seat("Anna"), Seat("Ben")), layout, seed=3)


def test_a_match_starts_on_the_villa_its_layout_settles_to_in_every_bit():
    layout = layout_named("random", 811)
    settled_here = Villa.from_layout(layout, validate=False, setup=True)
    assert settled_here.run_until_settled(building.BUILD_SETTLE_S)
    assert Match(_setup(layout)).villa.snapshot() == settled_here.snapshot()


def test_the_next_game_on_a_layout_is_restored_not_settled_again(monkeypatch):
    layout = layout_named("random", 812)
    first = Match(_setup(layout))
    assert building.known(layout, True) == first.turns[0].villa

    def settled_again(*_):
        raise AssertionError("the layout was settled again")

    monkeypatch.setattr(building, "_built", settled_again)
    again = Match(_setup(layout))
    assert again.villa.snapshot() == first.villa.snapshot()
    assert again.villa is not first.villa    # a villa of its own: one game's pulls move nothing of the other's


def test_a_villa_settled_elsewhere_and_remembered_is_the_one_the_next_game_starts_on():
    layout = layout_named("random", 813)
    snapshot = building.settle(layout, True)     # as a server's mason does, off its frame loop
    building.remember(layout, True, snapshot)
    assert Match(_setup(layout)).turns[0].villa == snapshot


def test_a_villa_that_falls_while_it_settles_is_played_as_it_fell_and_not_kept():
    # the blue floor on one thin column at its corner: it tips over as soon as it is let go
    layout = Layout("tipping", (ColumnSpot("red-thin-1", 0, 4.0, 4.0),), (FloorSpot(1, 0.0, 0.0),))
    assert building.settle(layout, False) is None
    villa = building.settled_villa(layout, False)
    assert villa.collapse is not None
    assert building.known(layout, False) is None
