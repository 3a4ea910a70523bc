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
