"""What the builder's eye draws, read off the physics' statics (no window): where a floor's load lies
against the outline of its supports, and which floors a pulled column would leave short of one."""

from __future__ import annotations

import dataclasses

from panda3d.core import Point3

from villa import rules
from villa.match import Match, MatchSetup, Seat
from villa.physics import loads, survey
from villa.physics.layouts import preset
from villa.presentation.builders_eye import laying_outline, villa_outlines
from villa.match import requests as rq


def _square_on_the_blue_floor() -> Match:
    """Rings, four columns built up onto the blue floor in a square (x ±4, y ±2.5)."""
    layout = preset("rings")
    middle = sorted(layout.columns, key=lambda c: abs(c.y) + abs(c.x) / 10)[:4]
    corners = iter([(-4.0, -2.5), (4.0, -2.5), (-4.0, 2.5), (4.0, 2.5)])
    columns = tuple(dataclasses.replace(c, level=1, **dict(zip("xy", next(corners)))) if c in middle else c
                    for c in layout.columns)
    return Match(MatchSetup((Seat("Anna"), Seat("Ben")), dataclasses.replace(layout, columns=columns), seed=4,
                            deal_colours=True, builders_eye=True))


def test_the_blue_floors_load_lies_inside_its_supports_and_a_pulled_column_shows_only_the_floor_it_carries():
    match = _square_on_the_blue_floor()
    villa = match.villa
    resting = loads.resting(villa)
    [blue] = villa_outlines(villa, resting)
    assert blue.floor == "floor-1" and blue.stands and len(blue.hull) >= 3
    carrying = next(c for c in sorted(villa.columns) if survey.carries(villa, c, 1))
    [without] = villa_outlines(villa, resting, pulled=carrying)
    top = next(s for s in resting.supports["floor-1"] if s.column == carrying)
    assert (top.x, top.y) not in without.hull, "the floor it carries is drawn over its other supports"
    on_top = next(c for c in sorted(villa.columns) if survey.standing(villa, c).level == 1)
    assert villa_outlines(villa, resting, pulled=on_top) == [], "a column on the top floor carries no floor"


def test_a_floor_carried_past_its_columns_is_drawn_tipping_and_over_their_middle_standing():
    match = _square_on_the_blue_floor()
    assert rq.ask(match, rq.Propose).accepted and rq.ask(match, lambda s: rq.Answer(s, False)).accepted
    assert rq.ask(match, rq.LayFloor).accepted
    lay = match.hand
    for x, stands in ((-8.0, False), (0.0, True)):
        rq.ask(match, lambda s: rq.Aim(s, tuple(Point3(x, 0, 0))))
        for _ in range(60):
            match.frame()
        shown = laying_outline(match.villa, lay)
        assert shown.stands is stands and abs(shown.x - x) < 0.1, (x, shown)
