"""Every menu screen in a real window, clicked through with real mouse events, and photographed.

The screenshots land in $VILLA_SCREENSHOTS (default /tmp/villa-menu-screenshots).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from villa.match import Match, MatchSetup, Seat, layout_named
from villa.presentation import i18n
from villa.presentation.preferences import Settings
from villa.rules import PUBLISHER, ChooseColour, Colour, GameSetup, SealRoll, apply, legal_actions, new_game
from villa.rules.rulesets import FamilyMode, Scoring, family
from villa.rules.state import Result, Seal

from tests.presentation.menus.conftest import texts_of

pytestmark = pytest.mark.gui


def finished(players=("Anna", "Ben", "Cleo"), *, holder, shows, culprit, winner, ending="collapse"):
    state = new_game(GameSetup(PUBLISHER, players))
    state = apply(state, SealRoll(Colour.BLUE))
    state = apply(state, ChooseColour(Colour.RED))
    state = apply(state, ChooseColour(Colour.GREEN))
    return replace(state, seal=Seal(holder=holder, shows=shows, level=3),
                   result=Result(winner, "", collapsed_by=culprit, ending=ending))


def test_main_menu(stage, pointer, screenshot, screens, calls):
    from villa.presentation.menus import MainMenu
    menu = MainMenu(can_continue=False, on_new_game=calls.of("new"), on_online=calls.of("online"), on_continue=calls.of("continue"),
                    on_learn=calls.of("learn"), on_rules=calls.of("rules"), on_settings=calls.of("settings"),
                    on_how_to_play=calls.of("how"), on_quit=calls.of("quit"))
    screens.append(menu)
    assert not menu.visible
    menu.show()
    pointer.move(*pointer.pixel(menu.widgets["rules"]))  # hovering lights the button up
    screenshot("main_menu")
    pointer.click(menu.widgets["continue"])
    assert calls.log == []  # no save: Continue does nothing
    for key in ("new_game", "online", "learn", "rules", "settings", "how_to_play", "quit"):
        pointer.click(menu.widgets[key])
    assert calls.names() == ["new", "online", "learn", "rules", "settings", "how", "quit"]
    menu.set_can_continue(True)
    pointer.click(menu.widgets["continue"])
    assert calls.names()[-1] == "continue"
    menu.hide()
    assert not menu.visible and menu.root.isHidden()


def _retype(pointer, entry, text: str) -> None:
    pointer.click(entry)
    pointer.key("End", *["BackSpace"] * 16)
    pointer.type(text)


def test_new_game_publisher_with_variants(stage, pointer, screenshot, screens, calls):
    from villa.presentation.menus import GameChoices, NewGameScreen
    screen = NewGameScreen(on_start=calls.of("start"), on_back=calls.of("back"))
    screens.append(screen)
    screen.show()
    w = screen.widgets
    pointer.click(w["count"].buttons[3])
    assert w["name_rows"][3].isHidden() and not w["name_rows"][2].isHidden()
    _retype(pointer, w["names"][0], "Anna")
    _retype(pointer, w["names"][1], "Ben")
    _retype(pointer, w["names"][2], "Cleo")
    pointer.click(w["two_supports_from_orange"].button)
    pointer.click(w["floors_inside_base"].button)
    pointer.click(w["preset"].buttons["colonnade"])
    screenshot("new_game_publisher")
    pointer.click(w["start"])
    assert calls.names() == ["start"]
    choices = calls.log[0][1][0]
    assert isinstance(choices, GameChoices)
    assert choices.players == ("Anna", "Ben", "Cleo")
    assert choices.rules == PUBLISHER.with_variants(two_supports_from_orange=True, floors_inside_base=True)
    assert choices.rules.min_support(4) == 2 and choices.rules.floors_inside_base
    assert not choices.rules.proposer_moves_column
    assert (choices.layout, choices.preset, choices.seed) == ("preset", "colonnade", None)
    pointer.click(w["back"])
    assert calls.names() == ["start", "back"]


def test_the_name_fields_hold_their_caret_steady(stage, screens, calls):
    """A menu left alone is drawn once a second: a blinking caret would show or hide by chance."""
    from villa.presentation.menus import NewGameScreen
    screen = NewGameScreen(on_start=calls.of("start"), on_back=calls.of("back"))
    screens.append(screen)
    screen.show()
    assert screen.widgets["names"] and all(name.guiItem.getBlinkRate() == 0 for name in screen.widgets["names"])


def test_new_game_family_edition(stage, pointer, screenshot, screens, calls):
    from villa.presentation.menus import NewGameScreen
    screen = NewGameScreen(on_start=calls.of("start"), on_back=calls.of("back"))
    screens.append(screen)
    screen.show()
    w = screen.widgets
    pointer.click(w["count"].buttons[2])
    assert w["name_rows"][2].isHidden() and not w["name_rows"][1].isHidden()
    pointer.click(w["edition"].buttons[True])
    assert w["publisher_group"].isHidden() and not w["family_group"].isHidden()
    pointer.click(w["mode"].buttons[FamilyMode.RANDOM])
    pointer.click(w["scoring"].buttons[Scoring.TOURNAMENT])
    pointer.click(w["rounds"].plus)
    pointer.click(w["rounds"].plus)
    pointer.click(w["layout"].buttons["random"])
    assert w["preset_group"].isHidden()
    screenshot("new_game_family")
    pointer.click(w["start"])
    choices = calls.log[0][1][0]
    assert choices.players == ("Player 1", "Player 2")
    assert choices.rules == family(FamilyMode.RANDOM, Scoring.TOURNAMENT, rounds=5)
    assert choices.layout == "random" and choices.preset is None and isinstance(choices.seed, int)


def test_new_game_remembers_the_last_choices(stage, screens, calls):
    from villa.presentation.menus import GameChoices, NewGameScreen
    last = GameChoices((Seat("Anna"), Seat("Ben"), Seat("Anna")), family(FamilyMode.ASSIGNED, Scoring.BASIC, 2), "hand")
    screen = NewGameScreen(on_start=calls.of("start"), on_back=calls.of("back"), initial=last)
    screens.append(screen)
    again = screen.choices()
    assert again.players == ("Anna", "Ben", "Anna 2")  # every name distinct
    assert again.rules == last.rules and again.layout == "hand"


def test_a_seat_goes_to_a_computer_player_of_a_strength(stage, pointer, screens, calls):
    from villa.match import Strength
    from villa.presentation.menus import NewGameScreen
    screen = NewGameScreen(on_start=calls.of("start"), on_back=calls.of("back"))
    screens.append(screen)
    screen.show()
    pointer.click(screen.widgets["count"].buttons[3])
    for _ in range(3):                                  # person -> easy -> medium -> hard
        pointer.click(screen.widgets["seat_1"])
    pointer.click(screen.widgets["seat_2"])
    assert screen.widgets["seat_1"]["text"] == "Computer: hard"
    pointer.click(screen.widgets["start"])
    seats = calls.log[0][1][0].seats
    assert [s.computer for s in seats] == [None, Strength.HARD, Strength.EASY]
    assert [s.name for s in seats] == ["Player 1", "Computer (hard)", "Computer (easy)"]


def test_settings_are_reported_and_the_language_changes_at_once(stage, pointer, screenshot, screens, calls):
    from villa.presentation.menus import SettingsScreen
    screen = SettingsScreen(settings=Settings(), on_close=calls.of("close"), on_change=calls.of("change"))
    screens.append(screen)
    screen.show()
    w = screen.widgets
    pointer.click(w["graphics_quality"].buttons["high"])
    pointer.click(w["invert_camera"].button)
    pointer.click(w["builders_eye"].button)
    slider = w["volume"]
    pointer.click(slider.thumb)  # grabbing the knob and letting go changes nothing
    assert screen.settings.volume == pytest.approx(0.8)
    assert screen.settings.graphics_quality == "high" and screen.settings.invert_camera is True
    pointer.click(w["language"].buttons["de"], frames=4)
    assert i18n.language() == "de"
    reported = calls.log[-1][1][0]
    assert (reported.graphics_quality, reported.invert_camera, reported.language) == ("high", True, "de")
    assert reported.builders_eye is True
    assert calls.names().count("change") >= 4
    assert "Einstellungen" in texts_of(screen), "the settings screen did not redraw in German"
    screenshot("settings_de")
    pointer.click(screen.widgets["back"])
    assert calls.names()[-1] == "close"
    assert calls.log[-1][1][0].language == "de"


def test_settings_leave_the_graphics_to_the_game_and_say_it_picks_low_on_a_software_renderer(stage, screens,
                                                                                             calls):
    from villa.presentation import quality
    from villa.presentation.menus import SettingsScreen
    i18n.install("en")
    screen = SettingsScreen(settings=Settings(), on_close=calls.of("close"))
    screens.append(screen)
    screen.show()
    choice = screen.widgets["graphics_quality"]
    assert list(choice.buttons) == ["auto", "low", "medium", "high"] and choice.value == "auto"
    note = screen.widgets["automatic_quality"]["text"]
    assert quality.is_software(quality.renderer_of(stage)), "the suite's virtual screen draws in software"
    assert note == "Auto picks Low here: this computer draws the pictures without a graphics chip."


def test_settings_sliders(stage, pointer, frames, screens, calls):
    from villa.presentation.menus import SettingsScreen
    screen = SettingsScreen(settings=Settings(), on_close=calls.of("close"))
    screens.append(screen)
    screen.show()
    volume = screen.widgets["volume"]
    x, y = pointer.pixel(volume)
    pointer.drag(volume.thumb, (x - 400, y))  # far past the left end
    assert screen.settings.volume == 0.0 and screen.widgets["volume_value"]["text"] == "0 %"
    volume["value"] = 0.33
    screen.widgets["mouse_sensitivity"]["value"] = 2.02
    frames(2)
    assert screen.settings.volume == pytest.approx(0.35) and screen.settings.mouse_sensitivity == pytest.approx(2.0)
    assert screen.widgets["volume_value"]["text"] == "35 %"


def _colour_match(players, ruleset=PUBLISHER, seed=1):
    return Match(MatchSetup(tuple(Seat(name) for name in players), layout_named("rings"), ruleset, seed))


@pytest.mark.parametrize("players", [("Anna", "Ben", "Cleo", "Dario"), ("Anna", "Ben", "Cleo"), ("Anna", "Ben")])
def test_seal_roll_then_choices(stage, pointer, frames, screenshot, screens, calls, players):
    from panda3d.core import Vec3
    from villa.presentation.menus import SealRollScreen
    from villa.presentation.menus.seal_roll import FACE_PITCH, ROLL_SECONDS
    match = _colour_match(players)
    rolled = match.next_roll().colour
    screen = SealRollScreen(match=match, on_done=calls.of("done"))
    screens.append(screen)
    screen.show()
    frames(20)
    assert screen.rolling and screen.in_the_air.colour is rolled
    if len(players) == 3:
        screenshot("seal_rolling")
        frames(int(ROLL_SECONDS * 60) + 5)  # the whole roll, frame by frame, once
    else:
        screen.finish_roll()
    assert not screen.rolling and match.state.colours[0] == (rolled,), "the roll went to the referee"
    # the die lies with the rolled colour up
    up = {Colour.BLUE: Vec3(0, 0, 1), Colour.GREEN: Vec3(0, 1, 0), Colour.YELLOW: Vec3(0, 0, -1),
          Colour.RED: Vec3(0, -1, 0)}[rolled]
    assert screen.die.getQuat().xform(up).z == pytest.approx(1.0, abs=1e-3) and FACE_PITCH[rolled] >= 0
    assert "start" in screen.widgets and screen.widgets["start"].isHidden()
    if len(players) == 3:
        screenshot("seal_landed_choose")
    choosers = []
    while screen.chooser is not None:
        choosers.append(screen.chooser)
        offered = {a.colour for a in legal_actions(match.state) if isinstance(a, ChooseColour)}
        assert set(screen.colours_left) == offered, "the colours offered are the rules' own"
        pointer.click(screen.widgets[f"colour_{screen.colours_left[-1].value}"])
    assert screen.done and all(match.state.colours)
    assert choosers == {4: [1, 2], 3: [1, 2], 2: [1, 0]}[len(players)]
    if len(players) == 3:
        screenshot("seal_done")
        assert match.state.neutral is not None
    pointer.click(screen.widgets["start"])
    assert calls.names() == ["done"]


def test_the_last_colour_is_taken_without_a_choice_and_its_player_starts(stage, frames, screens, calls):
    from villa.presentation.menus import SealRollScreen
    match = _colour_match(("Anna", "Ben", "Cleo", "Dario"))
    screen = SealRollScreen(match=match, on_done=calls.of("done"))
    screens.append(screen)
    frames(3)
    screen.finish_roll()
    first, second = screen.colours_left[:2]
    screen.choose(first)
    screen.choose(second)
    assert screen.done, "Dario was left with the last colour"
    assert match.state.turn.player == 3 and "Dario begins." in screen.widgets["summary"]["text"]


def test_family_colours_are_chosen_without_a_roll(stage, frames, screens, calls):
    from villa.presentation.menus import SealRollScreen
    match = _colour_match(("Anna", "Ben"), family(FamilyMode.ASSIGNED, Scoring.BASIC))
    screen = SealRollScreen(match=match, on_done=calls.of("done"))
    screens.append(screen)
    screen.show()
    frames(3)
    assert not screen.rolling and screen.chooser == 0
    screen.choose(Colour.GREEN)
    screen.choose(Colour.BLUE)
    assert match.state.colours == ((Colour.GREEN,), (Colour.BLUE,)) and match.state.turn.player == 0


def test_destroyed_screens_leave_nothing_behind(stage, frames, calls):
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from villa.presentation.menus import MainMenu, NewGameScreen, SealRollScreen
    frames(1)
    before_widgets = len(DirectGuiWidget.guiDict)
    before_tasks = len(stage.task_mgr.getAllTasks())
    before_nodes = stage.aspect2d.getNumChildren()
    for _ in range(2):
        made = [MainMenu(can_continue=True, on_new_game=None, on_online=None, on_continue=None, on_learn=None, on_rules=None,
                         on_settings=None, on_how_to_play=None, on_quit=None),
                NewGameScreen(on_start=calls.of("s"), on_back=calls.of("b")),
                SealRollScreen(match=_colour_match(("A", "B")), on_done=calls.of("d"))]
        for screen in made:
            screen.show()
        frames(2)
        for screen in made:
            screen.destroy()
    frames(1)
    assert len(DirectGuiWidget.guiDict) == before_widgets
    assert len(stage.task_mgr.getAllTasks()) == before_tasks
    assert stage.aspect2d.getNumChildren() == before_nodes


def test_pause_menu(stage, pointer, screenshot, screens, calls):
    from villa.presentation.menus import PauseMenu
    screen = PauseMenu(on_resume=calls.of("resume"), on_rules=calls.of("rules"), on_settings=calls.of("settings"),
                       on_players=calls.of("players"), on_quit_to_menu=calls.of("quit"))
    screens.append(screen)
    screen.show()
    screenshot("pause")
    for key in ("rules", "settings", "players", "quit_to_menu", "resume"):
        pointer.click(screen.widgets[key])
    assert calls.names() == ["rules", "settings", "players", "quit", "resume"]


def test_seats_change_hands_in_the_middle_of_a_game(stage, pointer, screenshot, screens, calls):
    from villa.match import Strength
    from villa.presentation.menus import SeatsScreen
    seats = (Seat("Anna"), Seat("Computer (easy)", Strength.EASY), Seat("Cleo"))
    screen = SeatsScreen(seats=seats, on_done=calls.of("done"), on_back=calls.of("back"))
    screens.append(screen)
    screen.show()
    pointer.click(screen.widgets["seat_1"])               # easy -> medium
    pointer.click(screen.widgets["seat_2"])               # person -> easy
    screenshot("seats")
    pointer.click(screen.widgets["done"])
    assert calls.log[-1][1][0] == (Seat("Anna"), Seat("Computer (easy)", Strength.MEDIUM),
                                   Seat("Cleo", Strength.EASY)), "the names stay, the hands change"


@pytest.mark.parametrize("case, kwargs, headline, words", [
    ("holder_wins", dict(holder=1, shows=0, culprit=2, winner=1), "Ben is the Master Builder!",
     ["Cleo brought the villa down.", "Ben holds the Master Builder Seal and wins."]),
    ("holder_fell", dict(holder=2, shows=0, culprit=2, winner=0), "Anna is the Master Builder!",
     ["while holding the Master Builder Seal", "The seal shows Anna"]),
    ("nobody", dict(holder=None, shows=None, culprit=1, winner=None), "No Master Builder",
     ["Ben brought the villa down before anyone held the Master Builder Seal."]),
    ("stalled", dict(holder=0, shows=None, culprit=None, winner=0, ending="no more building"),
     "Anna is the Master Builder!", ["Nobody could build any further."]),
])
def test_end_screen(stage, pointer, screenshot, screens, calls, case, kwargs, headline, words):
    from villa.presentation.menus import EndScreen
    from villa.presentation.menus.end import reasons
    state = finished(**kwargs)
    screen = EndScreen(state=state, on_play_again=calls.of("again"), on_main_menu=calls.of("menu"))
    screens.append(screen)
    screen.show()
    assert screen.widgets["headline"]["text"] == headline
    said = " ".join(reasons(state))
    assert all(w in said for w in words), said
    assert [screen.widgets[f"name-{row}"]["text"] for row in range(3)] == ["Anna", "Ben", "Cleo"]
    assert [screen.widgets[f"points-{row}"]["text"] for row in range(3)] == [str(state.points(p)) for p in range(3)]
    assert [f"seal-{row}" in screen.widgets for row in range(3)] == [kwargs["holder"] == p for p in range(3)]
    if case in ("holder_wins", "holder_fell", "nobody"):
        screenshot(f"end_{case}")
    pointer.click(screen.widgets["play_again"])
    pointer.click(screen.widgets["main_menu"])
    assert calls.names() == ["again", "menu"]


def test_the_end_screen_says_the_game_was_played_with_the_builders_eye(stage, screens, calls):
    from villa.presentation.menus import EndScreen
    state = finished(holder=0, shows=0, culprit=1, winner=0)
    plain = EndScreen(state=state, on_play_again=calls.of("again"), on_main_menu=calls.of("menu"))
    eyed = EndScreen(state=state, on_play_again=calls.of("again"), on_main_menu=calls.of("menu"), builders_eye=True)
    screens.extend([plain, eyed])
    assert "builders_eye" not in plain.widgets
    assert eyed.widgets["builders_eye"]["text"] == "Played with the builder's eye"


def test_end_screen_family(stage, screenshot, screens, calls):
    from villa.presentation.menus import EndScreen
    rules = family(FamilyMode.FREESTYLE, Scoring.BASIC, rounds=3)
    state = new_game(GameSetup(rules, ("Anna", "Ben")))
    state = replace(state, scores=(1, 2), result=Result(0, "", collapsed_by=1, ending="rounds played"))
    screen = EndScreen(state=state, on_play_again=calls.of("again"), on_main_menu=calls.of("menu"))
    screens.append(screen)
    screen.show()
    assert screen.widgets["headline"]["text"] == "Anna wins!"
    assert "After 3 rounds" in screen.widgets["reason"]["text"]
    assert [(screen.widgets[f"name-{row}"]["text"], screen.widgets[f"points-{row}"]["text"]) for row in range(2)] \
        == [("Anna", "1"), ("Ben", "2")]
    screenshot("end_family")


def test_how_to_play_and_rules(stage, pointer, screenshot, screens, calls):
    from villa.presentation.menus import HowToPlayScreen, RulesSummaryScreen
    how = HowToPlayScreen(on_back=calls.of("back"))
    screens.append(how)
    how.show()
    screenshot("how_to_play")
    pointer.click(how.widgets["back"])
    how.hide()
    rules = RulesSummaryScreen(on_back=calls.of("back"), rules=PUBLISHER.with_variants(two_supports_from_orange=True))
    screens.append(rules)
    rules.show()
    texts = texts_of(rules)
    assert any("From the orange floor on, 2 are enough." in t for t in texts)
    screenshot("rules_summary")
    pointer.click(rules.widgets["back"])
    assert calls.names() == ["back", "back"]
    rules.destroy()
    fam = RulesSummaryScreen(on_back=calls.of("back"), rules=family(FamilyMode.RANDOM, Scoring.TOURNAMENT, 4))
    screens.append(fam)
    texts = texts_of(fam)
    assert any("4 rounds" in t for t in texts)


@pytest.mark.parametrize("language", ["de", "fr", "nl"])
def test_screens_in_every_language(stage, screenshot, screens, calls, language):
    """Built in each language, every screen shows translated words (and a few are photographed)."""
    from villa.presentation import menus
    i18n.install(language)
    noop = calls.of("x")
    built = [
        menus.MainMenu(can_continue=True, on_new_game=noop, on_online=noop, on_continue=noop, on_learn=noop, on_rules=noop,
                       on_settings=noop, on_how_to_play=noop, on_quit=noop),
        menus.NewGameScreen(on_start=noop, on_back=noop),
        menus.HowToPlayScreen(on_back=noop),
        menus.RulesSummaryScreen(on_back=noop),
        menus.PauseMenu(on_resume=noop, on_rules=noop, on_settings=noop, on_players=noop, on_quit_to_menu=noop),
        menus.EndScreen(state=finished(holder=2, shows=0, culprit=2, winner=0), on_play_again=noop,
                        on_main_menu=noop),
    ]
    screens.extend(built)
    expected = {"de": "Neues Spiel", "fr": "Nouvelle partie", "nl": "Nieuw spel"}[language]
    assert built[0].widgets["new_game"]["text"] == expected
    for screen in built:
        screen.show()
        if language == "de" or type(screen).__name__ in ("NewGameScreen", "RulesSummaryScreen"):
            screenshot(f"{type(screen).__name__}_{language}")
        screen.hide()


def test_the_pause_menu_online_offers_no_seats_and_says_the_game_goes_on(stage, screens, calls):
    from villa.presentation.menus import PauseMenu
    screen = PauseMenu(on_resume=calls.of("r"), on_rules=calls.of("r"), on_settings=calls.of("s"),
                       on_players=None, on_quit_to_menu=calls.of("q"), waits=False)
    screens.append(screen)
    screen.show()
    assert "players" not in screen.widgets and set(screen.widgets) >= {"resume", "rules", "settings", "quit_to_menu"}
    assert screen.widgets["subtitle"]["text"] == "The others play on meanwhile."
    assert "stand_in" not in screen.widgets, "nobody left: no seat to give"


def test_the_host_online_may_let_a_computer_play_for_who_left(stage, pointer, screens, calls):
    from villa.presentation.menus import PauseMenu
    screen = PauseMenu(on_resume=calls.of("r"), on_rules=calls.of("r"), on_settings=calls.of("s"),
                       on_players=None, on_quit_to_menu=calls.of("q"), waits=False,
                       on_stand_in=calls.of("stand in"), away="Ben")
    screens.append(screen)
    screen.show()
    assert screen.widgets["stand_in"]["text"] == "A computer plays for Ben"
    pointer.click(screen.widgets["stand_in"])
    assert calls.names() == ["stand in"]


def test_a_hidden_screen_redraws_in_the_new_language_when_shown(stage, screens, calls):
    from villa.presentation.menus import PauseMenu
    screen = PauseMenu(on_resume=calls.of("r"), on_rules=calls.of("r"), on_settings=calls.of("s"),
                       on_players=calls.of("p"), on_quit_to_menu=calls.of("q"))
    screens.append(screen)
    assert screen.widgets["resume"]["text"] == "Resume"
    i18n.install("fr")
    screen.show()
    assert screen.widgets["resume"]["text"] == "Reprendre"
    screen.destroy()
    assert screen.root is None
