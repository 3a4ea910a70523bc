import json
from pathlib import Path

import pytest

from villa.app.settings import load_settings, save_settings, settings_path
from villa.presentation.preferences import Settings


@pytest.fixture(autouse=True)
def villa_home(tmp_path, monkeypatch):
    monkeypatch.setenv("VILLA_HOME", str(tmp_path))
    return tmp_path


def test_defaults_when_nothing_saved():
    assert load_settings() == Settings()


def test_settings_persist_between_runs():
    chosen = Settings(graphics_quality="high", mouse_sensitivity=1.5, invert_camera=True, language="de", volume=0.3,
                      builders_eye=True)
    save_settings(chosen)
    assert load_settings() == chosen
    assert json.loads(settings_path().read_text())["version"] == 1


def test_the_builders_eye_is_off_unless_chosen_and_a_wrong_value_is_refused():
    assert not Settings().builders_eye
    with pytest.raises(ValueError, match="builder's eye"):
        Settings(builders_eye="on").validated()


def test_out_of_range_values_are_clamped():
    save_settings(Settings(mouse_sensitivity=10, volume=-1))
    loaded = load_settings()
    assert loaded.mouse_sensitivity == 3.0 and loaded.volume == 0.0


@pytest.mark.parametrize("content", [
    "{not json", '{"version": 99}', '{"version": 1, "language": "klingon"}', "[]",
    '{"version": 1, "volume": NaN}', '{"version": 1, "volume": 1e400}', '{"version": 1, "volume": true}',
    '{"version": 1, "mouse_sensitivity": "fast"}', '{"version": 1, "invert_camera": 1}',
    '{"version": 1, "graphics_quality": ["high"]}', "[" * 100000 + "]" * 100000,
])
def test_a_broken_file_is_kept_aside_the_player_told_and_defaults_used(content):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(content)
    told = []
    assert load_settings(on_trouble=lambda path, aside: told.append((path, aside))) == Settings()
    aside = settings_path().with_name("settings.json.broken")
    assert aside.read_text() == content
    assert told == [(settings_path(), aside)]
    assert load_settings(on_trouble=told.append) == Settings() and len(told) == 1, "told once"


def test_a_broken_file_in_a_folder_that_cannot_be_written_is_told_and_the_game_starts(monkeypatch):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text("{broken")

    def refuse(self, target):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "replace", refuse)
    told = []
    assert load_settings(on_trouble=lambda path, aside: told.append(aside)) == Settings()
    assert told == [None] and settings_path().read_text() == "{broken"


def test_the_lessons_done_are_kept_and_an_older_settings_file_loads_with_none_done():
    save_settings(Settings(lessons_done=("first-pull", "seal", "first-pull")))
    assert load_settings().lessons_done == ("first-pull", "seal")
    older = {"version": 1, "graphics_quality": "low", "mouse_sensitivity": 1.0, "invert_camera": False,
             "language": "en", "volume": 0.5, "computer_speed": 1.0, "last_seats": []}
    settings_path().write_text(json.dumps(older))
    loaded = load_settings()
    assert loaded.lessons_done == () and loaded.graphics_quality == "low"


@pytest.mark.parametrize("done", ["first-pull", [3], ["x" * 200], ["a"] * 100])
def test_lessons_done_of_the_wrong_kind_set_the_file_aside(done):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"version": 1, "lessons_done": done}))
    troubles = []
    assert load_settings(on_trouble=lambda path, aside: troubles.append(aside)) == Settings()
    assert troubles and troubles[0].is_file()


def test_an_online_seat_is_kept_between_runs():
    from villa.presentation.preferences import KeptSeat
    kept = KeptSeat("127.0.0.1:47170", "ABCDE", 1, "t0ken", 1_800_000_000.0)
    save_settings(Settings(volume=0.5, kept_seat=kept))
    assert load_settings() == Settings(volume=0.5, kept_seat=kept)


@pytest.mark.parametrize("entry", [
    "ABCDE", [], {"address": "x:1"}, {"address": "x:1", "code": "ABCDE", "seat": 7, "token": "t", "at": 1.0},
    {"address": "x:1", "code": "ABCDE", "seat": 1, "token": "t", "at": "yesterday"},
    {"address": "x:1", "code": "ABCDE", "seat": True, "token": "t", "at": 1.0},
    {"address": "x:1", "code": "", "seat": 1, "token": "t", "at": 1.0},
    {"address": "x:1", "code": "ABCDE", "seat": 1, "token": "t\\n", "at": 1.0, "more": 1},
])
def test_a_broken_kept_seat_is_ignored_with_a_log_line_and_the_rest_kept(entry, caplog):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"version": 1, "volume": 0.25, "kept_seat": entry}))
    told = []
    assert load_settings(on_trouble=lambda *args: told.append(args)) == Settings(volume=0.25)
    assert not told and settings_path().exists(), "the file is not set aside for it"
    assert "kept online seat is ignored" in caplog.text
